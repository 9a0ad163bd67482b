/**
 * The parameters a Fastify route path declares, read in the syntax of Fastify's router (find-my-way), which is
 * not Express's: `:id?` is an optional last parameter, `*` is a wildcard parameter named `*`, `:id(^\\d+)`
 * carries a regular expression, `:from-:to` and `:name.:ext` are two parameters in one segment, and `::` is a
 * literal colon.
 */
import type { DeclaredParam } from '../integration/index.js';

/** A last parameter followed by `?` (and at most a slash): find-my-way's optional parameter. */
const OPTIONAL_LAST_PARAM = /\/:([^/()]*?)\?\/?$/;

/** Where a parameter's name ends: its regular expression, a static part of its segment, or the segment's end. */
const NAME_END = new Set(['(', '-', '.', '/']);

/** The index just after the `)` that closes the `(` at `open`, skipping escaped characters and nested groups. */
function afterGroup(path: string, open: number): number {
  let depth = 0;
  for (let i = open; i < path.length; i++) {
    if (path[i] === '\\') i++;
    else if (path[i] === '(') depth++;
    else if (path[i] === ')' && --depth === 0) return i + 1;
  }
  return path.length;
}

/**
 * The parameters of a Fastify route path, in order.
 *
 * @example
 * ```ts
 * fastifyPathParams('/users/:userId/documents/:id?');
 * // [{ name: 'userId', optional: false, wildcard: false }, { name: 'id', optional: true, wildcard: false }]
 * fastifyPathParams('/files/*'); // [{ name: '*', optional: false, wildcard: true }]
 * ```
 */
export function fastifyPathParams(path: string): DeclaredParam[] {
  const optional = OPTIONAL_LAST_PARAM.exec(path);
  const full = optional === null ? path : `${path.slice(0, optional.index)}/:${optional[1] as string}`;
  const params: DeclaredParam[] = [];
  for (let i = 0; i < full.length; i++) {
    if (full[i] === ':' && full[i + 1] === ':') i++;
    else if (full[i] === '*') params.push({ name: '*', optional: false, wildcard: true });
    else if (full[i] === ':') {
      let end = i + 1;
      while (end < full.length && !NAME_END.has(full[end] as string)) end++;
      params.push({ name: full.slice(i + 1, end), optional: false, wildcard: false });
      i = full[end] === '(' ? afterGroup(full, end) - 1 : end - 1;
    }
  }
  if (optional !== null && params.length > 0) params[params.length - 1] = { ...(params.at(-1) as DeclaredParam), optional: true };
  return params;
}
