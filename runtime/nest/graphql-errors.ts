/**
 * `formatGraphQLError`: GraphQL error codes that mirror the HTTP answers of the REST integration, and
 * nothing of an internal error leaks.
 */
import { HttpStatus } from '@nestjs/common';

/** A formatted GraphQL error (graphql-js `GraphQLFormattedError`), as far as it is read and written here. */
export interface FormattedGraphQLError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** The codes GraphQL clients expect for the HTTP statuses REST answers with. */
const CODES: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  422: 'BAD_USER_INPUT',
};

/**
 * graphql-js's messages for an argument literal of the wrong type: ValuesOfCorrectTypeRule's own ("Expected
 * value of type …"), or, as it passes them on unchanged, those of the built-in scalars ("Int cannot represent
 * non-integer value: …") and of enums ("Value "Z" does not exist in "Status" enum."). Custom scalars' own
 * messages are not recognised: they stay GRAPHQL_VALIDATION_FAILED.
 */
const WRONG_LITERAL =
  /^(?:Expected value of type |(?:Int|Float|String|Boolean|ID) cannot represent |Enum "[^"]*" cannot represent |Value "[^"]*" does not exist in "[^"]*" enum)/;

/** What is sent for an error the application did not mean to show (a failing hook, a bug). */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** graphql-js's GraphQLError (also Apollo's subclasses), told by its `Symbol.toStringTag` (the application's copy of graphql may differ from any other). */
const isGraphQLError = (value: object): boolean => Object.prototype.toString.call(value) === '[object GraphQLError]';

/**
 * The error a resolver, guard or pipe threw, under the GraphQL errors wrapping it; `undefined` for GraphQL's
 * own errors (syntax, validation, variables, limits) and for GraphQLErrors thrown on purpose.
 */
function thrownError(error: unknown): object | undefined {
  let current = error;
  for (let depth = 0; depth < 8; depth += 1) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!isGraphQLError(current)) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  // A chain deeper than any GraphQL server builds: treat what is left as thrown (an internal error), never show it.
  return typeof current === 'object' && current !== null ? current : undefined;
}

/** The HTTP status of a Nest HttpException (duck-typed: the application and this package may hold different copies of @nestjs/common). */
function httpStatusOf(error: object): number | undefined {
  const { getStatus, getResponse } = error as { getStatus?: unknown; getResponse?: unknown };
  if (typeof getStatus !== 'function' || typeof getResponse !== 'function') return undefined;
  const status: unknown = getStatus.call(error);
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

/**
 * The `formatError` of a GraphQL server (`GraphQLModule.forRoot({ formatError: formatGraphQLError })`):
 * gives every error the code a GraphQL client expects for the HTTP answer REST would have sent, and
 * never leaks what the application did not mean to show.
 *
 * - HttpExceptions from guards, pipes and resolvers: 400 → `BAD_USER_INPUT` (Nest alone says
 *   `BAD_REQUEST`), 401 → `UNAUTHENTICATED`, 403 → `FORBIDDEN`, 404 → `NOT_FOUND`, 422 → `BAD_USER_INPUT`,
 *   any other status → its Nest name (`CONFLICT`, `SERVICE_UNAVAILABLE`, …) with the exception's message;
 *   5xx other than 503 → `INTERNAL_SERVER_ERROR`.
 * - Any other thrown error (a failing ownership hook, a bug): `INTERNAL_SERVER_ERROR` with the message
 *   "Internal server error" — no message, stack trace or cause of the original.
 * - GraphQL's own errors (syntax, validation, variables, limits): kept, without a stack trace; an argument
 *   literal of the wrong type (`document(id: "abc")`: "Expected value of type …", "Int cannot represent …")
 *   becomes `BAD_USER_INPUT`, like a variable of the wrong type.
 *
 * The result has `message`, `locations`, `path` and `extensions: { code }` only.
 *
 * @example
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, formatError: formatGraphQLError });
 * // { errors: [{ message: 'read on document is not granted', path: ['document'], extensions: { code: 'FORBIDDEN' } }], data: { document: null } }
 * ```
 */
export function formatGraphQLError(formatted: FormattedGraphQLError, error: unknown): FormattedGraphQLError {
  const where = {
    ...(formatted.locations === undefined ? {} : { locations: formatted.locations }),
    ...(formatted.path === undefined ? {} : { path: formatted.path }),
  };
  const thrown = thrownError(error);
  if (thrown === undefined) {
    const code = formatted.extensions?.['code'];
    // A literal of the wrong type (`document(id: "abc")`) fails validation; REST answers a malformed id with
    // 400, and Apollo a variable of the wrong type with BAD_USER_INPUT, so this is BAD_USER_INPUT too.
    const badLiteral = code === 'GRAPHQL_VALIDATION_FAILED' && WRONG_LITERAL.test(formatted.message);
    return {
      message: formatted.message,
      ...where,
      extensions: { code: badLiteral ? 'BAD_USER_INPUT' : typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR' },
    };
  }
  const status = httpStatusOf(thrown);
  if (status === undefined || (status >= 500 && status !== 503)) {
    return { message: INTERNAL_ERROR_MESSAGE, ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  const message = (thrown as { message?: unknown }).message;
  const named: unknown = (HttpStatus as unknown as Record<number, unknown>)[status];
  return {
    message: typeof message === 'string' ? message : formatted.message,
    ...where,
    extensions: { code: CODES[status] ?? (typeof named === 'string' ? named : `HTTP_${status}`) },
  };
}
