/**
 * "Did you mean": the known name nearest to one that is not known, for messages about a misspelt role, resource
 * or action. Levenshtein distance (the `leven` package) of at most about a third of the name's length (at least two
 * edits, so that two swapped letters count; one for names of three letters or fewer), and a name that differs only
 * in case always counts as near.
 */
import { closestMatch } from 'leven';
import { quoteForMessage } from './printable-text.js';

/** Names longer than this are not compared: a suggestion for a 10,000-character name helps nobody, and costs. */
const MAX_COMPARED_LENGTH = 128;

/**
 * The known name nearest to `name`, or undefined when none is near enough to be what was meant.
 *
 * @example
 * ```ts
 * nearestName('EDITRO', ['AUTHOR', 'EDITOR']); // 'EDITOR'
 * nearestName('editor', ['AUTHOR', 'EDITOR']); // 'EDITOR'
 * nearestName('ADMIN', ['AUTHOR', 'EDITOR']); // undefined
 * ```
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  if (name.length === 0 || name.length > MAX_COMPARED_LENGTH) return undefined;
  // Two edits for a swap of neighbours ('raed' for 'read'), else about a third of the name; one for short names.
  const maxDistance = name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  const candidates: string[] = [];
  for (const candidate of known) {
    if (candidate === name) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    // Only names whose length is within reach can be within reach.
    if (Math.abs(candidate.length - name.length) <= maxDistance) candidates.push(candidate);
  }
  return closestMatch(name, candidates, { maxDistance });
}

/**
 * ` Did you mean "EDITOR"?` for a message about `name`, or '' when no known name is near.
 *
 * @example
 * ```ts
 * `unknown role "EDITRO".${didYouMean('EDITRO', roles)}`; // 'unknown role "EDITRO". Did you mean "EDITOR"?'
 * ```
 */
export function didYouMean(name: string, known: Iterable<string>): string {
  const nearest = nearestName(name, known);
  return nearest === undefined ? '' : ` Did you mean ${quoteForMessage(nearest)}?`;
}
