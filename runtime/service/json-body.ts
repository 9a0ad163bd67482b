/**
 * The one body parser of the decision service: JSON text to a value, refusing what no request has and what
 * would only cost — a `__proto__` key (it becomes a prototype wherever the value is copied) and nesting deeper
 * than any request (the parse would only spend stack on it) — with a detail that says so.
 */
import { ServiceProblem } from './problem-details.js';

/** How deep a request body may nest: a batch of checks nests 5 levels (body, checks, check, user, roles). */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (text inside strings is skipped), in one pass
 * before any parsing.
 *
 * @example
 * ```ts
 * nestsDeeperThan('[[[1]]]', 2); // true
 * nestsDeeperThan('["[[[["]', 2); // false: brackets in a string
 * ```
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/**
 * The value of a request body's JSON text; a 400 ServiceProblem for an empty body, text that is not JSON, a
 * `__proto__` key anywhere (escaped or not), or nesting deeper than {@link MAX_BODY_DEPTH}.
 *
 * @example
 * ```ts
 * parseJsonBody('{"checks": []}'); // { checks: [] }
 * parseJsonBody('{"__proto__": {}}'); // throws: The body has a "__proto__" key; …
 * ```
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new ServiceProblem('invalid-request', 'The body is empty; send a JSON object.');
  if (nestsDeeperThan(text, MAX_BODY_DEPTH))
    throw new ServiceProblem('invalid-request', `The body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels; no request does.`);
  try {
    // Without a backslash no key can be an escaped "__proto__": where the text does not spell it either, the plain
    // parse (several times faster than one with a reviver) cannot make one.
    if (!text.includes('\\') && !text.includes('__proto__')) return JSON.parse(text) as unknown;
    return JSON.parse(text, function refuseProto(key: string, nested: unknown) {
      if (key === '__proto__') throw new ServiceProblem('invalid-request', 'The body has a "__proto__" key; no property of a request has that name.');
      return nested;
    }) as unknown;
  } catch (error) {
    if (error instanceof ServiceProblem) throw error;
    const reason = (error as Error).message;
    throw new ServiceProblem('invalid-request', `The body is not JSON (${reason.length > 200 ? `${reason.slice(0, 200)}…` : reason}).`);
  }
}
