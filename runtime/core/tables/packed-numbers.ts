/**
 * Lists of small non-negative integers written as text, the form packed tables keep a resource's cells in: each
 * number is one to six characters of the URL-safe base64 alphabet (`0-9`, `A-Z`, `a-z`, `-`, `_`), five bits per
 * character, least significant first; a character of the upper half of the alphabet says that another follows.
 * Numbers below 32 take one character, below 1,024 two. The text needs no quoting inside a string literal, and it
 * takes well under half the characters of the JSON of the same cells, which matters because a module's text is read
 * and scanned when it is imported: the cells of a large policy are most of its generated code.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

/** Each character code's value in {@link ALPHABET}, -1 for any other code below 128. */
const VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) values[ALPHABET.charCodeAt(i)] = i;
  return values;
})();

/** The most characters a number takes: six give 30 bits, beyond any index or count a table may hold. */
const MAX_DIGITS = 6;
/** The largest number that is written: 2^30 - 1. */
export const MAX_PACKED_NUMBER = 2 ** (5 * MAX_DIGITS) - 1;

/**
 * Writes `numbers` (integers from 0 to {@link MAX_PACKED_NUMBER}) as packed text.
 *
 * @example
 * ```ts
 * packNumbers([0, 5, 31, 32, 1000]); // '05VW1eV'
 * ```
 */
export function packNumbers(numbers: readonly number[]): string {
  let text = '';
  for (const number of numbers) {
    if (!Number.isInteger(number) || number < 0 || number > MAX_PACKED_NUMBER)
      throw new RangeError(`${number} cannot be packed: numbers are integers from 0 to ${MAX_PACKED_NUMBER}`);
    let rest = number;
    while (rest >= 32) {
      text += ALPHABET[32 + (rest % 32)];
      rest = Math.floor(rest / 32);
    }
    text += ALPHABET[rest];
  }
  return text;
}

/**
 * A reader of packed text, number by number. Malformed text — a character outside the alphabet, a number cut off
 * by the end or longer than six characters — throws a {@link PackedTextError} naming the place; reading past
 * the end does too, so a count that promises more than the text holds fails before anything is made of it.
 *
 * @example
 * ```ts
 * const reader = new PackedNumberReader('05VW1eV');
 * reader.next(); // 0
 * reader.atEnd; // false
 * ```
 */
export class PackedNumberReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** Whether every number was read. */
  get atEnd(): boolean {
    return this.at >= this.text.length;
  }

  /** The next number. */
  next(): number {
    const start = this.at;
    let number = 0;
    let scale = 1;
    for (let digits = 0; digits < MAX_DIGITS; digits++) {
      if (this.at >= this.text.length)
        throw new PackedTextError(start === this.at ? `it ends where number ${start} was expected` : `it ends inside the number at ${start}`);
      const code = this.text.charCodeAt(this.at);
      const value = code < 128 ? (VALUES[code] as number) : -1;
      if (value < 0) throw new PackedTextError(`character ${this.at} is not one of the packed alphabet`);
      this.at++;
      if (value < 32) return number + value * scale;
      number += (value - 32) * scale;
      scale *= 32;
    }
    throw new PackedTextError(`the number at ${start} is longer than ${MAX_DIGITS} characters`);
  }
}

/** Why packed text cannot be read: its reader's caller names the part it came from. */
export class PackedTextError extends Error {}
