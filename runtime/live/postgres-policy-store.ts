/**
 * The PostgreSQL policy store: an append-only log of versions (`policy_versions`, ordered by a sequence) and a
 * pointer to the active one (`policy_current`), in their own schema, created on first publish. Publishing
 * inserts the version, moves the pointer and notifies every follower in one transaction; a rollback publishes an
 * earlier version again, under a new sequence, so that followers — who ignore older sequences — take it.
 */
import { PermissionsUsageError } from '../core/errors.js';
import { policyBundleProblem, type PolicyBundle } from '../core/tables/policy-bundle.js';
import { parseBundleText } from './bundle-text.js';
import type { PgClient, Queryable } from './postgres-client.js';

/** Where the store lives: a schema of its own, and the channel that carries notifications. */
export interface PolicyStoreNames {
  /** Default `typed_permissions`. */
  readonly schema: string;
  /** Default `typed_permissions_policy`. */
  readonly channel: string;
}

/** The defaults of {@link PolicyStoreNames}. */
export const DEFAULT_STORE_NAMES: PolicyStoreNames = { schema: 'typed_permissions', channel: 'typed_permissions_policy' };

/** One version in the log, as `typed-permissions policy list` shows it. */
export interface StoredVersion {
  readonly sequence: number;
  readonly version: string;
  readonly publishedAt: string;
  readonly publishedBy: string;
  readonly note: string;
  readonly active: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The store's names, checked: lower-case SQL identifiers (they are quoted into statements, never bound).
 *
 * @example
 * ```ts
 * storeNames({ schema: 'policies' }); // { schema: 'policies', channel: 'typed_permissions_policy' }
 * ```
 */
export function storeNames(given: Partial<PolicyStoreNames> = {}): PolicyStoreNames {
  const names = { ...DEFAULT_STORE_NAMES, ...given };
  for (const [what, name] of Object.entries(names)) {
    if (typeof name !== 'string' || !IDENTIFIER.test(name))
      throw new PermissionsUsageError(`The policy store's ${what} must be a lower-case SQL identifier (letters, digits, _), got ${JSON.stringify(name)}.`);
  }
  return names;
}

const q = (identifier: string): string => `"${identifier}"`;

/**
 * Creates the store's schema and tables when they are not there (idempotent; concurrent publishers are
 * serialised by an advisory lock held until the transaction ends). Runs inside the caller's transaction.
 *
 * @example
 * ```ts
 * await client.query('BEGIN'); await ensurePolicyStore(client, names); …
 * ```
 */
export async function ensurePolicyStore(client: Queryable, names: PolicyStoreNames): Promise<void> {
  const schema = q(names.schema);
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`typed-permissions:${names.schema}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.policy_versions (
       sequence bigserial PRIMARY KEY,
       version text NOT NULL CHECK (version ~ '^[0-9a-f]{64}$'),
       bundle text NOT NULL,
       published_at timestamptz NOT NULL DEFAULT now(),
       published_by text NOT NULL DEFAULT current_user,
       note text NOT NULL DEFAULT ''
     )`,
  );
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.policy_current (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       sequence bigint NOT NULL REFERENCES ${schema}.policy_versions (sequence)
     )`,
  );
}

/**
 * The active version: its sequence and its bundle's text; undefined when nothing was published (or the store
 * does not exist yet).
 *
 * @example
 * ```ts
 * const current = await readCurrentPolicy(pool, names); // { sequence: 12, bundle: { format: 1, version: '…', tables: … } }
 * ```
 */
export async function readCurrentPolicy(client: Queryable, names: PolicyStoreNames): Promise<{ sequence: number; bundle: unknown } | undefined> {
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<{ sequence: string; bundle: string }>(
      `SELECT v.sequence, v.bundle FROM ${schema}.policy_current c JOIN ${schema}.policy_versions v ON v.sequence = c.sequence WHERE c.id`,
    );
    const row = rows[0];
    return row === undefined ? undefined : { sequence: Number(row.sequence), bundle: parseBundleText(row.bundle, `policy store version ${row.sequence}`) };
  } catch (error) {
    // 42P01 undefined_table, 3F000 invalid_schema_name: nothing was ever published.
    if (['42P01', '3F000'].includes((error as { code?: string }).code ?? '')) return undefined;
    throw error;
  }
}

/** Inserts a bundle, points the store at it and notifies followers; inside the caller's transaction. */
async function insertAndActivate(client: PgClient, names: PolicyStoreNames, bundle: PolicyBundle, text: string, note: string): Promise<number> {
  const schema = q(names.schema);
  const { rows } = await client.query<{ sequence: string }>(
    `INSERT INTO ${schema}.policy_versions (version, bundle, note) VALUES ($1, $2, $3) RETURNING sequence`,
    [bundle.version, text, note],
  );
  const sequence = Number((rows[0] as { sequence: string }).sequence);
  await client.query(`INSERT INTO ${schema}.policy_current (id, sequence) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET sequence = EXCLUDED.sequence`, [
    sequence,
  ]);
  // The payload is the version only (NOTIFY is not a transport for bundles); followers read the store.
  await client.query('SELECT pg_notify($1, $2)', [names.channel, `${sequence}:${bundle.version}`]);
  return sequence;
}

/** Runs `work` in a transaction on `client` (committed, or rolled back on any error). */
async function inTransaction<T>(client: PgClient, work: () => Promise<T>): Promise<T> {
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
 * Publishes a bundle: creates the store when needed, inserts the version, makes it active and notifies
 * followers, in one transaction. Returns its sequence.
 *
 * @example
 * ```ts
 * const sequence = await publishPolicy(client, names, bundle, 'grant review to managers');
 * ```
 */
export async function publishPolicy(client: PgClient, names: PolicyStoreNames, bundle: PolicyBundle, note = ''): Promise<number> {
  const problem = policyBundleProblem(bundle);
  if (problem !== undefined) throw new PermissionsUsageError(`The bundle to publish ${problem}.`);
  return inTransaction(client, async () => {
    await ensurePolicyStore(client, names);
    return insertAndActivate(client, names, bundle, JSON.stringify(bundle), note);
  });
}

/**
 * Publishes the version of sequence `sequence` again, as the newest: followers ignore older sequences, so a
 * rollback is a new entry of the log with the old bundle. Returns the new sequence.
 *
 * @example
 * ```ts
 * await rollbackPolicy(client, names, 12); // 15: the bundle of 12, active again
 * ```
 */
export async function rollbackPolicy(client: PgClient, names: PolicyStoreNames, sequence: number): Promise<number> {
  return inTransaction(client, async () => {
    await ensurePolicyStore(client, names);
    const { rows } = await client.query<{ bundle: string }>(`SELECT bundle FROM ${q(names.schema)}.policy_versions WHERE sequence = $1`, [sequence]);
    const row = rows[0];
    if (row === undefined) throw new PermissionsUsageError(`The policy store has no version ${sequence}; see \`typed-permissions policy list\`.`);
    const bundle = parseBundleText(row.bundle, `policy store version ${sequence}`) as PolicyBundle;
    return insertAndActivate(client, names, bundle, row.bundle, `rollback to ${sequence}`);
  });
}

/**
 * The newest versions of the log, newest first.
 *
 * @example
 * ```ts
 * for (const entry of await listPolicies(pool, names)) console.log(entry.sequence, entry.version, entry.active ? '(active)' : '');
 * ```
 */
export async function listPolicies(client: Queryable, names: PolicyStoreNames, limit = 50): Promise<StoredVersion[]> {
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<{ sequence: string; version: string; published_at: Date; published_by: string; note: string; active: boolean }>(
      `SELECT v.sequence, v.version, v.published_at, v.published_by, v.note, (c.sequence = v.sequence) AS active
         FROM ${schema}.policy_versions v LEFT JOIN ${schema}.policy_current c ON c.id
        ORDER BY v.sequence DESC LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      sequence: Number(row.sequence),
      version: row.version,
      publishedAt: new Date(row.published_at).toISOString(),
      publishedBy: row.published_by,
      note: row.note,
      active: row.active === true,
    }));
  } catch (error) {
    if (['42P01', '3F000'].includes((error as { code?: string }).code ?? '')) return [];
    throw error;
  }
}
