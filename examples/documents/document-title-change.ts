/**
 * The body of `PATCH /documents-protected-simple/:id`, read strictly: the example lets a caller change a
 * document's title and nothing else, so any other key, a title that is not a usable string, or a body that
 * is not a JSON object is refused with a 400 that says what was wrong — never silently ignored.
 */
import { BadRequestException } from '@nestjs/common';

/**
 * Characters that reorder or hide text without showing: bidirectional controls and marks, and zero-width spaces.
 * (Not every format character: the zero-width joiner makes one emoji of several, and a soft hyphen shows as one.)
 */
const HIDDEN_FORMATTING = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

/** A UTF-16 surrogate that is not half of a pair (read code unit by code unit: no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The one change the update endpoint accepts. */
export interface DocumentTitleChange {
  /** The new title, trimmed, 1 to {@link MAX_TITLE_LENGTH} characters, without control characters. */
  readonly title: string;
}

/** The longest title accepted, in UTF-16 code units (what `string.length` counts). */
export const MAX_TITLE_LENGTH = 200;

/** How much of a caller's key an error message repeats: enough to recognise it, never a whole hostile body. */
const QUOTED_KEY_LENGTH = 40;

const quoteKey = (key: string): string => JSON.stringify(key.length > QUOTED_KEY_LENGTH ? `${key.slice(0, QUOTED_KEY_LENGTH)}…` : key);

/**
 * Reads an update body: `{ "title": "…" }` and nothing else. Throws a BadRequestException (400) naming the
 * problem otherwise.
 *
 * @example
 * ```ts
 * parseTitleChange({ title: '  Budget 2025 ' }); // { title: 'Budget 2025' }
 * parseTitleChange({ title: 'x', status: 'approved' }); // throws 400: Only the title can be changed here, not "status".
 * ```
 */
export function parseTitleChange(body: unknown): DocumentTitleChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequestException('The body must be a JSON object such as {"title": "New title"}.');
  const others = Object.keys(body).filter((key) => key !== 'title');
  if (others.length > 0) throw new BadRequestException(`Only the title can be changed here, not ${others.slice(0, 3).map(quoteKey).join(', ')}.`);
  const { title } = body as { title?: unknown };
  if (typeof title !== 'string') throw new BadRequestException('title must be a string.');
  const trimmed = title.trim();
  if (trimmed === '') throw new BadRequestException('title must not be empty.');
  if (trimmed.length > MAX_TITLE_LENGTH) throw new BadRequestException(`title must be at most ${MAX_TITLE_LENGTH} characters, got ${trimmed.length}.`);
  // A title is shown on one line: line breaks and other control characters would only hide or garble it, and
  // invisible formatting characters (a right-to-left override, a zero-width space) make it read as another title.
  if (/\p{Cc}/u.test(trimmed)) throw new BadRequestException('title must not contain control characters.');
  if (HIDDEN_FORMATTING.test(trimmed)) throw new BadRequestException('title must not contain invisible formatting characters (such as U+202E or U+200B).');
  // Stored as UTF-8, a lone surrogate would become U+FFFD: another title than the one sent.
  if (LONE_SURROGATE.test(trimmed)) throw new BadRequestException('title must be whole Unicode characters (it holds a lone surrogate).');
  return { title: trimmed };
}
