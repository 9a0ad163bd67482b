/**
 * The parameters an HTTP route path declares, in order, read with the path parser Express 5 itself
 * uses (path-to-regexp 8), so that `users/:id/documents/:docId` and `files{/:id}` are read the way
 * the router will match them.
 */
import { parse, type Token } from 'path-to-regexp';
import type { DeclaredParam } from './resource-id-param.js';

function collect(tokens: readonly Token[], optional: boolean, into: DeclaredParam[]): void {
  for (const token of tokens) {
    if (token.type === 'param') into.push({ name: token.name, optional, wildcard: false });
    else if (token.type === 'wildcard') into.push({ name: token.name, optional, wildcard: true });
    else if (token.type === 'group') collect(token.tokens, true, into);
  }
}

/**
 * The parameters of a route path, in order. A path the parser cannot read (another router's
 * syntax, such as Fastify's `:id(^\\d+)`) is scanned for `:name` and `*name` instead, every one
 * counted as required: the integrations then refuse rather than guess.
 *
 * @example
 * ```ts
 * routePathParams('/users/:id/documents/:docId');
 * // [{ name: 'id', optional: false, wildcard: false }, { name: 'docId', optional: false, wildcard: false }]
 * routePathParams('/files{/:id}'); // [{ name: 'id', optional: true, wildcard: false }]
 * ```
 */
export function routePathParams(path: string): DeclaredParam[] {
  const params: DeclaredParam[] = [];
  try {
    collect(parse(path).tokens, false, params);
  } catch {
    for (const match of path.matchAll(/([:*])([A-Za-z_$][\w$]*)/g)) params.push({ name: match[2] as string, optional: false, wildcard: match[1] === '*' });
  }
  return params;
}
