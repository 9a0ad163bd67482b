/**
 * A scan of a text by the JSON grammar (RFC 8259, what `JSON.parse` accepts) that names the first
 * place where it is not JSON, with what a person probably meant there. `JSON.parse` decides whether a
 * text is JSON; this only explains a refusal, and tells where each value and key of a valid text stands
 * (the compiler places its problems with it). Iterative, so that any depth of nesting is fine.
 */
import { isDigit, isJsonSpace, isWordChar, notAValue, scanNumber, scanString, shown, type JsonMistake } from './json-tokens.js';
import { positionAt, type TextPosition } from './text-position.js';

/** What the scanner expects next. */
type Expecting = 'value' | 'key' | 'colon' | 'after';

/** The path of a value from the root of the text: the keys and indexes that lead to it. */
export type JsonPath = readonly (string | number)[];

/**
 * Told where each value and each key of the text starts, in the order they appear. `path` is the scan's own list,
 * valid during the call only (copy it to keep it).
 */
export interface JsonPlaceListener {
  /** A value (of any kind, the root included) at `path` starts at `offset`. */
  readonly value: (path: JsonPath, offset: number) => void;
  /**
   * A key starts at `offset` (its opening quote); `path` ends with it, as the path of the value that follows, and
   * `objectOffset` is where its object's `{` stands (which tells one object from another at the same path).
   */
  readonly key?: (path: JsonPath, offset: number, objectOffset: number) => void;
}

/** The scan of one text; every step either moves on (returns `undefined`) or names the mistake. */
class JsonSyntaxScan {
  /** Offsets of the open `[` and `{`, innermost last. */
  private readonly open: number[] = [];
  private expecting: Expecting = 'value';
  /** The container just opened: `]` or `}` may close it right away. */
  private justOpened = false;
  /** Offset of the comma just read, or -1: a `]` or `}` here is a trailing comma. */
  private comma = -1;
  /** The path of the value being read, for a listener: per open container, its current index (or key, read only for a listener). */
  private readonly path: (string | number)[] = [];
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly listener: JsonPlaceListener | undefined,
  ) {}

  run(): JsonMistake | undefined {
    for (;;) {
      while (this.i < this.text.length && isJsonSpace(this.text.charCodeAt(this.i))) this.i += 1;
      if (this.i >= this.text.length) return this.atEnd();
      const mistake = this.step(this.text.charCodeAt(this.i));
      if (mistake !== undefined) return mistake;
    }
  }

  /** `[`, `{`, or `undefined` at the top level. */
  private innermost(): string | undefined {
    return this.open.length === 0 ? undefined : this.text[this.open[this.open.length - 1] as number];
  }

  private atEnd(): JsonMistake | undefined {
    const innermost = this.innermost();
    if (this.expecting === 'after' && innermost === undefined) return undefined;
    if (innermost === undefined && this.expecting === 'value')
      return { offset: this.i, description: 'no JSON value: the text is empty', fix: 'Write a JSON array of definitions, or { "definitions": [...] }.' };
    const at = this.open[this.open.length - 1] as number;
    return { offset: at, description: `'${innermost}' that is never closed`, fix: `Close it with '${innermost === '[' ? ']' : '}'}'.` };
  }

  private step(code: number): JsonMistake | undefined {
    const innermost = this.innermost();
    const closes = (code === 0x5d && innermost === '[') || (code === 0x7d && innermost === '{');
    if (closes && this.comma !== -1) {
      return {
        offset: this.comma,
        description: `a trailing comma before '${this.text[this.i]}' (JSON allows none)`,
        fix: `Remove the comma after the last ${innermost === '[' ? 'element' : 'field'}.`,
      };
    }
    if (closes && (this.expecting === 'after' || this.justOpened)) {
      this.open.pop();
      this.path.pop();
      this.i += 1;
      this.expecting = 'after';
      this.justOpened = false;
      return undefined;
    }
    this.justOpened = false;
    this.comma = -1;
    switch (this.expecting) {
      case 'after':
        return this.afterValue(code, innermost);
      case 'colon':
        return this.colon(code);
      case 'key':
        return this.key(code);
      default:
        return this.value(code);
    }
  }

  /** After a value: a comma, or (handled in `step`) the end of its container. */
  private afterValue(code: number, innermost: string | undefined): JsonMistake | undefined {
    if (innermost === undefined)
      return {
        offset: this.i,
        description: 'more text after the end of the JSON value',
        fix: 'A file holds one JSON value: remove what follows it, or put everything in the one array.',
      };
    if (code === 0x2c) {
      this.comma = this.i;
      this.i += 1;
      if (innermost === '[') this.path[this.path.length - 1] = (this.path[this.path.length - 1] as number) + 1;
      this.expecting = innermost === '[' ? 'value' : 'key';
      return undefined;
    }
    const mistake = notAValue(this.text, this.i);
    if (mistake.description.startsWith('a comment')) return mistake;
    const closer = innermost === '[' ? "']' to close the array" : "'}' to close the object";
    return {
      offset: this.i,
      description: `',' expected (or ${closer}), found ${shown(this.text, this.i)}`,
      fix: `Separate the ${innermost === '[' ? 'elements' : 'fields'} with commas.`,
    };
  }

  private colon(code: number): JsonMistake | undefined {
    if (code !== 0x3a) return { offset: this.i, description: `':' expected after the key, found ${shown(this.text, this.i)}`, fix: 'Write "key": value.' };
    this.i += 1;
    this.expecting = 'value';
    return undefined;
  }

  private key(code: number): JsonMistake | undefined {
    if (code !== 0x22) {
      if (isWordChar(code)) return { offset: this.i, description: 'a key without double quotes', fix: 'Put every key in double quotes: "roles": [...].' };
      return notAValue(this.text, this.i, 'key');
    }
    const end = scanString(this.text, this.i);
    if (typeof end !== 'number') return end;
    if (this.listener !== undefined) {
      this.path[this.path.length - 1] = JSON.parse(this.text.slice(this.i, end)) as string;
      this.listener.key?.(this.path, this.i, this.open[this.open.length - 1] as number);
    }
    this.i = end;
    this.expecting = 'colon';
    return undefined;
  }

  private value(code: number): JsonMistake | undefined {
    this.listener?.value(this.path, this.i);
    if (code === 0x5b || code === 0x7b) {
      this.open.push(this.i);
      // An array's first index; an object's slot, which each key fills.
      this.path.push(code === 0x5b ? 0 : '');
      this.i += 1;
      this.expecting = code === 0x5b ? 'value' : 'key';
      this.justOpened = true;
      return undefined;
    }
    const end = this.scalarEnd(code);
    if (typeof end !== 'number') return end;
    this.i = end;
    this.expecting = 'after';
    return undefined;
  }

  /** The end of the string, number, true, false or null starting here, or the mistake. */
  private scalarEnd(code: number): number | JsonMistake {
    const { text, i } = this;
    let end: number | JsonMistake;
    if (code === 0x22) end = scanString(text, i);
    else if (code === 0x2d || isDigit(code)) end = scanNumber(text, i);
    else if (text.startsWith('true', i) || text.startsWith('null', i)) end = i + 4;
    else if (text.startsWith('false', i)) end = i + 5;
    else return notAValue(text, i);
    // `truex`, `nullable`: the word goes on where JSON needs a separator.
    if (typeof end === 'number' && end < text.length && isWordChar(text.charCodeAt(end)) && (code === 0x74 || code === 0x6e || code === 0x66))
      return notAValue(text, i);
    return end;
  }
}

/**
 * Scans `text` by the JSON grammar and names the first place where it is not JSON, with what a
 * person probably meant there (a comment, a trailing comma, single quotes, …).
 *
 * @param listener is told where each value and key starts, up to the first mistake.
 * @returns the first mistake, or `undefined` when the text is JSON.
 * @example
 * ```ts
 * scanJson('[1, 2,]'); // { offset: 5, description: "a trailing comma before ']' (JSON allows none)", fix: … }
 * scanJson('{ "a": [true] }', { value: (path, offset) => console.log(path, offset) }); // [] 0, ['a'] 7, ['a', 0] 8
 * ```
 */
export function scanJson(text: string, listener?: JsonPlaceListener): JsonMistake | undefined {
  return new JsonSyntaxScan(text, listener).run();
}

/**
 * Where the value of each top-level field of a JSON object text stands (the last one for a key
 * written twice, as `JSON.parse` keeps the last), for problems with the file's shape. Values, not
 * keys, as the compiler points at values too.
 *
 * @example
 * ```ts
 * topLevelFieldPositions('{\n  "rules": []\n}').get('rules'); // { line: 2, column: 12 }
 * ```
 */
export function topLevelFieldPositions(text: string): Map<string, TextPosition> {
  const positions = new Map<string, TextPosition>();
  scanJson(text, {
    value: (path, offset) => {
      if (path.length === 1 && typeof path[0] === 'string') positions.set(path[0], positionAt(text, offset));
    },
  });
  return positions;
}
