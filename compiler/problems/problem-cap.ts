/**
 * How many problems a compile lists. Problems are for people: a file of a million broken definitions gets its first
 * problems and a count, not a million lines — and its definitions past its cap are not checked at all, so that the
 * cost of a broken folder stays as bounded as its output.
 */
import { formatCount } from 'typed-permissions/internal';
import { formatCompileProblem, type CompileProblem } from './compile-problem.js';

/** The most problems listed for one file; once a file has this many, its further definitions are not checked. */
export const MAX_PROBLEMS_PER_FILE = 100;
/** The most problems one compile lists, over every file. */
export const MAX_LISTED_PROBLEMS = 1000;

/** What a compile found, or would have looked for, but does not list. */
export interface UnlistedProblems {
  /** Problems found past a cap: counted, not listed. */
  readonly problems: number;
  /** Definitions not checked because their file had already reached {@link MAX_PROBLEMS_PER_FILE} problems. */
  readonly definitions: number;
}

/** Nothing left out. */
export const NONE_UNLISTED: UnlistedProblems = { problems: 0, definitions: 0 };

/**
 * A list that keeps its first `cap` items and counts the others: what a reader collects a file's problems in.
 *
 * @example
 * ```ts
 * const problems = new CappedList<StaticValueProblem>(MAX_PROBLEMS_PER_FILE);
 * problems.push(problem); // kept while fewer than 100 are, else counted in problems.unlisted
 * ```
 */
export class CappedList<T> {
  readonly kept: T[] = [];
  /** How many items were pushed past the cap. */
  unlisted = 0;

  constructor(private readonly cap: number) {}

  push(item: T): void {
    if (this.kept.length < this.cap) this.kept.push(item);
    else this.unlisted++;
  }
}

/**
 * The problems to list, in order, at most {@link MAX_PROBLEMS_PER_FILE} of a file and {@link MAX_LISTED_PROBLEMS} in
 * all, and how many others there are.
 *
 * @example
 * ```ts
 * const { listed, unlisted } = capProblems(sortProblems(problems));
 * ```
 */
export function capProblems(problems: readonly CompileProblem[]): { listed: CompileProblem[]; unlisted: number } {
  const listed: CompileProblem[] = [];
  const perFile = new Map<string, number>();
  for (const problem of problems) {
    const ofFile = perFile.get(problem.file) ?? 0;
    if (ofFile >= MAX_PROBLEMS_PER_FILE || listed.length >= MAX_LISTED_PROBLEMS) continue;
    perFile.set(problem.file, ofFile + 1);
    listed.push(problem);
  }
  return { listed, unlisted: problems.length - listed.length };
}

const counted = (count: number, noun: string, state: string): string => `${formatCount(count)} ${noun}${count === 1 ? ' was' : 's were'} ${state}`;

/**
 * The line that ends a list of problems some of which were left out, or `undefined` when none was.
 *
 * @example
 * ```ts
 * unlistedProblemsLine({ problems: 2, definitions: 0 });
 * // 'typed-permissions: 2 more problems were not listed (a compile lists at most 100 problems a file and 1,000 in all). Fix …'
 * ```
 */
export function unlistedProblemsLine(unlisted: UnlistedProblems): string | undefined {
  const parts = [
    ...(unlisted.problems > 0 ? [counted(unlisted.problems, 'more problem', 'not listed')] : []),
    ...(unlisted.definitions > 0 ? [counted(unlisted.definitions, 'definition', 'not checked')] : []),
  ];
  if (parts.length === 0) return undefined;
  return (
    `typed-permissions: ${parts.join(' and ')} (a compile lists at most ${formatCount(MAX_PROBLEMS_PER_FILE)} problems a file ` +
    `and ${formatCount(MAX_LISTED_PROBLEMS)} in all). Fix the problems listed and compile again to see the rest.`
  );
}

/**
 * The lines that report a failed compile's problems: one per problem listed, then the count of those left out, if any.
 *
 * @example
 * ```ts
 * const model = compileModel('definitions');
 * if (!model.ok) for (const line of problemReport(model, 'definitions')) console.error(line);
 * ```
 */
export function problemReport(result: { readonly problems: readonly CompileProblem[]; readonly unlisted: UnlistedProblems }, directory: string): string[] {
  const lines = result.problems.map((problem) => formatCompileProblem(problem, directory));
  const last = unlistedProblemsLine(result.unlisted);
  return last === undefined ? lines : [...lines, last];
}

/**
 * How many problems a failed compile found, listed or not: what its summary line counts.
 *
 * @example
 * ```ts
 * io.error(`typed-permissions: ${plural(problemsFound(model), 'problem')} in definitions.`);
 * ```
 */
export function problemsFound(result: { readonly problems: readonly CompileProblem[]; readonly unlisted: UnlistedProblems }): number {
  return result.problems.length + result.unlisted.problems;
}
