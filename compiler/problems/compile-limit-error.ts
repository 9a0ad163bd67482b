/**
 * The error an emitter throws when an output would grow past a fixed size: a hostile or runaway
 * policy must fail with a clear problem, never exhaust the compiler's memory.
 */

/**
 * An output file would be too large to write. `message` says which file and how large; `fix` says
 * how to shrink the policy. The compiler reports it as a problem with the code `too-large`.
 *
 * @example
 * ```ts
 * try {
 *   emitMatrix(context);
 * } catch (error) {
 *   if (error instanceof CompileLimitError) console.error(`[${error.code}] ${error.message} Fix: ${error.fix}`);
 *   else throw error;
 * }
 * ```
 */
export class CompileLimitError extends Error {
  readonly code = 'too-large';

  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'CompileLimitError';
  }
}
