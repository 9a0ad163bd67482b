/**
 * `postgresPolicySource({ connectionString })`: the versions published to a PostgreSQL store
 * (`typed-permissions policy publish`). The source listens for the store's notification on a dedicated
 * connection — never a pooled one, which would drop LISTEN when returned — and re-reads the active version on
 * every notification, every reconnect and a periodic poll: NOTIFY has no replay, so a notification sent while
 * the listener was disconnected costs at most one poll interval. The listening connection is checked every
 * `pingIntervalMs`, as the tenant-roles source's is, so that a server gone without a word is found out. Behind a
 * connection pooler in transaction mode LISTEN does not work at all; the poll still converges (point the source
 * at the server, or a session-mode pool).
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import type { PolicySource, SourcedPolicy } from './policy-source.js';
import { durationOption } from './duration-option.js';
import { loadPg, serverOfConnectionString, type PgPool } from './postgres-client.js';
import { PostgresListener } from './postgres-listener.js';
import { followerRegistration } from './postgres-follower-registration.js';
import { readCurrentPolicy, storeNames } from './postgres-policy-store.js';

/** Options of {@link postgresPolicySource}. */
export interface PostgresPolicySourceOptions {
  /** The server, as node-postgres takes it: `postgres://user:password@host:5432/database`. */
  readonly connectionString: string;
  /** The store's schema. Default `typed_permissions`. */
  readonly schema?: string | undefined;
  /** The notification channel. Default `typed_permissions_policy`. */
  readonly channel?: string | undefined;
  /** How often the active version is read regardless of notifications, in ms. Default 30,000. */
  readonly pollIntervalMs?: number | undefined;
  /**
   * How often the listening connection is checked with a bounded `SELECT 1`, in ms: a server that went away without
   * a word (a failover behind a proxy) is found out, said through `onError`, and listened to again, instead of
   * versions arriving only at the next poll. Default 30,000.
   */
  readonly pingIntervalMs?: number | undefined;
  /** How long to wait before reconnecting a lost listener, in ms (doubling up to 30 s while it keeps failing). Default 500. */
  readonly reconnectDelayMs?: number | undefined;
  /**
   * Whether each follower registers itself in the store (`policy_followers`: what it runs and can honour,
   * refreshed every 10 seconds), so that `typed-permissions policy publish` refuses a version it would reject
   * and `policy followers` lists it. A follower whose database role may not write the table keeps following and
   * says so once. Default true.
   */
  readonly register?: boolean | undefined;
}

const APPLICATION_NAME = 'typed-permissions policy follower';

/**
 * A policy source following a PostgreSQL store.
 *
 * @example
 * ```ts
 * const live = await permissions.follow(postgresPolicySource({ connectionString: process.env.DATABASE_URL! }));
 * ```
 */
export function postgresPolicySource(options: PostgresPolicySourceOptions): PolicySource {
  if (typeof options !== 'object' || options === null || typeof options.connectionString !== 'string' || options.connectionString === '')
    throw new PermissionsUsageError('postgresPolicySource(options): options.connectionString must be a PostgreSQL connection string.');
  const names = storeNames({
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.channel === undefined ? {} : { channel: options.channel }),
  });
  const pollIntervalMs = durationOption('postgresPolicySource(): pollIntervalMs', options.pollIntervalMs, 30_000, 10);
  const pingIntervalMs = durationOption('postgresPolicySource(): pingIntervalMs', options.pingIntervalMs, 30_000, 10);
  const reconnectDelayMs = durationOption('postgresPolicySource(): reconnectDelayMs', options.reconnectDelayMs, 500, 1);
  if (options.register !== undefined && typeof options.register !== 'boolean')
    throw new PermissionsUsageError('postgresPolicySource(): register must be true or false.');
  const { connectionString } = options;
  const description = `PostgreSQL store ${names.schema} at ${serverOfConnectionString(connectionString)}`;
  let pool: PgPool | undefined;
  const poolOf = async (): Promise<PgPool> => {
    if (pool === undefined) {
      const { Pool } = await loadPg();
      // A read on a connection lost without a word fails within the timeout, and the connection is replaced.
      pool = new Pool({ connectionString, max: 2, connectionTimeoutMillis: 10_000, query_timeout: 10_000, application_name: APPLICATION_NAME });
      // An idle pooled connection that breaks is replaced on the next read; its error is not the source's failure.
      pool.on('error', () => undefined);
    }
    return pool;
  };
  return {
    description,
    async read(): Promise<SourcedPolicy | undefined> {
      return readCurrentPolicy(await poolOf(), names);
    },
    ...(options.register === false ? {} : { register: (status, failed) => followerRegistration(poolOf, names, description, status, failed) }),
    watch(changed, failed) {
      const listener = new PostgresListener({
        connectionString,
        applicationName: APPLICATION_NAME,
        channel: names.channel,
        reconnectDelayMs,
        pingIntervalMs,
        // Whatever was published while the connection was down was not notified to it: read when listening (again).
        listening: () => changed(),
        notified: () => changed(),
        failed,
      });
      void listener.connect();
      const poll = setInterval(changed, pollIntervalMs);
      poll.unref();
      return async () => {
        clearInterval(poll);
        await listener.close();
        const open = pool;
        pool = undefined;
        await open?.end().catch(() => undefined);
      };
    },
  };
}
