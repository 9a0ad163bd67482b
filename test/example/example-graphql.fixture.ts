/**
 * The example documents app over GraphQL, as its e2e files start it: one app per file (AppModule on the
 * embedded PGlite), spies on every method of its ownership rule source and on every SQL statement (calling
 * through), and the requests and expected answers the tests compare whole.
 */
import 'reflect-metadata';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, jest } from '@jest/globals';
import request from 'supertest';
import { EXAMPLE_OWNERSHIP_RULES } from '../../examples/documents/example.constants.js';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import type { TestApp } from '../nest/fixtures/documents.fixture.js';
import { startExampleApp } from './example-app.fixture.js';
import { documentWithout } from './example-expectations.js';
import { ALL_FIELDS, asSelected, forbiddenError, type ExpectedGraphQLError } from './graphql-expectations.js';

export const GRAPHQL = '/graphql';
export const READ = '/documents-protected-simple';

/** An answer as the tests compare it: the status and the parsed body together, so a wrong status shows its body. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** The methods of the rule source the engine calls: the filter of a list, ownership among ids, every owned id. */
const SOURCE_METHODS = ['filter', 'ownedAmong', 'listOwned'] as const;
// Set once the app has started: the source is the app's EXAMPLE_OWNERSHIP_RULES instance, which the engine calls
// through at every question. The spies call through.
let ownershipSpies = new Map<string, { mock: { calls: unknown[][] }; mockClear(): void; mockRestore(): void }>();

/** How many times each method of the ownership rule source was called since the last {@link clearOwnershipCalls}; uncalled methods are left out. */
export function ownershipCalls(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, spy] of ownershipSpies) if (spy.mock.calls.length > 0) counts[name] = spy.mock.calls.length;
  return counts;
}

/** The ids each `ownedAmong` call was asked about, sorted. */
export function ownedAmongIds(): number[][] {
  const spy = ownershipSpies.get('ownedAmong');
  return (spy?.mock.calls ?? []).map((args) => [...(args[1] as readonly number[])].sort((a, b) => a - b));
}

// Every SQL statement of the embedded database goes through PGlite's `query` (kysely's PGlite dialect) or `exec`:
// counting their calls tells whether a request ran any SQL at all. The spies call through.
const sqlSpies = [jest.spyOn(PGlite.prototype, 'query'), jest.spyOn(PGlite.prototype, 'exec')];

/**
 * How many SQL statements ran since the last {@link clearOwnershipCalls}, leaving out the decision log's writes:
 * the log writes earlier requests' decisions in batches on later turns, whenever they fall.
 */
export function sqlStatements(): number {
  return sqlSpies.reduce((sum, spy) => sum + spy.mock.calls.filter((args) => !String(args[0]).includes('decision_log')).length, 0);
}

/** Forgets the ownership calls and SQL statements counted so far. */
export function clearOwnershipCalls(): void {
  for (const spy of ownershipSpies.values()) spy.mockClear();
  for (const spy of sqlSpies) spy.mockClear();
}

let app: TestApp | undefined;

/** The running app of this file (between useExampleGraphQLApp's beforeAll and afterAll). */
export function exampleApp(): TestApp {
  if (app === undefined) throw new Error('the example app is not running: call useExampleGraphQLApp() at the top of the test file');
  return app;
}

/**
 * Starts the app before the file's tests and closes it after them. Unknown roles (QA_MANAGER, GOD,
 * ANONYMOUS) are warned about once each: console.warn stays quiet meanwhile.
 */
export function useExampleGraphQLApp(): void {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

  beforeAll(async () => {
    app = await startExampleApp();
    const source = app.get<KyselyOwnershipSource>(EXAMPLE_OWNERSHIP_RULES);
    ownershipSpies = new Map(SOURCE_METHODS.map((name) => [name, jest.spyOn(source, name)] as const));
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    app = undefined;
    warn.mockRestore();
    for (const spy of ownershipSpies.values()) spy.mockRestore();
    ownershipSpies = new Map();
    for (const spy of sqlSpies) spy.mockRestore();
  });
}

/** POSTs a JSON body (one operation, or an array for a batch) to /graphql. */
export const post = async (body: unknown, userId?: string): Promise<Answer> => {
  const call = request(exampleApp().getHttpServer()).post(GRAPHQL).set('content-type', 'application/json');
  const response = await (userId === undefined ? call : call.set('x-user-id', userId)).send(JSON.stringify(body));
  return { status: response.status, body: response.body as unknown };
};
export const gql = (query: string, userId?: string, variables?: Record<string, unknown>): Promise<Answer> =>
  post(variables === undefined ? { query } : { query, variables }, userId);
export const rest = async (path: string, userId: string): Promise<Answer> => {
  const response = await request(exampleApp().getHttpServer()).get(path).set('x-user-id', userId);
  return { status: response.status, body: response.body as unknown };
};

/** 200 with `data` only. */
export const ok = (data: unknown): Answer => ({ status: 200, body: { data } });
/** 200 with field errors: execution ran, some fields failed (errors come first in Apollo's body, as sent). */
export const partial = (errors: readonly ExpectedGraphQLError[], data: unknown): Answer => ({ status: 200, body: { errors, data } });
/** 400: the operation was refused before anything ran; the body has no `data`. */
export const refused = (...errors: readonly ExpectedGraphQLError[]): Answer => ({ status: 400, body: { errors } });

export const oneDocument = (id: number, selection = ALL_FIELDS) => `{ document(id: ${id}) { ${selection} } }`;
/** A refused read: by default of a document that is not the caller's; `no-grant` for a caller whose roles read none. */
export const forbiddenRead = (path = 'document', column = 3, reason: 'no-grant' | 'not-owner' = 'not-owner') =>
  forbiddenError('read on document is not granted', reason, path, column);
/** A refused list: no record is asked about, so never `not-owner`. */
export const forbiddenList = (column = 3) => forbiddenError('list on document is not granted', 'no-grant', 'documents', column);

/** After a refusal the server must still answer normally: EMPLOYEE 1 reads document 10. */
export const expectStillAnswers = async (): Promise<void> => {
  expect(await gql(oneDocument(10), '1')).toEqual(ok({ document: asSelected(documentWithout(10, 'confidential')) }));
};
