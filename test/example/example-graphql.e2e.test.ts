/**
 * The example documents app over GraphQL (issue 13, items 2–5 for the example): `POST /graphql` of the same
 * Nest app as REST (AppModule on the embedded PGlite), the same `x-user-id` header, the same expectations
 * (example-expectations.ts) in their GraphQL form (graphql-expectations.ts: a hidden field is `null`).
 *
 * - item 2: the spec's five example checks, who calls, bad and missing ids, managers and the multi-role defect;
 * - item 3: field-level hostility (aliases, fragments, directives, variables, partial refusals);
 * - item 4: N+1 — a `documents` query makes exactly the ownership calls REST makes;
 * - item 5: limits and cost attacks, each at the limit and one past it, and the HTTP-level refusals;
 * - every path and method Apollo answers (`/graphql/x`, `/GRAPHQL`, `/graphql/..`, GET, PUT, …): the batch limit and
 *   every per-operation limit hold on each, other paths run nothing; persisted queries, missing root types and
 *   malformed requests keep GraphQL's and Apollo's standard codes, never INTERNAL_SERVER_ERROR or 5xx.
 *
 * Every assertion compares the HTTP status and the whole body at once: execution errors are 200, refusals
 * before execution 400, and nothing is ever 5xx. One app for the whole file: PGlite takes a second or two to start.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { AppModule } from '../../examples/documents/app.module.js';
import { DocumentOwnershipService } from '../../examples/documents/document-ownership.service.js';
import { ALL_DOCUMENT_IDS, allDocumentsInFull, documentOnly, documentWithId, documentWithout, employeeListFor, idsCreatedBy } from './example-expectations.js';
import {
  ALL_FIELDS,
  aliasedReads,
  asSelected,
  batchLimitRefusal,
  costlyRead,
  fieldError,
  inlineFragmentsDeep,
  operationError,
  queryOfTokens,
  repeatedDirectives,
  tokenCount,
  tokenLocation,
  type ExpectedGraphQLError,
  type SelectedDocument,
} from './graphql-expectations.js';

const GRAPHQL = '/graphql';
const READ = '/documents-protected-simple';

/** An answer as the tests compare it: the status and the parsed body together, so a wrong status shows its body. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

// The ownership service's methods are bound when the app starts (build() resolves hook names to methods):
// spy on the class before that, for the whole file. The spies call through.
const ownershipPrototype = DocumentOwnershipService.prototype as unknown as Record<string, (...args: never[]) => unknown>;
const OWNERSHIP_METHODS = Object.getOwnPropertyNames(DocumentOwnershipService.prototype).filter((name) => name !== 'constructor');
const ownershipSpies = new Map(OWNERSHIP_METHODS.map((name) => [name, jest.spyOn(ownershipPrototype, name)] as const));

/** How many times each method of the ownership service was called since the last {@link clearOwnershipCalls}; uncalled methods are left out. */
function ownershipCalls(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, spy] of ownershipSpies) if (spy.mock.calls.length > 0) counts[name] = spy.mock.calls.length;
  return counts;
}

/** The ids each `ownedDocumentsAmong` call was asked about, sorted. */
function ownedAmongIds(): number[][] {
  const spy = ownershipSpies.get('ownedDocumentsAmong');
  return (spy?.mock.calls ?? []).map((args) => [...(args[0] as unknown as { resourceIds: readonly number[] }).resourceIds].sort((a, b) => a - b));
}

// Every SQL statement of the embedded database goes through PGlite's `query` (kysely's PGlite dialect) or `exec`:
// counting their calls tells whether a request ran any SQL at all. The spies call through.
const sqlSpies = [jest.spyOn(PGlite.prototype, 'query'), jest.spyOn(PGlite.prototype, 'exec')];

/** How many SQL statements ran since the last {@link clearOwnershipCalls}. */
function sqlStatements(): number {
  return sqlSpies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

function clearOwnershipCalls(): void {
  for (const spy of ownershipSpies.values()) spy.mockClear();
  for (const spy of sqlSpies) spy.mockClear();
}

let app: INestApplication<Server>;
// Unknown roles (QA_MANAGER, GOD, ANONYMOUS) are warned about once each; keep the test output quiet.
const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot()] }).compile();
  app = moduleRef.createNestApplication<INestApplication<Server>>({ logger: false });
  await app.init();
}, 30_000);

afterAll(async () => {
  await app.close();
  warn.mockRestore();
  // Restored only once the app has closed: it bound the ownership methods when it started.
  for (const spy of ownershipSpies.values()) spy.mockRestore();
  for (const spy of sqlSpies) spy.mockRestore();
});

describe('issue 13: the example app over GraphQL (NestJS, Apollo, embedded PGlite)', () => {
  /** POSTs a JSON body (one operation, or an array for a batch) to /graphql. */
  const post = async (body: unknown, userId?: string): Promise<Answer> => {
    const call = request(app.getHttpServer()).post(GRAPHQL).set('content-type', 'application/json');
    const response = await (userId === undefined ? call : call.set('x-user-id', userId)).send(JSON.stringify(body));
    return { status: response.status, body: response.body as unknown };
  };
  const gql = (query: string, userId?: string, variables?: Record<string, unknown>): Promise<Answer> =>
    post(variables === undefined ? { query } : { query, variables }, userId);
  const rest = async (path: string, userId: string): Promise<Answer> => {
    const response = await request(app.getHttpServer()).get(path).set('x-user-id', userId);
    return { status: response.status, body: response.body as unknown };
  };

  /** 200 with `data` only. */
  const ok = (data: unknown): Answer => ({ status: 200, body: { data } });
  /** 200 with field errors: execution ran, some fields failed (errors come first in Apollo's body, as sent). */
  const partial = (errors: readonly ExpectedGraphQLError[], data: unknown): Answer => ({ status: 200, body: { errors, data } });
  /** 400: the operation was refused before anything ran; the body has no `data`. */
  const refused = (...errors: readonly ExpectedGraphQLError[]): Answer => ({ status: 400, body: { errors } });

  const oneDocument = (id: number, selection = ALL_FIELDS) => `{ document(id: ${id}) { ${selection} } }`;
  const forbiddenRead = (path = 'document', column = 3) => fieldError('read on document is not granted', 'FORBIDDEN', path, column);

  /** After a refusal the server must still answer normally: EMPLOYEE 1 reads document 10. */
  const expectStillAnswers = async (): Promise<void> => {
    expect(await gql(oneDocument(10), '1')).toEqual(ok({ document: asSelected(documentWithout(10, 'confidential')) }));
  };

  describe("issue 13 item 2: the spec's example checks, who calls, ids, managers and the multi-role defect", () => {
    it('item 2: check 1 — EMPLOYEE 1 reads owned document 10: every field, confidential null', async () => {
      expect(await gql(oneDocument(10), '1')).toEqual(
        ok({
          document: {
            id: 10,
            title: 'Document Title 10',
            date: '2024-01-10',
            status: 'review',
            personal: 'Personal note of user 1 on document 10',
            confidential: null,
            creatorId: 1,
          },
        }),
      );
    });

    it('item 2: check 2 — EMPLOYEE 1 reads documents 2 and 40 (not owned): FORBIDDEN at path document, document null', async () => {
      for (const id of [2, 40]) expect(await gql(oneDocument(id), '1')).toEqual(partial([forbiddenRead()], { document: null }));
    });

    it('item 2: check 3 — COMPANY_ADMIN 4 reads document 50 (same company) with every field; documents 1 and 8: FORBIDDEN', async () => {
      expect(await gql(oneDocument(50), '4')).toEqual(ok({ document: asSelected(documentWithId(50)) }));
      for (const id of [1, 8]) expect(await gql(oneDocument(id), '4')).toEqual(partial([forbiddenRead()], { document: null }));
    });

    it('item 2: check 4 — EMPLOYEE 1 lists 24 documents in id order: owned ones without confidential, others title and date only (id null too)', async () => {
      const answer = await gql(`{ documents { ${ALL_FIELDS} } }`, '1');
      expect(answer).toEqual(ok({ documents: employeeListFor(1).map((document) => asSelected(document)) }));
      const listed = (answer.body as { data: { documents: SelectedDocument[] } }).data.documents;
      expect(listed).toHaveLength(24);
      // Only the three owned documents show their id: `list:any` allows title and date alone.
      expect(listed.filter((document) => document.id !== null).map((document) => document.id)).toEqual([1, 10, 100]);
      expect(listed.map((document) => document.date)).toEqual(ALL_DOCUMENT_IDS.map((id) => documentWithId(id).date));
    });

    it('item 2: check 5 — COMPANY_ADMIN 4 lists: FORBIDDEN, and data is null because documents is [Document!]!', async () => {
      // `documents` is non-null, so its error cannot leave it null: graphql-js propagates the null to its parent,
      // the root, and the whole `data` becomes null (a nullable `document` field keeps `data: { document: null }`).
      expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '4')).toEqual(
        partial([fieldError('list on document is not granted', 'FORBIDDEN', 'documents')], null),
      );
    });

    it('item 2: the anonymous caller (no header) is FORBIDDEN on document and documents', async () => {
      expect(await gql(oneDocument(10))).toEqual(partial([forbiddenRead()], { document: null }));
      expect(await gql('{ documents { id } }')).toEqual(partial([fieldError('list on document is not granted', 'FORBIDDEN', 'documents')], null));
    });

    it('item 2: QA_MANAGER 3 and GOD 6 (no definitions) are FORBIDDEN, even on a document they created', async () => {
      for (const [userId, id] of [
        ['3', 3],
        ['6', 600],
      ] as const) {
        expect(await gql(oneDocument(id), userId)).toEqual(partial([forbiddenRead()], { document: null }));
        expect(await gql('{ documents { id } }', userId)).toEqual(partial([fieldError('list on document is not granted', 'FORBIDDEN', 'documents')], null));
      }
    });

    it('item 2: x-user-id 999 (no such user) and "abc" (malformed) are UNAUTHENTICATED on document and documents', async () => {
      for (const [userId, message] of [
        ['999', 'No user has id 999.'],
        ['abc', 'x-user-id must be the id of a user.'],
      ] as const) {
        expect(await gql(oneDocument(10), userId)).toEqual(partial([fieldError(message, 'UNAUTHENTICATED', 'document')], { document: null }));
        expect(await gql('{ documents { id } }', userId)).toEqual(partial([fieldError(message, 'UNAUTHENTICATED', 'documents')], null));
      }
    });

    it('item 2: ids 0 and -5 are BAD_USER_INPUT (parseDocumentId), as literals and as variables, for every kind of caller', async () => {
      for (const id of [0, -5]) {
        const message = `Document id must be a positive integer, got "${id}".`;
        for (const userId of ['1', '4', '5', undefined]) {
          expect({ userId, answer: await gql(oneDocument(id, 'id'), userId) }).toEqual({
            userId,
            answer: partial([fieldError(message, 'BAD_USER_INPUT', 'document')], { document: null }),
          });
        }
        // `query($id: Int!) { document(id: $id) … }`: the field starts at column 20.
        expect(await gql('query($id: Int!) { document(id: $id) { id } }', '5', { id })).toEqual(
          partial([fieldError(message, 'BAD_USER_INPUT', 'document', 20)], { document: null }),
        );
      }
    });

    it('item 2: an id literal of the wrong type ("abc", 1.5, 2147483648) is BAD_USER_INPUT with HTTP 400', async () => {
      // graphql-js's ValuesOfCorrectTypeRule reports the Int scalar's own message for these literals.
      for (const [literal, message] of [
        ['"abc"', 'Int cannot represent non-integer value: "abc"'],
        ['1.5', 'Int cannot represent non-integer value: 1.5'],
        ['2147483648', 'Int cannot represent non 32-bit signed integer value: 2147483648'],
      ] as const) {
        expect({ literal, answer: await gql(`{ document(id: ${literal}) { id } }`, '1') }).toEqual({
          literal,
          answer: refused(operationError(message, 'BAD_USER_INPUT', [{ line: 1, column: 16 }])),
        });
      }
      await expectStillAnswers();
    });

    it('item 2: a null id literal and a variable of the wrong type are BAD_USER_INPUT (400); a missing id is a validation error (400)', async () => {
      expect(await gql('{ document(id: null) { id } }', '1')).toEqual(
        refused(operationError('Expected value of type "Int!", found null.', 'BAD_USER_INPUT', [{ line: 1, column: 16 }])),
      );
      expect(await gql('query($id: Int!) { document(id: $id) { id } }', '1', { id: 'abc' })).toEqual(
        refused(
          operationError('Variable "$id" got invalid value "abc"; Int cannot represent non-integer value: "abc"', 'BAD_USER_INPUT', [{ line: 1, column: 7 }]),
        ),
      );
      expect(await gql('{ document { id } }', '1')).toEqual(
        refused(
          operationError('Field "document" argument "id" of type "Int!" is required, but it was not provided.', 'GRAPHQL_VALIDATION_FAILED', [
            { line: 1, column: 3 },
          ]),
        ),
      );
      await expectStillAnswers();
    });

    it('item 2: a missing document (99) is NOT_FOUND for SUPER_ADMIN 5 and user 8, FORBIDDEN for callers without any-access', async () => {
      for (const userId of ['5', '8'])
        expect(await gql(oneDocument(99), userId)).toEqual(partial([fieldError('No document 99.', 'NOT_FOUND', 'document')], { document: null }));
      for (const userId of ['1', '2', '4', '7', undefined]) expect(await gql(oneDocument(99), userId)).toEqual(partial([forbiddenRead()], { document: null }));
    });

    it('item 2: SUPER_ADMIN 5 lists all 24 documents with every field', async () => {
      expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '5')).toEqual(ok({ documents: allDocumentsInFull().map((document) => asSelected(document)) }));
    });

    it("item 2: EMPLOYEE_MANAGER 2 reads their own and managed users' documents without confidential and personal", async () => {
      for (const id of idsCreatedBy(1, 2, 4)) {
        expect({ id, answer: await gql(oneDocument(id), '2') }).toEqual({
          id,
          answer: ok({ document: asSelected(documentWithout(id, 'confidential', 'personal')) }),
        });
      }
    });

    it('item 2: EMPLOYEE_MANAGER 2 is FORBIDDEN documents of users they do not manage', async () => {
      for (const id of idsCreatedBy(3, 5, 6, 7, 8)) {
        expect({ id, answer: await gql(oneDocument(id, 'id'), '2') }).toEqual({ id, answer: partial([forbiddenRead()], { document: null }) });
      }
    });

    it('item 2: EMPLOYEE_MANAGER 2 lists own and managed documents without confidential and personal, others with title, date and status', async () => {
      const owned = new Set(idsCreatedBy(1, 2, 4));
      expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '2')).toEqual(
        ok({
          documents: ALL_DOCUMENT_IDS.map((id) =>
            asSelected(owned.has(id) ? documentWithout(id, 'confidential', 'personal') : documentOnly(id, 'title', 'date', 'status')),
          ),
        }),
      );
    });

    it('item 2: multi-role defect — user 7 reading document 6, owned only through management, sees neither confidential nor personal', async () => {
      for (const id of [6, 5, 50, 600]) {
        expect({ id, answer: await gql(oneDocument(id), '7') }).toEqual({
          id,
          answer: ok({ document: asSelected(documentWithout(id, 'confidential', 'personal')) }),
        });
      }
    });

    it('item 2: multi-role — user 7 reads documents of company 1 (COMPANY_ADMIN) and their own (both roles) with every field', async () => {
      for (const id of [1, 2, 30, 100, 70]) {
        expect({ id, answer: await gql(oneDocument(id), '7') }).toEqual({ id, answer: ok({ document: asSelected(documentWithId(id)) }) });
      }
    });

    it('item 2: multi-role — user 7 is FORBIDDEN documents neither role owns (8, 4)', async () => {
      for (const id of [8, 4]) expect(await gql(oneDocument(id), '7')).toEqual(partial([forbiddenRead()], { document: null }));
    });
  });

  describe('issue 13 item 3: field level against hostile selections', () => {
    it('item 3: aliases of confidential are null, also an alias named like an allowed field (title: confidential)', async () => {
      expect(await gql('{ document(id: 10) { c: confidential title: confidential id: title secret: confidential } }', '1')).toEqual(
        ok({ document: { c: null, title: null, id: 'Document Title 10', secret: null } }),
      );
      // EMPLOYEE_MANAGER 2 may not see personal on the managed document 1, whatever it is called.
      expect(await gql('{ document(id: 1) { title: personal p: personal status } }', '2')).toEqual(ok({ document: { title: null, p: null, status: 'draft' } }));
    });

    it('item 3: confidential through a named fragment, an inline fragment, @include(if: true) and @skip(if: false) is null; __typename answers', async () => {
      const query =
        '{ document(id: 10) { ...Secret ... on Document { inline: confidential } included: confidential @include(if: true) ' +
        'kept: confidential @skip(if: false) __typename } } fragment Secret on Document { confidential title }';
      expect(await gql(query, '1')).toEqual(
        ok({ document: { confidential: null, title: 'Document Title 10', inline: null, included: null, kept: null, __typename: 'Document' } }),
      );
    });

    it('item 3: @include with a variable: true gives null for confidential, false leaves the field out', async () => {
      const query =
        'query Q($show: Boolean!) { document(id: 10) { id confidential @include(if: $show) ...F @include(if: $show) } } fragment F on Document { personal }';
      expect(await gql(query, '1', { show: true })).toEqual(
        ok({ document: { id: 10, confidential: null, personal: 'Personal note of user 1 on document 10' } }),
      );
      expect(await gql(query, '1', { show: false })).toEqual(ok({ document: { id: 10 } }));
    });

    it('item 3: in a list, aliases and fragments of hidden fields are null on every item', async () => {
      const answer = await gql('{ documents { c: confidential ...Person } } fragment Person on Document { personal title }', '1');
      expect(answer).toEqual(
        ok({
          documents: ALL_DOCUMENT_IDS.map((id) => ({
            c: null,
            personal: documentWithId(id).creatorId === 1 ? documentWithId(id).personal : null,
            title: documentWithId(id).title,
          })),
        }),
      );
    });

    it('item 3: one operation mixing a granted and a denied read — data for a, FORBIDDEN at path b, b null', async () => {
      const query = `{ a: document(id: 10) { ${ALL_FIELDS} } b: document(id: 2) { ${ALL_FIELDS} } }`;
      // `b:` starts after `{ a: document(id: 10) { <ALL_FIELDS> } ` — the column of the refused field.
      const column = query.indexOf('b: document') + 1;
      expect(await gql(query, '1')).toEqual(partial([forbiddenRead('b', column)], { a: asSelected(documentWithout(10, 'confidential')), b: null }));
    });

    it('item 3: a denied list next to a granted read — documents is non-null, so its FORBIDDEN nulls the whole data', async () => {
      const query = '{ document(id: 50) { id } documents { id } }';
      expect(await gql(query, '4')).toEqual(
        partial([fieldError('list on document is not granted', 'FORBIDDEN', 'documents', query.indexOf('documents') + 1)], null),
      );
    });
  });

  describe('issue 13 item 4: N+1 — a GraphQL list makes exactly the ownership calls REST makes', () => {
    /** The ownership calls one request makes: counts per method and the ids of each ownedDocumentsAmong call. */
    const callsOf = async (send: () => Promise<Answer>, expectedStatus: number) => {
      clearOwnershipCalls();
      const answer = await send();
      expect(answer.status).toBe(expectedStatus);
      return { counts: ownershipCalls(), ownedAmongIds: ownedAmongIds() };
    };

    const selections: ReadonlyArray<readonly [string, string]> = [
      ['only title', '{ documents { title } }'],
      ['all fields', `{ documents { ${ALL_FIELDS} } }`],
      ['fragments', '{ documents { ...Head ... on Document { id personal } } } fragment Head on Document { title date confidential }'],
    ];

    it.each(selections)(
      'item 4: EMPLOYEE 1 documents (%s): one ownedDocumentsAmong for all 24 ids, as REST GET /documents-protected-simple',
      async (_label, query) => {
        const viaRest = await callsOf(() => rest(READ, '1'), 200);
        const viaGraphQL = await callsOf(() => gql(query, '1'), 200);
        expect(viaGraphQL).toEqual(viaRest);
        expect(viaGraphQL).toEqual({ counts: { limitToCreator: 1, ownedDocumentsAmong: 1 }, ownedAmongIds: [[...ALL_DOCUMENT_IDS]] });
      },
    );

    it.each(selections)('item 4: EMPLOYEE_MANAGER 2 documents (%s): the same calls per method as REST, one ownedDocumentsAmong', async (_label, query) => {
      const viaRest = await callsOf(() => rest(READ, '2'), 200);
      const viaGraphQL = await callsOf(() => gql(query, '2'), 200);
      expect(viaGraphQL).toEqual(viaRest);
      expect(viaGraphQL).toEqual({ counts: { limitToCreatorOrManagedCreators: 1, ownedDocumentsAmong: 1 }, ownedAmongIds: [[...ALL_DOCUMENT_IDS]] });
    });

    it('item 4: user 7 reading document 6 (two ownership groups) asks each group once, as REST GET /documents-protected-simple/6', async () => {
      const viaRest = await callsOf(() => rest(`${READ}/6`, '7'), 200);
      const viaGraphQL = await callsOf(() => gql(oneDocument(6), '7'), 200);
      expect(viaGraphQL).toEqual(viaRest);
      expect(viaGraphQL).toEqual({
        counts: { createdInSameCompany: 1, isCreatedInSameCompany: 1, limitToCreatorOrManagedCreators: 1, ownedDocumentsAmong: 1, someDocumentMatches: 1 },
        ownedAmongIds: [[6]],
      });
    });

    it('item 4: fifteen aliased reads of owned documents by user 1 ask one ownedDocumentsAmong per alias, never isCreator', async () => {
      const query = `{ ${Array.from({ length: 15 }, (_, index) => `a${index}: document(id: 10) { id }`).join(' ')} }`;
      const calls = await callsOf(() => gql(query, '1'), 200);
      // Every root field is its own guard call and permit: an alias costs what one REST read costs, and the alias
      // limit (item 5) bounds how many of them one operation holds.
      expect(calls).toEqual({ counts: { limitToCreator: 15, ownedDocumentsAmong: 15 }, ownedAmongIds: Array.from({ length: 15 }, () => [10]) });
    });
  });

  describe('issue 13 item 5: limits and cost attacks — at the limit accepted, past it refused before anything runs', () => {
    it('item 5: 15 aliases are answered (exact data); 16 are refused (400) and nothing runs', async () => {
      expect(await gql(aliasedReads(15), '5')).toEqual(
        ok(Object.fromEntries(ALL_DOCUMENT_IDS.slice(0, 15).map((id, index) => [`d${index}`, { id, title: `Document Title ${id}` }]))),
      );
      clearOwnershipCalls();
      expect(await gql(aliasedReads(16), '1')).toEqual(
        refused(operationError('Syntax Error: Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED')),
      );
      expect(ownershipCalls()).toEqual({});
      await expectStillAnswers();
    });

    it('item 5: a thousand aliases are refused by the token limit (parse fails at token 1001) before the alias limit is reached', async () => {
      const query = aliasedReads(1000);
      clearOwnershipCalls();
      expect(await gql(query, '1')).toEqual(
        refused(
          operationError('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.', 'GRAPHQL_PARSE_FAILED', [tokenLocation(query, 1001)]),
        ),
      );
      expect(ownershipCalls()).toEqual({});
      await expectStillAnswers();
    });

    it('item 5: a batch of 10 operations answers 10 results in order; 11 and 300 are refused with 400 BATCH_LIMIT_EXCEEDED', async () => {
      const ids = [10, 2, 1, 100, 20, 3, 40, 50, 6, 8];
      const answer = await post(
        ids.map((id) => ({ query: oneDocument(id, 'id title') })),
        '1',
      );
      expect(answer).toEqual({
        status: 200,
        body: ids.map((id) =>
          documentWithId(id).creatorId === 1
            ? { data: { document: { id, title: `Document Title ${id}` } } }
            : { errors: [forbiddenRead()], data: { document: null } },
        ),
      });
      for (const size of [11, 300]) {
        clearOwnershipCalls();
        expect(
          await post(
            Array.from({ length: size }, () => ({ query: oneDocument(10) })),
            '1',
          ),
        ).toEqual(refused(batchLimitRefusal(size)));
        expect(ownershipCalls()).toEqual({});
        await expectStillAnswers();
      }
    });

    it('item 5: depth — Document has only scalar fields, so depth comes from nested inline fragments: 6 levels answer, 7 are refused', async () => {
      // document (1) + four inline fragments (2–5) + id (6)
      expect(await gql(inlineFragmentsDeep(4), '1')).toEqual(ok({ document: { id: 10 } }));
      expect(await gql(inlineFragmentsDeep(5), '1')).toEqual(
        refused(operationError('Syntax Error: Query depth limit of 6 exceeded, found 7.', 'GRAPHQL_VALIDATION_FAILED')),
      );
      await expectStillAnswers();
    });

    it('item 5: depth — graphql-armor counts a named fragment spread as two levels: two chained spreads answer (6), three are refused (8)', async () => {
      // armor 3.2 adds one level for the spread as a selection and one more because fragments are not flattened:
      // document (1) + ...F0 (2, 3) + ...F1 (4, 5) + id (6). A third spread jumps to 8; depth 7 is not reachable this way.
      const chain = (spreads: number) => {
        const fragments = Array.from(
          { length: spreads },
          (_, index) => `fragment F${index} on Document { ${index + 1 < spreads ? `...F${index + 1}` : 'id'} }`,
        );
        return `{ document(id: 10) { ...F0 } } ${fragments.join(' ')}`;
      };
      expect(await gql(chain(2), '1')).toEqual(ok({ document: { id: 10 } }));
      expect(await gql(chain(3), '1')).toEqual(refused(operationError('Syntax Error: Query depth limit of 6 exceeded, found 8.', 'GRAPHQL_VALIDATION_FAILED')));
      await expectStillAnswers();
    });

    it('item 5: introspection under __type counts for the depth limit: depth 6 answers, a deeper ofType chain is refused', async () => {
      const typeQuery = (ofTypes: number) => {
        let inner = 'name';
        for (let level = 0; level < ofTypes; level += 1) inner = `kind ofType { ${inner} }`;
        return `{ __type(name: "Document") { fields { name type { ${inner} } } } }`;
      };
      // __type (1) fields (2) type (3) ofType (4) ofType (5) name (6); every field of Document is a nullable scalar.
      const fieldsOfDocument = ['confidential', 'creatorId', 'date', 'id', 'personal', 'status', 'title'].map((name) => ({
        name,
        type: { kind: 'SCALAR', ofType: null },
      }));
      expect(await gql(typeQuery(2), '1')).toEqual(ok({ __type: { fields: fieldsOfDocument } }));
      expect(await gql(typeQuery(3), '1')).toEqual(
        refused(operationError('Syntax Error: Query depth limit of 6 exceeded, found 7.', 'GRAPHQL_VALIDATION_FAILED')),
      );
      await expectStillAnswers();
    });

    it("item 5: graphql-js's MaxIntrospectionDepthRule refuses fields { type { fields … } } nested three times, under __schema and under __type", async () => {
      const deepSchema = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
      expect(await gql(deepSchema, '1')).toEqual(
        refused(operationError('Maximum introspection depth exceeded', 'GRAPHQL_VALIDATION_FAILED', [{ line: 1, column: 3 }])),
      );
      // Under __type the same nesting also exceeds graphql-armor's depth limit (armor skips __schema only): both errors.
      const deepType = '{ __type(name: "Query") { fields { type { ofType { fields { type { ofType { fields { name } } } } } } } } }';
      expect(await gql(deepType, '1')).toEqual(
        refused(
          operationError('Syntax Error: Query depth limit of 6 exceeded, found 9.', 'GRAPHQL_VALIDATION_FAILED'),
          operationError('Maximum introspection depth exceeded', 'GRAPHQL_VALIDATION_FAILED', [{ line: 1, column: 3 }]),
        ),
      );
      await expectStillAnswers();
    });

    it('item 5: an ofType chain under __schema is bounded by neither depth rule (armor skips __schema, graphql-js counts fields) and answers', async () => {
      const query = '{ __schema { queryType { fields { name type { kind ofType { kind ofType { kind ofType { name ofType { name } } } } } } } } }';
      expect(await gql(query, '1')).toEqual(
        ok({
          __schema: {
            queryType: {
              fields: [
                { name: 'document', type: { kind: 'OBJECT', ofType: null } },
                {
                  name: 'documents',
                  type: { kind: 'NON_NULL', ofType: { kind: 'LIST', ofType: { kind: 'NON_NULL', ofType: { name: 'Document', ofType: null } } } },
                },
              ],
            },
          },
        }),
      );
    });

    it("item 5: the standard introspection query (graphql's getIntrospectionQuery) is allowed and shows Document with its 7 nullable fields", async () => {
      const answer = await gql(getIntrospectionQuery(), '1');
      expect(answer.status).toBe(200);
      const body = answer.body as {
        errors?: unknown;
        data: {
          __schema: {
            queryType: { name: string; kind: string };
            types: { name: string; kind: string; fields: { name: string; type: { kind: string; name: string | null } }[] | null }[];
          };
        };
      };
      expect(body.errors).toBeUndefined();
      expect(body.data.__schema.queryType).toEqual({ name: 'Query', kind: 'OBJECT' });
      const documentType = body.data.__schema.types.find((type) => type.name === 'Document');
      expect(documentType?.kind).toBe('OBJECT');
      expect(documentType?.fields?.map((field) => [field.name, field.type.kind, field.type.name])).toEqual([
        ['confidential', 'SCALAR', 'String'],
        ['creatorId', 'SCALAR', 'Int'],
        ['date', 'SCALAR', 'String'],
        ['id', 'SCALAR', 'Int'],
        ['personal', 'SCALAR', 'String'],
        ['status', 'SCALAR', 'String'],
        ['title', 'SCALAR', 'String'],
      ]);
    });

    it('item 5: 50 directives answer (exact data); 51 are refused', async () => {
      expect(await gql(repeatedDirectives(50), '1')).toEqual(ok({ document: { title: 'Document Title 10' } }));
      expect(await gql(repeatedDirectives(51), '1')).toEqual(
        refused(operationError('Syntax Error: Directives limit of 50 exceeded, found 51.', 'GRAPHQL_VALIDATION_FAILED')),
      );
      await expectStillAnswers();
    });

    it('item 5: a query of exactly 1000 tokens answers (exact data); 1001 tokens are refused with GRAPHQL_PARSE_FAILED', async () => {
      const atLimit = queryOfTokens(1000, 10);
      const pastLimit = queryOfTokens(1001, 10);
      expect([tokenCount(atLimit), tokenCount(pastLimit)]).toEqual([1000, 1001]);
      expect(await gql(atLimit, '1')).toEqual(ok({ document: asSelected(documentWithout(10, 'confidential')) }));
      expect(await gql(pastLimit, '1')).toEqual(
        refused(
          operationError('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.', 'GRAPHQL_PARSE_FAILED', [tokenLocation(pastLimit, 1001)]),
        ),
      );
      await expectStillAnswers();
    });

    it("item 5: a thousand identical fields within the token limit are refused by graphql-js's overlap budget ('Validation aborted.', 400)", async () => {
      // OverlappingFieldsCanBeMergedRule compares same-named fields pairwise and stops past a fixed budget (graphql 16.15).
      const query = `{ ${Array.from({ length: 998 }, () => '__typename').join(' ')} }`;
      expect(tokenCount(query)).toBe(1000);
      clearOwnershipCalls();
      expect(await gql(query, '1')).toEqual(refused(operationError('Validation aborted.', 'GRAPHQL_VALIDATION_FAILED')));
      expect(ownershipCalls()).toEqual({});
      await expectStillAnswers();
    });

    it('item 5: cost — a fragment spread 8 times costing exactly 5000 answers; one more scalar (5001.5) is refused', async () => {
      // Fragment F of k scalars costs 2 + 1.5k; a spread of it 4 + 2.25k; `document` with m spreads and j scalars
      // costs 2 + 1.5 (m (4 + 2.25k) + j): m = 8, k = 180, j = 60 gives 5000 (see costlyRead).
      expect(await gql(costlyRead(60), '1')).toEqual(ok({ document: asSelected(documentWithout(10, 'confidential')) }));
      clearOwnershipCalls();
      expect(await gql(costlyRead(61), '1')).toEqual(
        refused(operationError('Syntax Error: Query Cost limit of 5000 exceeded, found 5001.5.', 'GRAPHQL_VALIDATION_FAILED')),
      );
      expect(ownershipCalls()).toEqual({});
      await expectStillAnswers();
    });

    it('item 5: GET /graphql without a preflight header is refused as CSRF (400) and runs nothing; with one, a query answers', async () => {
      const csrf = refused(
        operationError(
          "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header " +
            '(with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value ' +
            'for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n',
          'BAD_REQUEST',
        ),
      );
      const query = oneDocument(10, 'id confidential');
      clearOwnershipCalls();
      const simpleGet = await request(app.getHttpServer()).get(GRAPHQL).query({ query }).set('x-user-id', '1');
      expect({ status: simpleGet.status, body: simpleGet.body as unknown }).toEqual(csrf);
      // A cross-site form can also POST text/plain: refused the same way.
      const formPost = await request(app.getHttpServer()).post(GRAPHQL).set('content-type', 'text/plain').set('x-user-id', '1').send(JSON.stringify({ query }));
      expect({ status: formPost.status, body: formPost.body as unknown }).toEqual(csrf);
      expect(ownershipCalls()).toEqual({});

      // A header a browser cannot send cross-site without a preflight: the query runs (queries change nothing).
      const preflighted = await request(app.getHttpServer()).get(GRAPHQL).query({ query }).set('x-user-id', '1').set('apollo-require-preflight', 'true');
      expect({ status: preflighted.status, body: preflighted.body as unknown }).toEqual(ok({ document: { id: 10, confidential: null } }));
      await expectStillAnswers();
    });
  });
});

/**
 * Which URLs reach Apollo: `@nestjs/apollo` mounts it with express's `app.use('/graphql', …)`, which matches whole,
 * undecoded path segments in any letter case, and hands Apollo everything under them. Measured on this app: these
 * paths answer GraphQL (GET and POST; Apollo answers other methods 405)…
 */
const APOLLO_PATHS = [
  '/graphql',
  '/graphql/',
  '/graphql/x',
  '/graphql/x/y',
  '/GRAPHQL',
  '/GraphQL/x',
  '/graphql?x',
  '/graphql/x?y=1',
  '/graphql//',
  '/graphql/..',
];
/** …and these do not (Nest answers 404). */
const OTHER_PATHS = ['/graphqlx', '/graphql.json', '/graphql;x', '//graphql', '/%67raphql', '/graphql%2Fx', '/./graphql'];

describe('the example GraphQL endpoint on every path and method Apollo answers', () => {
  let port: number;

  // A real socket, not supertest: the request line carries the path byte for byte (`/graphql/..`, `//graphql`, `/%67raphql`),
  // never parsed into a URL and normalised on the way.
  beforeAll(async () => {
    const server = app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => app.getHttpServer().close(() => resolve()));
  }, 60_000);

  /** An answer as these tests compare it: status, body (parsed JSON, else the text), and the `allow` header when sent. */
  interface RawAnswer {
    readonly status: number;
    readonly allow?: string;
    readonly body: unknown;
  }

  /** What {@link send} sends: a JSON `body`, or a `text` body of the content type given in `headers`, and headers (`x-user-id: 1` by default). */
  interface Sent {
    readonly body?: unknown;
    readonly text?: string;
    readonly headers?: Record<string, string>;
  }

  /** Sends `method path` exactly as written (no URL normalisation). */
  const send = (method: string, path: string, options: Sent = {}): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const payload = options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      const headers = {
        'x-user-id': '1',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) }),
        ...options.headers,
      };
      const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const json = (response.headers['content-type'] ?? '').includes('json') && text !== '';
          const { allow } = response.headers;
          resolve({ status: response.statusCode ?? 0, ...(allow === undefined ? {} : { allow }), body: json ? (JSON.parse(text) as unknown) : text });
        });
      });
      outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${method} ${path} did not answer within 10 s`)));
      outgoing.on('error', reject);
      outgoing.end(payload);
    });

  /** GET `path` with `query` in the query string, with the header Apollo's CSRF prevention asks of a GET. */
  const getQuery = (path: string, query: string): Promise<RawAnswer> =>
    send('GET', `${path}${path.includes('?') ? '&' : '?'}query=${encodeURIComponent(query)}`, { headers: { 'apollo-require-preflight': 'true' } });

  const refused = (...errors: readonly ExpectedGraphQLError[]): RawAnswer => ({ status: 400, body: { errors } });
  const readTen = { query: '{ document(id: 10) { id } }' };
  const batchOf = (size: number) => Array.from({ length: size }, () => readTen);

  /** Runs `run`, and returns its answer with the ownership calls and SQL statements it caused. */
  const measured = async (run: () => Promise<RawAnswer>) => {
    clearOwnershipCalls();
    const answer = await run();
    return { answer, ownershipCalls: ownershipCalls(), sqlStatements: sqlStatements() };
  };
  /** What a refused request must show: its refusal, and nothing ran. */
  const ranNothing = (answer: RawAnswer) => ({ answer, ownershipCalls: {}, sqlStatements: 0 });

  /** One operation past each per-operation limit of GRAPHQL_LIMITS, and its refusal. */
  const pastEveryLimit: ReadonlyArray<readonly [string, string, ExpectedGraphQLError]> = [
    ['aliases', aliasedReads(16), operationError('Syntax Error: Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED')],
    ['depth', inlineFragmentsDeep(5), operationError('Syntax Error: Query depth limit of 6 exceeded, found 7.', 'GRAPHQL_VALIDATION_FAILED')],
    ['directives', repeatedDirectives(51), operationError('Syntax Error: Directives limit of 50 exceeded, found 51.', 'GRAPHQL_VALIDATION_FAILED')],
    [
      'tokens',
      queryOfTokens(1001, 10),
      operationError('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.', 'GRAPHQL_PARSE_FAILED', [
        tokenLocation(queryOfTokens(1001, 10), 1001),
      ]),
    ],
    ['cost', costlyRead(61), operationError('Syntax Error: Query Cost limit of 5000 exceeded, found 5001.5.', 'GRAPHQL_VALIDATION_FAILED')],
  ];

  describe('the limits hold on every path and method', () => {
    it('the counters see a normal read: one GraphQL read of document 10 makes ownership calls and SQL statements', async () => {
      // Without this, "no ownership call and no SQL" below could be true of spies that see nothing.
      const { answer, ownershipCalls: calls, sqlStatements: statements } = await measured(() => send('POST', '/graphql', { body: readTen }));
      expect({ answer, calls, statements }).toEqual({
        answer: { status: 200, body: { data: { document: { id: 10 } } } },
        calls: { limitToCreator: 1, ownedDocumentsAmong: 1 },
        // The caller's user and roles, ownedDocumentsAmong([10]), and the document itself.
        statements: 3,
      });
    }, 60_000);

    it('every path under /graphql, in any letter case and with any query string, reaches Apollo: a batch of 10 answers 10 results', async () => {
      for (const path of APOLLO_PATHS) {
        expect({ path, answer: await send('POST', path, { body: batchOf(10) }) }).toEqual({
          path,
          answer: { status: 200, body: Array.from({ length: 10 }, () => ({ data: { document: { id: 10 } } })) },
        });
      }
    }, 30_000);

    it('the batch limit holds on every path Apollo answers: 11 and 300 operations are refused with 400 BATCH_LIMIT_EXCEEDED, and nothing runs', async () => {
      for (const path of APOLLO_PATHS) {
        for (const size of [11, 300]) {
          expect({ path, size, ...(await measured(() => send('POST', path, { body: batchOf(size) }))) }).toEqual({
            path,
            size,
            ...ranNothing(refused(batchLimitRefusal(size))),
          });
        }
      }
    }, 30_000);

    it('the batch limit holds whatever the method: an oversized JSON array is refused with 400 before Apollo looks at the method', async () => {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        for (const path of ['/graphql', '/graphql/x']) {
          expect({ method, path, ...(await measured(() => send(method, path, { body: batchOf(11) }))) }).toEqual({
            method,
            path,
            ...ranNothing(refused(batchLimitRefusal(11))),
          });
        }
      }
    }, 30_000);

    it('every per-operation limit (aliases, depth, directives, tokens, cost) holds on every path Apollo answers, for POST and for GET', async () => {
      for (const path of APOLLO_PATHS) {
        for (const [limit, query, error] of pastEveryLimit) {
          expect({ path, limit, method: 'POST', ...(await measured(() => send('POST', path, { body: { query } }))) }).toEqual({
            path,
            limit,
            method: 'POST',
            ...ranNothing(refused(error)),
          });
          expect({ path, limit, method: 'GET', ...(await measured(() => getQuery(path, query))) }).toEqual({
            path,
            limit,
            method: 'GET',
            ...ranNothing(refused(error)),
          });
        }
      }
    }, 60_000);

    it('the limits hold inside a batch: an operation past the alias limit is refused in its slot, the others answer', async () => {
      const answer = await send('POST', '/graphql/x', { body: [readTen, { query: aliasedReads(16) }, readTen] });
      expect(answer).toEqual({
        status: 200,
        body: [
          { data: { document: { id: 10 } } },
          { errors: [operationError('Syntax Error: Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED')] },
          { data: { document: { id: 10 } } },
        ],
      });
    }, 60_000);

    it('methods other than GET and POST are answered 405 by Apollo on every path, and run nothing', async () => {
      const notAllowed = {
        status: 405,
        allow: 'GET, POST',
        body: { errors: [operationError('Apollo Server supports only GET/POST requests.', 'BAD_REQUEST')] },
      };
      for (const path of APOLLO_PATHS) {
        for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          expect({ path, method, ...(await measured(() => send(method, path, { body: readTen }))) }).toEqual({ path, method, ...ranNothing(notAllowed) });
        }
        // HEAD: the same answer without a body (with the preflight header: without a body or one, Apollo's CSRF check answers 400 first).
        expect({ path, ...(await measured(() => send('HEAD', path, { headers: { 'apollo-require-preflight': 'true' } }))) }).toEqual({
          path,
          ...ranNothing({ ...notAllowed, body: '' }),
        });
      }
    }, 30_000);

    it('paths that do not serve GraphQL answer 404 and run no operation, for POST and for GET', async () => {
      for (const path of OTHER_PATHS) {
        expect({ path, ...(await measured(() => send('POST', path, { body: batchOf(2) }))) }).toEqual({
          path,
          ...ranNothing({ status: 404, body: { message: `Cannot POST ${path}`, error: 'Not Found', statusCode: 404 } }),
        });
        const url = `${path}?query=${encodeURIComponent(readTen.query)}`;
        expect({ path, ...(await measured(() => send('GET', url, { headers: { 'apollo-require-preflight': 'true' } }))) }).toEqual({
          path,
          ...ranNothing({ status: 404, body: { message: `Cannot GET ${url}`, error: 'Not Found', statusCode: 404 } }),
        });
      }
    }, 30_000);
  });

  describe('standard GraphQL errors keep their standard codes, never INTERNAL_SERVER_ERROR or 5xx', () => {
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const persisted = (hash: string, version = 1) => ({ persistedQuery: { version, sha256Hash: hash } });

    it('persisted queries: an unknown hash is PERSISTED_QUERY_NOT_FOUND (200); a mismatched hash and an unknown version are BAD_REQUEST (400)', async () => {
      const query = '{ document(id: 10) { id title } }';
      const notFound = { status: 200, body: { errors: [operationError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')] } };
      expect(await measured(() => send('POST', '/graphql', { body: { extensions: persisted(sha256(query)) } }))).toEqual(ranNothing(notFound));
      const byGet = `/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted(sha256(query))))}`;
      expect(await measured(() => send('GET', byGet, { headers: { 'apollo-require-preflight': 'true' } }))).toEqual(ranNothing(notFound));
      expect(await measured(() => send('POST', '/graphql', { body: { query, extensions: persisted(sha256('{ __typename }')) } }))).toEqual(
        ranNothing(refused(operationError('provided sha does not match query', 'BAD_REQUEST'))),
      );
      expect(await measured(() => send('POST', '/graphql', { body: { query, extensions: persisted(sha256(query), 2) } }))).toEqual(
        ranNothing(refused(operationError('Unsupported persisted query version', 'BAD_REQUEST'))),
      );
      // Registered with its query, it then answers by its hash alone, on any path Apollo answers.
      const answered = { status: 200, body: { data: { document: { id: 10, title: 'Document Title 10' } } } };
      expect(await send('POST', '/graphql', { body: { query, extensions: persisted(sha256(query)) } })).toEqual(answered);
      expect(await send('POST', '/GraphQL/x', { body: { extensions: persisted(sha256(query)) } })).toEqual(answered);
    }, 60_000);

    it('a persisted query is bound by the limits: one past the alias limit is refused when registered, and is not stored', async () => {
      const query = aliasedReads(16);
      expect(await measured(() => send('POST', '/graphql/x', { body: { query, extensions: persisted(sha256(query)) } }))).toEqual(
        ranNothing(refused(operationError('Syntax Error: Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED'))),
      );
      expect(await measured(() => send('POST', '/graphql', { body: { extensions: persisted(sha256(query)) } }))).toEqual(
        ranNothing({ status: 200, body: { errors: [operationError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')] } }),
      );
    }, 60_000);

    it('a mutation or a subscription sent to a schema without one is BAD_REQUEST (200, data null); a mutation sent by GET is 405', async () => {
      for (const operation of ['mutation', 'subscription']) {
        expect(await measured(() => send('POST', '/graphql', { body: { query: `${operation} { document(id: 10) { id } }` } }))).toEqual(
          ranNothing({
            status: 200,
            body: {
              errors: [operationError(`Schema is not configured to execute ${operation} operation.`, 'BAD_REQUEST', [{ line: 1, column: 1 }])],
              data: null,
            },
          }),
        );
      }
      expect(await measured(() => getQuery('/graphql', 'mutation { document(id: 10) { id } }'))).toEqual(
        ranNothing({
          status: 405,
          allow: 'POST',
          body: { errors: [operationError('GET requests only support query operations, not mutation operations', 'BAD_REQUEST')] },
        }),
      );
    }, 60_000);

    it('an operation that cannot be chosen is OPERATION_RESOLUTION_FAILURE (400)', async () => {
      const twoOperations = 'query A { document(id: 10) { id } } query B { document(id: 1) { id } }';
      expect(await measured(() => send('POST', '/graphql', { body: { query: twoOperations } }))).toEqual(
        ranNothing(refused(operationError('Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE'))),
      );
      expect(await measured(() => send('POST', '/graphql', { body: { query: twoOperations, operationName: 'C' } }))).toEqual(
        ranNothing(refused(operationError('Unknown operation named "C".', 'OPERATION_RESOLUTION_FAILURE'))),
      );
    }, 60_000);

    it('malformed requests are BAD_REQUEST with a 4xx status: GET without a query, wrong content types, an empty batch, variables as a string', async () => {
      const badRequest = (message: string, status = 400): RawAnswer => ({ status, body: { errors: [operationError(message, 'BAD_REQUEST')] } });
      const noBody = 'POST body missing, invalid Content-Type, or JSON object has no keys.';
      const cases: ReadonlyArray<readonly [string, () => Promise<RawAnswer>, RawAnswer]> = [
        [
          'GET without a query',
          () => send('GET', '/graphql', { headers: { 'apollo-require-preflight': 'true' } }),
          badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.'),
        ],
        [
          'GET with a content type other than JSON',
          () => send('GET', `/graphql?query=${encodeURIComponent(readTen.query)}`, { headers: { 'content-type': 'application/xml' } }),
          badRequest('GET requests may not have a content-type header other than application/json.', 415),
        ],
        [
          'POST as application/graphql',
          () => send('POST', '/graphql', { text: readTen.query, headers: { 'content-type': 'application/graphql' } }),
          badRequest(noBody),
        ],
        ['POST of an empty object', () => send('POST', '/graphql', { body: {} }), badRequest(noBody)],
        ['POST of an empty batch', () => send('POST', '/graphql/x', { body: [] }), badRequest('No operations found in request.')],
        [
          'POST with variables as a string',
          () => send('POST', '/graphql', { body: { ...readTen, variables: '{}' } }),
          badRequest('`variables` in a POST body should be provided as an object, not a recursively JSON-encoded string.'),
        ],
      ];
      for (const [label, run, expected] of cases) expect({ label, ...(await measured(run)) }).toEqual({ label, ...ranNothing(expected) });
    }, 60_000);
  });
});
