// Over 350 lines: every path and method Apollo answers, over a raw socket helper that belongs to these cases only.
/**
 * The example GraphQL endpoint on every path and method Apollo answers (`/graphql/x`, `/GRAPHQL`, `/graphql/..`,
 * GET, PUT, …), over a real socket: the batch limit and every per-operation limit hold on each, other paths run
 * nothing; persisted queries, missing root types and malformed requests keep GraphQL's and Apollo's standard
 * codes, never INTERNAL_SERVER_ERROR or 5xx.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  aliasedReads,
  batchLimitRefusal,
  costlyRead,
  inlineFragmentsDeep,
  operationError,
  queryOfTokens,
  repeatedDirectives,
  tokenLocation,
  type ExpectedGraphQLError,
} from './graphql-expectations.js';
import { ownershipCalls, sqlStatements, clearOwnershipCalls, exampleApp, useExampleGraphQLApp } from './example-graphql.fixture.js';

useExampleGraphQLApp();

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

let port: number;

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

describe('the example GraphQL endpoint on every path and method Apollo answers', () => {
  // A real socket, not supertest: the request line carries the path byte for byte (`/graphql/..`, `//graphql`, `/%67raphql`),
  // never parsed into a URL and normalised on the way.
  beforeAll(async () => {
    const server = exampleApp().getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) =>
      exampleApp()
        .getHttpServer()
        .close(() => resolve()),
    );
  }, 60_000);
  limitsOnEveryPathAndMethod();
  standardErrorsKeepTheirCodes();
});

function limitsOnEveryPathAndMethod(): void {
  describe('the limits hold on every path and method', () => {
    countersAndLimitsOnEveryPath();

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
}

function countersAndLimitsOnEveryPath(): void {
  it('the counters see a normal read: one GraphQL read of document 10 makes ownership calls and SQL statements', async () => {
    // Without this, "no ownership call and no SQL" below could be true of spies that see nothing.
    const { answer, ownershipCalls: calls, sqlStatements: statements } = await measured(() => send('POST', '/graphql', { body: readTen }));
    expect({ answer, calls, statements }).toEqual({
      answer: { status: 200, body: { data: { document: { id: 10 } } } },
      calls: { ownedAmong: 1 },
      // The caller's user (with roles, company and managed users), ownedAmong([10]) of the rule, and the document itself.
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
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const persisted = (hash: string, version = 1) => ({ persistedQuery: { version, sha256Hash: hash } });

function standardErrorsKeepTheirCodes(): void {
  describe('standard GraphQL errors keep their standard codes, never INTERNAL_SERVER_ERROR or 5xx', () => {
    persistedQueriesAndOperationChoice();

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
}

function persistedQueriesAndOperationChoice(): void {
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
}
