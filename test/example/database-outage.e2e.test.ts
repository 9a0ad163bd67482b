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
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { AppUser } from '../../examples/documents/app-user.js';
import { PermissionsHookError } from '../../runtime/permissions/index.js';
import { startExampleApp } from './example-app.fixture.js';
import { createLinkedDatabase, DatabaseLink } from './database-link.js';
import { exampleDocuments, type ExampleDocument } from '../../examples/documents/example-data.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import { DecisionLogWriter } from '../../examples/documents/decision-log.writer.js';

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
    name: 'EMPLOYEE 1 reads own document 10 (guarded, the creator rule)',
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

let app: INestApplication<Server>;
let permissions: PermissionsService;

const link = new DatabaseLink();

// Roles without definitions (QA_MANAGER, GOD) are warned about once each.
const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

/** How many queries each probe makes while all is well. */
const queriesOf = new Map<Probe, number>();

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

describe('example app: the database goes away during requests, then comes back', () => {
  beforeAll(async () => {
    const db = await createLinkedDatabase(link);
    app = await startExampleApp({ hookTimeoutMs: 300 }, { database: db });
    permissions = app.get(PermissionsService);
  }, 180_000);

  afterAll(async () => {
    link.restore();
    await app.close(); // also destroys the database (the app's DatabaseCloser)
    warn.mockRestore();
  });
  beforeAndDuringTheOutage();

  it('a database that stops answering mid-request: the hook times out (hookTimeoutMs 300) and the guard fails closed', async () => {
    // The decision log's batch of the earlier requests is written now and held during the stall: were it written in
    // the stall, it would take the one query let through, and the user lookup (which has no time-out) would hang.
    const decisionLog = app.get(DecisionLogWriter);
    await decisionLog.flush();
    const held = jest.spyOn(decisionLog, 'flush').mockResolvedValue(undefined);
    link.clearLog();
    link.stall(1); // the user lookup is answered, the creator rule's query hangs
    const started = performance.now();
    let response: request.Response;
    try {
      response = await get({ path: '/documents-protected-simple/10', userId: '1' });
    } finally {
      link.restore(); // the hung query now fails as terminated and frees the connection
      held.mockRestore();
    }
    const elapsed = performance.now() - started;
    expectServerErrorWithoutData(response, 'stalled ownership rule query', 500);
    expect(elapsed).toBeGreaterThanOrEqual(250); // it cannot answer before the hook's time-out
    expect(link.queries).toHaveLength(2); // user lookup + the hung hook query; the handler never read
  });

  it('answers that need no database do not change during the outage', async () => {
    const cases = [
      { path: '/documents-protected-simple/1', status: 403 }, // anonymous: ANONYMOUS has no grant on documents
      { path: '/documents-protected-simple', status: 403 },
      { path: '/documents-owned', status: 403 },
      { path: '/documents-protected-simple/1', userId: 'abc', status: 401 }, // malformed caller
      { path: '/documents/abc', status: 400 }, // malformed id, unguarded
    ];
    const before = await Promise.all(cases.map(async (entry) => (await get(entry)).text));
    // The decision log writes its batch a second after a decision, in the background, and that does need the
    // database: it is written before the cut and held during it, so that what the link sees is the requests'.
    const decisionLog = app.get(DecisionLogWriter);
    await decisionLog.flush();
    const held = jest.spyOn(decisionLog, 'flush').mockResolvedValue(undefined);
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
      held.mockRestore();
      await decisionLog.flush();
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

function beforeAndDuringTheOutage(): void {
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
    // EMPLOYEE 1 reads own document 10: the user lookup succeeds, then the creator rule's query is refused.
    link.clearLog();
    link.cut(1);
    try {
      const response = await get({ path: '/documents-protected-simple/10', userId: '1' });
      expectServerErrorWithoutData(response, 'ownership rule query without a database');
      expect(link.queries).toHaveLength(1);
      expect(link.queries[0]).toContain('"user_roles"');
      expect(link.refusedConnections).toBe(1); // the hook's query; the handler's read was never attempted
    } finally {
      link.restore();
    }

    // The same question asked of the engine directly: the permit is refused with the hook error.
    const cases: [user: AppUser, resourceId: number][] = [
      [{ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }, 10],
      [{ id: 2, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [1, 4] }, 1],
      [{ id: 4, roles: ['COMPANY_ADMIN'], companyId: 2, managedUserIds: [] }, 50],
      [{ id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [5, 6] }, 5],
    ];
    for (const [user, resourceId] of cases) {
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
}
