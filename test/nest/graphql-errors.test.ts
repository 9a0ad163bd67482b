/**
 * `formatGraphQLError` on hand-made inputs: the codes GraphQL clients expect for the
 * HTTP answers of the REST integration, GraphQL's own errors kept, and nothing internal (message, stack
 * trace, cause) ever in the output. And the metadata keys the integration reads without importing
 * `@nestjs/graphql` are the ones it writes. The standard codes of GraphQL and Apollo: graphql-standard-codes.test.ts.
 */
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
import { buildSchema, GraphQLError, parse, validate } from 'graphql';
import { formatGraphQLError } from '../../runtime/nest/index.js';
import { GRAPHQL_METADATA_KEYS } from '../../runtime/nest/graphql/resolver-methods.js';

import { apolloFormatted, format, INTERNAL, LOCATIONS, PATH, resolverError, STACKTRACE, validationErrors } from './graphql-error-shapes.js';

describe('formatGraphQLError', () => {
  httpExceptionsAndThrownValues();
  errorChainsAndWrongLiterals();

  it("an enum literal that is not a value of the enum is BAD_USER_INPUT; a custom scalar's own message is not recognised", () => {
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

  it('a chain of GraphQLErrors deeper than 8 is treated as internal, never shown', () => {
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

  it('no output ever carries a stack trace or anything but message, locations, path and extensions.code', () => {
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

function httpExceptionsAndThrownValues(): void {
  it('HttpExceptions of 4xx statuses get the codes GraphQL clients expect, with their message', () => {
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

  it('a 4xx status Nest has no name for is HTTP_<status>', () => {
    expect(format(new HttpException('client closed the request', 499))).toStrictEqual({
      message: 'client closed the request',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'HTTP_499' },
    });
  });

  it('503 is SERVICE_UNAVAILABLE with its message', () => {
    expect(format(new ServiceUnavailableException('The database is unavailable; try again shortly.'))).toStrictEqual({
      message: 'The database is unavailable; try again shortly.',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('other 5xx HttpExceptions are INTERNAL_SERVER_ERROR "Internal server error", without their message', () => {
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

  it('a plain Error (a failing hook, a bug) is INTERNAL_SERVER_ERROR, without message, stack trace or cause', () => {
    const thrown = new Error('the ownership database password is hunter2', { cause: new Error('connection to db-7.internal refused') });
    const output = format(thrown);
    expect(output).toStrictEqual(INTERNAL);
    expect(JSON.stringify(output)).not.toMatch(/hunter2|db-7|stacktrace/);
  });

  it('a thrown value that is not a GraphQLError, passed directly, is mapped the same way', () => {
    const formatted = { message: 'x', locations: LOCATIONS, path: PATH, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACKTRACE } };
    expect(formatGraphQLError({ ...formatted, message: 'secret' }, new Error('secret'))).toStrictEqual(INTERNAL);
    expect(formatGraphQLError(formatted, new ForbiddenException('read on document is not granted'))).toStrictEqual({
      message: 'read on document is not granted',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'FORBIDDEN' },
    });
  });
}

function errorChainsAndWrongLiterals(): void {
  it('the thrown error is found under nested originalError chains', () => {
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

  it('an HttpException from another copy of @nestjs/common (duck-typed) is mapped', () => {
    const foreign = Object.assign(new Error('unknown user 99'), { getStatus: () => 401, getResponse: () => ({ statusCode: 401 }) });
    expect(format(foreign)).toStrictEqual({ message: 'unknown user 99', locations: LOCATIONS, path: PATH, extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('a GraphQLError thrown on purpose keeps its message and custom code; other extensions and the stack trace go', () => {
    const onPurpose = new GraphQLError('Quota exceeded: 100 documents a day.', { extensions: { code: 'QUOTA_EXCEEDED', retryAfter: 3600 } });
    const error = resolverError(onPurpose);
    expect(formatGraphQLError(apolloFormatted(error, 'QUOTA_EXCEEDED'), error)).toStrictEqual({
      message: 'Quota exceeded: 100 documents a day.',
      locations: LOCATIONS,
      path: PATH,
      extensions: { code: 'QUOTA_EXCEEDED' },
    });
  });

  it("GraphQL's own errors (syntax, validation) are kept, without the stack trace", () => {
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

  it('a validation error "Expected value of type …" (an argument literal of the wrong type) is BAD_USER_INPUT', () => {
    const [nullId] = validationErrors('{ document(id: null) }');
    expect(nullId && formatGraphQLError(nullId.formatted, nullId.error)).toStrictEqual({
      message: 'Expected value of type "Int!", found null.',
      locations: [{ line: 1, column: 16 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('document(id: "abc"), the documented example of a wrong literal, is BAD_USER_INPUT', () => {
    // graphql-js 16 words this one "Int cannot represent non-integer value", not "Expected value of type …".
    const [textId] = validationErrors('{ document(id: "abc") }');
    expect(textId && formatGraphQLError(textId.formatted, textId.error)).toStrictEqual({
      message: 'Int cannot represent non-integer value: "abc"',
      locations: [{ line: 1, column: 16 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
}

describe('@nestjs/graphql metadata keys', () => {
  it("GRAPHQL_METADATA_KEYS are @nestjs/graphql's RESOLVER_TYPE_METADATA, RESOLVER_NAME_METADATA and RESOLVER_PROPERTY_METADATA", () => {
    expect(GRAPHQL_METADATA_KEYS).toEqual({
      resolverType: RESOLVER_TYPE_METADATA,
      resolverName: RESOLVER_NAME_METADATA,
      resolveProperty: RESOLVER_PROPERTY_METADATA,
    });
  });
});
