/**
 * The two sides of `typed-permissions diff`: each a definitions folder (compiled in memory, nothing written), a
 * policy bundle file (`policy.json`), a version of the PostgreSQL policy store (`store:<sequence>`,
 * `store:active`), or a tenant's effective policy (`tenant:<id>`: the policy with the tenant's custom roles beside
 * its roles, from a folder store or the database). Whatever cannot be read is a refusal that says what and why.
 */
import { stat } from 'node:fs/promises';
import {
  checkTenantId,
  checkTenantRoles,
  fileTenantRolesAdmin,
  PermissionDefinitionError,
  PermissionsUsageError,
  policyBundleProblem,
  parseBundleText,
  postgresTenantRolesAdmin,
  readCurrentPolicy,
  readStoredVersion,
  storeNames,
  type GrantTables,
  type TenantRolesAdmin,
} from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { tenantEffectiveTables } from '../review/tenant-effective-tables.js';
import { existingFolder, UsageError } from './command-line.js';
import { withClient } from './store-client.js';
import { commandFileText } from './tenant-roles-file.js';
import { problemReport } from '../problems/problem-cap.js';

/** The most characters of a policy bundle file read for a diff (the live sources' own limit). */
export const MAX_DIFF_BUNDLE_BYTES = 64 * 1024 * 1024;

/** Where sides that name a store come from. */
export interface DiffStores {
  /** The PostgreSQL database of `store:` sides, and of `tenant:` sides without `--store`. */
  readonly databaseUrl: string | undefined;
  readonly schema: string | undefined;
  /** The folder store of `tenant:` sides. */
  readonly tenantStore: string | undefined;
  /** The bundle the custom roles of `tenant:` sides apply to (else the database's active policy). */
  readonly policy: string | undefined;
}

/**
 * The command-line options that say where store sides are read from, as `diff` and `render --before` take them
 * (`--channel` is taken as the other store commands take it, so that the same store options work; reading notifies no one).
 */
export const SIDE_STORE_OPTIONS = {
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  channel: { type: 'string' },
  store: { type: 'string' },
  policy: { type: 'string' },
} as const;

/**
 * The stores of {@link SIDE_STORE_OPTIONS}' values (the database from `DATABASE_URL` when not given); a usage error
 * naming `command` for an empty `--store`.
 *
 * @example
 * ```ts
 * const stores = sideStoresOf('diff', values);
 * ```
 */
export function sideStoresOf(command: string, values: { readonly [key in keyof typeof SIDE_STORE_OPTIONS]?: string | undefined }): DiffStores {
  if (values.store === '') throw new UsageError(`${command}: --store needs the path of a folder.`);
  return { databaseUrl: values['database-url'] ?? process.env['DATABASE_URL'], schema: values.schema, tenantStore: values.store, policy: values.policy };
}

/** A side that could not be read: the lines to print (problems at file:line:column, or one message). */
export class DiffSideError extends Error {
  constructor(readonly lines: readonly string[]) {
    super(lines.join('\n'));
  }
}

function refuse(message: string): never {
  throw new DiffSideError([`typed-permissions: ${message}`]);
}

/** The grant tables of a bundle's value from `where`, or a refusal that says what is wrong with it. */
function bundleTables(value: unknown, where: string): GrantTables {
  const problem = policyBundleProblem(value);
  if (problem !== undefined) refuse(`${where} ${problem}.`);
  return (value as { tables: GrantTables }).tables;
}

async function storeTables(side: string, which: string, stores: DiffStores): Promise<GrantTables> {
  const databaseUrl = needDatabase(side, stores);
  const names = storeNames(stores.schema === undefined ? {} : { schema: stores.schema });
  if (which === 'active') {
    const current = await withClient(databaseUrl, (client) => readCurrentPolicy(client, names));
    if (current === undefined) refuse(`${side}: the policy store ${names.schema} has no active version (nothing was published to it).`);
    return bundleTables(current.bundle, `the active version #${current.sequence} of the policy store`);
  }
  const sequence = Number(which);
  if (!/^[1-9][0-9]{0,15}$/.test(which) || !Number.isSafeInteger(sequence))
    throw new UsageError(`${side}: a store side is store:active or store:<sequence> (a positive whole number, as policy list shows it).`);
  const bundle = await withClient(databaseUrl, (client) => readStoredVersion(client, names, sequence));
  return bundleTables(bundle, `version #${sequence} of the policy store`);
}

function needDatabase(side: string, stores: DiffStores): string {
  if (stores.databaseUrl === undefined || stores.databaseUrl === '') throw new UsageError(`${side} needs --database-url <url> (or DATABASE_URL).`);
  return stores.databaseUrl;
}

async function tenantTables(side: string, given: string, stores: DiffStores): Promise<GrantTables> {
  let tenant: string;
  try {
    tenant = checkTenantId(given, `diff: ${side}`);
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw new UsageError(error.message);
    throw error;
  }
  let policy: GrantTables;
  if (stores.policy !== undefined) policy = await fileTables(stores.policy);
  else if (stores.tenantStore !== undefined)
    throw new UsageError(`${side} with --store <folder> needs --policy <policy.json>, the policy its custom roles apply to.`);
  else policy = await storeTables(side, 'active', stores);
  const admin: TenantRolesAdmin =
    stores.tenantStore !== undefined
      ? fileTenantRolesAdmin(existingFolder(side, '--store', stores.tenantStore))
      : postgresTenantRolesAdmin({ connectionString: needDatabase(side, stores), schema: stores.schema });
  let document: unknown;
  try {
    document = (await admin.show(tenant)).active?.document;
  } finally {
    await admin.close();
  }
  // A tenant without custom roles decides with the policy alone.
  if (document === undefined) return policy;
  try {
    return tenantEffectiveTables(policy, checkTenantRoles(policy, tenant, document, `tenant ${tenant}`).tables);
  } catch (error) {
    if (!(error instanceof PermissionDefinitionError)) throw error;
    refuse(`${side}: the custom roles of tenant ${JSON.stringify(tenant)} do not apply to this policy: ${error.message}`);
  }
}

/** The tables of a bundle file or a definitions folder. */
async function fileTables(path: string): Promise<GrantTables> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    refuse(
      code === 'ENOENT'
        ? `${path} does not exist: give a definitions folder, a policy.json bundle, store:<sequence>, store:active or tenant:<id>.`
        : `cannot read ${path} (${code ?? (error as Error).message}).`,
    );
  }
  if (!isFolder) return bundleTables(parseBundleText(await commandFileText(path, 'the policy bundle', MAX_DIFF_BUNDLE_BYTES), `file ${path}`), `file ${path}`);
  const model = compileModel(path);
  if (!model.ok) throw new DiffSideError([...problemReport(model, path), `typed-permissions: ${path} has problems.`]);
  return model.model.tables;
}

/**
 * The tables of one side of a diff, as given on the command line.
 *
 * @example
 * ```ts
 * const tables = await sideTables('store:active', { databaseUrl, schema: undefined, tenantStore: undefined, policy: undefined });
 * ```
 */
export async function sideTables(side: string, stores: DiffStores): Promise<GrantTables> {
  try {
    if (side.startsWith('store:')) return await storeTables(side, side.slice('store:'.length), stores);
    if (side.startsWith('tenant:')) return await tenantTables(side, side.slice('tenant:'.length), stores);
    return await fileTables(side);
  } catch (error) {
    if (error instanceof DiffSideError || error instanceof UsageError) throw error;
    if (error instanceof PermissionsUsageError) refuse(error.message.replace(/^typed-permissions: /, ''));
    // Whatever else a store or a file throws (a server that drops the connection mid-read) is a side not read, never a crash.
    refuse(`cannot read ${side}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
