/**
 * A file of bearer tokens, one per line, followed while the service runs so tokens rotate without a restart:
 * watched on its folder (a rename or a swapped symbolic link, as mounted secrets change, is an event there) and
 * polled, because a watch can end without a word. Each read replaces the accepted tokens with the file's.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { followFile } from '../live/file-follower.js';
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
  return followFile(path, { pollIntervalMs, read: readTokensFile, onRead: events.onRead, onError: events.onError });
}
