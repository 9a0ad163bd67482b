/** The problems the compiler reports: every one names the file, line, column and JSON path, and the fix. */

/** A path inside a value read from a file: property names and array indexes, e.g. `['definitions', 0, 'grant', 2]`. */
export type ValuePath = readonly (string | number)[];

/** One problem in a definitions folder, or with the output folder. */
export interface CompileProblem {
  /**
   * File name relative to the definitions folder; `''` for a problem of the definitions folder itself (it cannot be
   * listed); for a problem of the output folder (`origin: 'output'`), the folder as given.
   */
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** JSON path inside the file, e.g. `['definitions', 0, 'grant', 2]`. */
  readonly path: ValuePath;
  /**
   * A definition problem code of the runtime, or one of the compiler's own: syntax-error, not-static, duplicate-key, invalid-file,
   * duplicate-export, unsupported-export, invalid-metadata, invalid-ownership-rule, hook-kind-conflict, unsafe-output.
   */
  readonly code: string;
  /** `'output'` for a problem of the output folder rather than of a definitions file (code `unsafe-output`). */
  readonly origin?: 'output';
  readonly message: string;
  readonly fix: string;
}

/**
 * Formats a JSON path as `$.definitions[0].grant[2]`.
 *
 * @example
 * ```ts
 * formatJsonPath(['definitions', 0, 'grant', 2]); // '$.definitions[0].grant[2]'
 * ```
 */
export function formatJsonPath(path: ValuePath): string {
  let out = '$';
  for (const segment of path)
    out += typeof segment === 'number' ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  return out;
}

/**
 * Formats a problem as `definitions/document.permissions.json:12:7 $.definitions[0].grant[2] [bad-possession] message Fix: …`,
 * or, for a problem of the output folder, `generated [unsafe-output] message Fix: …`.
 *
 * @example
 * ```ts
 * console.error(formatCompileProblem(problem, 'definitions'));
 * ```
 */
export function formatCompileProblem(problem: CompileProblem, directory: string): string {
  if (problem.origin === 'output') return `${problem.file} [${problem.code}] ${problem.message} Fix: ${problem.fix}`;
  const folder = directory.replace(/\/$/, '');
  // A problem of the folder itself (it cannot be listed) has no file and no place in a value.
  if (problem.file === '') return `${folder} [${problem.code}] ${problem.message} Fix: ${problem.fix}`;
  const where = `${folder}/${problem.file}${problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`}`;
  return `${where} ${formatJsonPath(problem.path)} [${problem.code}] ${problem.message} Fix: ${problem.fix}`;
}
