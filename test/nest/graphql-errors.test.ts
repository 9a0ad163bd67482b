/**
 * `formatGraphQLError` on hand-made inputs (issue 13, item 5): the codes GraphQL clients expect for the
 * HTTP answers of the REST integration, GraphQL's own errors kept, and nothing internal (message, stack
 * trace, cause) ever in the output. And the metadata keys the integration reads without importing
 * `@nestjs/graphql` are the ones it writes.
 *
 * The standard codes of GraphQL and Apollo: on errors shaped as Apollo Server 5 builds them (its error classes
 * are not exported, so the shapes are copied from `@apollo/server`'s internalErrorClasses and requestPipeline),
 * and on a real Apollo Server 5 in the process.
 */
import { createHash } from 'node:crypto';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { describe, expect, it } from '@jest/globals';
import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  ImATeapotException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { RESOLVER_NAME_METADATA, RESOLVER_PROPERTY_METADATA, RESOLVER_TYPE_METADATA } from '@nestjs/graphql/dist/graphql.constants.js';
import { buildSchema, GraphQLError, GraphQLScalarType, Kind, locatedError, parse, validate } from 'graphql';
import { formatGraphQLError, type FormattedGraphQLError } from '../../runtime/nest/index.js';
import { GRAPHQL_METADATA_KEYS } from '../../runtime/nest/graphql/resolver-methods.js';

const LOCATIONS = [{ line: 1, column: 3 }] as const;
const PATH = ['document'] as const;
/** What Apollo puts under `extensions.stacktrace` outside production. */
const STACKTRACE = ['Error: the ownership database password is hunter2', '    at DocumentOwnership.isCreator (ownership.ts:12:11)'];

/** A resolver's thrown error as graphql-js hands it to Apollo: located at the field, the thrown error as its originalError. */
function resolverError(thrown: Error): GraphQLError {
  return locatedError(thrown, undefined, [...PATH]);
}

/** What Apollo formats from it before calling `formatError` (code INTERNAL_SERVER_ERROR unless the error set one, and the stack trace). */
function apolloFormatted(error: GraphQLError, code = 'INTERNAL_SERVER_ERROR'): FormattedGraphQLError {
  return { message: error.message, locations: LOCATIONS, path: PATH, extensions: { ...error.extensions, code, stacktrace: STACKTRACE } };
}

/** The formatted error of a thrown error, as `formatGraphQLError` rewrites it. */
function format(thrown: Error): FormattedGraphQLError {
  const error = resolverError(thrown);
  return formatGraphQLError(apolloFormatted(error), error);
}

const INTERNAL = { message: 'Internal server error', locations: LOCATIONS, path: PATH, extensions: { code: 'INTERNAL_SERVER_ERROR' } };

/** A schema and graphql-js's own validation errors for a query, as Apollo formats them. */
const SCHEMA = buildSchema('type Query { document(id: Int!): String }');
function validationErrors(query: string): { formatted: FormattedGraphQLError; error: GraphQLError }[] {
  return validate(SCHEMA, parse(query)).map((error) => ({
    error,
    formatted: { ...error.toJSON(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', stacktrace: STACKTRACE } },
  }));
}

describe('formatGraphQLError', () => {
  it('item 5: HttpExceptions of 4xx statuses get the codes GraphQL clients expect, with their message', () => {
    const cases: [Error, string][] = [
      [new BadRequestException('id must be an integer'), 'BAD_USER_INPUT'],
      [new UnauthorizedException('unknown user 99'), 'UNAUTHENTICATED'],
      [new ForbiddenException('read on document is not granted'), 'FORBIDDEN'],
      [new NotFoundException('No document 7.'), 'NOT_FOUND'],
      [new UnprocessableEntityException('title is too long'), 'BAD_USER_INPUT'],
      [new ConflictException('document 7 changed meanwhile'), 'CONFLICT'],
      [new PayloadTooLargeException('the title is too large'), 'PAYLOAD_TOO_LARGE'],
      [new ImATeapotException('short and stout'), 'I_AM_A_TEAPOT'],
      [new HttpException('slow down', 429), 'TOO_MANY_REQUESTS'],
    ];
    for (const [thrown, code] of cases) {
      expect(format(thrown)).toStrictEqual({ message: thrown.message, locations: LOCATIONS, path: PATH, extensions: { code } });
    }
  });

  it('item 5: a 4xx status Nest has no name for is HTTP_<status>', () => {
    expect(format(new HttpException('client closed the request', 499))).toStrictEqual({
      message: 'client closed the request',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'HTTP_499' },
    });
  });

  it('item 5: 503 is SERVICE_UNAVAILABLE with its message', () => {
    expect(format(new ServiceUnavailableException('The database is unavailable; try again shortly.'))).toStrictEqual({
      message: 'The database is unavailable; try again shortly.',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('item 5: other 5xx HttpExceptions are INTERNAL_SERVER_ERROR "Internal server error", without their message', () => {
    for (const thrown of [
      new InternalServerErrorException('pool exhausted at db-7.internal'),
      new BadGatewayException('upstream db-7.internal refused'),
      new HttpException('db-7.internal', 500),
      new HttpException('db-7.internal', 507),
    ]) {
      const output = format(thrown);
      expect(output).toStrictEqual(INTERNAL);
      expect(JSON.stringify(output)).not.toContain('db-7');
    }
  });

  it('item 5: a plain Error (a failing hook, a bug) is INTERNAL_SERVER_ERROR, without message, stack trace or cause', () => {
    const thrown = new Error('the ownership database password is hunter2', { cause: new Error('connection to db-7.internal refused') });
    const output = format(thrown);
    expect(output).toStrictEqual(INTERNAL);
    expect(JSON.stringify(output)).not.toMatch(/hunter2|db-7|stacktrace/);
  });

  it('item 5: a thrown value that is not a GraphQLError, passed directly, is mapped the same way', () => {
    const formatted = { message: 'x', locations: LOCATIONS, path: PATH, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
    expect(formatGraphQLError({ ...formatted, message: 'secret' }, new Error('secret'))).toStrictEqual(INTERNAL);
    expect(formatGraphQLError(formatted, new ForbiddenException('read on document is not granted'))).toStrictEqual({
      message: 'read on document is not granted',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('item 5: the thrown error is found under nested originalError chains', () => {
    const forbidden = new ForbiddenException('update on document is not granted');
    const nested = new GraphQLError('outer', { path: [...PATH], originalError: new GraphQLError('middle', { originalError: resolverError(forbidden) }) });
    expect(formatGraphQLError(apolloFormatted(nested), nested)).toStrictEqual({
      message: 'update on document is not granted',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'FORBIDDEN' },
    });
    const secret = new Error('the ownership database password is hunter2');
    const nestedSecret = new GraphQLError(secret.message, { path: [...PATH], originalError: new GraphQLError(secret.message, { originalError: secret }) });
    expect(formatGraphQLError(apolloFormatted(nestedSecret), nestedSecret)).toStrictEqual(INTERNAL);
  });

  it('item 5: an HttpException from another copy of @nestjs/common (duck-typed) is mapped', () => {
    const foreign = Object.assign(new Error('unknown user 99'), { getStatus: () => 401, getResponse: () => ({ statusCode: 401 }) });
    expect(format(foreign)).toStrictEqual({ message: 'unknown user 99', locations: LOCATIONS, path: PATH, extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('item 5: a GraphQLError thrown on purpose keeps its message and custom code; other extensions and the stack trace go', () => {
    const onPurpose = new GraphQLError('Quota exceeded: 100 documents a day.', { extensions: { code: 'QUOTA_EXCEEDED', retryAfter: 3600 } });
    const error = resolverError(onPurpose);
    expect(formatGraphQLError(apolloFormatted(error, 'QUOTA_EXCEEDED'), error)).toStrictEqual({
      message: 'Quota exceeded: 100 documents a day.',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'QUOTA_EXCEEDED' },
    });
  });

  it("item 5: GraphQL's own errors (syntax, validation) are kept, without the stack trace", () => {
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(
      formatGraphQLError(
        { message: syntax.message, locations: [{ line: 1, column: 2 }], extensions: { code: 'GRAPHQL_PARSE_FAILED', stacktrace: STACKTRACE } },
        syntax,
      ),
    ).toStrictEqual({
      message: 'Syntax Error: Expected Name, found <EOF>.',
      locations: [{ line: 1, column: 2 }],
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    const [unknownField] = validationErrors('{ documents }');
    expect(unknownField && formatGraphQLError(unknownField.formatted, unknownField.error)).toStrictEqual({
      message: 'Cannot query field "documents" on type "Query". Did you mean "document"?',
      locations: [{ line: 1, column: 3 }],
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('item 5: a validation error "Expected value of type …" (an argument literal of the wrong type) is BAD_USER_INPUT', () => {
    const [nullId] = validationErrors('{ document(id: null) }');
    expect(nullId && formatGraphQLError(nullId.formatted, nullId.error)).toStrictEqual({
      message: 'Expected value of type "Int!", found null.',
      locations: [{ line: 1, column: 16 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('item 5: document(id: "abc"), the documented example of a wrong literal, is BAD_USER_INPUT', () => {
    // graphql-js 16 words this one "Int cannot represent non-integer value", not "Expected value of type …".
    const [textId] = validationErrors('{ document(id: "abc") }');
    expect(textId && formatGraphQLError(textId.formatted, textId.error)).toStrictEqual({
      message: 'Int cannot represent non-integer value: "abc"',
      locations: [{ line: 1, column: 16 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it("item 5: an enum literal that is not a value of the enum is BAD_USER_INPUT; a custom scalar's own message is not recognised", () => {
    const schema = buildSchema('enum Status { DRAFT FINAL } type Query { documents(status: Status!): String }');
    const [wrongEnum] = validate(schema, parse('{ documents(status: ARCHIVED) }'));
    const [wrongKind] = validate(schema, parse('{ documents(status: "DRAFT") }'));
    const asApollo = (error: GraphQLError | undefined) => {
      if (error === undefined) throw new Error('graphql-js reported no error');
      return formatGraphQLError({ ...error.toJSON(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, error);
    };
    expect(asApollo(wrongEnum)).toStrictEqual({
      message: 'Value "ARCHIVED" does not exist in "Status" enum.',
      locations: [{ line: 1, column: 21 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(asApollo(wrongKind)).toStrictEqual({
      message: 'Enum "Status" cannot represent non-enum value: "DRAFT". Did you mean the enum value "DRAFT"?',
      locations: [{ line: 1, column: 21 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const custom = new GraphQLError('Date must be YYYY-MM-DD');
    expect(formatGraphQLError({ message: custom.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, custom)).toStrictEqual({
      message: 'Date must be YYYY-MM-DD',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('item 5: a chain of GraphQLErrors deeper than 8 is treated as internal, never shown', () => {
    let error = new GraphQLError('the ownership database password is hunter2');
    for (let depth = 0; depth < 9; depth += 1) error = new GraphQLError(error.message, { originalError: error });
    expect(formatGraphQLError(apolloFormatted(error), error)).toStrictEqual(INTERNAL);
    // Eight wrappers around a GraphQLError thrown on purpose are still GraphQL's own: kept.
    let shallow = new GraphQLError('on purpose', { extensions: { code: 'MINE' } });
    for (let depth = 0; depth < 7; depth += 1) shallow = new GraphQLError(shallow.message, { originalError: shallow, extensions: { code: 'MINE' } });
    expect(formatGraphQLError(apolloFormatted(shallow, 'MINE'), shallow)).toStrictEqual({
      message: 'on purpose',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'MINE' },
    });
  });

  it('item 5: no output ever carries a stack trace or anything but message, locations, path and extensions.code', () => {
    const errors = [
      resolverError(new ForbiddenException('no')),
      resolverError(new ServiceUnavailableException('later')),
      resolverError(new Error('secret')),
      resolverError(new GraphQLError('on purpose', { extensions: { code: 'MINE', detail: 'kept out' } })),
      ...validationErrors('{ document(id: null) nope }').map(({ error }) => error),
    ];
    for (const error of errors) {
      const output = formatGraphQLError(apolloFormatted(error), error);
      expect(Object.keys(output).sort()).toEqual(['extensions', 'locations', 'message', 'path']);
      expect(Object.keys(output.extensions ?? {})).toEqual(['code']);
      expect(JSON.stringify(output)).not.toMatch(/stacktrace|hunter2|at DocumentOwnership/);
    }
  });
});

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

  it('a thrown string or number passed as the error is INTERNAL_SERVER_ERROR "Internal server error"', () => {
    for (const thrown of ['db-7.internal is down', 503]) {
      const formatted = { message: `Unexpected error value: ${JSON.stringify(thrown)}`, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
      expect(formatGraphQLError(formatted, thrown)).toStrictEqual({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
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

    it('no standard request error comes out as INTERNAL_SERVER_ERROR or with a 5xx status; a thrown error in a resolver is hidden', async () => {
      const server = new ApolloServer(options);
      const withoutPersistedQueries = new ApolloServer({ ...options, persistedQueries: false });
      await Promise.all([server.start(), withoutPersistedQueries.start()]);
      try {
        const query = '{ on(day: "2024-01-10") }';
        const cases: [string, () => ReturnType<typeof ask>, { status: number; body: unknown }][] = [
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
                errors: [
                  error('Expected value of type "Day", found "someday"; Day must be YYYY-MM-DD.', 'BAD_USER_INPUT', { locations: [{ line: 1, column: 11 }] }),
                ],
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
        for (const [label, run, expected] of cases) expect({ label, answer: await run() }).toStrictEqual({ label, answer: expected });
      } finally {
        await Promise.all([server.stop(), withoutPersistedQueries.stop()]);
      }
    }, 60_000);
  });
});

describe('@nestjs/graphql metadata keys', () => {
  it("item 5: GRAPHQL_METADATA_KEYS are @nestjs/graphql's RESOLVER_TYPE_METADATA, RESOLVER_NAME_METADATA and RESOLVER_PROPERTY_METADATA", () => {
    expect(GRAPHQL_METADATA_KEYS).toEqual({
      resolverType: RESOLVER_TYPE_METADATA,
      resolverName: RESOLVER_NAME_METADATA,
      resolveProperty: RESOLVER_PROPERTY_METADATA,
    });
  });
});
