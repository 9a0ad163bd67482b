/**
 * What every command of the `typed-permissions` command line shares: how it writes (every line printable —
 * lines carry input such as folder names and roles) and how it refuses its arguments (a usage error, exit 2).
 */
import { statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { printableText } from 'typed-permissions/internal';

/** Where progress goes: `process.stderr`, or a test's stand-in. */
export interface ProgressStream {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** Where a command writes: standard output and standard error, a line at a time. */
export interface CommandOutput {
  readonly log: (line: string) => void;
  readonly error: (line: string) => void;
  /** Where a long compile shows its progress when it is a terminal (process.stderr), and after how long; none by default. */
  readonly progress?: { readonly stream: ProgressStream; readonly afterMs?: number } | undefined;
  /**
   * Asks the person at the terminal a question and resolves with the line they answer; absent when standard input
   * is not a terminal (a pipe, CI), where a command that needs an answer refuses rather than waits.
   */
  readonly ask?: ((question: string) => Promise<string>) | undefined;
}

/** A command's arguments are wrong: the command line prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/** A command: its arguments (after its name) in, an exit code out. */
export type Command = (argv: readonly string[], io: CommandOutput) => Promise<number>;

/**
 * Each line of `text` with control and format characters shown as escapes; the line breaks themselves stay.
 *
 * @example
 * ```ts
 * printableLines('a\u0007b\nc'); // 'a\\u0007b\nc'
 * ```
 */
export function printableLines(text: string): string {
  return text.split('\n').map(printableText).join('\n');
}

/**
 * The folder an option names, checked: a path that does not exist or is not a folder is a usage error naming the
 * command, the option and the path (a mistyped store folder must not read as a store without custom roles).
 *
 * @example
 * ```ts
 * const store = existingFolder('diff', '--store', values.store); // 'tenant-roles', or a UsageError
 * ```
 */
export function existingFolder(command: string, option: string, path: string): string {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `${command} ${option}: ${path} does not exist: give the folder of a tenant roles store.`
        : `${command} ${option}: cannot read ${path} (${code ?? (error as Error).message}).`,
    );
  }
  if (!folder) throw new UsageError(`${command} ${option}: ${path} is not a folder: give the folder of a tenant roles store.`);
  return path;
}

/**
 * `parseArgs` of Node, its errors as usage errors.
 *
 * @example
 * ```ts
 * const { values, positionals } = parseCommandLine(argv, { out: { type: 'string' } });
 * ```
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: T; strict: true }>> {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, options, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The one definitions folder a command takes (default `definitions`), refusing more.
 *
 * @example
 * ```ts
 * definitionsFolder('compile', positionals); // 'definitions'
 * ```
 */
export function definitionsFolder(command: string, positionals: readonly string[]): string {
  if (positionals.length > 1) throw new UsageError(`${command} takes one definitions folder, got ${positionals.length}.`);
  return positionals[0] ?? 'definitions';
}

/**
 * A whole number from 1 written in decimal digits (a sequence number, a count): undefined for anything else, and for
 * one past the safe integers. `Number()` alone would also take `0x10`, `1e1`, ` 1` or `1.0`.
 *
 * @example
 * ```ts
 * positiveDecimal('16'); // 16
 * positiveDecimal('0x10'); // undefined
 * ```
 */
export function positiveDecimal(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export { plural } from '../emit/plural.js';
