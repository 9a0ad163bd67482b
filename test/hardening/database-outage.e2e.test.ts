/**
 * The example app when its database goes away during requests, and comes back.
 *
 * The app runs unchanged (AppModule, guard, ownership service, repositories); only the kysely
 * instance under EXAMPLE_DATABASE is ours: the real embedded PGlite behind a driver whose "network
 * link" the test can cut. A cut link fails the way a PostgreSQL server that went away fails through
 * `pg`: acquiring a connection is refused (ECONNREFUSED), a query on a connection taken before the
 * cut dies with "Connection terminated unexpectedly", and a stalled link hangs until the server is
 * back. The link can be cut after the next N queries, so the outage can begin at any point inside a
 * request: before the user lookup, between it and the ownership hook, or while the handler reads.
 *
 * Checked: while the database is away every request that needs it answers 503 (500 for a hook time-out) with a JSON
 * error and no document data — never 200 with a partial body, never 403 as a silent fallback; a
 * failing ownership hook never grants (the handler does not run); answers that need no database
 * (anonymous callers, malformed ids) do not change; and once the database is back the very same
 * app answers every request exactly as before the outage.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
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
import request from 'supertest';
import { PermissionsHookError } from '../../runtime/core/index.js';
import { AppModule } from '../../examples/documents/app.module.js';
import { migrate, seed } from '../../examples/documents/database.js';
import { exampleDocuments, type ExampleDocument } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { EXAMPLE_DATABASE } from '../../examples/documents/example.constants.js';
import { PermissionsService } from '../../runtime/nest/index.js';

// ---- a database link that can be cut ---------------------------------------------------------

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
class DatabaseLink {
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

/** The example database (embedded PGlite, dates kept as ISO text like the app's own), over `link`. */
async function createLinkedDatabase(link: DatabaseLink): Promise<Kysely<ExampleDatabase>> {
  const pglite = await PGlite.create({ parsers: { [pgliteTypes.DATE]: (value: string) => value } });
  const db = new Kysely<ExampleDatabase>({ dialect: new LinkedDialect(new PGliteDialect(pglite), link), plugins: [new CamelCasePlugin()] });
  await migrate(db);
  await seed(db);
  return db;
}

// ---- what the app answers when all is well ---------------------------------------------------

type Attribute = keyof ExampleDocument;
const DOCUMENT_ATTRIBUTES: readonly Attribute[] = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'];

const byId = [...exampleDocuments].sort((a, b) => a.id - b.id);
function documentNamed(id: number): ExampleDocument {
  const document = exampleDocuments.find((candidate) => candidate.id === id);
  if (document === undefined) throw new Error(`No example document ${id}.`);
  return document;
}
function only(document: ExampleDocument, attributes: readonly Attribute[]): Partial<ExampleDocument> {
  return Object.fromEntries(attributes.map((attribute) => [attribute, document[attribute]]));
}
function without(document: ExampleDocument, ...excluded: Attribute[]): Partial<ExampleDocument> {
  return only(
    document,
    DOCUMENT_ATTRIBUTES.filter((attribute) => !excluded.includes(attribute)),
  );
}

interface Probe {
  readonly name: string;
  readonly path: string;
  readonly userId?: string;
  /** The 200 body the app answers while the database is up. */
  readonly body: unknown;
}

/** Requests that need the database, each with its exact answer while the database is up. */
const PROBES: readonly Probe[] = [
  {
    name: 'EMPLOYEE 1 reads own document 10 (guarded, isCreator hook)',
    path: '/documents-protected-simple/10',
    userId: '1',
    body: without(documentNamed(10), 'confidential'),
  },
  {
    name: 'EMPLOYEE 1 lists (guarded, filterPick)',
    path: '/documents-protected-simple',
    userId: '1',
    body: byId.map((document) => (document.creatorId === 1 ? without(document, 'confidential') : only(document, ['title', 'date']))),
  },
  {
    name: 'EMPLOYEE_MANAGER 2 lists owned documents (limitOwn in SQL)',
    path: '/documents-owned',
    userId: '2',
    body: byId.filter((document) => [1, 2, 4].includes(document.creatorId)).map((document) => without(document, 'confidential', 'personal')),
  },
  {
    name: 'COMPANY_ADMIN 4 reads document 50 of the same company (listOwned company hook)',
    path: '/documents-protected-simple/50',
    userId: '4',
    body: documentNamed(50),
  },
  { name: 'SUPER_ADMIN 5 reads document 1 (any access)', path: '/documents-protected-simple/1', userId: '5', body: documentNamed(1) },
  { name: 'unguarded read of document 1', path: '/documents/1', body: documentNamed(1) },
  { name: 'unguarded list', path: '/documents', body: byId },
];

/** Texts that only document data contains: none may appear in an error answer. */
const DOCUMENT_TEXTS = ['Document Title', 'Personal note', 'Confidential figures', '"creatorId"', '"confidential"', '"personal"'];

describe('example app: the database goes away during requests, then comes back', () => {
  let app: INestApplication<Server>;
  let permissions: PermissionsService;
  const link = new DatabaseLink();
  // Roles without definitions (QA_MANAGER, GOD, ANONYMOUS) are warned about once each.
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  /** How many queries each probe makes while all is well. */
  const queriesOf = new Map<Probe, number>();

  beforeAll(async () => {
    const db = await createLinkedDatabase(link);
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ hookTimeoutMs: 300 })] })
      .overrideProvider(EXAMPLE_DATABASE)
      .useValue(db)
      .compile();
    app = moduleRef.createNestApplication<INestApplication<Server>>({ logger: false });
    await app.init();
    permissions = app.get(PermissionsService);
  });

  afterAll(async () => {
    link.restore();
    await app.close(); // also destroys the database (the app's DatabaseCloser)
    warn.mockRestore();
  });

  function get(probe: Pick<Probe, 'path' | 'userId'>): request.Test {
    const call = request(app.getHttpServer()).get(probe.path);
    return probe.userId === undefined ? call : call.set('x-user-id', probe.userId);
  }

  /**
   * The answer must be a server error, as JSON, with nothing of any document: 503 (with Retry-After)
   * when the database refused or dropped the connection, 500 when a hook timed out (no cause to tell).
   */
  function expectServerErrorWithoutData(response: request.Response, label: string, expected: 500 | 503 = 503): void {
    const context = `${label}: ${response.status} ${response.text.slice(0, 200)}`;
    expect({ context, status: response.status }).toEqual({ context, status: expected });
    if (expected === 503) expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body: unknown = JSON.parse(response.text);
    expect(typeof body === 'object' && body !== null && !Array.isArray(body)).toBe(true);
    expect(body).toMatchObject({ statusCode: response.status });
    for (const attribute of DOCUMENT_ATTRIBUTES) expect(body).not.toHaveProperty(attribute);
    for (const text of DOCUMENT_TEXTS) expect({ context, leaked: response.text.includes(text) }).toEqual({ context, leaked: false });
  }

  it('before the outage: every probe answers 200 with its exact body (and the number of queries it makes is known)', async () => {
    for (const probe of PROBES) {
      link.clearLog();
      const response = await get(probe);
      expect({ probe: probe.name, status: response.status, body: response.body as unknown }).toEqual({ probe: probe.name, status: 200, body: probe.body });
      queriesOf.set(probe, link.queries.length);
    }
    expect([...queriesOf.values()].every((count) => count >= 1)).toBe(true);
  });

  it('the database is down: every request that needs it answers 500/503 with a JSON error, no data and no 403', async () => {
    link.cut();
    try {
      for (const probe of PROBES) expectServerErrorWithoutData(await get(probe), probe.name);
      expect(link.refusedConnections).toBeGreaterThanOrEqual(PROBES.length);
    } finally {
      link.restore();
    }
  });

  it('the database goes away at every point inside a request: never a 200 with partial data, never a 403', async () => {
    for (const probe of PROBES) {
      const queries = queriesOf.get(probe) ?? 0;
      // Cut after 0, 1, …, queries − 1 queries of this very request: before the user lookup, between
      // it and the ownership hook, between the hook and the handler's read, in the middle of filterPick.
      for (let allowed = 0; allowed < queries; allowed += 1) {
        link.cut(allowed);
        try {
          expectServerErrorWithoutData(await get(probe), `${probe.name}, cut after ${allowed} of ${queries} queries`);
        } finally {
          link.restore();
        }
      }
    }
  });

  it('an ownership hook that cannot reach the database never grants: the guard answers 500/503 and the handler does not read', async () => {
    // EMPLOYEE 1 reads own document 10: the user lookup succeeds, then the isCreator hook's query is refused.
    link.clearLog();
    link.cut(1);
    try {
      const response = await get({ path: '/documents-protected-simple/10', userId: '1' });
      expectServerErrorWithoutData(response, 'isCreator hook without a database');
      expect(link.queries).toHaveLength(1);
      expect(link.queries[0]).toContain('"user_roles"');
      expect(link.refusedConnections).toBe(1); // the hook's query; the handler's read was never attempted
    } finally {
      link.restore();
    }

    // The same question asked of the engine directly: the permit is refused with the hook error.
    for (const [user, resourceId] of [
      [{ id: 1, roles: ['EMPLOYEE'] }, 10],
      [{ id: 2, roles: ['EMPLOYEE_MANAGER'] }, 1],
      [{ id: 4, roles: ['COMPANY_ADMIN'] }, 50],
      [{ id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'] }, 5],
    ] as const) {
      link.cut();
      try {
        const attempt = permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId });
        await expect(attempt).rejects.toBeInstanceOf(PermissionsHookError);
        await expect(attempt).rejects.toMatchObject({ code: 'PERMISSIONS_HOOK_FAILED' });
      } finally {
        link.restore();
      }
      // and with the database back, the same question is granted
      expect((await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId })).granted).toBe(true);
    }
  });

  it('a database that stops answering mid-request: the hook times out (hookTimeoutMs 300) and the guard fails closed', async () => {
    link.clearLog();
    link.stall(1); // the user lookup is answered, the isCreator query hangs
    const started = performance.now();
    let response: request.Response;
    try {
      response = await get({ path: '/documents-protected-simple/10', userId: '1' });
    } finally {
      link.restore(); // the hung query now fails as terminated and frees the connection
    }
    const elapsed = performance.now() - started;
    expectServerErrorWithoutData(response, 'stalled isCreator hook', 500);
    expect(elapsed).toBeGreaterThanOrEqual(250); // it cannot answer before the hook's time-out
    expect(link.queries).toHaveLength(2); // user lookup + the hung hook query; the handler never read
  });

  it('answers that need no database do not change during the outage', async () => {
    const cases = [
      { path: '/documents-protected-simple/1', status: 403 }, // anonymous: ANONYMOUS has no grants
      { path: '/documents-protected-simple', status: 403 },
      { path: '/documents-owned', status: 403 },
      { path: '/documents-protected-simple/1', userId: 'abc', status: 401 }, // malformed caller
      { path: '/documents/abc', status: 400 }, // malformed id, unguarded
    ];
    const before = await Promise.all(cases.map(async (entry) => (await get(entry)).text));
    link.clearLog();
    link.cut();
    try {
      for (const [index, entry] of cases.entries()) {
        const response = await get(entry);
        expect({ path: entry.path, status: response.status, text: response.text }).toEqual({ path: entry.path, status: entry.status, text: before[index] });
      }
      expect(link.queries).toEqual([]);
      expect(link.refusedConnections).toBe(0);
    } finally {
      link.restore();
    }
  });

  it('after the database returns, the same app answers every probe exactly as before the outage', async () => {
    link.cut();
    for (const probe of PROBES) expect((await get(probe)).status).toBe(503);
    link.restore();
    for (const probe of PROBES) {
      const response = await get(probe);
      expect({ probe: probe.name, status: response.status, body: response.body as unknown }).toEqual({ probe: probe.name, status: 200, body: probe.body });
    }
    // and again after several outages in a row, concurrently
    const answers = await Promise.all(PROBES.map(async (probe) => ({ probe: probe.name, status: (await get(probe)).status })));
    expect(answers).toEqual(PROBES.map((probe) => ({ probe: probe.name, status: 200 })));
  });
});
