/**
 * Expected GraphQL answers of the example app, built from example-data.ts (through example-expectations.ts)
 * and from the rules of graphql-js, never from the running app. GraphQL answers `null` for a field the permit
 * hides (the key is present), so an expected document lists every selected field.
 */
import { Lexer, Source, TokenKind } from 'graphql';
import type { ExampleDocument } from '../../examples/documents/example-data.js';
import { ALL_DOCUMENT_IDS, type DocumentField } from './example-expectations.js';

/** The fields of the GraphQL `Document` type, in the order the tests select them. */
export const DOCUMENT_FIELDS: readonly DocumentField[] = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'];

/** A selection of every field of `Document`, for queries such as `{ document(id: 10) { ${ALL_FIELDS} } }`. */
export const ALL_FIELDS = DOCUMENT_FIELDS.join(' ');

/** A document as GraphQL answers it: every selected field, `null` where the permit hid it. */
export type SelectedDocument = Partial<Record<DocumentField, string | number | null>>;

/**
 * The GraphQL form of an expected REST body: each of `fields` with its value, or `null` when the REST body
 * (a picked document) does not have it.
 *
 * @example
 * ```ts
 * asSelected(documentWithout(10, 'confidential'), ['id', 'confidential']); // { id: 10, confidential: null }
 * ```
 */
export function asSelected(picked: Partial<ExampleDocument>, fields: readonly DocumentField[] = DOCUMENT_FIELDS): SelectedDocument {
  return Object.fromEntries(fields.map((field) => [field, picked[field] ?? null]));
}

/** One formatted GraphQL error as the example app sends it (see runtime/nest/graphql-errors.ts). */
export interface ExpectedGraphQLError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions: { readonly code: string; readonly reason?: 'no-grant' | 'not-owner' };
}

/**
 * The error of a root field that failed while executing (refused by the guard, missing, bad id): its message,
 * the field's location in the query and its path.
 *
 * @example
 * ```ts
 * fieldError('read on document is not granted', 'FORBIDDEN', 'document'); // for `{ document(id: 2) { id } }`: line 1, column 3
 * ```
 */
export function fieldError(message: string, code: string, path: string, column = 3, line = 1): ExpectedGraphQLError {
  return { message, locations: [{ line, column }], path: [path], extensions: { code } };
}

/**
 * The guard's refusal of a root field: FORBIDDEN with the reason the caller may know — `not-owner` for a record the
 * roles grant as own only and that is not the caller's (or does not exist), else `no-grant`.
 *
 * @example
 * ```ts
 * forbiddenError('read on document is not granted', 'not-owner', 'document'); // for `{ document(id: 2) { id } }`
 * ```
 */
export function forbiddenError(message: string, reason: 'no-grant' | 'not-owner', path: string, column = 3, line = 1): ExpectedGraphQLError {
  return { message, locations: [{ line, column }], path: [path], extensions: { code: 'FORBIDDEN', reason } };
}

/**
 * A refusal of the whole operation before it runs (validation, limits): a message and a code, no path.
 *
 * @example
 * ```ts
 * operationError('Syntax Error: Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED');
 * ```
 */
export function operationError(message: string, code: string, locations?: ExpectedGraphQLError['locations']): ExpectedGraphQLError {
  return { message, ...(locations === undefined ? {} : { locations }), extensions: { code } };
}

/**
 * How many lexical tokens graphql-js's parser counts for `query` (the end-of-file token excluded), the number its
 * `maxTokens` option bounds: lets a test state that a query sits exactly at the token limit.
 *
 * @example
 * ```ts
 * tokenCount('{ document(id: 10) { id } }'); // 10
 * ```
 */
export function tokenCount(query: string): number {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/**
 * Where token number `n` (1-based) of `query` starts: where graphql-js's parser reports "more than maxTokens
 * tokens" when `n` is `maxTokens + 1`.
 *
 * @example
 * ```ts
 * tokenLocation('{ document(id: 10) { id } }', 2); // { line: 1, column: 3 }
 * ```
 */
export function tokenLocation(query: string, n: number): { line: number; column: number } {
  const lexer = new Lexer(new Source(query));
  for (let index = 1; index <= n; index += 1) {
    const token = lexer.advance();
    if (token.kind === TokenKind.EOF) throw new Error(`The query has fewer than ${n} tokens.`);
    if (index === n) return { line: token.line, column: token.column };
  }
  throw new Error(`Token number ${n} does not exist: n must be at least 1.`);
}

/**
 * A query of exactly `tokens` tokens that selects fields of document `id`: the fields of `Document` repeated in
 * turn (the same name selected twice is merged into one answer, so the data stays one document).
 *
 * @example
 * ```ts
 * queryOfTokens(12, 10); // '{ document(id: 10) { id title } }'
 * ```
 */
export function queryOfTokens(tokens: number, id: number): string {
  // `{ document ( id : <n> ) { … } }` is 10 tokens around the selected fields, one token each.
  const fields = Array.from({ length: tokens - 10 }, (_, index) => DOCUMENT_FIELDS[index % DOCUMENT_FIELDS.length]);
  return `{ document(id: ${id}) { ${fields.join(' ')} } }`;
}

/**
 * An operation of `count` aliased root reads, `d<i>: document(id: …) { id title }`, the ids cycling through the
 * example's documents: `count` aliases for graphql-armor's alias limit.
 *
 * @example
 * ```ts
 * aliasedReads(2); // '{ d0: document(id: 1) { id title } d1: document(id: 2) { id title } }'
 * ```
 */
export function aliasedReads(count: number): string {
  const read = (index: number) => `d${index}: document(id: ${ALL_DOCUMENT_IDS[index % ALL_DOCUMENT_IDS.length]}) { id title }`;
  return `{ ${Array.from({ length: count }, (_, index) => read(index)).join(' ')} }`;
}

/**
 * `{ document(id: 10) { ... on Document { … id … } } }` with `levels` nested inline fragments: depth `levels + 2`
 * for graphql-armor (Document has only scalar fields, so depth can only come from fragments).
 *
 * @example
 * ```ts
 * inlineFragmentsDeep(1); // '{ document(id: 10) { ... on Document { id } } }' (depth 3)
 * ```
 */
export function inlineFragmentsDeep(levels: number): string {
  let selection = 'id';
  for (let level = 0; level < levels; level += 1) selection = `... on Document { ${selection} }`;
  return `{ document(id: 10) { ${selection} } }`;
}

/**
 * `{ document(id: 10) { title @include(if: true) … } }` with `count` directives, one per field occurrence
 * (graphql-js allows a directive only once per location).
 *
 * @example
 * ```ts
 * repeatedDirectives(2); // '{ document(id: 10) { title @include(if: true) title @include(if: true) } }'
 * ```
 */
export function repeatedDirectives(count: number): string {
  return `{ document(id: 10) { ${Array.from({ length: count }, () => 'title @include(if: true)').join(' ')} } }`;
}

/**
 * A read of document 10 whose graphql-armor cost is `2 + 1.5 × (8 × (4 + 2.25 × 180) + direct)`: fragment `F` of
 * 180 scalars spread 8 times, and `direct` scalars next to the spreads. 60 costs exactly 5000, 61 costs 5001.5.
 * (armor's cost: a scalar 1, an object 2 plus 1.5 × its children, a spread 1 + 1.5 × its fragment.)
 *
 * @example
 * ```ts
 * costlyRead(60); // cost 5000: the limit
 * ```
 */
export function costlyRead(direct: number): string {
  const fields = (count: number) => Array.from({ length: count }, (_, index) => DOCUMENT_FIELDS[index % DOCUMENT_FIELDS.length]).join(' ');
  return `{ document(id: 10) { ${Array.from({ length: 8 }, () => '...F').join(' ')} ${fields(direct)} } } fragment F on Document { ${fields(180)} }`;
}

/**
 * The example app's refusal of an HTTP batch of `size` operations (400, before anything runs).
 *
 * @example
 * ```ts
 * batchLimitRefusal(11); // { message: 'A batch may hold at most 10 operations; this one holds 11. …', extensions: { code: 'BATCH_LIMIT_EXCEEDED' } }
 * ```
 */
export function batchLimitRefusal(size: number): ExpectedGraphQLError {
  return operationError(`A batch may hold at most 10 operations; this one holds ${size}. Send fewer operations per request.`, 'BATCH_LIMIT_EXCEEDED');
}
