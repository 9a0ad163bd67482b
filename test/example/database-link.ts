/**
 * The example database (the real embedded PGlite) behind a driver whose "network link" a test can cut. A cut
 * link fails the way a PostgreSQL server that went away fails through `pg`: acquiring a connection is refused
 * (ECONNREFUSED), a query on a connection taken before the cut dies with "Connection terminated unexpectedly",
 * and a stalled link hangs until the server is back. The link can be cut after the next N queries.
 */
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import {
  CamelCasePlugin,
  Kysely,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { seededExampleDump } from './test-databases.js';

/** What `pg` throws when the server refuses the connection (it is down or restarting). */
function connectionRefused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
    address: '127.0.0.1',
    port: 5432,
  });
}

/** What `pg` throws for a query whose connection the server dropped. */
function connectionTerminated(): Error {
  return new Error('Connection terminated unexpectedly');
}

/**
 * The network between the app and its database. Up by default. `cut(n)` lets the next `n` queries
 * through and then fails everything; `stall(n)` lets `n` through and then hangs every query until
 * `restore()`, when the hung queries fail as terminated. Every query that reaches the link is recorded.
 */
export class DatabaseLink {
  /** SQL of every query that reached the link (answered or not), in order. */
  readonly queries: string[] = [];
  /** How many connection attempts were refused. */
  refusedConnections = 0;
  private queriesLeft = Number.POSITIVE_INFINITY;
  private mode: 'fail' | 'stall' = 'fail';
  private stalled: { promise: Promise<void>; release: () => void } | undefined;

  cut(afterQueries = 0): void {
    this.mode = 'fail';
    this.queriesLeft = afterQueries;
  }

  stall(afterQueries = 0): void {
    this.mode = 'stall';
    this.queriesLeft = afterQueries;
    let release = (): void => undefined;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.stalled = { promise, release };
  }

  restore(): void {
    this.queriesLeft = Number.POSITIVE_INFINITY;
    this.stalled?.release();
    this.stalled = undefined;
  }

  clearLog(): void {
    this.queries.length = 0;
    this.refusedConnections = 0;
  }

  private get down(): boolean {
    return this.queriesLeft <= 0;
  }

  /** Called before a connection is handed out. */
  connect(): void {
    if (this.down && this.mode === 'fail') {
      this.refusedConnections += 1;
      throw connectionRefused();
    }
  }

  /** Called before a query is sent: lets it through, fails it, or hangs it. */
  async send(sql: string): Promise<void> {
    this.queries.push(sql);
    if (!this.down) {
      this.queriesLeft -= 1;
      return;
    }
    if (this.mode === 'stall' && this.stalled !== undefined) await this.stalled.promise;
    throw connectionTerminated();
  }
}

/** A connection of the real driver, with every query going over the link. */
class LinkedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly link: DatabaseLink,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    await this.link.send(compiledQuery.sql);
    return this.inner.executeQuery<R>(compiledQuery);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    await this.link.send(compiledQuery.sql);
    yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

/** The real driver, reached over the link. */
class LinkedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, LinkedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly link: DatabaseLink,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.link.connect();
    const connection = await this.inner.acquireConnection();
    let linked = this.wrapped.get(connection);
    if (linked === undefined) this.wrapped.set(connection, (linked = new LinkedConnection(connection, this.link)));
    return linked;
  }

  // Transaction statements go through the linked connection, so they can fail too.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection instanceof LinkedConnection ? connection.inner : connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** A kysely dialect whose driver is reached over the link; everything else is the real dialect's. */
class LinkedDialect implements Dialect {
  constructor(
    private readonly inner: Dialect,
    private readonly link: DatabaseLink,
  ) {}

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createDriver(): Driver {
    return new LinkedDriver(this.inner.createDriver(), this.link);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

/** The example database (embedded PGlite, migrated and seeded, dates kept as ISO text like the app's own), over `link`. */
export async function createLinkedDatabase(link: DatabaseLink): Promise<Kysely<ExampleDatabase>> {
  const pglite = await PGlite.create({ parsers: { [pgliteTypes.DATE]: (value: string) => value }, loadDataDir: await seededExampleDump() });
  return new Kysely<ExampleDatabase>({ dialect: new LinkedDialect(new PGliteDialect(pglite), link), plugins: [new CamelCasePlugin()] });
}
