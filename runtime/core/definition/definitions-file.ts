/**
 * The one reader of the neutral JSON form of definitions (`*.permissions.json`), shared by the
 * runtime and the compiler so that both accept exactly the same files: strict JSON (`JSON.parse`,
 * one leading byte order mark allowed, as Node's JSON module loader allows it), holding a plain
 * array of definitions or `{ "$schema"?: string, "definitions": [...] }`. Whether each definition
 * is valid is decided later, by `Permissions.build()` (or the compiler), not here.
 */
import { PermissionDefinitionError, type DefinitionProblem } from '../errors.js';

/** A 1-based line and column (in UTF-16 code units, as editors and TypeScript count them). */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** Where and why a text is not strict JSON. */
export interface JsonSyntaxIssue extends TextPosition {
  /** Offset in the text (after the byte order mark, if any). */
  readonly offset: number;
  /** What is wrong, as a phrase: `a comment (JSON has no comments)`. */
  readonly description: string;
  readonly fix: string;
}

/** The outcome of {@link parseStrictJson}. */
export type StrictJsonResult = { readonly ok: true; readonly value: unknown; readonly text: string } | { readonly ok: false; readonly issue: JsonSyntaxIssue };

/** A problem with the top level of a definitions file (its shape, not its definitions). */
export interface DefinitionsFileProblem {
  /** Path inside the file's value: `['rules']`, `['definitions']`, or `[]` for the value as a whole. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

/** The outcome of {@link definitionsOfFileValue}: the definitions (when there is an array) and every problem of the file's shape. */
export interface DefinitionsFileShape {
  readonly definitions: readonly unknown[] | undefined;
  /** Path of the definitions array inside the file's value: `[]` or `['definitions']`. */
  readonly path: readonly (string | number)[];
  readonly problems: readonly DefinitionsFileProblem[];
}

const BYTE_ORDER_MARK = '\ufeff';

/** The longest definitions file, in characters (8 Mi): far beyond any real policy, and short of what would strain the compiler's memory. */
export const MAX_DEFINITIONS_FILE_LENGTH = 8 * 1024 * 1024;
const SHAPE_FIX = 'A definitions file holds a JSON array of definitions, or { "$schema"?: "…", "definitions": [...] }.';

/**
 * The line and column of `offset` in `text`. Line breaks are those of ECMAScript (`\n`, `\r\n`, `\r`,
 * U+2028, U+2029), as TypeScript counts them, so the compiler and the runtime name the same place.
 *
 * @example
 * ```ts
 * positionAt('[\n  1,\n]', 6); // { line: 2, column: 5 }
 * ```
 */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue; // counted at the \n
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const isWordChar = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
const isJsonSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** Invisible or confusable characters are named by code point: a quoted U+00A0 looks like a space. */
function shown(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  const char = String.fromCodePoint(code);
  if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff) || (code > 0x7e && /[\s\p{Cf}\p{Zl}\p{Zp}]/u.test(char)))
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${char}'`;
}

type Issue = Omit<JsonSyntaxIssue, 'line' | 'column'>;

const NUMBER_FIX = 'Write numbers as JSON does: 10, -1.5, 2e3 (decimal, no leading zero or plus sign).';

/** Names what stands at `offset` where a value (or a key) was expected and is not one. */
function notAValue(text: string, offset: number, expected: 'value' | 'key' = 'value'): Issue {
  const code = text.charCodeAt(offset);
  if (code === 0xfeff)
    return { offset, description: 'a byte order mark (U+FEFF) inside the text', fix: 'Remove it: one byte order mark is allowed, at the very start only.' };
  if (code > 0x7e && /\s/.test(text[offset] ?? ''))
    return {
      offset,
      description: `the space character ${shown(text, offset)}, which JSON does not allow`,
      fix: 'Replace it with an ordinary space, or remove it.',
    };
  if (code === 0x2f && (text[offset + 1] === '/' || text[offset + 1] === '*')) {
    return { offset, description: 'a comment (JSON has no comments)', fix: 'Remove the comment; a definition can carry its explanation in "descr".' };
  }
  if (code === 0x27)
    return { offset, description: 'a single-quoted string (JSON strings use double quotes)', fix: 'Write the string in double quotes: "read", not \'read\'.' };
  if (code === 0x2b || code === 0x2e) return { offset, description: `a number starting with ${shown(text, offset)}`, fix: NUMBER_FIX };
  if (isWordChar(code)) {
    let end = offset;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end += 1;
    const word = text.slice(offset, end);
    if (word === 'NaN' || word === 'Infinity' || word === 'undefined')
      return { offset, description: `${word}, which is not a JSON value`, fix: 'Write a number, a string, true, false or null.' };
    return { offset, description: `the unquoted word ${word}`, fix: `Write strings in double quotes ("${word}"), or use true, false or null.` };
  }
  if (expected === 'key')
    return { offset, description: `${shown(text, offset)} where a key was expected`, fix: 'Write "key": value there, with the key in double quotes.' };
  return {
    offset,
    description: `${shown(text, offset)} where a value was expected`,
    fix: 'Write a value there: a string in double quotes, a number, an array, an object, true, false or null.',
  };
}

/** Reads the string starting at the `"` at `start`; returns its end (after the closing quote) or the issue. */
function scanString(text: string, start: number): number | Issue {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return { offset: start, description: 'a string that is never closed', fix: 'Close the string with a double quote.' };
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code === 0x5c) {
      const escaped = text[i + 1];
      if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i += 2;
      else if (escaped === 'u' && [2, 3, 4, 5].every((k) => isHex(text.charCodeAt(i + k)))) i += 6;
      else
        return { offset: i, description: `the invalid escape \\${escaped ?? ''} in a string`, fix: 'Use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX.' };
      continue;
    }
    if (code < 0x20)
      return {
        offset: i,
        description: `an unescaped control character (${shown(text, i)}) in a string`,
        fix: 'Escape it: \\n for a line break, \\t for a tab.',
      };
    i += 1;
  }
}

/** Reads the number starting at `start`; returns its end or the issue. */
function scanNumber(text: string, start: number): number | Issue {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) {
    i += 1;
    if (text.startsWith('Infinity', i))
      return { offset: start, description: '-Infinity, which is not a JSON value', fix: 'Write a number, a string, true, false or null.' };
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a minus sign without a number', fix: NUMBER_FIX };
  }
  if (text.charCodeAt(i) === 0x30) {
    const next = text[i + 1] ?? '';
    if (/[xXoObB]/.test(next))
      return {
        offset: start,
        description: `a ${/[xX]/.test(next) ? 'hexadecimal' : /[oO]/.test(next) ? 'octal' : 'binary'} number`,
        fix: 'Write the number in decimal.',
      };
    if (isDigit(text.charCodeAt(i + 1))) return { offset: start, description: 'a number with a leading zero', fix: NUMBER_FIX };
    i += 1;
  } else while (isDigit(text.charCodeAt(i))) i += 1;
  if (text.charCodeAt(i) === 0x2e) {
    i += 1;
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a number without digits after its decimal point', fix: NUMBER_FIX };
    while (isDigit(text.charCodeAt(i))) i += 1;
  }
  if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
    i += 1;
    if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i += 1;
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a number without digits in its exponent', fix: NUMBER_FIX };
    while (isDigit(text.charCodeAt(i))) i += 1;
  }
  return i;
}

/**
 * Scans `text` by the JSON grammar (RFC 8259, what `JSON.parse` accepts) and names the first place
 * where it is not JSON, with what a person probably meant there (a comment, a trailing comma, single
 * quotes, …). Iterative, so that any depth of nesting is fine. `onTopLevelField` receives the key
 * of every field of a top-level object with the offset of its value.
 */
function scanJson(text: string, onTopLevelField?: (key: string, valueOffset: number) => void): Issue | undefined {
  /** Offsets of the open `[` and `{`, innermost last. */
  const open: number[] = [];
  let state: 'value' | 'key' | 'colon' | 'after' = 'value';
  /** The container just opened: `]` or `}` may close it right away. */
  let justOpened = false;
  /** Offset of the comma just read, or -1: a `]` or `}` here is a trailing comma. */
  let comma = -1;
  /** The key of a top-level field whose value comes next. */
  let topLevelKey: string | undefined;
  let i = 0;
  for (;;) {
    while (i < text.length && isJsonSpace(text.charCodeAt(i))) i += 1;
    const innermost = open.length === 0 ? undefined : text[open[open.length - 1] as number];
    if (i >= text.length) {
      if (state === 'after' && innermost === undefined) return undefined;
      if (innermost === undefined && state === 'value')
        return { offset: i, description: 'no JSON value: the text is empty', fix: 'Write a JSON array of definitions, or { "definitions": [...] }.' };
      const at = open[open.length - 1] as number;
      return { offset: at, description: `'${innermost}' that is never closed`, fix: `Close it with '${innermost === '[' ? ']' : '}'}'.` };
    }
    const code = text.charCodeAt(i);
    const closes = (code === 0x5d && innermost === '[') || (code === 0x7d && innermost === '{');
    if (closes && comma !== -1) {
      return {
        offset: comma,
        description: `a trailing comma before '${text[i]}' (JSON allows none)`,
        fix: `Remove the comma after the last ${innermost === '[' ? 'element' : 'field'}.`,
      };
    }
    if (closes && (state === 'after' || justOpened)) {
      open.pop();
      i += 1;
      state = 'after';
      justOpened = false;
      continue;
    }
    justOpened = false;
    comma = -1;
    if (state === 'after') {
      if (innermost === undefined)
        return {
          offset: i,
          description: 'more text after the end of the JSON value',
          fix: 'A file holds one JSON value: remove what follows it, or put everything in the one array.',
        };
      if (code === 0x2c) {
        comma = i;
        i += 1;
        state = innermost === '[' ? 'value' : 'key';
        continue;
      }
      const issue = notAValue(text, i);
      if (issue.description.startsWith('a comment')) return issue;
      const closer = innermost === '[' ? "']' to close the array" : "'}' to close the object";
      return {
        offset: i,
        description: `',' expected (or ${closer}), found ${shown(text, i)}`,
        fix: `Separate the ${innermost === '[' ? 'elements' : 'fields'} with commas.`,
      };
    }
    if (state === 'colon') {
      if (code !== 0x3a) return { offset: i, description: `':' expected after the key, found ${shown(text, i)}`, fix: 'Write "key": value.' };
      i += 1;
      state = 'value';
      continue;
    }
    if (state === 'key') {
      if (code !== 0x22) {
        if (isWordChar(code)) return { offset: i, description: 'a key without double quotes', fix: 'Put every key in double quotes: "roles": [...].' };
        return notAValue(text, i, 'key');
      }
      const end = scanString(text, i);
      if (typeof end !== 'number') return end;
      if (open.length === 1) topLevelKey = JSON.parse(text.slice(i, end)) as string;
      i = end;
      state = 'colon';
      continue;
    }
    // state === 'value'
    if (topLevelKey !== undefined) {
      onTopLevelField?.(topLevelKey, i);
      topLevelKey = undefined;
    }
    if (code === 0x5b || code === 0x7b) {
      open.push(i);
      i += 1;
      state = code === 0x5b ? 'value' : 'key';
      justOpened = true;
      continue;
    }
    let end: number | Issue;
    if (code === 0x22) end = scanString(text, i);
    else if (code === 0x2d || isDigit(code)) end = scanNumber(text, i);
    else if (text.startsWith('true', i) || text.startsWith('null', i)) end = i + 4;
    else if (text.startsWith('false', i)) end = i + 5;
    else return notAValue(text, i);
    if (typeof end !== 'number') return end;
    // `truex`, `nullable`: the word goes on where JSON needs a separator.
    if (end < text.length && isWordChar(text.charCodeAt(end)) && (code === 0x74 || code === 0x6e || code === 0x66)) return notAValue(text, i);
    i = end;
    state = 'after';
  }
}

/**
 * Parses `text` as strict JSON, exactly as `JSON.parse` does (after removing one leading byte order
 * mark). On failure it says where (line and column) and what a person probably wrote (a comment, a
 * trailing comma, single quotes, an unquoted key, NaN, a hexadecimal number, …) and how to fix it.
 *
 * @example
 * ```ts
 * parseStrictJson('[1, 2,]'); // { ok: false, issue: { line: 1, column: 6, description: "a trailing comma before ']' (JSON allows none)", … } }
 * ```
 */
export function parseStrictJson(source: string): StrictJsonResult {
  const text = source.startsWith(BYTE_ORDER_MARK) ? source.slice(1) : source;
  if (text.length > MAX_DEFINITIONS_FILE_LENGTH) {
    return {
      ok: false,
      issue: {
        offset: 0,
        line: 1,
        column: 1,
        description: `a file of ${text.length} characters, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH}`,
        fix: 'Split the definitions over several files, one per resource.',
      },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch (error) {
    // JSON.parse decides; the scanner only explains. Should they ever disagree, JSON.parse's own message and position still make a clear problem.
    const found = scanJson(text) ?? {
      offset: Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? 0),
      description: (error as Error).message.replace(/\.$/, ''),
      fix: 'Fix the JSON syntax at that place.',
    };
    return { ok: false, issue: { ...found, ...positionAt(text, found.offset) } };
  }
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
  scanJson(text, (key, offset) => positions.set(key, positionAt(text, offset)));
  return positions;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The definitions a parsed definitions file holds: the value itself when it is an array, or its
 * `definitions` field when it is `{ "$schema"?: string, "definitions": [...] }`; every other shape,
 * extra field or non-string `$schema` is a problem. Definitions are returned (for further checks)
 * whenever there is an array of them, even beside a problem.
 *
 * @example
 * ```ts
 * definitionsOfFileValue({ definitions: [], rules: [] }).problems; // [{ path: ['rules'], message: 'Unknown field "rules" at the top of the file.', … }]
 * ```
 */
export function definitionsOfFileValue(value: unknown): DefinitionsFileShape {
  if (Array.isArray(value)) return { definitions: value, path: [], problems: [] };
  if (typeof value !== 'object' || value === null) {
    return { definitions: undefined, path: [], problems: [{ path: [], message: `The file holds ${kindOf(value)}, not definitions.`, fix: SHAPE_FIX }] };
  }
  const wrapper = value as Record<string, unknown>;
  const problems: DefinitionsFileProblem[] = [];
  for (const key of Object.keys(wrapper)) {
    if (key !== '$schema' && key !== 'definitions')
      problems.push({ path: [key], message: `Unknown field ${JSON.stringify(key)} at the top of the file.`, fix: SHAPE_FIX });
  }
  if ('$schema' in wrapper && typeof wrapper['$schema'] !== 'string') {
    problems.push({
      path: ['$schema'],
      message: `Field "$schema" holds ${kindOf(wrapper['$schema'])}; it must be a string (the path or URL of the JSON Schema).`,
      fix: 'Write "$schema": "../generated/definitions.schema.json", or leave it out.',
    });
  }
  const definitions = wrapper['definitions'];
  if (!Array.isArray(definitions)) {
    problems.push({
      path: ['definitions'],
      message: 'definitions' in wrapper ? `Field "definitions" holds ${kindOf(definitions)}, not an array of definitions.` : 'Field "definitions" is missing.',
      fix: SHAPE_FIX,
    });
    return { definitions: undefined, path: ['definitions'], problems };
  }
  return { definitions, path: ['definitions'], problems };
}

/**
 * Parses the text of a `*.permissions.json` file: strict JSON (as `JSON.parse`; one leading byte
 * order mark is skipped, as Node's JSON module loader does), holding a plain array of definitions or
 * `{ "$schema"?: string, "definitions": [...] }`, and nothing else. Returns the definitions
 * unvalidated: `Permissions.build()` validates them. The compiler reads files with this same
 * function, so a file the compiler accepts loads here and the other way round — except for a key
 * written twice in one object, which `JSON.parse` silently resolves (the last wins) and the compiler
 * reports (`duplicate-key`): there the compiler is the stricter one.
 *
 * @throws {PermissionDefinitionError} when the text is not strict JSON (code `syntax-error`, with the
 * line and column) or not of that shape (code `invalid-file`); the problems have index -1 (the file
 * as a whole) and `source` as given.
 *
 * @example
 * ```ts
 * const text = await readFile('definitions/document.permissions.json', 'utf8');
 * const definitions = parseDefinitionsJson(text, { source: 'document.permissions.json' }) as PermissionDefinition[]; // build() validates them
 * permissions.addPermissions(definitions, { source: 'document.permissions.json' });
 * ```
 */
export function parseDefinitionsJson(text: string, options: { readonly source?: string } = {}): unknown[] {
  const location = { index: -1, source: options.source };
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const { line, column, description, fix } = parsed.issue;
    throw new PermissionDefinitionError([
      { ...location, code: 'syntax-error', path: [], message: `Syntax error at line ${line}, column ${column}: ${description}.`, fix },
    ]);
  }
  const shape = definitionsOfFileValue(parsed.value);
  if (shape.problems.length > 0) {
    const fields = topLevelFieldPositions(parsed.text);
    const problems: DefinitionProblem[] = shape.problems.map((problem) => {
      const key = problem.path[0];
      const at = typeof key === 'string' ? fields.get(key) : undefined;
      const where = at === undefined ? positionAt(parsed.text, parsed.text.length - parsed.text.trimStart().length) : at;
      return {
        ...location,
        code: 'invalid-file',
        path: problem.path,
        message: `Line ${where.line}, column ${where.column}: ${problem.message}`,
        fix: problem.fix,
      };
    });
    throw new PermissionDefinitionError(problems);
  }
  return [...(shape.definitions ?? [])];
}
