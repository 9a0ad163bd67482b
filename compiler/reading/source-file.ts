/**
 * What the compiler reads of a file of a definitions folder before parsing it: that it is a regular file (a
 * dangling link, a link loop, a folder, a named pipe or a device such as /dev/zero is a problem at that file — a
 * pipe would hang the compile and a device would be read without end), its size, and its text, which must be UTF-8:
 * a byte that is no part of a UTF-8 character is refused at its line and column, rather than read as U+FFFD (two
 * names differing only there would become one name).
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fileKindOf } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { wholeFileProblem } from './read-file-result.js';
import { OffsetPositions } from './value-positions.js';

const REPLACE_IT = 'Definitions and tests are regular files: replace it with one, or remove it from the folder.';

/**
 * The size in bytes of `file` of `directory`, when it is a regular file (links followed); else the problem at it.
 *
 * @example
 * ```ts
 * const size = regularFileSize('definitions', 'document.permissions.json'); // { bytes: 812 }
 * ```
 */
export function regularFileSize(directory: string, file: string): { bytes: number } | { problem: CompileProblem } {
  let info: Stats;
  try {
    info = statSync(join(directory, file));
  } catch (error) {
    return { problem: wholeFileProblem(file, 'invalid-file', `The file cannot be read: ${(error as Error).message}.`, REPLACE_IT) };
  }
  if (!info.isFile()) return { problem: wholeFileProblem(file, 'invalid-file', `The file is ${fileKindOf(info)}, not a regular file.`, REPLACE_IT) };
  return { bytes: info.size };
}

/**
 * The text of `file` of `directory` (a regular file, see {@link regularFileSize}) decoded as UTF-8, or the problem
 * at its first byte that is no part of a UTF-8 character.
 *
 * @example
 * ```ts
 * const read = utf8FileText('definitions', 'document.permissions.json'); // { text: '[ … ]' }
 * ```
 */
export function utf8FileText(directory: string, file: string): { text: string } | { problem: CompileProblem } {
  const size = regularFileSize(directory, file);
  if ('problem' in size) return size;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(directory, file));
  } catch (error) {
    return { problem: wholeFileProblem(file, 'invalid-file', `The file cannot be read: ${(error as Error).message}.`, REPLACE_IT) };
  }
  try {
    // A byte order mark is kept, as the runtime's reader sees it (one is allowed, a second is refused there).
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { problem: notUtf8(file, bytes) };
  }
}

/** The problem at the first byte of `bytes` that no UTF-8 decoder takes. */
function notUtf8(file: string, bytes: Buffer): CompileProblem {
  // The longest prefix that decodes (a binary search over its length; decoded as a stream, a prefix that ends inside
  // a character is not wrong yet): the byte after it is the first wrong one.
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, middle), { stream: true });
      good = middle;
    } catch {
      bad = middle;
    }
  }
  // A prefix may end inside a character that the next bytes complete: back off to the last whole one.
  const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, good)).replace(/\uFFFD$/u, '');
  const { line, column } = new OffsetPositions(before).at(before.length);
  return {
    file,
    line,
    column,
    path: [],
    code: 'syntax-error',
    message: `The file is not UTF-8 text: a byte at line ${line}, column ${column} is no part of a UTF-8 character.`,
    fix: 'Save the file as UTF-8.',
  };
}
