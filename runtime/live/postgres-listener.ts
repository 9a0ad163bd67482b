/**
 * The dedicated LISTEN connection the PostgreSQL sources follow a channel with — never a pooled connection,
 * which drops LISTEN when it is returned. node-postgres does not reconnect: a lost connection is ended, told to
 * `failed`, and connected again after a delay that doubles (up to 30 s) while it keeps failing; every time it
 * listens (again), `listening` is told, because NOTIFY has no replay and whatever was sent while it was down is
 * lost. A server that went away without a word (a reboot behind a proxy) raises no event: with
 * `pingIntervalMs`, a bounded `SELECT 1` on the connection finds it out.
 */
import { loadPg, type PgClient } from './postgres-client.js';

/** What {@link PostgresListener} listens to, and what it tells. */
export interface PostgresListenerOptions {
  readonly connectionString: string;
  readonly applicationName: string;
  readonly channel: string;
  /** The first delay before reconnecting, in ms. */
  readonly reconnectDelayMs: number;
  /** How often the connection is checked with a bounded `SELECT 1`, in ms; none when absent. */
  readonly pingIntervalMs?: number | undefined;
  /** A notification on the channel, with its payload. */
  readonly notified: (payload: string | undefined) => void;
  /** LISTEN succeeded (the first time, and after every reconnect). */
  readonly listening: () => void;
  /** The connection failed or was lost (it is connected again). */
  readonly failed: (error: unknown) => void;
}

/** The longest any statement or connection attempt of the listener waits, in ms. */
const LISTENER_TIMEOUT_MS = 10_000;

/**
 * A LISTEN connection kept open until `close()`.
 *
 * @example
 * ```ts
 * const listener = new PostgresListener({ connectionString, applicationName: 'app', channel: 'typed_permissions_policy',
 *   reconnectDelayMs: 500, notified: () => void reread(), listening: () => void reread(), failed: console.warn });
 * void listener.connect();
 * ```
 */
export class PostgresListener {
  private client: PgClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ping: NodeJS.Timeout | undefined;
  private delay: number;
  private closed = false;

  constructor(private readonly options: PostgresListenerOptions) {
    this.delay = options.reconnectDelayMs;
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const { Client } = await loadPg().catch((error: unknown) => {
      this.options.failed(error);
      return { Client: undefined };
    });
    if (Client === undefined || this.closed) return;
    const { connectionString, applicationName, channel } = this.options;
    const client = new Client({
      connectionString,
      connectionTimeoutMillis: LISTENER_TIMEOUT_MS,
      query_timeout: LISTENER_TIMEOUT_MS,
      application_name: applicationName,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === channel && this.client === client) this.options.notified(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the listener connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${channel}"`);
      if (this.client !== client) return;
      this.delay = this.options.reconnectDelayMs;
      this.startPing(client);
      this.options.listening();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private startPing(client: PgClient): void {
    const { pingIntervalMs } = this.options;
    if (pingIntervalMs === undefined) return;
    this.ping = setInterval(() => {
      client.query('SELECT 1').catch((error: unknown) => this.lost(client, error));
    }, pingIntervalMs);
    this.ping.unref();
  }

  private lost(client: PgClient, error: unknown): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    if (this.ping !== undefined) clearInterval(this.ping);
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.options.failed(error);
    this.timer = setTimeout(() => void this.connect(), this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, 30_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.ping !== undefined) clearInterval(this.ping);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
