/**
 * Errors shaped as graphql-js and Apollo Server 5 hand them to `formatError`, for the tests of
 * `formatGraphQLError`: a resolver's thrown error located at its field, Apollo's formatted form of it
 * (with the stack trace Apollo adds outside production), and graphql-js's own validation errors.
 */
import { buildSchema, GraphQLError, locatedError, parse, validate } from 'graphql';
import { formatGraphQLError, type FormattedGraphQLError } from '../../runtime/nest/index.js';

export const LOCATIONS = [{ line: 1, column: 3 }] as const;
export const PATH = ['document'] as const;
/** What Apollo puts under `extensions.stacktrace` outside production. */
export const STACKTRACE = ['Error: the ownership database password is hunter2', '    at DocumentOwnership.isCreator (ownership.ts:12:11)'];

/** A resolver's thrown error as graphql-js hands it to Apollo: located at the field, the thrown error as its originalError. */
export function resolverError(thrown: Error): GraphQLError {
  return locatedError(thrown, undefined, [...PATH]);
}

/** What Apollo formats from it before calling `formatError` (code INTERNAL_SERVER_ERROR unless the error set one, and the stack trace). */
export function apolloFormatted(error: GraphQLError, code = 'INTERNAL_SERVER_ERROR'): FormattedGraphQLError {
  return { message: error.message, locations: LOCATIONS, path: PATH, extensions: { ...error.extensions, code, stacktrace: STACKTRACE } };
}

/** The formatted error of a thrown error, as `formatGraphQLError` rewrites it. */
export function format(thrown: Error): FormattedGraphQLError {
  const error = resolverError(thrown);
  return formatGraphQLError(apolloFormatted(error), error);
}

export const INTERNAL = { message: 'Internal server error', locations: LOCATIONS, path: PATH, extensions: { code: 'INTERNAL_SERVER_ERROR' } };

/** A schema and graphql-js's own validation errors for a query, as Apollo formats them. */
export const SCHEMA = buildSchema('type Query { document(id: Int!): String }');
export function validationErrors(query: string): { formatted: FormattedGraphQLError; error: GraphQLError }[] {
  return validate(SCHEMA, parse(query)).map((error) => ({
    error,
    formatted: { ...error.toJSON(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', stacktrace: STACKTRACE } },
  }));
}
