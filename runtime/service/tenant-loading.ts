/**
 * The tenants a request asks in, made ready before it is answered: each tenant id checked (a 400 naming the
 * field), at most `limits.maxTenants` of them, and each one's custom roles read when the engine does not keep them
 * yet — so that every answer of the request is then read at once, from one policy version. A tenant whose custom
 * roles cannot be read, or are too large to keep, refuses the request with 503.
 */
import { PermissionsError } from '../core/common/errors.js';
import { tenantIdProblem } from '../core/decision/tenant-id.js';
import { ServiceProblem } from './problem-details.js';

/** What loading tenants needs of the engine. */
export interface TenantEngine {
  loadTenant(tenant: string): Promise<void>;
}

/** A tenant a request names, and the field that names it (`checks[3].tenant`). */
export interface AskedTenant {
  readonly field: string;
  readonly tenant: string | undefined;
}

/**
 * Checks the tenants a request names and reads the custom roles of those the engine does not keep. Rejects with a
 * ServiceProblem: `invalid-request` for a tenant that is no tenant id, or more than `maxTenants` tenants;
 * `tenant-roles-unavailable` (503) when a tenant's custom roles cannot be read, or are too large to keep, whose
 * cause the engine logs.
 *
 * @example
 * ```ts
 * await loadTenants(engine, checks.map((check, i) => ({ field: `checks[${i}].tenant`, tenant: check.tenant })), limits.maxTenants);
 * const answers = answerChecks(engine, vocabulary, checks);
 * ```
 */
export async function loadTenants(engine: TenantEngine, asked: readonly AskedTenant[], maxTenants: number): Promise<void> {
  const tenants = new Set<string>();
  for (const { field, tenant } of asked) {
    if (tenant === undefined) continue;
    const problem = tenantIdProblem(tenant);
    if (problem !== undefined) throw new ServiceProblem('invalid-request', `${field} ${problem}.`);
    tenants.add(tenant);
  }
  if (tenants.size > maxTenants)
    throw new ServiceProblem(
      'invalid-request',
      `The request names ${tenants.size} tenants; one request may name at most ${maxTenants} (the limit maxTenants): split it.`,
    );
  await Promise.all([...tenants].map((tenant) => engine.loadTenant(tenant).catch((error: unknown) => refused(tenant, error))));
}

/**
 * The problem a tenant's failed load answers with. The source's own words (a host, a path) and the size of custom
 * roles too large to keep stay in the service's log: the engine says them there, once per tenant.
 */
function refused(tenant: string, error: unknown): never {
  const code = error instanceof PermissionsError ? error.code : undefined;
  if (code === 'PERMISSIONS_TENANT_ROLES_UNAVAILABLE')
    throw new ServiceProblem('tenant-roles-unavailable', `The custom roles of tenant ${JSON.stringify(tenant)} cannot be read now; try again later.`);
  // Its id was checked above: what loadTenant refuses then is custom roles larger than the engine keeps.
  if (code === 'PERMISSIONS_USAGE')
    throw new ServiceProblem(
      'tenant-roles-unavailable',
      `The custom roles of tenant ${JSON.stringify(tenant)} are too large for this service to keep; the service's log gives their size.`,
    );
  throw error;
}

/** How many times a request's tenants are loaded before its answer is given up: see {@link withTenantsLoaded}. */
export const TENANT_LOAD_ATTEMPTS = 3;

/**
 * `answer()` once every tenant `asked` names is loaded. The engine keeps a bounded number of tenants: while one of
 * a request's tenants is being read, other requests can read so many others that a tenant this request loaded
 * first is forgotten again before `answer` runs (it then throws a PermissionsUsageError: not loaded). The tenants
 * are then loaded again and `answer` asked again, up to {@link TENANT_LOAD_ATTEMPTS} times in all.
 *
 * @example
 * ```ts
 * const answers = await withTenantsLoaded(engine, asked, limits.maxTenants, () => answerChecks(engine, vocabulary, checks));
 * ```
 */
export async function withTenantsLoaded<T>(engine: TenantEngine, asked: readonly AskedTenant[], maxTenants: number, answer: () => T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await loadTenants(engine, asked, maxTenants);
    try {
      return answer();
    } catch (error) {
      const forgotten = error instanceof PermissionsError && error.code === 'PERMISSIONS_USAGE' && asked.some(({ tenant }) => tenant !== undefined);
      if (!forgotten || attempt >= TENANT_LOAD_ATTEMPTS) throw error;
    }
  }
}
