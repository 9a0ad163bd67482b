/**
 * Reading a tenant's custom roles as a publish compiles them (write-compiled-tenant-roles.ts): the tables the tenant
 * roles builder made from the document, packed as the generated code packs a policy's (only what is the tenant's
 * own: roles, plans, cells, definitions), with the version of the policy they were built against. Stored beside the document, they let an engine on that
 * policy take a cold tenant's roles without validating and building the document again: reading them parses one
 * short JSON text and decodes its cells. They are checked as the generated code's tables are (every index within
 * the policy's names, actions its resources declare, ownership groups that decide the resource), and their roles as
 * a tenant's (names that are not the policy's roles, each once, at most {@link MAX_TENANT_ROLES}). Made for another
 * policy version, or malformed, they are not used: the engine builds the document.
 */
import { nameProblem } from '../definition/names.js';
import type { GrantTables } from './grant-tables.js';
import { unpackCells, type PackedCellLimits } from './packed-cells.js';
import { packedCellsFit } from './packed-cells-fit.js';
import { PackedTextError } from './packed-numbers.js';
import { notGrantTablesProblem, packedTablesFrom } from './packed-tables.js';
import type { PackedTablesCheck } from './table-shape.js';
import { tenantTablesCheck } from './tenant-tables-check.js';

/** The most custom roles one tenant may define: the tenant roles builder's limit, which compiled roles are held to as well. */
export const MAX_TENANT_ROLES = 100;

/** The most bytes a tenant's custom roles may take as JSON text (UTF-8): 1 MiB, at publish and when an engine reads them. */
export const MAX_TENANT_ROLES_BYTES = 1_048_576;

/** The longest compiled form read, in UTF-16 code units: a document is at most 1 MiB, and its compiled form is smaller. */
export const MAX_COMPILED_TENANT_ROLES_LENGTH = 2 * 1024 * 1024;

/**
 * A resource's cells when it has none, as `packCells([], [])` writes them (no bodies, no cells): written out here so
 * that reading compiled roles needs none of the packing code, which a page deciding in the browser leaves out.
 */
export const NO_CELLS = '00';

/** The check of parts checked whole when they were read: decoding them again needs no second check. */
const CHECKED: PackedTablesCheck = { header: undefined, cellsProblem: () => undefined, definitionsProblem: () => undefined };

/** Where the packed cells `text` of resource `name` are wrong, as the check after decoding them says it. */
function cellsProblem(check: PackedTablesCheck, limits: PackedCellLimits, text: string, resource: number, name: string): string {
  let cells: unknown[];
  try {
    cells = unpackCells(text, resource, limits);
  } catch (error) {
    if (error instanceof PackedTextError) return `the cells of ${JSON.stringify(name)} are not packed cells: ${error.message}`;
    throw error;
  }
  return check.cellsProblem(cells, name) ?? `the cells of ${JSON.stringify(name)} hold a shape or a group that no cell uses and that is not well formed`;
}

/**
 * The format of compiled forms this version reads: 2 since cells are packed by role (a form of format 1, compiled
 * by an earlier version, is not read: the document is built instead).
 */
export const COMPILED_FORM_FORMAT = 2;

/** The compiled form, as JSON (write-compiled-tenant-roles.ts writes it). */
export interface CompiledForm {
  readonly format: typeof COMPILED_FORM_FORMAT;
  /** The version of the policy the roles were built against. */
  readonly policy: string;
  readonly roles: readonly string[];
  readonly plans: readonly unknown[];
  readonly cells: number;
  readonly definitions: number;
  /** `[resource, packed cells]` for each resource the roles have cells on, by ascending resource number. */
  readonly resources: readonly (readonly [number, string])[];
  /** Where each definition comes from, packed as the generated code packs a policy's. */
  readonly places: string;
  /** The definitions' descriptions, a JSON list. */
  readonly descriptions: string;
}

/** The parts of a tenant's tables that are its own; the rest are the policy's. */
interface TenantParts {
  readonly roles: unknown;
  readonly plans: unknown;
  readonly cells: unknown;
  readonly definitions: unknown;
}

/**
 * A tenant's tables over the policy's `base`: its own roles, plans, cells and definitions (or, packed, their counts),
 * and the policy's names, ownership groups and rules — the same objects, not copies — in the key order the tenant
 * roles builder writes (the tables' JSON is then the same whichever way they were made).
 *
 * @example
 * ```ts
 * const tables = tenantTablesOver(grantTables, { roles: ['AUDITOR'], plans: [[1, []]], cells, definitions });
 * ```
 */
export function tenantTablesOver<T extends TenantParts>(base: GrantTables, own: T): Omit<GrantTables, keyof TenantParts> & Pick<T, keyof TenantParts> {
  return {
    format: 1,
    roles: own.roles,
    resources: base.resources,
    actions: base.actions,
    plans: own.plans,
    hooks: base.hooks,
    owners: base.owners,
    ...(base.ownedAmong === undefined ? {} : { ownedAmong: base.ownedAmong }),
    ...(base.idTypes === undefined ? {} : { idTypes: base.idTypes }),
    ...(base.declaredActions === undefined ? {} : { declaredActions: base.declaredActions }),
    ...(base.attributes === undefined ? {} : { attributes: base.attributes }),
    ...(base.ownershipRules === undefined ? {} : { ownershipRules: base.ownershipRules }),
    cells: own.cells,
    definitions: own.definitions,
  };
}

/** What reading a compiled form gives: the tenant's tables, or why it cannot be used. */
export type CompiledTenantRolesRead =
  | { readonly tables: GrantTables }
  /** Compiled against another policy version: the document is built instead (not a fault). */
  | { readonly otherPolicy: string }
  /** Compiled by another version of typed-permissions, in another format: the document is built instead (not a fault). */
  | { readonly otherFormat: number }
  /** Not a compiled form this version reads, or one that does not fit the policy: the document is built instead. */
  | { readonly problem: string };

/** The roles of each policy, as a set: a tenant's compiled roles must not be among them. */
const policyRoles = new WeakMap<GrantTables, ReadonlySet<string>>();

function roleProblem(base: GrantTables, roles: unknown): string | undefined {
  if (!Array.isArray(roles)) return 'roles is not a list';
  if (roles.length > MAX_TENANT_ROLES) return `roles lists ${roles.length} roles, more than the limit of ${MAX_TENANT_ROLES}`;
  let known = policyRoles.get(base);
  if (known === undefined) policyRoles.set(base, (known = new Set(base.roles)));
  for (let i = 0; i < roles.length; i++) {
    const role: unknown = roles[i];
    if (typeof role !== 'string' || nameProblem(role) !== undefined || role === '*') return `roles[${i}] is not a role name`;
    if (known.has(role)) return `roles[${i}] is ${JSON.stringify(role)}, a role of the policy`;
    if (i > 0 && !((roles[i - 1] as string) < role)) return `roles[${i}] does not come after the role before it (sorted, each once)`;
  }
  return undefined;
}

/** The resources' packed cells, one text per resource of `base` (the empty text for those not named); a problem as a string. */
function resourceTexts(base: GrantTables, resources: unknown): string[] | string {
  if (!Array.isArray(resources)) return 'resources is not a list';
  const texts: string[] = new Array<string>(base.resources.length).fill(NO_CELLS);
  let previous = -1;
  for (let i = 0; i < resources.length; i++) {
    const entry: unknown = resources[i];
    const [resource, text] = Array.isArray(entry) && entry.length === 2 ? (entry as [unknown, unknown]) : [];
    if (!Number.isInteger(resource) || (resource as number) <= previous || (resource as number) >= base.resources.length)
      return `resources[${i}] does not name a resource of the policy after the one before it`;
    if (typeof text !== 'string') return `resources[${i}] holds no packed cells`;
    texts[resource as number] = text;
    previous = resource as number;
  }
  return texts;
}

/**
 * Reads the compiled form `text` of a tenant's custom roles for the policy `base` whose version is `baseVersion`:
 * the tenant's tables (every part checked), `otherPolicy` when they were compiled against another version of the
 * policy, `otherFormat` when by another version of typed-permissions, or the problem that makes them unusable.
 * Never throws.
 *
 * @example
 * ```ts
 * const read = readCompiledTenantRoles(grantTables, policyVersion, version.compiled);
 * if ('tables' in read) overlayTenantRoles(index, read.tables, budget);
 * ```
 */
export function readCompiledTenantRoles(base: GrantTables, baseVersion: string, text: string): CompiledTenantRolesRead {
  if (typeof text !== 'string' || text.length > MAX_COMPILED_TENANT_ROLES_LENGTH)
    return { problem: `not a text of at most ${MAX_COMPILED_TENANT_ROLES_LENGTH} characters` };
  let form: Partial<Record<keyof CompiledForm, unknown>>;
  try {
    form = JSON.parse(text) as typeof form;
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof form !== 'object' || form === null || !Number.isSafeInteger(form.format)) return { problem: `not of format ${COMPILED_FORM_FORMAT}` };
  if (form.format !== COMPILED_FORM_FORMAT) return { otherFormat: form.format as number };
  if (typeof form.policy !== 'string') return { problem: 'no policy version' };
  if (form.policy !== baseVersion) return { otherPolicy: form.policy };
  const roles = roleProblem(base, form.roles);
  if (roles !== undefined) return { problem: roles };
  const cells = resourceTexts(base, form.resources);
  if (typeof cells === 'string') return { problem: cells };
  if (typeof form.places !== 'string' || typeof form.descriptions !== 'string') return { problem: 'the definitions are not texts' };
  const header: Record<string, unknown> = tenantTablesOver(base, { roles: form.roles, plans: form.plans, cells: form.cells, definitions: form.definitions });
  const { check, bounds } = tenantTablesCheck(base, header);
  if (check.header !== undefined || bounds === undefined) return { problem: check.header ?? 'the header is malformed' };
  // A tenant's parts are few: checked whole now, a malformed form is refused at its read (the document is built
  // instead) rather than failing the decision that first decodes it.
  for (let resource = 0; resource < cells.length; resource++) {
    const text = cells[resource] as string;
    if (text === NO_CELLS || packedCellsFit(text, resource, bounds)) continue;
    return { problem: cellsProblem(check, bounds, text, resource, base.resources[resource] as string) };
  }
  // Read through tables with the check, then let go: the definitions are decoded again only by explanations.
  try {
    void packedTablesFrom(header, cells, check, form.places, form.descriptions, undefined).definitions;
  } catch (error) {
    const problem = notGrantTablesProblem(error);
    if (problem === undefined) throw error;
    return { problem };
  }
  return { tables: packedTablesFrom(header, cells, CHECKED, form.places, form.descriptions, undefined) };
}
