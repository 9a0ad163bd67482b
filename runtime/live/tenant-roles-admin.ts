/**
 * The programmatic admin of tenants' custom roles, for an application's own admin screen: publish, list, show
 * and rollback on the PostgreSQL store or the file store, with the validation and errors of
 * `typed-permissions tenant`. A document is checked against the base policy before it is stored — the policy
 * given (a bundle or compiled tables), else, for the PostgreSQL store, the active version of the policy store in
 * the same schema, read at each publish so that a new base policy is checked against at once.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { checkTenantRoles, tenantRolesSource } from '../core/table-building/tenant-roles.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import { grantTablesProblem } from '../core/tables/table-shape.js';
import { compileTenantRoles } from '../core/tables/write-compiled-tenant-roles.js';
import { policyVersionOf } from '../core/tables/policy-version.js';
import { policyBundleProblem } from './policy-bundle.js';
import { loadPg, type PgPool } from './postgres-client.js';
import { readCurrentPolicy } from './postgres-policy-store.js';
import { listTenantRoles, publishTenantRoles, rollbackTenantRoles, showTenantRoles, tenantRolesStoreNames } from './postgres-tenant-roles-store.js';
import { listFileTenantRoles, publishFileTenantRoles, rollbackFileTenantRoles, showFileTenantRoles } from './file-tenant-roles-store.js';
import type { TenantRolesCheck, TenantRolesDetail, TenantRolesPage, TenantRolesPageOptions, TenantRolesPublishOptions } from './tenant-roles-document.js';

/** What a publish through the admin may say about itself. */
export interface TenantRolesAdminPublishOptions extends TenantRolesPublishOptions {
  /** Where the document was read from (a file name), which its problems name. */
  readonly source?: string | undefined;
}

/** What an admin screen does with tenants' custom roles. */
export interface TenantRolesAdmin {
  /** Checks `document` against the base policy, then stores it as `tenant`'s next version and activates it. */
  publish(tenant: string, document: unknown, options?: TenantRolesAdminPublishOptions): Promise<{ readonly sequence: number }>;
  /** One page of the tenants that have custom roles, ordered by id (`next` is the `after` of the next page). */
  list(options?: TenantRolesPageOptions): Promise<TenantRolesPage>;
  /** `tenant`'s versions, newest first, and its active document. */
  show(tenant: string): Promise<TenantRolesDetail>;
  /** Publishes the document of `tenant`'s version `sequence` again (checked again), under a new sequence. */
  rollback(tenant: string, sequence: number, options?: TenantRolesPublishOptions): Promise<{ readonly sequence: number }>;
  /** Releases the connections the admin opened (the PostgreSQL store). */
  close(): Promise<void>;
}

/** The base policy a document is checked against: a policy bundle (`generated/policy.json`) or compiled tables. */
export type TenantRolesBase = { readonly format: 1; readonly version: string; readonly tables: object } | GrantTables;

/** Checks a document against base tables and builds the tenant's (the engine's `checkTenantRoles`). */
export type TenantRolesValidation = (tables: GrantTables, tenant: string, document: unknown, source?: string) => GrantTables;

/** A base policy checked: its tables and their version. */
interface CheckedBase {
  readonly tables: GrantTables;
  readonly version: string;
}

/** The tables of `base` and their version, a bundle checked whole (its tables hash to its version). */
function tablesOf(base: unknown, what: string): CheckedBase {
  if (typeof base !== 'object' || base === null || Array.isArray(base))
    throw new PermissionsUsageError(`${what}: policy must be a policy bundle or compiled tables.`);
  if (!('tables' in base && 'version' in base)) {
    const shape = grantTablesProblem(base);
    if (shape !== undefined)
      throw new PermissionsUsageError(`${what}: policy is neither a policy bundle nor compiled tables of this version of typed-permissions: ${shape}`);
    return { tables: base as GrantTables, version: policyVersionOf(base) };
  }
  const problem = policyBundleProblem(base);
  if (problem !== undefined) throw new PermissionsUsageError(`${what}: the policy bundle ${problem}.`);
  return base as unknown as CheckedBase;
}

/**
 * The check a publish runs: `validate` against `base`, giving the compiled form of the tenant's roles that the
 * store keeps beside the document.
 */
function checkAgainst(validate: TenantRolesValidation, base: CheckedBase, source: string | undefined): TenantRolesCheck {
  return (tenant, document) => {
    const tables = validate(base.tables, tenant, document, source);
    // Problems name the file the document came from; explanations name the tenant, as when an engine builds the document.
    const named = tenantRolesSource(tenant);
    const definitions = tables.definitions.map((definition) => ({ ...definition, source: named }));
    return compileTenantRoles({ ...tables, definitions }, base.version);
  };
}

/** Options of {@link postgresTenantRolesAdmin}. */
export interface PostgresTenantRolesAdminOptions {
  /** The server, as node-postgres takes it. */
  readonly connectionString: string;
  /** The store's schema (the policy store's). Default `typed_permissions`. */
  readonly schema?: string | undefined;
  /** The channel that names the tenants whose roles changed. Default `typed_permissions_tenant_roles`. */
  readonly channel?: string | undefined;
  /** The base policy; default the active version of the policy store in `schema`. */
  readonly policy?: TenantRolesBase | undefined;
}

/** Builds the two admins over a validation; the public factories wire the engine's. */
export function postgresAdminWith(validate: TenantRolesValidation, options: PostgresTenantRolesAdminOptions): TenantRolesAdmin {
  const what = 'postgresTenantRolesAdmin()';
  if (typeof options !== 'object' || options === null || typeof options.connectionString !== 'string' || options.connectionString === '')
    throw new PermissionsUsageError(`${what}: options.connectionString must be a PostgreSQL connection string.`);
  const names = tenantRolesStoreNames(options);
  const given = options.policy === undefined ? undefined : tablesOf(options.policy, what);
  const { connectionString } = options;
  let pool: PgPool | undefined;
  const poolOf = async (): Promise<PgPool> => {
    if (pool === undefined) {
      const { Pool } = await loadPg();
      pool = new Pool({
        connectionString,
        max: 4,
        connectionTimeoutMillis: 10_000,
        query_timeout: 10_000,
        application_name: 'typed-permissions tenant roles admin',
      });
      pool.on('error', () => undefined);
    }
    return pool;
  };
  /** The check against the base, and the store's version it is when the base is the store's active one (re-checked when stored). */
  const checkOf = async (source?: string): Promise<{ check: TenantRolesCheck; checkedAgainst: string | undefined }> => {
    if (given !== undefined) return { check: checkAgainst(validate, given, source), checkedAgainst: undefined };
    const current = await readCurrentPolicy(await poolOf(), names);
    if (current === undefined)
      throw new PermissionsUsageError(
        `No policy was published to ${names.schema}, so tenants' roles cannot be checked against it: publish one first ` +
          "(`typed-permissions policy publish`), or give the base policy (`--policy <policy.json>`, or the admin's `policy` option).",
      );
    // tablesOf checked the bundle whole, its tables hashing to its version.
    const tables = tablesOf(current.bundle, what);
    return { check: checkAgainst(validate, tables, source), checkedAgainst: (current.bundle as { readonly version: string }).version };
  };
  /** A transaction needs one connection of its own, borrowed from the pool and given back. */
  const withConnection = async <T>(work: (client: Parameters<typeof publishTenantRoles>[0]) => Promise<T>): Promise<T> => {
    const client = await (await poolOf()).connect();
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      // A statement that failed or timed out may leave the connection mid-transaction: it is closed, not reused.
      client.release(true);
      throw error;
    }
    client.release();
    return result;
  };
  return {
    async publish(tenant, document, publishOptions) {
      const { check, checkedAgainst } = await checkOf(publishOptions?.source);
      return {
        sequence: await withConnection((client) => publishTenantRoles(client, names, tenant, document, check, publishOptions, checkedAgainst)),
      };
    },
    async list(page) {
      return listTenantRoles(await poolOf(), names, page);
    },
    async show(tenant) {
      return showTenantRoles(await poolOf(), names, tenant);
    },
    async rollback(tenant, sequence, publishOptions) {
      const { check, checkedAgainst } = await checkOf();
      return {
        sequence: await withConnection((client) => rollbackTenantRoles(client, names, tenant, sequence, check, publishOptions, checkedAgainst)),
      };
    },
    async close() {
      const open = pool;
      pool = undefined;
      await open?.end();
    },
  };
}

/** Options of {@link fileTenantRolesAdmin}. */
export interface FileTenantRolesAdminOptions {
  /** The base policy: a policy bundle (`generated/policy.json`) or compiled tables. Needed to publish and roll back; list and show need none. */
  readonly policy?: TenantRolesBase | undefined;
}

/** The file store's admin over a validation; the public factory wires the engine's. */
export function fileAdminWith(validate: TenantRolesValidation, folder: string, options: FileTenantRolesAdminOptions = {}): TenantRolesAdmin {
  const what = 'fileTenantRolesAdmin()';
  if (typeof folder !== 'string' || folder === '') throw new PermissionsUsageError(`${what}: folder must be the path of a folder.`);
  const policy = (options as FileTenantRolesAdminOptions | null)?.policy;
  const base = policy === undefined ? undefined : tablesOf(policy, what);
  const checkFrom = (source: string | undefined): TenantRolesCheck => {
    if (base === undefined)
      throw new PermissionsUsageError(`${what}: publishing and rolling back need the base policy the roles are checked against (options.policy).`);
    return checkAgainst(validate, base, source);
  };
  return {
    async publish(tenant, document, publishOptions) {
      return { sequence: await publishFileTenantRoles(folder, tenant, document, checkFrom(publishOptions?.source), publishOptions) };
    },
    list: (page) => listFileTenantRoles(folder, page),
    show: (tenant) => showFileTenantRoles(folder, tenant),
    async rollback(tenant, sequence, publishOptions) {
      return { sequence: await rollbackFileTenantRoles(folder, tenant, sequence, checkFrom(undefined), publishOptions) };
    },
    close: () => Promise.resolve(),
  };
}

/** The engine's check of a tenant's document against the base policy: what `tenant publish` and the engine apply. */
const engineValidation: TenantRolesValidation = (tables, tenant, document, source) => checkTenantRoles(tables, tenant, document, source).tables;

/**
 * The admin of tenants' custom roles in a PostgreSQL store, checked against the policy store's active version
 * (or `options.policy`). Close it when done: it holds a small pool of connections.
 *
 * @example
 * ```ts
 * const admin = postgresTenantRolesAdmin({ connectionString: process.env.DATABASE_URL! });
 * const { sequence } = await admin.publish('acme', { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['read'] }] }, { publishedBy: 'ana' });
 * await admin.close();
 * ```
 */
export function postgresTenantRolesAdmin(options: PostgresTenantRolesAdminOptions): TenantRolesAdmin {
  return postgresAdminWith(engineValidation, options);
}

/**
 * The admin of tenants' custom roles in the folder `folder`, checked against `options.policy`.
 *
 * @example
 * ```ts
 * const admin = fileTenantRolesAdmin('tenant-roles', { policy: JSON.parse(readFileSync('generated/policy.json', 'utf8')) });
 * const { tenants, next } = await admin.list({ limit: 100 });
 * ```
 */
export function fileTenantRolesAdmin(folder: string, options?: FileTenantRolesAdminOptions): TenantRolesAdmin {
  return fileAdminWith(engineValidation, folder, options);
}
