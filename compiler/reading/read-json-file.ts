/**
 * Reads a JSON file of a definitions folder (`*.permissions.json`, `*.resource.json`). It is accepted
 * or refused by the runtime's own strict reader (`parseStrictJson`), so that a file the compiler
 * accepts also loads at run time; TypeScript's JSON parser only tells where each value stands (and
 * finds keys written twice, which `JSON.parse` cannot see).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { parseStrictJson } from 'typed-permissions/internal';
import { readFrom, unread, wholeFileProblem, type FileRead } from './read-file-result.js';
import { readStaticValue } from './static-value.js';

/**
 * Reads `file` of `directory` as strict JSON, with the position of every value.
 *
 * @example
 * ```ts
 * const { read, problems } = readJsonFile('definitions', 'document.permissions.json');
 * ```
 */
export function readJsonFile(directory: string, file: string): FileRead {
  return readJsonText(file, readFileSync(join(directory, file), 'utf8'));
}

/**
 * Reads `text`, the content of `file`, as strict JSON, with the position of every value.
 *
 * @example
 * ```ts
 * const { read, problems } = readJsonText('documents.permissions.test.json', '{ "users": {}, "tests": [] }');
 * ```
 */
export function readJsonText(file: string, text: string): FileRead {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const { line, column, description, fix } = parsed.issue;
    return { read: undefined, problems: [{ file, line, column, path: [], code: 'syntax-error', message: `Syntax error: ${description}.`, fix }] };
  }
  // Strict JSON is also valid for TypeScript's JSON parser, which knows where every value stands.
  const sourceFile = ts.parseJsonText(file, parsed.text);
  const statement = sourceFile.statements[0];
  if (statement === undefined)
    return unread(wholeFileProblem(file, 'invalid-file', 'The file holds no JSON value.', 'Write a JSON array of definitions, or { "definitions": [...] }.'));
  const located = readStaticValue(sourceFile, statement.expression);
  // The value is JSON.parse's, as at run time; the reader adds only the positions and its problems.
  return readFrom(file, { value: parsed.value, positions: located.positions, problems: located.problems });
}
