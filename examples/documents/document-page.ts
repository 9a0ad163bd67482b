/**
 * Paging through documents by keyset: `?limit=<n>&after=<id>` asks for the next `limit` documents whose id is above
 * `after`, in id order. The page's query carries the permission filter, so a page is one statement whatever the
 * table's size, and a document the caller may not list is never read.
 */

/** A page request: at most `limit` documents with an id above `after`. */
export interface DocumentPageRequest {
  readonly limit: number;
  readonly after: number;
}

/** One page, and the cursor of the next (`undefined` on the last page). */
export interface DocumentPage<TRow> {
  readonly rows: readonly TRow[];
  readonly next: number | undefined;
}

/** The most documents one page holds, and the page size when `limit` is not given: every example document fits. */
export const MAX_PAGE_LIMIT = 100;

/** Why a query string is not a page request: answered 400. */
export class PageRequestError extends Error {
  override readonly name = 'PageRequestError';
}

const WHOLE = /^\d{1,9}$/;

function whole(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  const number = typeof value === 'number' ? value : typeof value === 'string' && WHOLE.test(value) ? Number(value) : Number.NaN;
  if (!(Number.isInteger(number) && number >= min && number <= max)) throw new PageRequestError(`${name} must be a whole number from ${min} to ${max}.`);
  return number;
}

/**
 * The page request of a query string (or of GraphQL arguments, numbers): `limit` from 1 to {@link MAX_PAGE_LIMIT}
 * (default {@link MAX_PAGE_LIMIT}), `after` a document id from 0 (default 0: the first page); absent or null takes
 * the default. Anything else — a repeated parameter, a sign, a fraction, more than nine digits — is a
 * PageRequestError.
 *
 * @example
 * ```ts
 * pageRequestOf({ limit: '2', after: '10' }); // { limit: 2, after: 10 }
 * pageRequestOf({}); // { limit: 100, after: 0 }
 * pageRequestOf({ limit: '0' }); // throws PageRequestError: limit must be a whole number from 1 to 100.
 * ```
 */
export function pageRequestOf(query: Readonly<Record<string, unknown>>): DocumentPageRequest {
  return { limit: whole(query['limit'], 'limit', MAX_PAGE_LIMIT, 1, MAX_PAGE_LIMIT), after: whole(query['after'], 'after', 0, 0, 999_999_999) };
}

/**
 * The `Link` header of a page that has a next one (RFC 8288, `rel="next"`), or `undefined` on the last page.
 *
 * @example
 * ```ts
 * nextPageLink('/documents-owned', { limit: 2, after: 0 }, 10); // '</documents-owned?limit=2&after=10>; rel="next"'
 * ```
 */
export function nextPageLink(path: string, request: DocumentPageRequest, next: number | undefined): string | undefined {
  return next === undefined ? undefined : `<${path}?limit=${request.limit}&after=${next}>; rel="next"`;
}
