/**
 * Whether the tenants' custom roles fit a policy about to become active. A tenant's roles name the policy's
 * resources, actions, attributes and ownership; a version that drops one of them leaves those roles granting
 * nothing (the engine refuses them when it reads them, and says so once). Publishing checks every tenant's active
 * document first, with the checks an engine applies when it reads one, so that nobody learns it from a tenant.
 */
import type { DefinitionProblem } from '../core/common/errors.js';
import { buildTenantRoles } from '../core/table-building/tenant-roles.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { Queryable } from './postgres-client.js';
import type { PolicyStoreNames } from './postgres-policy-store.js';
import { readActiveTenantRolesPage } from './postgres-tenant-roles-store.js';

/** Documents read per query: each holds at most 1 MiB of JSON, so a page reads at most 50 MiB. */
const PAGE_SIZE = 50;
/** Tenants whose problems are kept for the report; the rest are counted. */
export const MAX_REPORTED_UNFIT_TENANTS = 100;

/** A tenant whose active custom roles the policy would refuse, and why. */
export interface UnfitTenant {
  readonly tenant: string;
  readonly sequence: number;
  readonly problems: readonly DefinitionProblem[];
}

/** What checking every tenant found. */
export interface TenantRolesFit {
  /** Tenants with custom roles, all checked. */
  readonly checked: number;
  /** Tenants whose roles do not fit, counted in full. */
  readonly unfitCount: number;
  /** The first {@link MAX_REPORTED_UNFIT_TENANTS} of them in tenant order, with their problems. */
  readonly unfit: readonly UnfitTenant[];
}

/**
 * Checks the active custom roles of every tenant in the store `names` against `tables`, a page of documents at a
 * time (about a millisecond per tenant of twenty roles).
 *
 * @example
 * ```ts
 * const fit = await tenantRolesFit(client, names, bundle.tables);
 * if (fit.unfitCount > 0) console.error(`${fit.unfitCount} tenants' custom roles would grant nothing`);
 * ```
 */
export async function tenantRolesFit(client: Queryable, names: PolicyStoreNames, tables: GrantTables): Promise<TenantRolesFit> {
  let checked = 0;
  let unfitCount = 0;
  const unfit: UnfitTenant[] = [];
  let after: string | undefined;
  do {
    const page = await readActiveTenantRolesPage(client, names, after, PAGE_SIZE);
    for (const { tenant, sequence, document } of page.versions) {
      checked++;
      const { problems } = buildTenantRoles(tables, tenant, document, `tenant ${JSON.stringify(tenant)} #${sequence}`);
      if (problems.length === 0) continue;
      unfitCount++;
      if (unfit.length < MAX_REPORTED_UNFIT_TENANTS) unfit.push({ tenant, sequence, problems });
    }
    after = page.next;
  } while (after !== undefined);
  return { checked, unfitCount, unfit };
}

/**
 * Where the tenants' custom roles stand in the store `names`, as one text that any tenant publish or rollback
 * changes (every tenant's sequence only grows, and a new tenant adds one): compared before and after a check, it
 * says whether a tenant's roles changed meanwhile. `'none'` while the store has no tenants' tables.
 *
 * @example
 * ```ts
 * const before = await tenantRolesState(client, names); // '12:31'
 * ```
 */
export async function tenantRolesState(client: Queryable, names: PolicyStoreNames): Promise<string> {
  // The schema is a checked identifier (storeNames), quoted as every statement of the stores quotes it.
  const table = `"${names.schema}".tenant_role_current`;
  const { rows } = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [table]);
  if (rows[0]?.present !== true) return 'none';
  const state = await client.query<{ tenants: string; sequences: string }>(`SELECT count(*) AS tenants, coalesce(sum(sequence), 0) AS sequences FROM ${table}`);
  const row = state.rows[0];
  return `${row?.tenants ?? 0}:${row?.sequences ?? 0}`;
}
