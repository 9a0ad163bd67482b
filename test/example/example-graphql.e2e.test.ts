/**
 * The example documents app over GraphQL: `POST /graphql` of the same Nest app as REST (AppModule on the
 * embedded PGlite), the same `x-user-id` header, the same expectations (example-expectations.ts) in their
 * GraphQL form (graphql-expectations.ts: a hidden field is `null`):
 *
 * - the five example checks of the documents app, who calls, bad and missing ids, managers and the multi-role defect;
 * - field-level hostility (aliases, fragments, directives, variables, partial refusals);
 * - N+1 — a `documents` query makes exactly the ownership calls REST makes.
 *
 * Limits and cost attacks: example-graphql-limits.e2e.test.ts; every path and method Apollo answers:
 * example-graphql-paths.e2e.test.ts. Every assertion compares the HTTP status and the whole body at once:
 * execution errors are 200, refusals before execution 400, and nothing is ever 5xx.
 */
import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ALL_DOCUMENT_IDS, allDocumentsInFull, documentOnly, documentWithId, documentWithout, employeeListFor, idsCreatedBy } from './example-expectations.js';
import { ALL_FIELDS, asSelected, fieldError, operationError, type SelectedDocument } from './graphql-expectations.js';
import {
  READ,
  type Answer,
  ownershipCalls,
  ownedAmongIds,
  clearOwnershipCalls,
  useExampleGraphQLApp,
  gql,
  rest,
  ok,
  partial,
  refused,
  oneDocument,
  forbiddenList,
  forbiddenRead,
  expectStillAnswers,
} from './example-graphql.fixture.js';

useExampleGraphQLApp();

describe('the example app over GraphQL (NestJS, Apollo, embedded PGlite)', () => {
  exampleChecksWhoCallsIdsAndManagers();
  fieldLevelAgainstHostileSelections();

  describe('N+1 — a GraphQL list makes exactly the ownership calls REST makes', () => {
    /** The ownership calls one request makes: counts per method of the rule source and the ids of each ownedAmong call. */
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
      'EMPLOYEE 1 documents (%s): one ownedAmong of the rule source for all 24 ids, as REST GET /documents-protected-simple',
      async (_label, query) => {
        const viaRest = await callsOf(() => rest(READ, '1'), 200);
        const viaGraphQL = await callsOf(() => gql(query, '1'), 200);
        expect(viaGraphQL).toEqual(viaRest);
        expect(viaGraphQL).toEqual({ counts: { ownedAmong: 1 }, ownedAmongIds: [[...ALL_DOCUMENT_IDS]] });
      },
    );

    it.each(selections)('EMPLOYEE_MANAGER 2 documents (%s): the same calls per method as REST, one ownedAmong', async (_label, query) => {
      const viaRest = await callsOf(() => rest(READ, '2'), 200);
      const viaGraphQL = await callsOf(() => gql(query, '2'), 200);
      expect(viaGraphQL).toEqual(viaRest);
      expect(viaGraphQL).toEqual({ counts: { ownedAmong: 1 }, ownedAmongIds: [[...ALL_DOCUMENT_IDS]] });
    });

    it('user 7 reading document 6 (two ownership groups) asks each group once, as REST GET /documents-protected-simple/6', async () => {
      const viaRest = await callsOf(() => rest(`${READ}/6`, '7'), 200);
      const viaGraphQL = await callsOf(() => gql(oneDocument(6), '7'), 200);
      expect(viaGraphQL).toEqual(viaRest);
      expect(viaGraphQL).toEqual({
        // One ownedAmong of document 6 per group: creatorOrManaged (EMPLOYEE_MANAGER) and sameCompany (COMPANY_ADMIN).
        counts: { ownedAmong: 2 },
        ownedAmongIds: [[6], [6]],
      });
    });

    it('fifteen aliased reads of owned documents by user 1 ask one ownedAmong per alias', async () => {
      const query = `{ ${Array.from({ length: 15 }, (_, index) => `a${index}: document(id: 10) { id }`).join(' ')} }`;
      const calls = await callsOf(() => gql(query, '1'), 200);
      // Every root field is its own guard call and permit: an alias costs what one REST read costs, and the alias
      // limit (see the limits below) bounds how many of them one operation holds.
      expect(calls).toEqual({ counts: { ownedAmong: 15 }, ownedAmongIds: Array.from({ length: 15 }, () => [10]) });
    });
  });
});

function exampleChecksWhoCallsIdsAndManagers(): void {
  describe('the five example checks of the documents app, who calls, ids, managers and the multi-role defect', () => {
    exampleChecksAndCallers();
    badIdsAndManagers();

    it('EMPLOYEE_MANAGER 2 lists own and managed documents without confidential and personal, others with title, date and status', async () => {
      const owned = new Set(idsCreatedBy(1, 2, 4));
      expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '2')).toEqual(
        ok({
          documents: ALL_DOCUMENT_IDS.map((id) =>
            asSelected(owned.has(id) ? documentWithout(id, 'confidential', 'personal') : documentOnly(id, 'title', 'date', 'status')),
          ),
        }),
      );
    });

    it('multi-role defect — user 7 reading document 6, owned only through management, sees neither confidential nor personal', async () => {
      for (const id of [6, 5, 50, 600]) {
        expect({ id, answer: await gql(oneDocument(id), '7') }).toEqual({
          id,
          answer: ok({ document: asSelected(documentWithout(id, 'confidential', 'personal')) }),
        });
      }
    });

    it('multi-role — user 7 reads documents of company 1 (COMPANY_ADMIN) and their own (both roles) with every field', async () => {
      for (const id of [1, 2, 30, 100, 70]) {
        expect({ id, answer: await gql(oneDocument(id), '7') }).toEqual({ id, answer: ok({ document: asSelected(documentWithId(id)) }) });
      }
    });

    it('multi-role — user 7 is FORBIDDEN documents neither role owns (8, 4)', async () => {
      for (const id of [8, 4]) expect(await gql(oneDocument(id), '7')).toEqual(partial([forbiddenRead()], { document: null }));
    });
  });
}

function exampleChecksAndCallers(): void {
  it('check 1 — EMPLOYEE 1 reads owned document 10: every field, confidential null', async () => {
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

  it('check 2 — EMPLOYEE 1 reads documents 2 and 40 (not owned): FORBIDDEN at path document, document null', async () => {
    for (const id of [2, 40]) expect(await gql(oneDocument(id), '1')).toEqual(partial([forbiddenRead()], { document: null }));
  });

  it('check 3 — COMPANY_ADMIN 4 reads document 50 (same company) with every field; documents 1 and 8: FORBIDDEN', async () => {
    expect(await gql(oneDocument(50), '4')).toEqual(ok({ document: asSelected(documentWithId(50)) }));
    for (const id of [1, 8]) expect(await gql(oneDocument(id), '4')).toEqual(partial([forbiddenRead()], { document: null }));
  });

  it('check 4 — EMPLOYEE 1 lists 24 documents in id order: owned ones without confidential, others title and date only (id null too)', async () => {
    const answer = await gql(`{ documents { ${ALL_FIELDS} } }`, '1');
    expect(answer).toEqual(ok({ documents: employeeListFor(1).map((document) => asSelected(document)) }));
    const listed = (answer.body as { data: { documents: SelectedDocument[] } }).data.documents;
    expect(listed).toHaveLength(24);
    // Only the three owned documents show their id: `list:any` allows title and date alone.
    expect(listed.filter((document) => document.id !== null).map((document) => document.id)).toEqual([1, 10, 100]);
    expect(listed.map((document) => document.date)).toEqual(ALL_DOCUMENT_IDS.map((id) => documentWithId(id).date));
  });

  it('check 5 — COMPANY_ADMIN 4 lists: FORBIDDEN, and data is null because documents is [Document!]!', async () => {
    // `documents` is non-null, so its error cannot leave it null: graphql-js propagates the null to its parent,
    // the root, and the whole `data` becomes null (a nullable `document` field keeps `data: { document: null }`).
    expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '4')).toEqual(partial([forbiddenList()], null));
  });

  it('the anonymous caller (no header) is FORBIDDEN on document and documents', async () => {
    expect(await gql(oneDocument(10))).toEqual(partial([forbiddenRead('document', 3, 'no-grant')], { document: null }));
    expect(await gql('{ documents { id } }')).toEqual(partial([forbiddenList()], null));
  });

  it('QA_MANAGER 3 and GOD 6 (no definitions) are FORBIDDEN, even on a document they created', async () => {
    for (const [userId, id] of [
      ['3', 3],
      ['6', 600],
    ] as const) {
      expect(await gql(oneDocument(id), userId)).toEqual(partial([forbiddenRead('document', 3, 'no-grant')], { document: null }));
      expect(await gql('{ documents { id } }', userId)).toEqual(partial([forbiddenList()], null));
    }
  });

  it('x-user-id 999 (no such user) and "abc" (malformed) are UNAUTHENTICATED on document and documents', async () => {
    for (const [userId, message] of [
      ['999', 'No user has id 999.'],
      ['abc', 'x-user-id must be the id of a user.'],
    ] as const) {
      expect(await gql(oneDocument(10), userId)).toEqual(partial([fieldError(message, 'UNAUTHENTICATED', 'document')], { document: null }));
      expect(await gql('{ documents { id } }', userId)).toEqual(partial([fieldError(message, 'UNAUTHENTICATED', 'documents')], null));
    }
  });
}

function badIdsAndManagers(): void {
  it('ids 0 and -5 are BAD_USER_INPUT (parseDocumentId), as literals and as variables, for every kind of caller', async () => {
    for (const id of [0, -5]) {
      const message = `Document id must be a whole number from 1 to 999999999 written without leading zeros, got "${id}".`;
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

  it('an id literal of the wrong type ("abc", 1.5, 2147483648) is BAD_USER_INPUT with HTTP 400', async () => {
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

  it('a null id literal and a variable of the wrong type are BAD_USER_INPUT (400); a missing id is a validation error (400)', async () => {
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

  it('a missing document (99) is NOT_FOUND for SUPER_ADMIN 5 and user 8, FORBIDDEN for callers without any-access', async () => {
    for (const userId of ['5', '8'])
      expect(await gql(oneDocument(99), userId)).toEqual(partial([fieldError('No document 99.', 'NOT_FOUND', 'document')], { document: null }));
    // Not owned, as anyone's document that does not exist; the anonymous caller reads no document at all.
    for (const [userId, reason] of [
      ['1', 'not-owner'],
      ['2', 'not-owner'],
      ['4', 'not-owner'],
      ['7', 'not-owner'],
      [undefined, 'no-grant'],
    ] as const)
      expect(await gql(oneDocument(99), userId)).toEqual(partial([forbiddenRead('document', 3, reason)], { document: null }));
  });

  it('SUPER_ADMIN 5 lists all 24 documents with every field', async () => {
    expect(await gql(`{ documents { ${ALL_FIELDS} } }`, '5')).toEqual(ok({ documents: allDocumentsInFull().map((document) => asSelected(document)) }));
  });

  it("EMPLOYEE_MANAGER 2 reads their own and managed users' documents without confidential and personal", async () => {
    for (const id of idsCreatedBy(1, 2, 4)) {
      expect({ id, answer: await gql(oneDocument(id), '2') }).toEqual({
        id,
        answer: ok({ document: asSelected(documentWithout(id, 'confidential', 'personal')) }),
      });
    }
  });

  it('EMPLOYEE_MANAGER 2 is FORBIDDEN documents of users they do not manage', async () => {
    for (const id of idsCreatedBy(3, 5, 6, 7, 8)) {
      expect({ id, answer: await gql(oneDocument(id, 'id'), '2') }).toEqual({ id, answer: partial([forbiddenRead()], { document: null }) });
    }
  });
}

function fieldLevelAgainstHostileSelections(): void {
  describe('field level against hostile selections', () => {
    it('aliases of confidential are null, also an alias named like an allowed field (title: confidential)', async () => {
      expect(await gql('{ document(id: 10) { c: confidential title: confidential id: title secret: confidential } }', '1')).toEqual(
        ok({ document: { c: null, title: null, id: 'Document Title 10', secret: null } }),
      );
      // EMPLOYEE_MANAGER 2 may not see personal on the managed document 1, whatever it is called.
      expect(await gql('{ document(id: 1) { title: personal p: personal status } }', '2')).toEqual(ok({ document: { title: null, p: null, status: 'draft' } }));
    });

    it('confidential through a named fragment, an inline fragment, @include(if: true) and @skip(if: false) is null; __typename answers', async () => {
      const query =
        '{ document(id: 10) { ...Secret ... on Document { inline: confidential } included: confidential @include(if: true) ' +
        'kept: confidential @skip(if: false) __typename } } fragment Secret on Document { confidential title }';
      expect(await gql(query, '1')).toEqual(
        ok({ document: { confidential: null, title: 'Document Title 10', inline: null, included: null, kept: null, __typename: 'Document' } }),
      );
    });

    it('@include with a variable: true gives null for confidential, false leaves the field out', async () => {
      const query =
        'query Q($show: Boolean!) { document(id: 10) { id confidential @include(if: $show) ...F @include(if: $show) } } fragment F on Document { personal }';
      expect(await gql(query, '1', { show: true })).toEqual(
        ok({ document: { id: 10, confidential: null, personal: 'Personal note of user 1 on document 10' } }),
      );
      expect(await gql(query, '1', { show: false })).toEqual(ok({ document: { id: 10 } }));
    });

    it('in a list, aliases and fragments of hidden fields are null on every item', async () => {
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

    it('one operation mixing a granted and a denied read — data for a, FORBIDDEN at path b, b null', async () => {
      const query = `{ a: document(id: 10) { ${ALL_FIELDS} } b: document(id: 2) { ${ALL_FIELDS} } }`;
      // `b:` starts after `{ a: document(id: 10) { <ALL_FIELDS> } ` — the column of the refused field.
      const column = query.indexOf('b: document') + 1;
      expect(await gql(query, '1')).toEqual(partial([forbiddenRead('b', column)], { a: asSelected(documentWithout(10, 'confidential')), b: null }));
    });

    it('a denied list next to a granted read — documents is non-null, so its FORBIDDEN nulls the whole data', async () => {
      const query = '{ document(id: 50) { id } documents { id } }';
      expect(await gql(query, '4')).toEqual(partial([forbiddenList(query.indexOf('documents') + 1)], null));
    });
  });
}
