/**
 * The followers of a PostgreSQL policy store: each registers what it runs (store identity, sequence, version) and
 * what it can honour (its vocabulary and ownership methods) in `policy_followers`, refreshed every few seconds and
 * forgotten a minute after it stops; `typed-permissions policy publish` reads them to refuse a version a running
 * follower would reject, and `policy followers` lists them.
 */
import type { FollowerStatus } from './policy-source.js';
import { FOLLOWER_FORGET_MS } from './follower-timing.js';
import type { Queryable } from './postgres-client.js';
import { isMissingStore, type PolicyStoreNames } from './postgres-policy-store.js';

/** Who a follower is: one per `follow()`, so two engines in one process are two followers. */
export interface FollowerIdentity {
  /** A random UUID. */
  readonly instance: string;
  readonly host: string;
  readonly pid: number;
  /** When it started following, as an ISO 8601 time. */
  readonly startedAt: string;
}

/** A registered follower, as `policy followers` lists it and `policy publish` checks it. */
export interface RegisteredFollower extends FollowerIdentity {
  /** When it last wrote its registration (the server's clock), as an ISO 8601 time. */
  readonly lastSeen: string;
  /** How long ago that was, in whole seconds (the server's clock, so hosts' clocks do not matter). */
  readonly secondsSinceSeen: number;
  readonly store: string | undefined;
  readonly sequence: number | undefined;
  readonly version: string | undefined;
  /**
   * What it can honour (`FollowerCapabilities`), as JSON parsed from the row — not trusted: anyone who may write
   * the table may have written it, so the reader checks its shape (undefined when the text is not JSON).
   */
  readonly capabilities: unknown;
  /** The last version it rejected; `reasons` as parsed from the row, not trusted either. */
  readonly lastRejection:
    { readonly sequence: number | undefined; readonly version: string | undefined; readonly reasons: unknown; readonly at: string } | undefined;
}

const q = (identifier: string): string => `"${identifier}"`;

/**
 * Writes (inserts or refreshes) the registration of `identity` with its current `status`.
 *
 * @example
 * ```ts
 * await writeFollower(pool, names, identity, follower.status());
 * ```
 */
export async function writeFollower(client: Queryable, names: PolicyStoreNames, identity: FollowerIdentity, status: FollowerStatus): Promise<void> {
  const rejection = status.lastRejection;
  await client.query(
    `INSERT INTO ${q(names.schema)}.policy_followers
       (instance, host, pid, started_at, last_seen, store, sequence, version, capabilities, rejected_sequence, rejected_version, rejected_reasons, rejected_at)
     VALUES ($1, $2, $3, $4, now(), $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (instance) DO UPDATE SET last_seen = now(), store = EXCLUDED.store, sequence = EXCLUDED.sequence, version = EXCLUDED.version,
       capabilities = EXCLUDED.capabilities, rejected_sequence = EXCLUDED.rejected_sequence, rejected_version = EXCLUDED.rejected_version,
       rejected_reasons = EXCLUDED.rejected_reasons, rejected_at = EXCLUDED.rejected_at`,
    [
      identity.instance,
      identity.host,
      identity.pid,
      identity.startedAt,
      status.store ?? null,
      status.sequence ?? null,
      status.version ?? null,
      JSON.stringify(status.capabilities),
      rejection?.sequence ?? null,
      rejection?.version ?? null,
      rejection === undefined ? null : JSON.stringify(rejection.reasons),
      rejection?.at ?? null,
    ],
  );
}

/**
 * Removes the registration of a follower that stopped.
 *
 * @example
 * ```ts
 * await forgetFollower(pool, names, identity.instance);
 * ```
 */
export async function forgetFollower(client: Queryable, names: PolicyStoreNames, instance: string): Promise<void> {
  await client.query(`DELETE FROM ${q(names.schema)}.policy_followers WHERE instance = $1`, [instance]);
}

/**
 * Deletes the registrations of followers not seen for {@link FOLLOWER_FORGET_MS}; how many.
 *
 * @example
 * ```ts
 * await forgetGoneFollowers(client, names); // 2
 * ```
 */
export async function forgetGoneFollowers(client: Queryable, names: PolicyStoreNames): Promise<number> {
  try {
    const { rows } = await client.query<{ count: string }>(
      `WITH gone AS (DELETE FROM ${q(names.schema)}.policy_followers WHERE last_seen <= now() - make_interval(secs => $1) RETURNING 1)
       SELECT count(*) AS count FROM gone`,
      [FOLLOWER_FORGET_MS / 1000],
    );
    return Number(rows[0]?.count ?? 0);
  } catch (error) {
    if (isMissingStore(error)) return 0;
    throw error;
  }
}

interface FollowerRow {
  instance: string;
  host: string;
  pid: number;
  started_at: Date;
  last_seen: Date;
  seconds: string;
  store: string | null;
  sequence: string | null;
  version: string | null;
  capabilities: string;
  rejected_sequence: string | null;
  rejected_version: string | null;
  rejected_reasons: string | null;
  rejected_at: Date | null;
}

/**
 * The followers seen within {@link FOLLOWER_FORGET_MS}, longest-running first (none when the store does not exist).
 *
 * @example
 * ```ts
 * for (const follower of await listFollowers(pool, names)) console.log(follower.host, follower.pid, follower.version);
 * ```
 */
export async function listFollowers(client: Queryable, names: PolicyStoreNames): Promise<RegisteredFollower[]> {
  try {
    const { rows } = await client.query<FollowerRow>(
      `SELECT instance, host, pid, started_at, last_seen, floor(extract(epoch FROM now() - last_seen)) AS seconds, store, sequence, version,
              capabilities, rejected_sequence, rejected_version, rejected_reasons, rejected_at
         FROM ${q(names.schema)}.policy_followers
        WHERE last_seen > now() - make_interval(secs => $1)
        ORDER BY started_at, instance`,
      [FOLLOWER_FORGET_MS / 1000],
    );
    return rows.map(followerOfRow);
  } catch (error) {
    if (isMissingStore(error)) return [];
    throw error;
  }
}

function followerOfRow(row: FollowerRow): RegisteredFollower {
  return {
    instance: row.instance,
    host: row.host,
    pid: Number(row.pid),
    startedAt: new Date(row.started_at).toISOString(),
    lastSeen: new Date(row.last_seen).toISOString(),
    secondsSinceSeen: Math.max(0, Number(row.seconds)),
    store: row.store ?? undefined,
    sequence: row.sequence === null ? undefined : Number(row.sequence),
    version: row.version ?? undefined,
    capabilities: parseJson(row.capabilities),
    lastRejection:
      row.rejected_at === null
        ? undefined
        : {
            sequence: row.rejected_sequence === null ? undefined : Number(row.rejected_sequence),
            version: row.rejected_version ?? undefined,
            reasons: row.rejected_reasons === null ? undefined : parseJson(row.rejected_reasons),
            at: new Date(row.rejected_at).toISOString(),
          },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
