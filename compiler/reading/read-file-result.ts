/** What reading one definitions or metadata file gives: its value with positions, or the problems that kept it from being read. */
import type { CompileProblem } from '../problems/compile-problem.js';
import type { StaticValue } from './value-positions.js';

/** The value of a file (`undefined` when it could not be read) and every problem met reading it. */
export interface FileRead {
  readonly read: StaticValue | undefined;
  readonly problems: CompileProblem[];
  /** Problems met past the most a file lists: counted, not kept. */
  readonly unlisted?: number;
}

/**
 * A problem of a file as a whole, reported at its start.
 *
 * @example
 * ```ts
 * wholeFileProblem('a.permissions.ts', 'invalid-file', 'The file exports no definitions.', 'Write `export default [ ... ];`.');
 * ```
 */
export function wholeFileProblem(file: string, code: CompileProblem['code'], message: string, fix: string): CompileProblem {
  return { file, line: 1, column: 1, path: [], code, message, fix };
}

/**
 * What reading a file gives when it cannot be read: no value, one problem.
 *
 * @example
 * ```ts
 * return unread(wholeFileProblem(file, 'invalid-file', 'The file holds no JSON value.', fix));
 * ```
 */
export function unread(problem: CompileProblem): FileRead {
  return { read: undefined, problems: [problem] };
}

/**
 * A value read from a file, with the problems of reading it (a key written twice, something not static) as compile problems.
 *
 * @example
 * ```ts
 * return readFrom(file, readStaticValue(sourceFile, expression));
 * ```
 */
export function readFrom(file: string, read: StaticValue): FileRead {
  return {
    read,
    problems: read.problems.map((p) => ({ file, ...p.position, path: p.path, code: p.code, message: p.message, fix: p.fix })),
    unlisted: read.unlisted ?? 0,
  };
}
