/**
 * The parameters of a Hono route path, read by the syntax Hono's routers match: `:name` (one segment),
 * `:name{pattern}` (a regular expression), `:name?` at the end of the path (optional), and `*`, a wildcard whose
 * segments reach the handler as no parameter at all — so a path that ends in one may hold a record's id the check
 * cannot read.
 */
import type { DeclaredParam } from '../integration/index.js';

/**
 * What a Hono route path declares.
 *
 * @example
 * ```ts
 * const read: HonoPathParams = honoPathParams('/documents/*'); // { params: [], endsInWildcard: true }
 * ```
 */
export interface HonoPathParams {
  /** The named parameters, in order. */
  readonly params: readonly DeclaredParam[];
  /** A wildcard `*` comes after the last named parameter (or the path has only wildcards): `app.use(…)`, `/documents/*`. */
  readonly endsInWildcard: boolean;
}

/**
 * Reads a Hono route path (as `app.routes` and the matched route hold it, base path included). A pattern may
 * hold `/` and braces of its own (`{1,3}`), so the path is cut into segments outside patterns only, as Hono's
 * routers do; a `?` makes parameters optional only at the end of the path, where Hono reads it so.
 *
 * @example
 * ```ts
 * honoPathParams('/users/:userId/documents/:id{[0-9]+}').params;
 * // [{ name: 'userId', optional: false, wildcard: false }, { name: 'id', optional: false, wildcard: false }]
 * honoPathParams('/documents/:id?').params; // [{ name: 'id', optional: true, wildcard: false }]
 * honoPathParams('/documents/:id{[0-9]{1,3}}').params; // [{ name: 'id', optional: false, wildcard: false }]
 * ```
 */
export function honoPathParams(path: string): HonoPathParams {
  const optionalAtEnd = path.endsWith('?') && path.includes(':');
  const params: DeclaredParam[] = [];
  let lastParam = -1;
  let lastWildcard = -1;
  pathSegments(path).forEach((segment, index) => {
    if (segment.startsWith(':')) {
      const optional = optionalAtEnd && segment.endsWith('?');
      const label = optional ? segment.slice(0, -1) : segment;
      // The name runs to the pattern's opening brace, as Hono reads `:name{pattern}`.
      const brace = label.indexOf('{');
      params.push({ name: label.slice(1, brace === -1 ? undefined : brace), optional, wildcard: false });
      lastParam = index;
    } else if (segment.includes('*')) lastWildcard = index;
  });
  return { params, endsInWildcard: lastWildcard > lastParam };
}

/**
 * The segments of `path`, cut at each `/` outside a pattern's braces: a pattern may hold `/` and braces of its own
 * (`:id{[0-9]{1,3}}`, a quantifier), and ends at the brace that closes the one it opened with.
 */
function pathSegments(path: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < path.length; index++) {
    const char = path[index];
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (char === '/' && depth === 0) {
      segments.push(path.slice(start, index));
      start = index + 1;
    }
  }
  segments.push(path.slice(start));
  return segments;
}
