/**
 * Warnings about unknown names, each said once (a busy application would repeat them per request), or, with
 * `strict`, refusals.
 */
import { PermissionsUsageError } from '../common/errors.js';
import type { PermissionsLogger } from './engine-settings.js';

/** The most distinct warnings remembered (and said); a stream of new unknown names says nothing more. */
export const MAX_WARNINGS = 1000;

/** One thing a warning is about: the problem, what happens without `strict`, and a hint that applies either way. */
export interface UnknownName {
  /** What is wrong: `unknown role "QA": no definition names it`. */
  readonly problem: string;
  /** What happens when it is only warned about: `it is ignored`. */
  readonly consequence: string;
  /** A sentence after both forms: ` Did you mean "QA_MANAGER"?`, or ''. */
  readonly hint?: string | undefined;
}

/**
 * Says each warning once through `logger`, or throws it with `strict`: the warning says what happens (the name
 * is ignored), the refusal says that it is refused — never that something was ignored which was not.
 *
 * @example
 * ```ts
 * const warnings = new OnceWarnings(false, console);
 * warnings.warn('role', 'QA', () => ({ problem: 'unknown role "QA": no definition names it', consequence: 'it is ignored' }));
 * // typed-permissions: unknown role "QA": no definition names it; it is ignored.
 * ```
 */
export class OnceWarnings {
  /** The names said, by kind: looked up without building a key per call (an unknown role may come with every request). */
  private readonly said = new Map<string, Set<string>>();
  private count = 0;

  constructor(
    private readonly strict: boolean,
    private readonly logger: PermissionsLogger,
  ) {}

  /** `describe` is only called when something is said: a suggestion is looked for once per name, not per request. */
  warn(kind: string, name: string, describe: () => UnknownName): void {
    if (this.strict) {
      const { problem, hint = '' } = describe();
      throw new PermissionsUsageError(`${problem}; strict mode refuses the query.${hint}`);
    }
    let names = this.said.get(kind);
    if (names?.has(name) === true || this.count >= MAX_WARNINGS) return;
    if (names === undefined) this.said.set(kind, (names = new Set()));
    names.add(name);
    this.count++;
    const { problem, consequence, hint = '' } = describe();
    this.logger.warn(`typed-permissions: ${problem}; ${consequence}.${hint}`);
  }
}
