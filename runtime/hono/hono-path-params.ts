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
 * hold `/`, so patterns are set aside before the path is cut into segments, as Hono's routers do; a `?` makes
 * parameters optional only at the end of the path, where Hono reads it so.
 *
 * @example
 * ```ts
 * honoPathParams('/users/:userId/documents/:id{[0-9]+}').params;
 * // [{ name: 'userId', optional: false, wildcard: false }, { name: 'id', optional: false, wildcard: false }]
 * honoPathParams('/documents/:id?').params; // [{ name: 'id', optional: true, wildcard: false }]
 * ```
 */
export function honoPathParams(path: string): HonoPathParams {
  const optionalAtEnd = path.endsWith('?') && path.includes(':');
  const params: DeclaredParam[] = [];
  let lastParam = -1;
  let lastWildcard = -1;
  path
    .replace(/\{[^}]+\}/g, '{}')
    .split('/')
    .forEach((segment, index) => {
      if (segment.startsWith(':')) {
        const optional = optionalAtEnd && segment.endsWith('?');
        const label = optional ? segment.slice(0, -1) : segment;
        params.push({ name: label.endsWith('{}') ? label.slice(1, -2) : label.slice(1), optional, wildcard: false });
        lastParam = index;
      } else if (segment.includes('*')) lastWildcard = index;
    });
  return { params, endsInWildcard: lastWildcard > lastParam };
}
