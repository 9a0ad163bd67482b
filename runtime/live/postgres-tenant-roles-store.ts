/**
 * Tenants' custom roles in the PostgreSQL policy store's schema: every published document of every tenant
 * (`tenant_role_versions`, numbered per tenant from 1) and a pointer per tenant to its active one
 * (`tenant_role_current`). A publish inserts the tenant's next version, moves its pointer and notifies the tenant
 * channel with the tenant id, in one transaction that holds a lock of that tenant only: publishes to one tenant
 * are serialised, publishes to two tenants never wait for each other. A rollback publishes an earlier document
 * again under a new sequence, so that the log says what happened.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { checkTenantId } from '../core/decision/tenant-id.js';
import { createSchemaIfMissing, preparedQuery, type Queryable } from './postgres-client.js';
import { isMissingStore, storeNames, type PolicyStoreNames } from './postgres-policy-store.js';
import type { TenantRolesVersion } from './tenant-roles-source.js';
import {
  checkSequence,
  MAX_TENANT_ROLES_SHOWN_VERSIONS,
  pageOptions,
  publishDetails,
  roleNamesOf,
  storedTenantRoles,
  type TenantRolesCheck,
  type TenantRolesDetail,
  type TenantRolesPage,
  type TenantRolesPageOptions,
  type TenantRolesPublishOptions,
  type TenantRolesVersionEntry,
} from './tenant-roles-document.js';

/** The channel that carries the id of a tenant whose roles changed. */
export const DEFAULT_TENANT_ROLES_CHANNEL = 'typed_permissions_tenant_roles';

/**
 * The names of the tenant roles store, checked like the policy store's: its schema (default
 * `typed_permissions`, the policy store's) and its channel (default `typed_permissions_tenant_roles`).
 *
 * @example
 * ```ts
 * tenantRolesStoreNames({ schema: 'policies' }); // { schema: 'policies', channel: 'typed_permissions_tenant_roles' }
 * ```
 */
export function tenantRolesStoreNames(given: { readonly schema?: string | undefined; readonly channel?: string | undefined } = {}): PolicyStoreNames {
  return storeNames({ schema: given.schema ?? 'typed_permissions', channel: given.channel ?? DEFAULT_TENANT_ROLES_CHANNEL });
}

const q = (identifier: string): string => `"${identifier}"`;

/**
 * Creates the schema and the tenant tables when they are not there. The common case (they are) is one
 * statement and no lock; otherwise they are created in a transaction of their own, under the advisory lock the
 * policy store is created with, so that a publish never holds a lock that other tenants' publishes wait for.
 *
 * @example
 * ```ts
 * await ensureTenantRolesStore(client, tenantRolesStoreNames());
 * ```
 */
export async function ensureTenantRolesStore(client: Queryable, names: PolicyStoreNames): Promise<void> {
  const schema = q(names.schema);
  const { rows } = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [`${schema}.tenant_role_current`]);
  if (rows[0]?.present === true) return;
  await inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`typed-permissions:${names.schema}`]);
    await createSchemaIfMissing(client, schema);
    // COLLATE "C": tenants are paged in the order of their bytes, whatever the database's locale.
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.tenant_role_versions (
         tenant text COLLATE "C" NOT NULL CHECK (length(tenant) BETWEEN 1 AND 256),
         sequence integer NOT NULL CHECK (sequence > 0),
         document jsonb NOT NULL,
         roles text[] NOT NULL,
         published_at timestamptz NOT NULL DEFAULT now(),
         published_by text NOT NULL DEFAULT current_user,
         note text NOT NULL DEFAULT '',
         compiled text,
         compiled_document bytea,
         PRIMARY KEY (tenant, sequence)
       )`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.tenant_role_current (
         tenant text COLLATE "C" PRIMARY KEY,
         sequence integer NOT NULL,
         FOREIGN KEY (tenant, sequence) REFERENCES ${schema}.tenant_role_versions (tenant, sequence)
       )`,
    );
  });
}

/** Runs `work` in a transaction on `client`, a dedicated connection (committed, or rolled back on any error). */
async function inTransaction<T>(client: Queryable, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The SHA-256 of a row's document as the server writes it back (`jsonb` has one text form): the compiled form is
 * kept with the digest of the document it was compiled from, and read only while the document still has it — a
 * document changed by hand in the table is built, never answered by roles compiled from another one.
 */
const DOCUMENT_DIGEST = (document: string): string => `sha256(convert_to(${document}::text, 'UTF8'))`;

/** Inserts the tenant's next version and activates it; inside the caller's transaction, which holds the tenant's lock. */
async function insertAndActivate(
  client: Queryable,
  names: PolicyStoreNames,
  tenant: string,
  version: { readonly text: string; readonly compiled: string },
  roles: readonly string[],
  details: { note: string; publishedBy: string | undefined },
): Promise<number> {
  const schema = q(names.schema);
  const { rows } = await client.query<{ sequence: number }>(
    `INSERT INTO ${schema}.tenant_role_versions (tenant, sequence, document, roles, published_by, note, compiled, compiled_document)
       SELECT $1, coalesce(max(sequence), 0) + 1, $2::jsonb, ARRAY(SELECT jsonb_array_elements_text($3::jsonb)), coalesce($4, current_user), $5,
              $6, ${DOCUMENT_DIGEST('$2::jsonb')}
         FROM ${schema}.tenant_role_versions WHERE tenant = $1
     RETURNING sequence`,
    [tenant, version.text, JSON.stringify(roles), details.publishedBy ?? null, details.note, version.compiled],
  );
  const sequence = Number((rows[0] as { sequence: number }).sequence);
  await client.query(
    `INSERT INTO ${schema}.tenant_role_current (tenant, sequence) VALUES ($1, $2) ON CONFLICT (tenant) DO UPDATE SET sequence = EXCLUDED.sequence`,
    [tenant, sequence],
  );
  // Delivered on commit only: a watcher never reads a version that was rolled back.
  await client.query('SELECT pg_notify($1, $2)', [names.channel, tenant]);
  return sequence;
}

/**
 * When the roles were checked against the policy store's active version `checkedAgainst`: takes the store's lock
 * shared (a policy publish or rollback holds it alone while it checks the tenants and activates), then refuses when
 * another version is active now — roles checked against the version before it would grant nothing under it.
 */
async function checkActivePolicy(client: Queryable, names: PolicyStoreNames, checkedAgainst: string | undefined, tenant: string): Promise<void> {
  if (checkedAgainst === undefined) return;
  await client.query('SELECT pg_advisory_xact_lock_shared(hashtext($1))', [`typed-permissions:${names.schema}`]);
  const { rows } = await client.query<{ version: string }>(
    `SELECT v.version FROM ${q(names.schema)}.policy_current c JOIN ${q(names.schema)}.policy_versions v ON v.sequence = c.sequence WHERE c.id`,
  );
  const active = rows[0]?.version;
  if (active !== checkedAgainst)
    throw new PermissionsUsageError(
      `The policy store's active version changed while the custom roles of tenant ${JSON.stringify(tenant)} were checked ` +
        `(${checkedAgainst} is now ${active ?? 'none'}); nothing was changed. Publish again, to check them against it.`,
    );
}

/** Takes the lock of one tenant until the transaction ends (a 64-bit hash: another tenant sharing it only waits, never fails). */
async function lockTenant(client: Queryable, names: PolicyStoreNames, tenant: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`typed-permissions:${names.schema}:tenant:${tenant}`]);
}

/**
 * Publishes `document` as `tenant`'s next version of custom roles, after `check` accepted it: creates the tables
 * when needed, then inserts, activates and notifies in one transaction. `client` is a dedicated connection (a
 * `pg.Client`, or a client borrowed from a pool). Returns the new sequence.
 *
 * @example
 * ```ts
 * const sequence = await publishTenantRoles(client, names, 'acme', document, check, { note: 'auditors' }); // 1
 * ```
 */
export async function publishTenantRoles(
  client: Queryable,
  names: PolicyStoreNames,
  tenant: string,
  document: unknown,
  check: TenantRolesCheck,
  options?: TenantRolesPublishOptions,
  checkedAgainst?: string,
): Promise<number> {
  checkTenantId(tenant, 'publish: tenant');
  const details = publishDetails(options);
  const { text, value } = storedTenantRoles(tenant, document);
  const compiled = check(tenant, value);
  await ensureTenantRolesStore(client, names);
  return inTransaction(client, async () => {
    await lockTenant(client, names, tenant);
    await checkActivePolicy(client, names, checkedAgainst, tenant);
    return insertAndActivate(client, names, tenant, { text, compiled }, roleNamesOf(value), details);
  });
}

/**
 * Publishes the document of `tenant`'s version `sequence` again, as its newest (checked again: the base policy
 * may have changed since). A PermissionsUsageError when the tenant has no such version. Returns the new sequence.
 *
 * @example
 * ```ts
 * await rollbackTenantRoles(client, names, 'acme', 1, check); // 3: the document of 1, active again
 * ```
 */
export async function rollbackTenantRoles(
  client: Queryable,
  names: PolicyStoreNames,
  tenant: string,
  sequence: number,
  check: TenantRolesCheck,
  options?: TenantRolesPublishOptions,
  checkedAgainst?: string,
): Promise<number> {
  checkTenantId(tenant, 'rollback: tenant');
  checkSequence(sequence);
  const details = publishDetails({ note: `rollback to ${sequence}`, ...options });
  await ensureTenantRolesStore(client, names);
  return inTransaction(client, async () => {
    await lockTenant(client, names, tenant);
    await checkActivePolicy(client, names, checkedAgainst, tenant);
    const { rows } = await client.query<{ document: string }>(
      `SELECT document::text AS document FROM ${q(names.schema)}.tenant_role_versions WHERE tenant = $1 AND sequence = $2`,
      [tenant, sequence],
    );
    const row = rows[0];
    if (row === undefined)
      throw new PermissionsUsageError(`Tenant ${JSON.stringify(tenant)} has no version ${sequence} of custom roles; see \`typed-permissions tenant show\`.`);
    const document: unknown = JSON.parse(row.document);
    const compiled = check(tenant, document);
    return insertAndActivate(client, names, tenant, { text: row.document, compiled }, roleNamesOf(document), details);
  });
}

/**
 * The active version of `tenant`'s custom roles, in one statement, with its compiled form while it was compiled
 * from this document; undefined when it has none (or the store does not exist yet).
 *
 * @example
 * ```ts
 * await readTenantRoles(pool, names, 'acme'); // { tenant: 'acme', sequence: 2, document: { definitions: [ … ] } }
 * ```
 */
export async function readTenantRoles(client: Queryable, names: PolicyStoreNames, tenant: string): Promise<TenantRolesVersion | undefined> {
  checkTenantId(tenant, 'read: tenant');
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<{ sequence: number; document: string; compiled: string | null }>(
      preparedQuery(
        `SELECT c.sequence, v.document::text AS document,
                CASE WHEN v.compiled_document = ${DOCUMENT_DIGEST('v.document')} THEN v.compiled END AS compiled
           FROM ${schema}.tenant_role_current c JOIN ${schema}.tenant_role_versions v ON v.tenant = c.tenant AND v.sequence = c.sequence
          WHERE c.tenant = $1`,
        [tenant],
      ),
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    if (typeof row.compiled !== 'string') return { tenant, sequence: Number(row.sequence), document: JSON.parse(row.document) as unknown };
    // With its compiled form, the document is parsed only if it is read: an engine on the policy of the form never does.
    const text = row.document;
    let parsed: { readonly document: unknown } | undefined;
    const version = { tenant, sequence: Number(row.sequence), compiled: row.compiled } as TenantRolesVersion;
    Object.defineProperty(version, 'document', { enumerable: true, get: () => (parsed ??= { document: JSON.parse(text) as unknown }).document });
    return version;
  } catch (error) {
    if (isMissingStore(error)) return undefined;
    throw error;
  }
}

/**
 * Stores each of `forms` as the compiled roles of version `sequence` of its tenant, with the digest of that
 * version's document (so that the form is read only with it); one statement. Returns how many versions it updated.
 *
 * @example
 * ```ts
 * await storeCompiledTenantRoles(client, names, [{ tenant: 'acme', sequence: 2, compiled }]); // 1
 * ```
 */
export async function storeCompiledTenantRoles(
  client: Queryable,
  names: PolicyStoreNames,
  forms: readonly { readonly tenant: string; readonly sequence: number; readonly compiled: string }[],
): Promise<number> {
  if (forms.length === 0) return 0;
  const { rows } = await client.query(
    `UPDATE ${q(names.schema)}.tenant_role_versions v
        SET compiled = u.compiled, compiled_document = ${DOCUMENT_DIGEST('v.document')}
       FROM unnest($1::text[], $2::integer[], $3::text[]) AS u (tenant, sequence, compiled)
      WHERE v.tenant = u.tenant AND v.sequence = u.sequence
  RETURNING v.sequence`,
    [forms.map((form) => form.tenant), forms.map((form) => form.sequence), forms.map((form) => form.compiled)],
  );
  return rows.length;
}

interface EntryRow {
  tenant: string;
  sequence: number;
  published_at: Date | string;
  published_by: string;
  note: string;
  roles: string;
  active?: boolean;
}

/**
 * One page of the tenants' active versions with their documents, ordered by tenant id: `next` is the last tenant
 * of a full page (pass it as `after`). A store without its tables has no tenants.
 *
 * @example
 * ```ts
 * let page = await readActiveTenantRolesPage(client, names, undefined, 50);
 * while (page.next !== undefined) page = await readActiveTenantRolesPage(client, names, page.next, 50);
 * ```
 */
export async function readActiveTenantRolesPage(
  client: Queryable,
  names: PolicyStoreNames,
  after: string | undefined,
  limit: number,
): Promise<{ readonly versions: readonly TenantRolesVersion[]; readonly next?: string }> {
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<{ tenant: string; sequence: number; document: string }>(
      `SELECT c.tenant, c.sequence, v.document::text AS document
         FROM ${schema}.tenant_role_current c JOIN ${schema}.tenant_role_versions v ON v.tenant = c.tenant AND v.sequence = c.sequence
        WHERE $1::text IS NULL OR c.tenant > $1
        ORDER BY c.tenant LIMIT $2`,
      [after ?? null, limit],
    );
    const versions = rows.map((row) => ({ tenant: row.tenant, sequence: Number(row.sequence), document: JSON.parse(row.document) as unknown }));
    return rows.length === limit ? { versions, next: (versions.at(-1) as TenantRolesVersion).tenant } : { versions };
  } catch (error) {
    if (isMissingStore(error)) return { versions: [] };
    throw error;
  }
}

/** Entry fields, as both `list` and `show` give them (roles arrive as JSON text: the same with every driver). */
const ENTRY_COLUMNS = 'v.tenant, v.sequence, v.published_at, v.published_by, v.note, to_jsonb(v.roles)::text AS roles';

function entryOf(row: EntryRow): Omit<TenantRolesVersionEntry, 'active'> {
  return {
    sequence: Number(row.sequence),
    publishedAt: new Date(row.published_at).toISOString(),
    publishedBy: row.published_by,
    note: row.note,
    roles: JSON.parse(row.roles) as string[],
  };
}

/**
 * One page of the tenants that have custom roles, ordered by tenant id, each with its active version.
 *
 * @example
 * ```ts
 * let page = await listTenantRoles(pool, names, { limit: 1000 });
 * while (page.next !== undefined) page = await listTenantRoles(pool, names, { after: page.next, limit: 1000 });
 * ```
 */
export async function listTenantRoles(client: Queryable, names: PolicyStoreNames, options?: TenantRolesPageOptions): Promise<TenantRolesPage> {
  const { after, limit } = pageOptions(options);
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS}
         FROM ${schema}.tenant_role_current c JOIN ${schema}.tenant_role_versions v ON v.tenant = c.tenant AND v.sequence = c.sequence
        WHERE $1::text IS NULL OR c.tenant > $1
        ORDER BY c.tenant LIMIT $2`,
      [after ?? null, limit + 1],
    );
    const tenants = rows.slice(0, limit).map((row) => ({ tenant: row.tenant, ...entryOf(row) }));
    const last = tenants.at(-1);
    return rows.length > limit && last !== undefined ? { tenants, next: last.tenant } : { tenants };
  } catch (error) {
    if (isMissingStore(error)) return { tenants: [] };
    throw error;
  }
}

/**
 * `tenant`'s versions, newest first (at most 100), and its active document.
 *
 * @example
 * ```ts
 * const { versions, active } = await showTenantRoles(pool, names, 'acme');
 * ```
 */
export async function showTenantRoles(client: Queryable, names: PolicyStoreNames, tenant: string): Promise<TenantRolesDetail> {
  checkTenantId(tenant, 'show: tenant');
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS}, (c.sequence = v.sequence) IS TRUE AS active
         FROM ${schema}.tenant_role_versions v LEFT JOIN ${schema}.tenant_role_current c ON c.tenant = v.tenant
        WHERE v.tenant = $1 ORDER BY v.sequence DESC LIMIT $2`,
      [tenant, MAX_TENANT_ROLES_SHOWN_VERSIONS],
    );
    const versions = rows.map((row) => ({ ...entryOf(row), active: row.active === true }));
    const active = await readTenantRoles(client, names, tenant);
    return active === undefined ? { tenant, versions } : { tenant, versions, active: { sequence: active.sequence, document: active.document } };
  } catch (error) {
    if (isMissingStore(error)) return { tenant, versions: [] };
    throw error;
  }
}
