/**
 * Compiling every tenant's active custom roles for a policy that just became active: an engine reads a tenant's
 * compiled roles only when they were compiled against its policy, so after a policy publish each tenant's are
 * compiled again (a page of tenants at a time, each page one update). A tenant whose document does not fit the new
 * policy keeps what it had (the engine then builds its document, which grants nothing, and says so). A tenant that
 * publishes meanwhile gets a new version with roles compiled against the policy its publish read; the update here
 * only ever touches the version it read, and only while that version still holds the document it compiled.
 */
import { buildTenantRoles } from '../core/table-building/tenant-roles.js';
import { compileTenantRoles } from '../core/tables/write-compiled-tenant-roles.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { Queryable } from './postgres-client.js';
import type { PolicyStoreNames } from './postgres-policy-store.js';
import { readActiveTenantRolesPage, storeCompiledTenantRoles } from './postgres-tenant-roles-store.js';

/** Documents read per query: each holds at most 1 MiB of JSON, so a page reads at most 50 MiB. */
const PAGE_SIZE = 50;

/**
 * Compiles the active custom roles of every tenant in the store `names` against `tables`, the policy of version
 * `version`, and stores them beside their documents. Returns how many tenants were compiled and how many did not fit.
 *
 * @example
 * ```ts
 * const { compiled, unfit } = await compileActiveTenantRoles(client, names, bundle.tables, bundle.version);
 * ```
 */
export async function compileActiveTenantRoles(
  client: Queryable,
  names: PolicyStoreNames,
  tables: GrantTables,
  version: string,
): Promise<{ readonly compiled: number; readonly unfit: number }> {
  let compiled = 0;
  let unfit = 0;
  let after: string | undefined;
  do {
    const page = await readActiveTenantRolesPage(client, names, after, PAGE_SIZE);
    const forms: { tenant: string; sequence: number; compiled: string }[] = [];
    for (const { tenant, sequence, document } of page.versions) {
      const { roles } = buildTenantRoles(tables, tenant, document);
      if (roles === undefined) unfit++;
      else forms.push({ tenant, sequence, compiled: compileTenantRoles(roles.tables, version) });
    }
    compiled += await storeCompiledTenantRoles(client, names, forms);
    after = page.next;
  } while (after !== undefined);
  return { compiled, unfit };
}
