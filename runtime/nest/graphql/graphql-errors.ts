/**
 * `formatGraphQLError`: GraphQL error codes that mirror the HTTP answers of the REST integration, GraphQL's
 * and Apollo's standard codes kept, and nothing of an internal error leaks.
 */
import { HttpStatus } from '@nestjs/common';
import type { ForbiddenReason } from '../../integration/index.js';

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

/** The code Apollo gives an error nothing gave a code to (and any thrown error): it says nothing about the error itself. */
const APOLLO_DEFAULT_CODE = 'INTERNAL_SERVER_ERROR';

/**
 * The codes graphql-js and Apollo give a variable or an argument literal a scalar refused. graphql-js builds these
 * errors over what the scalar's parser threw (`Variable "$day" got invalid value "x"; Expected type "Day". …`), so a
 * thrown error lies under them; they stay the client's input errors all the same.
 */
const INPUT_CODES: ReadonlySet<string> = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED']);

/** graphql-js's GraphQLError (also Apollo's subclasses), told by its `Symbol.toStringTag` (the application's copy of graphql may differ from any other). */
const isGraphQLError = (value: unknown): boolean => Object.prototype.toString.call(value) === '[object GraphQLError]';

/**
 * The error a resolver, guard, pipe, plugin or scalar threw, under the GraphQL errors wrapping it; `undefined`
 * for GraphQL's own errors (syntax, validation, variables, limits, requests Apollo refused) and for GraphQLErrors
 * thrown on purpose. A thrown string or number (not an object) is thrown too.
 */
function thrownError(error: unknown): object | undefined {
  let current = error;
  for (let depth = 0; depth < 8; depth += 1) {
    if (current === undefined || current === null) return undefined;
    // `throw 'db-7 is down'`: a thrown value all the same, boxed so that it is handled (and hidden) like one.
    if (typeof current !== 'object') return Object(current) as object;
    if (!isGraphQLError(current)) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  // A chain deeper than any GraphQL server builds: treat what is left as thrown (an internal error), never show it.
  return typeof current === 'object' && current !== null ? current : undefined;
}

/** `extensions.code` of an error (a GraphQLError's own, before Apollo fills in its default), or `undefined`. */
function ownCode(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  const { extensions } = error as { extensions?: unknown };
  return typeof extensions === 'object' && extensions !== null ? (extensions as Record<string, unknown>)['code'] : undefined;
}

/**
 * The code a GraphQLError was given (by graphql-js, Apollo, graphql-armor or the application), or `undefined` when
 * none was: Apollo then says `INTERNAL_SERVER_ERROR` in `formatted`, which is its default, not the error's code.
 */
function givenCode(formatted: FormattedGraphQLError, error: unknown): string | undefined {
  const code = formatted.extensions?.['code'];
  if (typeof code !== 'string') return undefined;
  return code === APOLLO_DEFAULT_CODE && ownCode(error) === undefined ? undefined : code;
}

/**
 * Whether `error` is an input error graphql-js built over what a scalar's parser threw (see {@link INPUT_CODES}):
 * a GraphQLError about the request (no path: a field's error always has one) whose own code is an input code, over
 * a thrown error that does not carry that code itself (graphql-js copies a thrown error's `extensions` to the
 * GraphQLError it wraps it in, so a thrown error claiming `BAD_USER_INPUT` would otherwise pass for one).
 */
function isScalarInputError(formatted: FormattedGraphQLError, error: unknown, thrown: object): boolean {
  const code = ownCode(error);
  return (
    isGraphQLError(error) &&
    formatted.path === undefined &&
    typeof code === 'string' &&
    INPUT_CODES.has(code) &&
    !isGraphQLError(thrown) &&
    ownCode(thrown) !== code
  );
}

/** The HTTP status of a Nest HttpException (duck-typed: the application and this package may hold different copies of @nestjs/common). */
function httpStatusOf(error: object): number | undefined {
  const { getStatus, getResponse } = error as { getStatus?: unknown; getResponse?: unknown };
  if (typeof getStatus !== 'function' || typeof getResponse !== 'function') return undefined;
  const status: unknown = getStatus.call(error);
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

/**
 * The reason of a refusal of the permissions guard (its 403 body's `reason`, which shows only what the caller may
 * know); undefined for any other 403, whose body is the application's.
 */
function forbiddenReasonOf(thrown: object): ForbiddenReason | undefined {
  const body: unknown = (thrown as { getResponse(): unknown }).getResponse();
  if (typeof body !== 'object' || body === null) return undefined;
  const reason = (body as { reason?: unknown }).reason;
  return reason === 'no-grant' || reason === 'not-owner' ? reason : undefined;
}

/**
 * The `formatError` of a GraphQL server (`GraphQLModule.forRoot({ formatError: formatGraphQLError })`):
 * gives every error the code a GraphQL client expects for the HTTP answer REST would have sent, keeps the
 * standard codes of GraphQL and Apollo, and never leaks what the application did not mean to show.
 *
 * - HttpExceptions from guards, pipes and resolvers: 400 → `BAD_USER_INPUT` (Nest alone says
 *   `BAD_REQUEST`), 401 → `UNAUTHENTICATED`, 403 → `FORBIDDEN`, 404 → `NOT_FOUND`, 422 → `BAD_USER_INPUT`,
 *   any other status → its Nest name (`CONFLICT`, `SERVICE_UNAVAILABLE`, …) with the exception's message;
 *   5xx other than 503 → `INTERNAL_SERVER_ERROR`.
 * - Any other thrown error (a failing ownership hook, a bug, an Apollo plugin that throws, a thrown string):
 *   `INTERNAL_SERVER_ERROR` with the message "Internal server error" — no message, stack trace or cause of the
 *   original, even when the thrown error carries an `extensions.code` of its own.
 * - GraphQL's own errors (syntax, validation, variables, limits, requests Apollo refuses) and GraphQLErrors
 *   thrown on purpose: kept, without a stack trace, with the code they were given — standard codes included
 *   (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, `BAD_USER_INPUT`, `PERSISTED_QUERY_NOT_FOUND`,
 *   `PERSISTED_QUERY_NOT_SUPPORTED`, `OPERATION_RESOLUTION_FAILURE`, `BAD_REQUEST`, and custom ones such as
 *   `BATCH_LIMIT_EXCEEDED`). An argument literal of the wrong type (`document(id: "abc")`: "Expected value of
 *   type …", "Int cannot represent …") becomes `BAD_USER_INPUT`, like a variable of the wrong type.
 * - A GraphQLError nothing gave a code to (Apollo would say `INTERNAL_SERVER_ERROR`, its default): without a
 *   path it is about the request, not a failure of the server — a persisted query whose hash does not match or
 *   whose version is unknown, a mutation or subscription sent to a schema that has none — and becomes
 *   `BAD_REQUEST`; with a path (a field's result the schema does not allow) it stays `INTERNAL_SERVER_ERROR`,
 *   with graphql-js's message.
 * - `BAD_USER_INPUT` and `GRAPHQL_VALIDATION_FAILED` that graphql-js built over what a custom scalar's parser threw
 *   keep their code and graphql-js's message (which quotes the scalar's: a scalar's parser is the application's
 *   input validation, its messages are written for the client).
 *
 * - An error that throws while it is read (a getter, `getStatus`, `getResponse` or a Proxy trap): `INTERNAL_SERVER_ERROR`
 *   with "Internal server error" — this function never throws, since Apollo would answer its error with the inner message.
 *
 * The result has `message`, `locations`, `path` and `extensions: { code }` only; a refusal of the permissions guard
 * adds its 403 body's `reason` (`extensions: { code: 'FORBIDDEN', reason: 'not-owner' }`: `'no-grant'` or
 * `'not-owner'`, what the caller may know).
 *
 * @example
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, formatError: formatGraphQLError });
 * // { errors: [{ message: 'read on document is not granted', path: ['document'], extensions: { code: 'FORBIDDEN', reason: 'no-grant' } }],
 * //   data: { document: null } }
 * // { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] }
 * ```
 */
export function formatGraphQLError(formatted: FormattedGraphQLError, error: unknown): FormattedGraphQLError {
  const where = {
    ...(formatted.locations === undefined ? {} : { locations: formatted.locations }),
    ...(formatted.path === undefined ? {} : { path: formatted.path }),
  };
  try {
    return formatReadableError(formatted, error, where);
  } catch {
    // An error whose getters, getStatus, getResponse or Proxy traps throw: left to throw, Apollo would answer the
    // inner error's message (and its stack trace outside production). It is a server error like any other.
    return { message: INTERNAL_ERROR_MESSAGE, ...where, extensions: { code: APOLLO_DEFAULT_CODE } };
  }
}

/** {@link formatGraphQLError}, for an error that may throw while it is read. */
function formatReadableError(
  formatted: FormattedGraphQLError,
  error: unknown,
  where: Pick<FormattedGraphQLError, 'locations' | 'path'>,
): FormattedGraphQLError {
  const thrown = thrownError(error);
  if (thrown === undefined || isScalarInputError(formatted, error, thrown)) {
    // Apollo's default code is no code: a GraphQLError about the request (no path) is a refused request, a field's
    // is the server's failure; without the error itself nothing is known, and the default stands.
    const code = givenCode(formatted, error) ?? (formatted.path === undefined && isGraphQLError(error) ? 'BAD_REQUEST' : APOLLO_DEFAULT_CODE);
    // A literal of the wrong type (`document(id: "abc")`) fails validation; REST answers a malformed id with
    // 400, and Apollo a variable of the wrong type with BAD_USER_INPUT, so this is BAD_USER_INPUT too.
    const badLiteral = code === 'GRAPHQL_VALIDATION_FAILED' && WRONG_LITERAL.test(formatted.message);
    return { message: formatted.message, ...where, extensions: { code: badLiteral ? 'BAD_USER_INPUT' : code } };
  }
  const status = httpStatusOf(thrown);
  if (status === undefined || (status >= 500 && status !== 503)) {
    return { message: INTERNAL_ERROR_MESSAGE, ...where, extensions: { code: APOLLO_DEFAULT_CODE } };
  }
  const message = (thrown as { message?: unknown }).message;
  const named: unknown = (HttpStatus as unknown as Record<number, unknown>)[status];
  const code = CODES[status] ?? (typeof named === 'string' ? named : `HTTP_${status}`);
  const reason = status === 403 ? forbiddenReasonOf(thrown) : undefined;
  return {
    message: typeof message === 'string' ? message : formatted.message,
    ...where,
    extensions: reason === undefined ? { code } : { code, reason },
  };
}
