/**
 * A file of bearer tokens, one per line, followed while the service runs so tokens rotate without a restart:
 * watched on its folder (a rename or a swapped symbolic link, as mounted secrets change, is an event there) and
 * polled, because a watch can end without a word. Each read replaces the accepted tokens with the file's.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { PermissionsUsageError } from '../core/common/errors.js';
import { regularFileText } from '../live/regular-file-text.js';
import { tokenProblem } from './bearer-tokens.js';

/** The largest tokens file read. */
export const MAX_TOKENS_FILE_BYTES = 1_048_576;

/** The tokens of a file's text, and the lines that are not tokens (1-based; the line's text is never repeated). */
export interface TokensFileContent {
  readonly tokens: readonly string[];
  readonly problems: readonly string[];
}

/**
 * The tokens of a tokens file: one per line; blank lines and lines starting with `#` are skipped; spaces around
 * a token are ignored.
 *
 * @example
 * ```ts
 * parseTokensFile('# deploy bot\na1b2c3d4e5f6a7b8c9d0\n\nshort\n');
 * // { tokens: ['a1b2c3d4e5f6a7b8c9d0'], problems: ['line 4 is 5 characters long; a token has at least 16'] }
 * ```
 */
export function parseTokensFile(text: string): TokensFileContent {
  const tokens: string[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const problem = tokenProblem(line);
    if (problem === undefined) tokens.push(line);
    else problems.push(`line ${i + 1} ${problem}`);
  });
  return { tokens, problems };
}

/**
 * Reads and parses the tokens file at `path`: a PermissionsUsageError when it cannot be read, is not a regular
 * file (a device, a named pipe, a socket, a folder) or holds more than {@link MAX_TOKENS_FILE_BYTES}.
 *
 * @example
 * ```ts
 * const { tokens, problems } = await readTokensFile('/run/secrets/decision-tokens');
 * ```
 */
export async function readTokensFile(path: string): Promise<TokensFileContent> {
  let text: string;
  try {
    text = await regularFileText(path, {
      subject: `The tokens file ${path}`,
      maxBytes: MAX_TOKENS_FILE_BYTES,
      instead: 'give the path of a regular file with one token per line (or a symbolic link to one, as mounted secrets are)',
    });
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw error;
    throw new PermissionsUsageError(`The tokens file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  return parseTokensFile(text);
}

/** What tells one state of the file from another: a rename or swap changes the real path or the inode, a write the size or time. */
async function identityOf(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    const info = await stat(real);
    return `${real}\u0000${info.ino}\u0000${info.size}\u0000${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** What a followed tokens file reports. */
export interface TokensFileEvents {
  /** The file was read again: its tokens (and the lines that are not). */
  readonly onRead: (content: TokensFileContent) => void;
  /** The file could not be read; the tokens accepted so far stay. The same failure again is not told until a read succeeds. */
  readonly onError: (error: unknown) => void;
}

/**
 * Follows the tokens file at `path`: reads it again whenever it may have changed, one read at a time.
 * Returns the function that stops following.
 *
 * @example
 * ```ts
 * const stop = followTokensFile('/run/secrets/decision-tokens', 1000, {
 *   onRead: ({ tokens }) => accepted.replace(tokens),
 *   onError: (error) => logger.warn(String(error)),
 * });
 * ```
 */
export function followTokensFile(path: string, pollIntervalMs: number, events: TokensFileEvents): () => void {
  // A listener that throws must not stop following, nor become an unhandled rejection.
  const tell = (event: () => void): void => {
    try {
      event();
    } catch {
      // Nothing more can be told: the listener itself failed.
    }
  };
  const file = resolve(path);
  let watcher: FSWatcher | undefined;
  let last: string | undefined;
  let reading = false;
  let again = false;
  let stopped = false;
  // A change is often seen twice (the watch and the poll): the same failure is told once, until a read succeeds.
  let lastFailure: string | undefined;
  const reread = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        let content: TokensFileContent;
        try {
          content = await readTokensFile(file);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (!stopped && message !== lastFailure) tell(() => events.onError(error));
          lastFailure = message;
          continue;
        }
        lastFailure = undefined;
        if (!stopped) tell(() => events.onRead(content));
      } while (again && !stopped);
    } finally {
      reading = false;
    }
  };
  const startWatch = (): void => {
    try {
      watcher = watch(dirname(file), (_event, name) => {
        if (name === null || name === basename(file) || name.startsWith('..')) void reread();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined;
    }
  };
  startWatch();
  // Read once more after taking the file's identity: a change between the caller's first read and now is not missed.
  void identityOf(file).then((identity) => {
    last = identity;
    void reread();
  });
  const poll = setInterval(() => {
    void identityOf(file).then((identity) => {
      if (stopped) return;
      if (watcher === undefined) startWatch();
      if (identity !== last) {
        last = identity;
        void reread();
      }
    });
  }, pollIntervalMs);
  poll.unref();
  return () => {
    stopped = true;
    clearInterval(poll);
    watcher?.close();
  };
}
