/**
 * Following a file an operator names and changes while the process runs (a policy bundle, a tokens file). The
 * file is watched on its folder — a file replaced by rename, or a symbolic link swapped (how mounted configuration
 * and secrets change), is an event there, not on the file — and its identity (real path, inode, size, modification
 * time) is polled as well, because a swap of a mounted folder can end a watch without a word; a watch that ended is
 * started again at the next poll. One mechanism for every followed file, so that they all survive the same swaps.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';

/** What tells one state of the file from another: a swap or rename changes the real path or the inode, a write the size or time. */
async function identityOf(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    const info = await stat(real);
    return `${real}\u0000${info.ino}\u0000${info.size}\u0000${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** What {@link watchFile} tells, and how often it polls. */
export interface FileWatch {
  /** How often the file's identity is compared, in ms. */
  readonly pollIntervalMs: number;
  /** The file may have changed (an event on it, or another identity at a poll). */
  readonly changed: () => void;
  /** The watch failed or ended (it is started again at the next poll). */
  readonly failed?: ((error: unknown) => void) | undefined;
  /**
   * Also tell `changed` once the file's first identity is taken: a change between the caller's first read and
   * the start of the watch is not missed.
   */
  readonly changedOnStart?: boolean | undefined;
}

/**
 * Watches the file at `path` (which need not exist yet) until the returned function is called.
 *
 * @example
 * ```ts
 * const stop = watchFile('generated/policy.json', { pollIntervalMs: 1000, changed: () => void reload() });
 * ```
 */
export function watchFile(path: string, { pollIntervalMs, changed, failed, changedOnStart }: FileWatch): () => void {
  const file = resolve(path);
  let watcher: FSWatcher | undefined;
  let last: string | undefined;
  let stopped = false;
  const startWatch = (): void => {
    try {
      watcher = watch(dirname(file), (_event, name) => {
        if (!stopped && (name === null || name === basename(file) || name.startsWith('..'))) changed();
      });
      watcher.on('error', (error) => {
        failed?.(error);
        watcher?.close();
        watcher = undefined;
      });
    } catch (error) {
      watcher = undefined;
      failed?.(error);
    }
  };
  startWatch();
  void identityOf(file).then((identity) => {
    last = identity;
    if (changedOnStart === true && !stopped) changed();
  });
  const poll = setInterval(() => {
    void identityOf(file).then((identity) => {
      if (stopped) return;
      if (watcher === undefined) startWatch();
      if (identity !== last) {
        last = identity;
        changed();
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

/** What {@link followFile} reads and tells. */
export interface FileFollower<T> {
  /** How often the file's identity is compared, in ms. */
  readonly pollIntervalMs: number;
  /** Reads the file (bounded, as `regularFileText` reads it) into its content; a rejection is a failed read. */
  readonly read: (file: string) => Promise<T>;
  /** The file was read again: its content. */
  readonly onRead: (content: T) => void;
  /** The file could not be read; the caller keeps its last good content. The same failure again is not told until a read succeeds. */
  readonly onError: (error: unknown) => void;
}

/**
 * Follows the file at `path`: reads it again whenever it may have changed (and once at the start, after its
 * identity is taken), one read at a time — a change seen during a read is read again after it. A listener that
 * throws neither stops following nor becomes an unhandled rejection. Returns the function that stops following.
 *
 * @example
 * ```ts
 * const stop = followFile('/run/secrets/decision-tokens', {
 *   pollIntervalMs: 1000,
 *   read: readTokensFile,
 *   onRead: ({ tokens }) => accepted.replace(tokens),
 *   onError: (error) => logger.warn(String(error)),
 * });
 * ```
 */
export function followFile<T>(path: string, { pollIntervalMs, read, onRead, onError }: FileFollower<T>): () => void {
  const tell = (event: () => void): void => {
    try {
      event();
    } catch {
      // Nothing more can be told: the listener itself failed.
    }
  };
  const file = resolve(path);
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
        let content: T;
        try {
          content = await read(file);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (!stopped && message !== lastFailure) tell(() => onError(error));
          lastFailure = message;
          continue;
        }
        lastFailure = undefined;
        if (!stopped) tell(() => onRead(content));
      } while (again && !stopped);
    } finally {
      reading = false;
    }
  };
  const stopWatching = watchFile(file, { pollIntervalMs, changed: () => void reread(), changedOnStart: true });
  return () => {
    stopped = true;
    stopWatching();
  };
}
