/**
 * The one reader of the neutral JSON form of definitions (`*.permissions.json`), shared by the
 * runtime and the compiler so that both accept exactly the same files: strict JSON (`JSON.parse`,
 * one leading byte order mark allowed, as Node's JSON module loader allows it), holding a plain
 * array of definitions or `{ "$schema"?: string, "definitions": [...] }` (definitions-file-schema.ts).
 * Whether each definition is valid is decided later, by `Permissions.build()` (or the compiler), not here.
 */
import { PermissionDefinitionError, type DefinitionProblem } from '../common/errors.js';
import { definitionsOfFileValue } from './definitions-file-schema.js';
import { scanJson, topLevelFieldPositions } from './json-syntax-scanner.js';
import type { JsonMistake } from './json-tokens.js';
import { positionAt, type TextPosition } from './text-position.js';

/** Where and why a text is not strict JSON. */
export interface JsonSyntaxIssue extends JsonMistake, TextPosition {}

/** The outcome of {@link parseStrictJson}. */
export type StrictJsonResult = { readonly ok: true; readonly value: unknown; readonly text: string } | { readonly ok: false; readonly issue: JsonSyntaxIssue };

const BYTE_ORDER_MARK = '\ufeff';

/** The longest definitions file, in characters (8 Mi): far beyond any real policy, and short of what would strain the compiler's memory. */
export const MAX_DEFINITIONS_FILE_LENGTH = 8 * 1024 * 1024;

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
 * Parses the text of a `*.permissions.json` file: strict JSON (as `JSON.parse`; one leading byte
 * order mark is skipped, as Node's JSON module loader does), holding a plain array of definitions or
 * `{ "$schema"?: string, "definitions": [...] }`, and nothing else (checked with the zod schema of
 * definitions-file-schema.ts, so this needs zod, as `build()` does). Returns the definitions
 * unvalidated: `Permissions.build()` validates them. The compiler reads files with this same
 * function, so a file the compiler accepts loads here and the other way round — except for a key
 * written twice in one object, which `JSON.parse` silently resolves (the last wins) and the compiler
 * reports (`duplicate-key`): there the compiler is the stricter one.
 *
 * @throws {PermissionDefinitionError} when the text is not strict JSON (code `syntax-error`, with the
 * line and column) or not of that shape (code `invalid-file`); the problems have index -1 (the file
 * as a whole) and `source` as given.
 * @throws {PermissionsUsageError} when zod is not installed (see `loadZod`).
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
