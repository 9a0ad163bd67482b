/** Problems of one definition, placed in its file: the checks speak of paths inside a definition, a user reads lines of a file. */
import type { CompileProblem, ValuePath } from '../problems/compile-problem.js';
import type { ReadDefinition } from '../reading/read-definitions.js';
import { positionOf } from '../reading/value-positions.js';

/**
 * A problem at `path` inside the definition `read`, with its file, line, column and path in the file.
 *
 * @example
 * ```ts
 * problemAt(entry, ['grant', 2], { code: 'bad-possession', message, fix }); // path: ['definitions', 0, 'grant', 2]
 * ```
 */
export function problemAt(
  read: Pick<ReadDefinition, 'file' | 'path' | 'positions'>,
  path: readonly (string | number)[],
  rest: Pick<CompileProblem, 'code' | 'message' | 'fix'>,
): CompileProblem {
  const full: ValuePath = [...read.path, ...path];
  // Take only code, message and fix from `rest`: a problem of the runtime also carries its own path, relative to the definition,
  // which must not replace the path in the file.
  return { file: read.file, ...(positionOf(read.positions, full) ?? {}), path: full, code: rest.code, message: rest.message, fix: rest.fix };
}

/**
 * The key of a definition by where it was read (its file and index), to find it again from a problem of the table builder.
 *
 * @example
 * ```ts
 * byLocation.get(locationKey(problem.source, problem.index));
 * ```
 */
export function locationKey(file: string | undefined, index: number): string {
  return `${file}\u0000${index}`;
}

/**
 * Problems sorted by file, line and column; problems at the same place keep their order.
 *
 * @example
 * ```ts
 * return { ok: false, problems: sortProblems(problems) };
 * ```
 */
export function sortProblems(problems: readonly CompileProblem[]): CompileProblem[] {
  return problems
    .map((problem, order) => ({ problem, order }))
    .sort((a, b) =>
      a.problem.file < b.problem.file
        ? -1
        : a.problem.file > b.problem.file
          ? 1
          : (a.problem.line ?? 0) - (b.problem.line ?? 0) || (a.problem.column ?? 0) - (b.problem.column ?? 0) || a.order - b.order,
    )
    .map(({ problem }) => problem);
}
