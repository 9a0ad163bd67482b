/**
 * The example documents app over GraphQL against limits and cost attacks (aliases, depth, directives,
 * tokens, cost, batches, CSRF): each limit at the limit and one past it, refused before anything runs (no
 * ownership call, no SQL), and the server answering normally afterwards. Every assertion compares the HTTP
 * status and the whole body at once: refusals before execution are 400, and nothing is ever 5xx.
 */
import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { ALL_DOCUMENT_IDS, documentWithId, documentWithout } from './example-expectations.js';
import {
  aliasedReads,
  asSelected,
  batchLimitRefusal,
  costlyRead,
  inlineFragmentsDeep,
  operationError,
  queryOfTokens,
  repeatedDirectives,
  tokenCount,
  tokenLocation,
} from './graphql-expectations.js';
import {
  GRAPHQL,
  ownershipCalls,
  clearOwnershipCalls,
  exampleApp,
  useExampleGraphQLApp,
  post,
  gql,
  ok,
  refused,
  oneDocument,
  forbiddenRead,
  expectStillAnswers,
} from './example-graphql.fixture.js';

useExampleGraphQLApp();

describe('the example app over GraphQL (NestJS, Apollo, embedded PGlite)', () => {
  describe('limits and cost attacks — at the limit accepted, past it refused before anything runs', () => {
    aliasesAndDepth();
    introspectionDepth();
    introspectionDirectivesTokensAndCost();
    csrf();
  });
});

function aliasesAndDepth(): void {
  it('15 aliases are answered (exact data); 16 are refused (400) and nothing runs', async () => {
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

  it('a thousand aliases are refused by the token limit (parse fails at token 1001) before the alias limit is reached', async () => {
    const query = aliasedReads(1000);
    clearOwnershipCalls();
    expect(await gql(query, '1')).toEqual(
      refused(operationError('Syntax Error: Document contains more that 1000 tokens. Parsing aborted.', 'GRAPHQL_PARSE_FAILED', [tokenLocation(query, 1001)])),
    );
    expect(ownershipCalls()).toEqual({});
    await expectStillAnswers();
  });

  it('a batch of 10 operations answers 10 results in order; 11 and 300 are refused with 400 BATCH_LIMIT_EXCEEDED', async () => {
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

  it('depth — Document has only scalar fields, so depth comes from nested inline fragments: 6 levels answer, 7 are refused', async () => {
    // document (1) + four inline fragments (2–5) + id (6)
    expect(await gql(inlineFragmentsDeep(4), '1')).toEqual(ok({ document: { id: 10 } }));
    expect(await gql(inlineFragmentsDeep(5), '1')).toEqual(
      refused(operationError('Syntax Error: Query depth limit of 6 exceeded, found 7.', 'GRAPHQL_VALIDATION_FAILED')),
    );
    await expectStillAnswers();
  });

  it('depth — graphql-armor counts a named fragment spread as two levels: two chained spreads answer (6), three are refused (8)', async () => {
    // armor 3.2 adds one level for the spread as a selection and one more because fragments are not flattened:
    // document (1) + ...F0 (2, 3) + ...F1 (4, 5) + id (6). A third spread jumps to 8; depth 7 is not reachable this way.
    const chain = (spreads: number) => {
      const fragments = Array.from({ length: spreads }, (_, index) => `fragment F${index} on Document { ${index + 1 < spreads ? `...F${index + 1}` : 'id'} }`);
      return `{ document(id: 10) { ...F0 } } ${fragments.join(' ')}`;
    };
    expect(await gql(chain(2), '1')).toEqual(ok({ document: { id: 10 } }));
    expect(await gql(chain(3), '1')).toEqual(refused(operationError('Syntax Error: Query depth limit of 6 exceeded, found 8.', 'GRAPHQL_VALIDATION_FAILED')));
    await expectStillAnswers();
  });
}

function introspectionDepth(): void {
  it('introspection under __type counts for the depth limit: depth 6 answers, a deeper ofType chain is refused', async () => {
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

  it("graphql-js's MaxIntrospectionDepthRule refuses fields { type { fields … } } nested three times, under __schema and under __type", async () => {
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

  it('an ofType chain under __schema is bounded by neither depth rule (armor skips __schema, graphql-js counts fields) and answers', async () => {
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
}

function introspectionDirectivesTokensAndCost(): void {
  it("the standard introspection query (graphql's getIntrospectionQuery) is allowed and shows Document with its 7 nullable fields", async () => {
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

  it('50 directives answer (exact data); 51 are refused', async () => {
    expect(await gql(repeatedDirectives(50), '1')).toEqual(ok({ document: { title: 'Document Title 10' } }));
    expect(await gql(repeatedDirectives(51), '1')).toEqual(
      refused(operationError('Syntax Error: Directives limit of 50 exceeded, found 51.', 'GRAPHQL_VALIDATION_FAILED')),
    );
    await expectStillAnswers();
  });

  it('a query of exactly 1000 tokens answers (exact data); 1001 tokens are refused with GRAPHQL_PARSE_FAILED', async () => {
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

  it("a thousand identical fields within the token limit are refused by graphql-js's overlap budget ('Validation aborted.', 400)", async () => {
    // OverlappingFieldsCanBeMergedRule compares same-named fields pairwise and stops past a fixed budget (graphql 16.15).
    const query = `{ ${Array.from({ length: 998 }, () => '__typename').join(' ')} }`;
    expect(tokenCount(query)).toBe(1000);
    clearOwnershipCalls();
    expect(await gql(query, '1')).toEqual(refused(operationError('Validation aborted.', 'GRAPHQL_VALIDATION_FAILED')));
    expect(ownershipCalls()).toEqual({});
    await expectStillAnswers();
  });

  it('cost — a fragment spread 8 times costing exactly 5000 answers; one more scalar (5001.5) is refused', async () => {
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
}

function csrf(): void {
  it('GET /graphql without a preflight header is refused as CSRF (400) and runs nothing; with one, a query answers', async () => {
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
    const simpleGet = await request(exampleApp().getHttpServer()).get(GRAPHQL).query({ query }).set('x-user-id', '1');
    expect({ status: simpleGet.status, body: simpleGet.body as unknown }).toEqual(csrf);
    // A cross-site form can also POST text/plain: refused the same way.
    const formPost = await request(exampleApp().getHttpServer())
      .post(GRAPHQL)
      .set('content-type', 'text/plain')
      .set('x-user-id', '1')
      .send(JSON.stringify({ query }));
    expect({ status: formPost.status, body: formPost.body as unknown }).toEqual(csrf);
    expect(ownershipCalls()).toEqual({});

    // A header a browser cannot send cross-site without a preflight: the query runs (queries change nothing).
    const preflighted = await request(exampleApp().getHttpServer()).get(GRAPHQL).query({ query }).set('x-user-id', '1').set('apollo-require-preflight', 'true');
    expect({ status: preflighted.status, body: preflighted.body as unknown }).toEqual(ok({ document: { id: 10, confidential: null } }));
    await expectStillAnswers();
  });
}
