/**
 * A policy bundle: compiled tables with their version, as `npx typed-permissions compile` writes them to
 * `<out>/policy.json` and the live-policy stores keep them, and the policy tests of the definitions folder
 * when it has some. The version is the SHA-256 of the tables' canonical JSON (the compiler's deterministic
 * output), so equal tables have equal versions on every machine, any change gives another, and a bundle
 * whose tables do not hash to its version is refused. The tests are not part of the version: they check a
 * policy, they are not the policy.
 */
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { PolicyTests } from '../core/policy-test/policy-test-types.js';
import { grantTablesProblem } from '../core/tables/table-shape.js';
import { policyVersionOf } from '../core/tables/policy-version.js';

/** A compiled policy and its version. */
export interface PolicyBundle {
  readonly format: 1;
  /** SHA-256 (hex) of the canonical JSON of `tables`. */
  readonly version: string;
  readonly tables: object;
  /** The policy tests of the definitions folder, normalized; a follower runs them before activating the bundle. */
  readonly tests?: PolicyTests;
}

/** The most characters of a bundle's JSON text read from a file, a URL or a store. */
export const MAX_POLICY_BUNDLE_LENGTH = 64 * 1024 * 1024;

/**
 * Why a bundle whose JSON text has `length` characters cannot be followed (every source refuses to read more than
 * `limit`), or undefined when it fits. What writes a bundle checks it, so that no follower is handed one it refuses.
 *
 * @example
 * ```ts
 * bundleLengthProblem(JSON.stringify(bundle).length); // undefined, or 'has 70202804 characters, more than the limit of 67108864 that a follower reads'
 * ```
 */
export function bundleLengthProblem(length: number, limit = MAX_POLICY_BUNDLE_LENGTH): string | undefined {
  if (length <= limit) return undefined;
  return `has ${length} characters, more than the limit of ${limit} that a follower reads`;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The bundle of compiled tables, with the policy tests it carries when given.
 *
 * @example
 * ```ts
 * writeFileSync('generated/policy.json', JSON.stringify(policyBundleOf(tables, tests)));
 * ```
 */
export function policyBundleOf(tables: object, tests?: PolicyTests): PolicyBundle {
  return tests === undefined ? { format: 1, version: policyVersionOf(tables), tables } : { format: 1, version: policyVersionOf(tables), tables, tests };
}

/**
 * Why `value` is not a policy bundle of this version of typed-permissions — its shape, its tables' shape, or
 * tables that do not hash to its version (a bundle edited or cut short) — or undefined when it is one.
 *
 * @example
 * ```ts
 * const problem = policyBundleProblem(JSON.parse(text));
 * if (problem !== undefined) reject(`policy.json ${problem}`);
 * ```
 */
export function policyBundleProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object { format, version, tables }';
  const { format, version, tables } = value as Partial<PolicyBundle>;
  if (format !== 1) return `has format ${JSON.stringify(format) ?? 'undefined'}, not 1 (compile it with this version of typed-permissions)`;
  if (typeof version !== 'string' || !SHA256_HEX.test(version)) return 'has no version (64 hexadecimal digits of SHA-256)';
  const shape = grantTablesProblem(tables);
  if (shape !== undefined) return `has tables that are not grant tables of this version of typed-permissions: ${shape}`;
  const actual = policyVersionOf(tables as GrantTables);
  if (actual !== version) return `says version ${version}, but its tables hash to ${actual} (the bundle was changed or cut short)`;
  return undefined;
}
