/**
 * The options of `followTenantRoles`, checked with the runtime's shape checker, and their defaults.
 */
import type { PermissionsLogger } from '../core/decision/engine-settings.js';
import { thrownText } from '../core/common/thrown-text.js';
import { durationShape, functionOption, positiveCountShape } from '../core/shape/option-shapes.js';
import { object, optional, usageChecked } from '../core/shape/shape-check.js';
import { DEFAULT_MAX_TENANT_BYTES, DEFAULT_MAX_TENANTS } from './tenant-snapshots.js';

/** How custom roles of tenants are followed (see `followTenantRoles`). */
export interface TenantRolesOptions {
  /** The most tenants kept at once (default 1,000): the least recently asked is forgotten first. */
  readonly maxTenants?: number;
  /** The estimated bytes of every tenant kept (default 64 MiB), their custom roles and rows. */
  readonly maxBytes?: number;
  /** Told when watching the source runs into trouble it recovers from (default: the logger's warn). */
  readonly onError?: (error: unknown) => void;
  /**
   * How long a tenant's read may take, in ms (default 5,000): a read still running then counts as failed — the
   * questions waiting on it are refused with a PermissionsTenantRolesError, and the tenant's next question reads again.
   */
  readonly readTimeoutMs?: number;
}

/** How long a tenant's read may take by default, in ms. */
export const DEFAULT_TENANT_READ_TIMEOUT_MS = 5_000;

const WHERE = 'followTenantRoles(source, options)';

const optionsShape = object(
  {
    maxTenants: optional(positiveCountShape(`${WHERE}: maxTenants`)),
    maxBytes: optional(positiveCountShape(`${WHERE}: maxBytes`)),
    onError: functionOption(`${WHERE}: onError must be a function (error) => void.`),
    readTimeoutMs: optional(durationShape(`${WHERE}: readTimeoutMs`, 1)),
  },
  {
    notObject: `${WHERE}: options must be an object.`,
    unknownKey: (key, known) => `${WHERE}: unknown option ${JSON.stringify(key)}; the options are ${known.join(', ')}.`,
    firstUnknownOnly: true,
  },
);

/**
 * The checked options with their defaults; a PermissionsUsageError naming the first wrong option.
 *
 * @example
 * ```ts
 * checkTenantRolesOptions({ maxTenants: 500 }, console); // { maxTenants: 500, maxBytes: 67108864, readTimeoutMs: 5000, onError: … }
 * ```
 */
export function checkTenantRolesOptions(
  options: TenantRolesOptions,
  logger: PermissionsLogger,
): { readonly maxTenants: number; readonly maxBytes: number; readonly readTimeoutMs: number; readonly onError: (error: unknown) => void } {
  const checked = usageChecked(optionsShape, options);
  return {
    maxTenants: checked.maxTenants ?? DEFAULT_MAX_TENANTS,
    maxBytes: checked.maxBytes ?? DEFAULT_MAX_TENANT_BYTES,
    readTimeoutMs: checked.readTimeoutMs ?? DEFAULT_TENANT_READ_TIMEOUT_MS,
    onError:
      (checked.onError as ((error: unknown) => void) | undefined) ??
      ((error) => logger.warn(`typed-permissions: watching tenant roles failed (it goes on): ${thrownText(error)}`)),
  };
}
