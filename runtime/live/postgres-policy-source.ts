/**
 * `postgresPolicySource({ connectionString })`: the versions published to a PostgreSQL store
 * (`typed-permissions policy publish`). The source listens for the store's notification on a dedicated
 * connection — never a pooled one, which would drop LISTEN when returned — and re-reads the active version on
 * every notification, every reconnect and a periodic poll: NOTIFY has no replay, so a notification sent while
 * the listener was disconnected costs at most one poll interval. Behind a connection pooler in transaction mode
 * LISTEN does not work at all; the poll still converges (point the source at the server, or a session-mode pool).
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import type { PolicySource, SourcedPolicy } from './policy-source.js';
import { durationOption } from './duration-option.js';
import { loadPg, type PgClient, type PgPool } from './postgres-client.js';
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

/** The server a connection string names, for messages: never its password (a key-value string is not a URL). */
function serverOf(connectionString: string): string {
  try {
    return new URL(connectionString).host || 'the local socket';
  } catch {
    return 'the configured server';
  }
}

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
  const reconnectDelayMs = durationOption('postgresPolicySource(): reconnectDelayMs', options.reconnectDelayMs, 500, 1);
  if (options.register !== undefined && typeof options.register !== 'boolean')
    throw new PermissionsUsageError('postgresPolicySource(): register must be true or false.');
  const { connectionString } = options;
  const description = `PostgreSQL store ${names.schema} at ${serverOf(connectionString)}`;
  let pool: PgPool | undefined;
  const poolOf = async (): Promise<PgPool> => {
    if (pool === undefined) {
      const { Pool } = await loadPg();
      pool = new Pool({ connectionString, max: 2, connectionTimeoutMillis: 10_000, application_name: APPLICATION_NAME });
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
      const listener = new Listener(connectionString, names.channel, reconnectDelayMs, changed, failed);
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

/** The dedicated LISTEN connection, reconnected (and re-read) whenever it is lost. */
class Listener {
  private client: PgClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay: number;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly firstDelay: number,
    private readonly changed: () => void,
    private readonly failed: (error: unknown) => void,
  ) {
    this.delay = firstDelay;
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const { Client } = await loadPg().catch((error: unknown) => {
      this.failed(error);
      return { Client: undefined };
    });
    if (Client === undefined) return;
    const client = new Client({ connectionString: this.connectionString, connectionTimeoutMillis: 10_000, application_name: APPLICATION_NAME });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.changed();
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the listener connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      this.delay = this.firstDelay;
      // Whatever was published while this connection was down was not notified to it: read now.
      this.changed();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: PgClient, error: unknown): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.failed(error);
    this.timer = setTimeout(() => void this.connect(), this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, 30_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
