/**
 * What the stores of tenants' custom roles (PostgreSQL and files) share: the size limit of a document, the role
 * names it defines (what `list` shows without reading documents), the bounds of a publish's note and author, and
 * the shapes of what `list` and `show` answer. One definition, so that both stores refuse the same inputs with
 * the same words.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { loneSurrogateIn } from '../core/common/lone-surrogate.js';
import { checkTenantId } from '../core/decision/tenant-id.js';
import { MAX_TENANT_ROLES_BYTES } from '../core/tables/compiled-tenant-roles.js';

export { MAX_TENANT_ROLES_BYTES } from '../core/tables/compiled-tenant-roles.js';

/** The longest note of a publish, in characters. */
export const MAX_TENANT_ROLES_NOTE_LENGTH = 1_000;

/** The longest author of a publish, in characters. */
export const MAX_TENANT_ROLES_AUTHOR_LENGTH = 256;

/** The most tenants one page of `list` gives (and its default). */
export const MAX_TENANT_ROLES_PAGE = 1_000;
export const DEFAULT_TENANT_ROLES_PAGE = 100;

/** The most versions `show` gives, newest first. */
export const MAX_TENANT_ROLES_SHOWN_VERSIONS = 100;

/**
 * Checks a tenant's document against the base policy and returns its compiled form (`compileTenantRoles`), which
 * a store may keep beside the document; throws PermissionDefinitionError when it does not fit.
 */
export type TenantRolesCheck = (tenant: string, document: unknown) => string;

/** What a publish may say about itself. */
export interface TenantRolesPublishOptions {
  /** Who published (default: the database user, or the operating-system user for the file store). At most 256 characters. */
  readonly publishedBy?: string | undefined;
  /** Why; at most 1,000 characters. Default empty. */
  readonly note?: string | undefined;
}

/** One tenant in `list`: its active version. */
export interface TenantRolesSummary {
  readonly tenant: string;
  readonly sequence: number;
  /** ISO 8601. */
  readonly publishedAt: string;
  readonly publishedBy: string;
  readonly note: string;
  /** The role names its active document defines, sorted. */
  readonly roles: readonly string[];
}

/** One page of `list`, ordered by tenant id; `next` is the `after` of the next page, absent on the last. */
export interface TenantRolesPage {
  readonly tenants: readonly TenantRolesSummary[];
  readonly next?: string;
}

/** One version in `show`. */
export interface TenantRolesVersionEntry {
  readonly sequence: number;
  readonly publishedAt: string;
  readonly publishedBy: string;
  readonly note: string;
  readonly roles: readonly string[];
  readonly active: boolean;
}

/** A tenant's versions (newest first, at most {@link MAX_TENANT_ROLES_SHOWN_VERSIONS}) and its active document. */
export interface TenantRolesDetail {
  readonly tenant: string;
  readonly versions: readonly TenantRolesVersionEntry[];
  /** The active version's sequence and document; absent when nothing was published for the tenant. */
  readonly active?: { readonly sequence: number; readonly document: unknown };
}

/** The page options of `list`. */
export interface TenantRolesPageOptions {
  /** The tenant id the page starts after (the previous page's `next`). */
  readonly after?: string | undefined;
  /** How many tenants, 1 to 1,000. Default 100. */
  readonly limit?: number | undefined;
}

/**
 * The JSON text a document is stored as, or a PermissionsUsageError when it is not JSON data or is larger than
 * {@link MAX_TENANT_ROLES_BYTES}.
 *
 * @example
 * ```ts
 * tenantRolesText('acme', { definitions: [] }); // '{"definitions":[]}'
 * ```
 */
export function tenantRolesText(tenant: string, document: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(document);
  } catch (error) {
    throw new PermissionsUsageError(`The custom roles of tenant ${JSON.stringify(tenant)} are not JSON data (${(error as Error).message}).`);
  }
  if (typeof text !== 'string') throw new PermissionsUsageError(`The custom roles of tenant ${JSON.stringify(tenant)} are not JSON data.`);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TENANT_ROLES_BYTES)
    throw new PermissionsUsageError(
      `The custom roles of tenant ${JSON.stringify(tenant)} take ${bytes} bytes as JSON, more than the limit of ${MAX_TENANT_ROLES_BYTES}; ` +
        "split the tenant's roles or remove some.",
    );
  return text;
}

/**
 * What a store keeps of `document`: its JSON text, and the value that text reads back as, which is what must be
 * checked, compiled and named — the object given may answer differently when read again (a getter) or hold what
 * JSON leaves out (inherited properties), and what is stored is what an engine reads. A string holding U+0000 or a
 * lone surrogate is refused, as PostgreSQL's `jsonb` refuses it, so that both stores take the same documents.
 *
 * @example
 * ```ts
 * const { text, value } = storedTenantRoles('acme', { definitions: [] }); // text '{"definitions":[]}'
 * ```
 */
export function storedTenantRoles(tenant: string, document: unknown): { readonly text: string; readonly value: unknown } {
  const text = tenantRolesText(tenant, document);
  const value: unknown = JSON.parse(text);
  const problem = unstorableText(value);
  if (problem !== undefined)
    throw new PermissionsUsageError(`The custom roles of tenant ${JSON.stringify(tenant)} hold ${problem}, which is not text a store keeps; remove it.`);
  return { text, value };
}

/** U+0000 or a lone surrogate in a string or key of `value` (a JSON value: walked with a stack, at any depth), said. */
function unstorableText(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    const texts = typeof next === 'string' ? [next] : typeof next === 'object' && next !== null ? Object.keys(next) : [];
    for (const text of texts) {
      if (text.includes('\u0000')) return 'the character U+0000';
      const lone = loneSurrogateIn(text);
      if (lone !== undefined) return `a lone surrogate (${lone})`;
    }
    if (typeof next === 'object' && next !== null) stack.push(...(Object.values(next) as unknown[]));
  }
  return undefined;
}

/**
 * The role names a (checked) document defines, sorted and without duplicates; `'*'` is no name.
 *
 * @example
 * ```ts
 * roleNamesOf({ definitions: [{ roles: ['AUDITOR', 'CLERK'], resource: 'document', grant: ['read'] }] }); // ['AUDITOR', 'CLERK']
 * ```
 */
export function roleNamesOf(document: unknown): string[] {
  const names = new Set<string>();
  const definitions = (document as { definitions?: unknown } | null)?.definitions;
  if (!Array.isArray(definitions)) return [];
  for (const definition of definitions as unknown[]) {
    const roles = (definition as { roles?: unknown } | null)?.roles;
    for (const role of Array.isArray(roles) ? (roles as unknown[]) : [roles]) if (typeof role === 'string' && role !== '*') names.add(role);
  }
  return [...names].sort();
}

/**
 * The note and author of a publish, checked (strings within their limits).
 *
 * @example
 * ```ts
 * publishDetails({ note: 'auditors for the spring audit' }); // { note: 'auditors for the spring audit', publishedBy: undefined }
 * ```
 */
export function publishDetails(options: TenantRolesPublishOptions | undefined): { note: string; publishedBy: string | undefined } {
  const { note = '', publishedBy } = options ?? {};
  if (typeof note !== 'string' || note.length > MAX_TENANT_ROLES_NOTE_LENGTH)
    throw new PermissionsUsageError(`A publish's note must be a string of at most ${MAX_TENANT_ROLES_NOTE_LENGTH} characters.`);
  if (publishedBy !== undefined && (typeof publishedBy !== 'string' || publishedBy.length === 0 || publishedBy.length > MAX_TENANT_ROLES_AUTHOR_LENGTH))
    throw new PermissionsUsageError(`A publish's publishedBy must be a string of 1 to ${MAX_TENANT_ROLES_AUTHOR_LENGTH} characters.`);
  return { note, publishedBy };
}

/**
 * The page options of `list`, checked.
 *
 * @example
 * ```ts
 * pageOptions({ limit: 500 }); // { after: undefined, limit: 500 }
 * ```
 */
export function pageOptions(options: TenantRolesPageOptions | undefined): { after: string | undefined; limit: number } {
  const { after, limit = DEFAULT_TENANT_ROLES_PAGE } = options ?? {};
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_TENANT_ROLES_PAGE)
    throw new PermissionsUsageError(`A page of tenants holds 1 to ${MAX_TENANT_ROLES_PAGE} tenants, got ${String(limit)}.`);
  return { after: after === undefined ? undefined : checkTenantId(after, 'list: after'), limit };
}

/**
 * A version's sequence, checked: a positive integer.
 *
 * @example
 * ```ts
 * checkSequence(3); // 3
 * ```
 */
export function checkSequence(sequence: unknown): number {
  if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 1 || sequence > 2_147_483_647)
    throw new PermissionsUsageError(`A version's sequence is a positive integer, got ${JSON.stringify(sequence) ?? String(sequence)}.`);
  return sequence;
}
