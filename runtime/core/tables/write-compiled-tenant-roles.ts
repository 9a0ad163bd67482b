/**
 * Writing a tenant's custom roles compiled (the form compiled-tenant-roles.ts reads): what a publish stores beside
 * the document. Kept apart from the reader, so that an engine — and a page deciding in the browser — never loads the
 * packing code.
 */
import type { GrantTables } from './grant-tables.js';
import { COMPILED_FORM_FORMAT, NO_CELLS, type CompiledForm } from './compiled-tenant-roles.js';
import { packedDefinitionPlaces, packedResourceCells } from './packed-tables.js';

/**
 * The compiled form of a tenant's custom roles: `tables` as the tenant roles builder made them against the policy
 * whose version is `policyVersion`.
 *
 * @example
 * ```ts
 * const compiled = compileTenantRoles(checkTenantRoles(grantTables, 'acme', document).tables, policyVersion);
 * ```
 */
export function compileTenantRoles(tables: GrantTables, policyVersion: string): string {
  const packed = packedResourceCells(tables);
  const form: CompiledForm = {
    format: COMPILED_FORM_FORMAT,
    policy: policyVersion,
    roles: tables.roles,
    plans: tables.plans,
    cells: tables.cells.length,
    definitions: tables.definitions.length,
    resources: packed.flatMap((text, resource) => (text === NO_CELLS ? [] : [[resource, text] as const])),
    places: packedDefinitionPlaces(tables.definitions),
    descriptions: JSON.stringify(tables.definitions.map(({ descr }) => descr ?? null)),
  };
  return JSON.stringify(form);
}
