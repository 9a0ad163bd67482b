/**
 * Warnings about unknown names, each said once (a busy application would repeat them per request), or, with
 * `strict`, refusals.
 */
import { PermissionsUsageError } from '../errors.js';
import type { PermissionsLogger } from './permissions-options.js';

/** The most distinct warnings remembered (and said); a stream of new unknown names says nothing more. */
export const MAX_WARNINGS = 1000;

/**
 * Says each warning once through `logger`, or throws it with `strict`.
 *
 * @example
 * ```ts
 * const warnings = new OnceWarnings(false, console);
 * warnings.warn('role\u0000QA', 'unknown role "QA" is ignored: no definition names it.');
 * ```
 */
export class OnceWarnings {
  private readonly said = new Set<string>();

  constructor(
    private readonly strict: boolean,
    private readonly logger: PermissionsLogger,
  ) {}

  warn(key: string, message: string): void {
    if (this.strict) throw new PermissionsUsageError(message);
    if (this.said.has(key) || this.said.size >= MAX_WARNINGS) return;
    this.said.add(key);
    this.logger.warn(`typed-permissions: ${message}`);
  }
}
