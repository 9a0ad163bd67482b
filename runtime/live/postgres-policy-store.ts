/**
 * The PostgreSQL policy store: an append-only log of versions (`policy_versions`, ordered by a sequence), a
 * pointer to the active one (`policy_current`), the store's identity (`policy_store`: a random UUID made with the
 * tables, so that a store dropped and created again — whose numbering starts again at 1 — is never taken for the
 * old one), and the followers that registered (`policy_followers`), in their own schema, created on first
 * publish (or by the first follower that may). Publishing inserts the version, moves the pointer and notifies
 * every follower in one transaction; a rollback publishes an earlier version again, under a new sequence.
 */
import { randomUUID } from 'node:crypto';
import { PermissionsUsageError } from '../core/common/errors.js';
import { bundleLengthProblem, policyBundleProblem, type PolicyBundle } from './policy-bundle.js';
import { parseBundleText } from './bundle-text.js';
import { FOLLOWER_FORGET_MS } from './follower-timing.js';
import { createSchemaIfMissing, type PgClient, type Queryable } from './postgres-client.js';

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
  /** The one-line summary of what the version changed against the version active before it (`+12 −3 cells, …`); empty when not recorded. */
  readonly diffSummary: string;
  readonly active: boolean;
  /** How many followers seen recently (see FOLLOWER_FORGET_MS) run this entry of the log. */
  readonly followers: number;
}

/** The active version as a follower reads it. */
export interface CurrentPolicy {
  readonly sequence: number;
  /** The store's identity (a UUID made with its tables); undefined for a store without one (its row was removed). */
  readonly store: string | undefined;
  readonly bundle: unknown;
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

/** The errors of a store that is not there (yet): 42P01 undefined_table, 3F000 invalid_schema_name. */
export function isMissingStore(error: unknown): boolean {
  return ['42P01', '3F000'].includes((error as { code?: string } | null)?.code ?? '');
}

/**
 * Creates the store's schema and tables when they are not there, and its identity with them (idempotent;
 * concurrent creators are serialised by an advisory lock held until the transaction ends). Runs inside the
 * caller's transaction.
 *
 * @example
 * ```ts
 * await client.query('BEGIN'); await ensurePolicyStore(client, names); …
 * ```
 */
export async function ensurePolicyStore(client: Queryable, names: PolicyStoreNames): Promise<void> {
  const schema = q(names.schema);
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`typed-permissions:${names.schema}`]);
  await createSchemaIfMissing(client, schema);
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
  // Added after the first release: a store made before it gets the column on its next publish, and keeps working
  // until then (listPolicies reads the column only when it is there). Altered only when missing: ALTER TABLE locks
  // the table and needs its owner's rights, which a follower that calls this may not have.
  const { rows: diffColumn } = await client.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'policy_versions' AND column_name = 'diff_summary'`,
    [names.schema],
  );
  if (diffColumn.length === 0) await client.query(`ALTER TABLE ${schema}.policy_versions ADD COLUMN IF NOT EXISTS diff_summary text NOT NULL DEFAULT ''`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.policy_current (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       sequence bigint NOT NULL REFERENCES ${schema}.policy_versions (sequence)
     )`,
  );
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.policy_store (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       identity uuid NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  // Made here rather than by the server (gen_random_uuid needs PostgreSQL 13): one per store, never replaced.
  await client.query(`INSERT INTO ${schema}.policy_store (id, identity) VALUES (true, $1) ON CONFLICT (id) DO NOTHING`, [randomUUID()]);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.policy_followers (
       instance text PRIMARY KEY,
       host text NOT NULL,
       pid integer NOT NULL,
       started_at timestamptz NOT NULL,
       last_seen timestamptz NOT NULL DEFAULT now(),
       store text,
       sequence bigint,
       version text,
       capabilities text NOT NULL,
       rejected_sequence bigint,
       rejected_version text,
       rejected_reasons text,
       rejected_at timestamptz
     )`,
  );
}

/**
 * The active version: its sequence, the store's identity (when it has one: a store made by a version of this
 * library without identities, or whose identity row or table was removed, still has its active version, which
 * followers must take) and its bundle's text; undefined when nothing was published, or the store does not exist (yet).
 *
 * @example
 * ```ts
 * const current = await readCurrentPolicy(pool, names); // { sequence: 12, store: '5f0c…', bundle: { format: 1, version: '…', tables: … } }
 * ```
 */
export async function readCurrentPolicy(client: Queryable, names: PolicyStoreNames): Promise<CurrentPolicy | undefined> {
  const schema = q(names.schema);
  const active = `FROM ${schema}.policy_current c JOIN ${schema}.policy_versions v ON v.sequence = c.sequence`;
  let rows: { sequence: string; store: string | null; bundle: string }[];
  try {
    // One statement, so that the identity and the version read belong together.
    ({ rows } = await client.query(`SELECT v.sequence, s.identity AS store, v.bundle ${active} LEFT JOIN ${schema}.policy_store s ON s.id WHERE c.id`));
  } catch (error) {
    if (!isMissingStore(error)) throw error;
    // A missing identity table alone is a store without identity (made before identities, or the table not restored):
    // its active version is read without it. Only a store without its versions is no store.
    try {
      ({ rows } = await client.query(`SELECT v.sequence, NULL AS store, v.bundle ${active} WHERE c.id`));
    } catch (again) {
      if (isMissingStore(again)) return undefined;
      throw again;
    }
  }
  const row = rows[0];
  if (row === undefined) return undefined;
  const store = row.store === null ? undefined : String(row.store);
  return { sequence: Number(row.sequence), store, bundle: parseBundleText(row.bundle, `policy store version ${row.sequence}`) };
}

/**
 * The sequence of the active version, without reading its bundle (which may be one that cannot be read: edited in
 * the database, or published before bundles were bounded); undefined when nothing was published, or the store does
 * not exist (yet).
 *
 * @example
 * ```ts
 * await readActiveSequence(pool, names); // 12
 * ```
 */
export async function readActiveSequence(client: Queryable, names: PolicyStoreNames): Promise<number | undefined> {
  try {
    const { rows } = await client.query<{ sequence: string }>(`SELECT sequence FROM ${q(names.schema)}.policy_current WHERE id`);
    return rows[0] === undefined ? undefined : Number(rows[0].sequence);
  } catch (error) {
    if (isMissingStore(error)) return undefined;
    throw error;
  }
}

/** What a publish records beside the version: who published it, and what it changed. */
export interface PublishRecord {
  /** Who published; the database user (`current_user`) when not given. */
  readonly publishedBy?: string | undefined;
  /** The one-line summary of the version's diff against the version active before it. */
  readonly diffSummary?: string | undefined;
  /**
   * The sequence of the version the publisher saw active (null: none), whose diff they agreed to: when given and
   * another is active when the publish commits (a publish or rollback of someone else ran meanwhile), nothing is
   * published. Checked under the store's lock, so two publishes that saw the same version cannot both succeed.
   */
  readonly activeBefore?: number | null | undefined;
  /**
   * A last check made under the store's lock, in the publish's transaction, before the version becomes active: what
   * it throws stops the publish (nothing changed). `policy publish` checks there that no tenant's custom roles
   * changed since they were checked against the version (tenant publishes take the same lock).
   */
  readonly underLock?: ((client: Queryable) => Promise<void>) | undefined;
}

/** What a rollback records: what a publish does, and why it was made (after `rollback to <sequence>: `). */
export interface RollbackRecord extends PublishRecord {
  /** Why; the entry's note is `rollback to <sequence>: <note>`, or `rollback to <sequence>` without one. */
  readonly note?: string | undefined;
}

/** Inserts a bundle, points the store at it and notifies followers; inside the caller's transaction. */
async function insertAndActivate(
  client: PgClient,
  names: PolicyStoreNames,
  bundle: PolicyBundle,
  text: string,
  note: string,
  record: PublishRecord = {},
): Promise<number> {
  const schema = q(names.schema);
  if (record.activeBefore !== undefined) {
    const current = await client.query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current WHERE id`);
    const active = current.rows[0] === undefined ? null : Number(current.rows[0].sequence);
    if (active !== record.activeBefore)
      throw new PermissionsUsageError(
        `The active version changed while this one was checked (#${record.activeBefore ?? 'none'} is now #${active ?? 'none'}, published ` +
          'by someone else meanwhile); nothing was published. Look at the diff against it and publish again.',
      );
  }
  await record.underLock?.(client);
  const { rows } = await client.query<{ sequence: string }>(
    `INSERT INTO ${schema}.policy_versions (version, bundle, note, published_by, diff_summary)
     VALUES ($1, $2, $3, coalesce($4, current_user), $5) RETURNING sequence`,
    [bundle.version, text, note, record.publishedBy ?? null, record.diffSummary ?? ''],
  );
  const sequence = Number((rows[0] as { sequence: string }).sequence);
  await client.query(`INSERT INTO ${schema}.policy_current (id, sequence) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET sequence = EXCLUDED.sequence`, [
    sequence,
  ]);
  // The payload names the version only (NOTIFY is not a transport for bundles): store identity, sequence and version.
  // Followers read the store whatever it says.
  await client.query(`SELECT pg_notify($1, (SELECT identity::text FROM ${schema}.policy_store WHERE id) || ':' || $2 || ':' || $3)`, [
    names.channel,
    String(sequence),
    bundle.version,
  ]);
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
 * const sequence = await publishPolicy(client, names, bundle, 'grant review to managers', { publishedBy: 'alice', diffSummary: '+2 −0 cells' });
 * ```
 */
export async function publishPolicy(client: PgClient, names: PolicyStoreNames, bundle: PolicyBundle, note = '', record: PublishRecord = {}): Promise<number> {
  const problem = policyBundleProblem(bundle);
  if (problem !== undefined) throw new PermissionsUsageError(`The bundle to publish ${problem}.`);
  const text = JSON.stringify(bundle);
  // A version no follower can read would be active all the same, and every later diff against it would fail.
  const tooLong = bundleLengthProblem(text.length);
  if (tooLong !== undefined)
    throw new PermissionsUsageError(`The bundle to publish ${tooLong}; nothing was published. Make the policy or its policy tests smaller.`);
  return inTransaction(client, async () => {
    await ensurePolicyStore(client, names);
    return insertAndActivate(client, names, bundle, text, note, record);
  });
}

/**
 * The bundle of the version of sequence `sequence`; a PermissionsUsageError when the store has no such version, or when it is
 * no valid bundle (edited in the database).
 *
 * @example
 * ```ts
 * const bundle = await readStoredVersion(client, names, 12);
 * ```
 */
export async function readStoredVersion(client: Queryable, names: PolicyStoreNames, sequence: number): Promise<PolicyBundle> {
  let text: string | undefined;
  try {
    const { rows } = await client.query<{ bundle: string }>(`SELECT bundle FROM ${q(names.schema)}.policy_versions WHERE sequence = $1`, [sequence]);
    text = rows[0]?.bundle;
  } catch (error) {
    if (!isMissingStore(error)) throw error;
  }
  if (text === undefined) throw new PermissionsUsageError(`The policy store has no version ${sequence}; see \`typed-permissions policy list\`.`);
  const bundle = parseBundleText(text, `policy store version ${sequence}`);
  // Checked as a publish checks it: a version edited in the database (tables that no longer hash to its version, or
  // are no tables) is neither shown as a policy nor made active again.
  const problem = policyBundleProblem(bundle);
  if (problem !== undefined) throw new PermissionsUsageError(`Version #${sequence} of the policy store ${problem}; nothing was changed.`);
  return bundle as PolicyBundle;
}

/**
 * Publishes the version of sequence `sequence` again, as the newest: a rollback is a new entry of the log with
 * the old bundle, so that the log says what happened. Returns the new sequence.
 *
 * @example
 * ```ts
 * await rollbackPolicy(client, names, 12, { publishedBy: 'alice', diffSummary: '-2 cells', note: 'incident 42' }); // 15: the bundle of 12, active again
 * ```
 */
export async function rollbackPolicy(client: PgClient, names: PolicyStoreNames, sequence: number, record: RollbackRecord = {}): Promise<number> {
  const note = record.note === undefined || record.note === '' ? `rollback to ${sequence}` : `rollback to ${sequence}: ${record.note}`;
  return inTransaction(client, async () => {
    await ensurePolicyStore(client, names);
    const bundle = await readStoredVersion(client, names, sequence);
    return insertAndActivate(client, names, bundle, JSON.stringify(bundle), note, record);
  });
}

/**
 * The newest versions of the log, newest first, each with how many followers seen recently run it.
 *
 * @example
 * ```ts
 * for (const entry of await listPolicies(pool, names)) console.log(entry.sequence, entry.version, entry.active ? '(active)' : '');
 * ```
 */
export async function listPolicies(client: Queryable, names: PolicyStoreNames, limit = 50): Promise<StoredVersion[]> {
  const schema = q(names.schema);
  try {
    const { rows } = await client.query<{
      sequence: string;
      version: string;
      published_at: Date;
      published_by: string;
      note: string;
      diff_summary: string;
      active: boolean;
      followers: string;
    }>(
      // diff_summary through to_jsonb: a store made before the column was added has none until its next publish.
      `SELECT v.sequence, v.version, v.published_at, v.published_by, v.note, coalesce(to_jsonb(v) ->> 'diff_summary', '') AS diff_summary,
              (c.sequence = v.sequence) AS active,
              (SELECT count(*) FROM ${schema}.policy_followers f
                WHERE f.sequence = v.sequence AND f.last_seen > now() - make_interval(secs => $2)) AS followers
         FROM ${schema}.policy_versions v LEFT JOIN ${schema}.policy_current c ON c.id
        ORDER BY v.sequence DESC LIMIT $1`,
      [limit, FOLLOWER_FORGET_MS / 1000],
    );
    return rows.map((row) => ({
      sequence: Number(row.sequence),
      version: row.version,
      publishedAt: new Date(row.published_at).toISOString(),
      publishedBy: row.published_by,
      note: row.note,
      diffSummary: row.diff_summary,
      active: row.active === true,
      followers: Number(row.followers),
    }));
  } catch (error) {
    if (isMissingStore(error)) return [];
    throw error;
  }
}
