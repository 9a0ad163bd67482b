/**
 * Where the decision service tells what happens to it: policy versions activated and rejected, source and tokens
 * file failures, internal errors. `console` fits; so does any logger with these three methods.
 */

/** The decision service's logger. */
export interface ServiceLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
