/**
 * The version of a policy: the SHA-256 of its tables' canonical JSON (the compiler's deterministic output), so
 * equal tables have equal versions on every machine and any change gives another.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { packedVersion } from './packed-tables.js';

/** Node's SHA-256, reached without a `node:` import (which would break browser bundles). */
function sha256Hex(text: string): string {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const crypto =
    typeof getBuiltinModule === 'function'
      ? (getBuiltinModule('node:crypto') as { createHash?: (algorithm: string) => { update(data: string): { digest(encoding: 'hex'): string } } })
      : undefined;
  if (typeof crypto?.createHash !== 'function') {
    throw new PermissionsUsageError(
      'Computing a policy version needs Node.js (SHA-256 of node:crypto). Here, load the generated code (createPermissions passes its version) ' +
        'or a policy bundle (policy.json), which carry their version.',
    );
  }
  return crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * The version of compiled tables: the SHA-256 (hex) of their canonical JSON — for the generated code's tables,
 * the one the compiler computed and packed with them (their JSON includes descriptions loaded on demand).
 *
 * @example
 * ```ts
 * policyVersionOf(grantTables); // '3f1c…' (64 hex digits)
 * ```
 */
export function policyVersionOf(tables: object): string {
  return packedVersion(tables) ?? sha256Hex(JSON.stringify(tables));
}
