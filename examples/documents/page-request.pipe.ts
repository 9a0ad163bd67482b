/**
 * The Nest side of paging: the page request of a query string (400 when it is none) and the `Link` header of the
 * next page.
 */
import { BadRequestException } from '@nestjs/common';
import { nextPageLink, pageRequestOf, PageRequestError, type DocumentPageRequest } from './document-page.js';

/** What a handler needs of the response to announce the next page. */
export interface HeaderResponse {
  setHeader(name: string, value: string): unknown;
}

/**
 * The page request of a handler's `@Query()`, or a 400 (BadRequestException) saying which parameter is wrong.
 *
 * @example
 * ```ts
 * const request = pageRequestFromQuery({ limit: '2' }); // { limit: 2, after: 0 }
 * ```
 */
export function pageRequestFromQuery(query: Readonly<Record<string, unknown>>): DocumentPageRequest {
  try {
    return pageRequestOf(query);
  } catch (error) {
    if (error instanceof PageRequestError) throw new BadRequestException(error.message);
    throw error;
  }
}

/**
 * Sets `Link: <path?limit=…&after=…>; rel="next"` when there is a next page; the last page has no Link header.
 *
 * @example
 * ```ts
 * announceNextPage(response, '/documents-owned', request, page.next);
 * ```
 */
export function announceNextPage(response: HeaderResponse, path: string, request: DocumentPageRequest, next: number | undefined): void {
  const link = nextPageLink(path, request, next);
  if (link !== undefined) response.setHeader('Link', link);
}
