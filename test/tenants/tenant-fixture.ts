/**
 * What the integrations' tenant tests share: the example policy's engine following a source of custom roles in
 * memory, where the custom role AUDITOR lists decisions in tenant acme and lists documents in tenant globex, and
 * the answers every integration must give alike.
 */
import { createPermissions } from '../../generated/permissions.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import { MAX_TENANT_ID_LENGTH } from '../../runtime/core/decision/tenant-id.js';
import type { TenantRolesSource } from '../../runtime/live/tenant-roles-source.js';
// The module the engine imports on its first tenant, loaded here first: jest's ESM loader fails ("request for …
// is not in cache") when concurrent dynamic imports share a module it has not linked yet.
import '../../runtime/permissions/tenant-following.js';

/** The header the tests' applications read the tenant from. */
export const TENANT_HEADER = 'x-tenant';

/** The custom roles of each tenant: AUDITOR means something else in each, and nothing in any other tenant. */
export const CUSTOM_ROLES: Readonly<Record<string, unknown>> = {
  acme: { definitions: [{ roles: ['AUDITOR'], resource: 'decision', grant: ['list:any'] }] },
  globex: { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['list:any'] }] },
};

/** A user who holds the custom role AUDITOR in the tenant asked about. */
export const AUDITOR = { id: 1, roles: ['AUDITOR'], companyId: 10, managedUserIds: [] as number[] };

/** A tenant id of the longest length accepted (no custom roles), and one a character longer. */
export const LONGEST_TENANT = 't'.repeat(MAX_TENANT_ID_LENGTH);
export const TOO_LONG_TENANT = 't'.repeat(MAX_TENANT_ID_LENGTH + 1);

/** The source of custom roles in memory: it counts reads per tenant, and fails while told to. */
export function memoryTenantRoles(documents: Readonly<Record<string, unknown>> = CUSTOM_ROLES) {
  const reads: string[] = [];
  let failing: Error | undefined;
  const source: TenantRolesSource = {
    description: 'tenant roles in memory',
    read: (tenant) => {
      reads.push(tenant);
      if (failing !== undefined) return Promise.reject(failing);
      return Promise.resolve(Object.hasOwn(documents, tenant) ? { tenant, sequence: 1, document: documents[tenant] } : undefined);
    },
  };
  return {
    source,
    reads,
    /** Makes every later read fail with `error` (undefined: read again). */
    fail(error: Error | undefined) {
      failing = error;
    },
  };
}

/**
 * The example policy's engine (what the generated `createPermissions()` returns), following the custom roles of
 * `roles` (a source in memory by default).
 *
 * @example
 * ```ts
 * const { permissions, roles } = await tenantEngine();
 * roles.fail(new Error('the store is down'));
 * ```
 */
export async function tenantEngine(roles = memoryTenantRoles()) {
  const permissions = createPermissions({
    ownershipRules: memoryOwnership({ document: [], user: [{ id: 1, companyId: 10 }] }),
    logger: { warn: () => undefined },
  });
  await permissions.followTenantRoles(roles.source);
  return { permissions, roles };
}

/** The tenant a test request names in its header; an empty header is an empty tenant (refused), no header none. */
export function tenantOfHeader(value: string | readonly string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : (value as string | undefined);
}

/** The body every integration answers for a tenant that is no tenant id, and for one whose custom roles cannot be read. */
export const TOO_LONG_ANSWER = {
  statusCode: 400,
  error: 'Bad Request',
  message: `The tenant of the request is no tenant id: it must be at most ${MAX_TENANT_ID_LENGTH} characters, got ${MAX_TENANT_ID_LENGTH + 1}.`,
} as const;
export const EMPTY_ANSWER = { statusCode: 400, error: 'Bad Request', message: 'The tenant of the request is no tenant id: it must not be empty.' } as const;
export const UNAVAILABLE_ANSWER = (tenant: string) =>
  ({
    statusCode: 503,
    error: 'Service Unavailable',
    message: `The custom roles of tenant ${JSON.stringify(tenant)} cannot be read now; try again later.`,
  }) as const;
/** The body of a refused `list` on `resource`. */
/** A refused list: the role exists (in the tenant, or in the policy) and lists nothing there, so the body says 'no-grant'. */
export const NOT_LISTED = (resource: string) =>
  ({ statusCode: 403, error: 'Forbidden', message: `list on ${resource} is not granted`, reason: 'no-grant' }) as const;
