/**
 * `formatGraphQLError` keeps the standard codes of GraphQL and Apollo: on errors shaped as Apollo Server 5
 * builds them (its error classes are not exported, so the shapes are copied from `@apollo/server`'s
 * internalErrorClasses and requestPipeline), and on a real Apollo Server 5 in the process.
 */
import { createHash } from 'node:crypto';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { describe, expect, it } from '@jest/globals';
import { GraphQLError, GraphQLScalarType, Kind, parse } from 'graphql';
import { formatGraphQLError, type FormattedGraphQLError } from '../../runtime/nest/index.js';

import { PATH, resolverError, STACKTRACE } from './graphql-error-shapes.js';

/** Apollo's formatted form of an error it did not give a code to (its default), with the stack trace it adds outside production. */
function apolloDefault(error: GraphQLError): FormattedGraphQLError {
  return { ...error.toJSON(), extensions: { ...error.extensions, code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
}

/** Apollo's formatted form of an error that has a code: its extensions without `http` (Apollo moves it to the response), with the stack trace. */
function apolloWithCode(error: GraphQLError): FormattedGraphQLError {
  const extensions: Record<string, unknown> = { ...error.extensions, stacktrace: STACKTRACE };
  delete extensions['http'];
  return { ...error.toJSON(), extensions };
}

/** An error of Apollo 5's GraphQLErrorWithCode family: its code and HTTP status in `extensions`, as the class sets them. */
function apolloError(message: string, code: string, status: number, options: { readonly originalError?: Error } = {}): GraphQLError {
  return new GraphQLError(message, { ...options, extensions: { http: { status }, code } });
}

/** A scalar whose parsers throw plain errors, as many custom scalars do. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const Day = new GraphQLScalarType({
  name: 'Day',
  parseValue: (value) => {
    if (typeof value === 'string' && DAY.test(value)) return value;
    throw new TypeError('Day must be YYYY-MM-DD.');
  },
  parseLiteral: (literal) => {
    if (literal.kind === Kind.STRING && DAY.test(literal.value)) return literal.value;
    throw new RangeError('Day must be YYYY-MM-DD.');
  },
});

const typeDefs = 'scalar Day type Query { on(day: Day): String broken: String }';

const resolvers = {
  Day,
  Query: {
    on: (_source: unknown, args: { readonly day?: string }) => args.day ?? null,
    broken: () => {
      throw new Error('the ownership database password is hunter2');
    },
  },
};

// Stack traces on, as outside production: formatGraphQLError must drop them itself.
const options = { typeDefs, resolvers, formatError: formatGraphQLError, includeStacktraceInErrorResponses: true } as const;

/** One HTTP request to `server`, as an integration hands it to Apollo; the answer's status and parsed body. */
async function ask(server: ApolloServer, request: { method?: string; body?: unknown; search?: string; headers?: Record<string, string> }) {
  const headers = new HeaderMap(Object.entries({ 'content-type': 'application/json', ...request.headers }));
  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: request.method ?? 'POST', headers, search: request.search ?? '', body: request.body ?? {} },
    context: () => Promise.resolve({}),
  });
  if (response.body.kind !== 'complete') throw new Error('Apollo answered in chunks');
  return { status: response.status ?? 200, body: JSON.parse(response.body.string) as unknown };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const error = (message: string, code: string, more: Partial<FormattedGraphQLError> = {}) => ({ message, ...more, extensions: { code } });

describe('formatGraphQLError keeps the standard codes of GraphQL and Apollo', () => {
  it("Apollo's standard codes of refused requests are kept with their message, without the stack trace", () => {
    const cases: [GraphQLError, string][] = [
      [apolloError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200), 'PERSISTED_QUERY_NOT_FOUND'],
      [apolloError('PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED', 200), 'PERSISTED_QUERY_NOT_SUPPORTED'],
      // OperationResolutionError: over graphql-js's own error, which it keeps as originalError.
      [
        apolloError('Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE', 400, {
          originalError: new GraphQLError('Must provide operation name if query contains multiple operations.'),
        }),
        'OPERATION_RESOLUTION_FAILURE',
      ],
      [apolloError('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', 'BAD_REQUEST', 400), 'BAD_REQUEST'],
      [apolloError('GET requests may not have a content-type header other than application/json.', 'BAD_REQUEST', 415), 'BAD_REQUEST'],
      [apolloError('Apollo Server supports only GET/POST requests.', 'BAD_REQUEST', 405), 'BAD_REQUEST'],
      // SyntaxError: over the parser's GraphQLError.
      [
        apolloError('Syntax Error: Unexpected <EOF>.', 'GRAPHQL_PARSE_FAILED', 400, { originalError: new GraphQLError('Syntax Error: Unexpected <EOF>.') }),
        'GRAPHQL_PARSE_FAILED',
      ],
      [apolloError('Variable "$id" of required type "Int!" was not provided.', 'BAD_USER_INPUT', 400), 'BAD_USER_INPUT'],
    ];
    for (const [error, code] of cases) {
      expect(formatGraphQLError(apolloWithCode(error), error)).toStrictEqual({ message: error.message, extensions: { code } });
    }
  });

  it('a GraphQLError about the request that nothing gave a code to (persisted-query hash or version, a missing root type) is BAD_REQUEST', () => {
    // Apollo 5 raises these without a code, so its formatted form says INTERNAL_SERVER_ERROR: its default, not theirs.
    const hashMismatch = new GraphQLError('provided sha does not match query', { extensions: { http: { status: 400 } } });
    const unknownVersion = new GraphQLError('Unsupported persisted query version', { extensions: { http: { status: 400 } } });
    for (const error of [hashMismatch, unknownVersion]) {
      expect(formatGraphQLError(apolloDefault(error), error)).toStrictEqual({ message: error.message, extensions: { code: 'BAD_REQUEST' } });
    }
    // graphql-js's execute for `mutation { … }` on a schema without a Mutation type: located at the operation, no path.
    const [operation] = parse('mutation { document(id: 1) }').definitions;
    for (const kind of ['mutation', 'subscription']) {
      const missingRoot = new GraphQLError(`Schema is not configured to execute ${kind} operation.`, { nodes: operation === undefined ? [] : [operation] });
      expect(formatGraphQLError(apolloDefault(missingRoot), missingRoot)).toStrictEqual({
        message: `Schema is not configured to execute ${kind} operation.`,
        locations: [{ line: 1, column: 1 }],
        extensions: { code: 'BAD_REQUEST' },
      });
    }
  });
  scalarAndFieldErrors();

  it('a thrown string or number passed as the error is INTERNAL_SERVER_ERROR "Internal server error"', () => {
    for (const thrown of ['db-7.internal is down', 503]) {
      const formatted = { message: `Unexpected error value: ${JSON.stringify(thrown)}`, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
      expect(formatGraphQLError(formatted, thrown)).toStrictEqual({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    }
  });

  it('an error that throws while it is read (getStatus, getResponse, a Proxy trap) is "Internal server error", never its inner message', () => {
    const secret = () => {
      throw new Error('session store redis://:hunter2@10.0.0.3 is down');
    };
    const throwingStatus = Object.assign(new Error('unauthorized'), { getStatus: secret, getResponse: () => ({}) });
    const throwingBody = Object.assign(new Error('forbidden'), { getStatus: () => 403, getResponse: secret });
    const proxy = new Proxy(new Error('x'), { get: secret, getPrototypeOf: secret });
    // The Proxy as the error itself: graphql-js's own wrapping would already throw reading it.
    for (const error of [resolverError(throwingStatus), resolverError(throwingBody), proxy]) {
      const formatted = { message: 'original', path: PATH, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
      expect(formatGraphQLError(formatted, error)).toStrictEqual({
        message: 'Internal server error',
        path: PATH,
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    }
  });

  it("without the error itself, a formatted error keeps its code, Apollo's default included", () => {
    expect(formatGraphQLError({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }, undefined)).toStrictEqual({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(formatGraphQLError({ message: 'something', extensions: { code: 'INTERNAL_SERVER_ERROR' } }, undefined)).toStrictEqual({
      message: 'something',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  describe('on a real Apollo Server 5 (in the process, through its HTTP entry point)', () => {
    it('no standard request error comes out as INTERNAL_SERVER_ERROR or with a 5xx status; a thrown error in a resolver is hidden', async () => {
      const server = new ApolloServer(options);
      const withoutPersistedQueries = new ApolloServer({ ...options, persistedQueries: false });
      await Promise.all([server.start(), withoutPersistedQueries.start()]);
      try {
        const query = '{ on(day: "2024-01-10") }';
        const cases: RequestCase[] = [...refusedRequestCases(server, withoutPersistedQueries, query), ...otherRequestCases(server, query)];
        for (const [label, run, expected] of cases) expect({ label, answer: await run() }).toStrictEqual({ label, answer: expected });
      } finally {
        await Promise.all([server.stop(), withoutPersistedQueries.stop()]);
      }
    }, 60_000);
  });
});

function scalarAndFieldErrors(): void {
  it('BAD_USER_INPUT and GRAPHQL_VALIDATION_FAILED that graphql-js built over what a custom scalar threw keep their code and message', () => {
    // UserInputError over graphql-js's variable error over what the scalar's parseValue threw.
    const message = 'Variable "$day" got invalid value "someday"; Expected type "Day". Day must be YYYY-MM-DD.';
    const variableError = new GraphQLError(message, {
      originalError: new GraphQLError('Expected type "Day". Day must be YYYY-MM-DD.', { originalError: new TypeError('Day must be YYYY-MM-DD.') }),
    });
    const userInput = new GraphQLError(message, { originalError: variableError.originalError ?? variableError, extensions: { code: 'BAD_USER_INPUT' } });
    expect(formatGraphQLError({ ...apolloWithCode(userInput), locations: [{ line: 1, column: 7 }] }, userInput)).toStrictEqual({
      message,
      locations: [{ line: 1, column: 7 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    // ValidationError over what the scalar's parseLiteral threw (graphql-js's ValuesOfCorrectTypeRule keeps it as originalError):
    // a literal of the wrong type, so BAD_USER_INPUT like the built-in scalars' ones.
    const literalMessage = 'Expected value of type "Day", found "someday"; Day must be YYYY-MM-DD.';
    const validation = apolloError(literalMessage, 'GRAPHQL_VALIDATION_FAILED', 400, { originalError: new RangeError('Day must be YYYY-MM-DD.') });
    expect(formatGraphQLError({ ...apolloWithCode(validation), locations: [{ line: 1, column: 11 }] }, validation)).toStrictEqual({
      message: literalMessage,
      locations: [{ line: 1, column: 11 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    // A custom rule's validation error over a thrown error: GRAPHQL_VALIDATION_FAILED, kept.
    const ruleError = apolloError('Documents may not be listed twice.', 'GRAPHQL_VALIDATION_FAILED', 400, {
      originalError: new Error('Documents may not be listed twice.'),
    });
    expect(formatGraphQLError(apolloWithCode(ruleError), ruleError)).toStrictEqual({
      message: 'Documents may not be listed twice.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('a thrown error stays INTERNAL_SERVER_ERROR "Internal server error" even when it carries a standard code, has no path or sits under an input code', () => {
    const secret = 'the ownership database password is hunter2';
    const claimsBadRequest = Object.assign(new Error(secret), { extensions: { code: 'BAD_REQUEST' } });
    const claimsBadInput = Object.assign(new Error(secret), { extensions: { code: 'BAD_USER_INPUT' } });
    const cases: [string, GraphQLError][] = [
      // A plugin hook that throws: Apollo wraps it (ensureGraphQLError), and graphql-js copies the thrown error's extensions.
      ['plugin, code of its own', new GraphQLError(secret, { originalError: claimsBadRequest })],
      ['plugin, no code', new GraphQLError(secret, { originalError: new Error(secret) })],
      ['plugin, input code of its own', new GraphQLError(secret, { originalError: claimsBadInput })],
      // A context function that throws: Apollo prefixes the message.
      ['context', new GraphQLError(`Context creation failed: ${secret}`, { originalError: new Error(secret) })],
      // A resolver that throws an error claiming an input code: located at its field.
      ['resolver, input code of its own', resolverError(claimsBadInput)],
      // An input code on a field's error over a thrown error: a field's error is never an input error of the request.
      ['input code at a field', new GraphQLError(secret, { path: [...PATH], originalError: new TypeError(secret), extensions: { code: 'BAD_USER_INPUT' } })],
      // A standard code that is not an input code, over a thrown error: not one Apollo builds; internal.
      ['bad request over a thrown error', apolloError(secret, 'BAD_REQUEST', 400, { originalError: new Error(secret) })],
    ];
    for (const [label, error] of cases) {
      const output = formatGraphQLError({ ...apolloWithCode(error), message: error.message }, error);
      expect({ label, output }).toStrictEqual({
        label,
        output: { message: 'Internal server error', ...(error.path === undefined ? {} : { path: PATH }), extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      });
      expect(JSON.stringify(output)).not.toContain('hunter2');
    }
  });

  it("a field's GraphQLError that nothing gave a code to (a result the schema does not allow) stays INTERNAL_SERVER_ERROR with graphql-js's message", () => {
    const nonNull = new GraphQLError('Cannot return null for non-nullable field Query.documents.', { path: ['documents'] });
    expect(formatGraphQLError(apolloDefault(nonNull), nonNull)).toStrictEqual({
      message: 'Cannot return null for non-nullable field Query.documents.',
      path: ['documents'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });
}

/** An HTTP request to Apollo, labelled, with the answer it must get. */
type RequestCase = [label: string, run: () => ReturnType<typeof ask>, expected: { status: number; body: unknown }];

/** Requests Apollo refuses or cannot run for what they ask (persisted queries, operation types, operation choice). */
function refusedRequestCases(server: ApolloServer, withoutPersistedQueries: ApolloServer, query: string): RequestCase[] {
  return [
    [
      'unknown persisted query',
      () => ask(server, { body: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } } }),
      { status: 200, body: { errors: [error('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')] } },
    ],
    [
      'persisted queries off',
      () => ask(withoutPersistedQueries, { body: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } } }),
      { status: 200, body: { errors: [error('PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED')] } },
    ],
    [
      'hash that does not match',
      () => ask(server, { body: { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ broken }') } } } }),
      { status: 400, body: { errors: [error('provided sha does not match query', 'BAD_REQUEST')] } },
    ],
    [
      'unknown persisted-query version',
      () => ask(server, { body: { query, extensions: { persistedQuery: { version: 2, sha256Hash: sha256(query) } } } }),
      { status: 400, body: { errors: [error('Unsupported persisted query version', 'BAD_REQUEST')] } },
    ],
    [
      'mutation on a schema without one',
      () => ask(server, { body: { query: 'mutation { on }' } }),
      {
        status: 200,
        body: {
          errors: [error('Schema is not configured to execute mutation operation.', 'BAD_REQUEST', { locations: [{ line: 1, column: 1 }] })],
          data: null,
        },
      },
    ],
    [
      'subscription on a schema without one',
      () => ask(server, { body: { query: 'subscription { on }' } }),
      {
        status: 200,
        body: {
          errors: [error('Schema is not configured to execute subscription operation.', 'BAD_REQUEST', { locations: [{ line: 1, column: 1 }] })],
          data: null,
        },
      },
    ],
    [
      'two operations and no name',
      () => ask(server, { body: { query: 'query A { on } query B { on }' } }),
      { status: 400, body: { errors: [error('Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE')] } },
    ],
  ];
}

/** Malformed requests, values a scalar refuses, a resolver that throws, and a request that succeeds. */
function otherRequestCases(server: ApolloServer, query: string): RequestCase[] {
  return [
    [
      'GET without a query',
      () => ask(server, { method: 'GET' }),
      { status: 400, body: { errors: [error('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', 'BAD_REQUEST')] } },
    ],
    [
      'wrong content type',
      () =>
        ask(server, {
          method: 'GET',
          search: `?query=${encodeURIComponent(query)}`,
          headers: { 'content-type': 'text/xml', 'apollo-require-preflight': 'true' },
        }),
      { status: 415, body: { errors: [error('GET requests may not have a content-type header other than application/json.', 'BAD_REQUEST')] } },
    ],
    [
      'syntax error',
      () => ask(server, { body: { query: '{ on(' } }),
      {
        status: 400,
        body: { errors: [error('Syntax Error: Expected Name, found <EOF>.', 'GRAPHQL_PARSE_FAILED', { locations: [{ line: 1, column: 6 }] })] },
      },
    ],
    [
      'variable the scalar refused',
      () => ask(server, { body: { query: 'query($day: Day) { on(day: $day) }', variables: { day: 'someday' } } }),
      {
        status: 400,
        body: {
          errors: [
            error('Variable "$day" got invalid value "someday"; Expected type "Day". Day must be YYYY-MM-DD.', 'BAD_USER_INPUT', {
              locations: [{ line: 1, column: 7 }],
            }),
          ],
        },
      },
    ],
    [
      'literal the scalar refused',
      () => ask(server, { body: { query: '{ on(day: "someday") }' } }),
      {
        status: 400,
        body: {
          errors: [error('Expected value of type "Day", found "someday"; Day must be YYYY-MM-DD.', 'BAD_USER_INPUT', { locations: [{ line: 1, column: 11 }] })],
        },
      },
    ],
    [
      'resolver that throws',
      () => ask(server, { body: { query: '{ broken }' } }),
      {
        status: 200,
        body: {
          errors: [error('Internal server error', 'INTERNAL_SERVER_ERROR', { locations: [{ line: 1, column: 3 }], path: ['broken'] })],
          data: { broken: null },
        },
      },
    ],
    ['a day that parses', () => ask(server, { body: { query } }), { status: 200, body: { data: { on: '2024-01-10' } } }],
  ];
}
