/**
 * `filePolicySource(path)`: a policy bundle in a file (`generated/policy.json`, or a mounted configuration
 * file). It is watched with a file-system watch on its folder — a file replaced by rename, or a symbolic link
 * swapped (how mounted configuration changes), is an event there — and with a stat poll, because a swap of a
 * mounted folder can end a watch without a word. A file read while it is being written is not JSON, or does
 * not hash to its version: it is not loaded, and the next event or poll reads it again.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { PolicySource, SourcedPolicy } from './policy-source.js';
import { MAX_POLICY_BUNDLE_LENGTH } from './policy-bundle.js';
import { parseBundleText } from './bundle-text.js';
import { durationOption } from './duration-option.js';
import { regularFileText } from './regular-file-text.js';

/** Options of {@link filePolicySource}. */
export interface FilePolicySourceOptions {
  /** How often the file's identity (real path, inode, size, modification time) is compared, in ms. Default 1000. */
  readonly pollIntervalMs?: number | undefined;
  /**
   * The most bytes the file may hold; a larger one is reported, never parsed (and never more than one byte past
   * the limit is read, whatever size the file says it has). Default: four bytes per character of the bundle
   * limit (the worst case of UTF-8), so any bundle the engine accepts fits.
   */
  readonly maxBytes?: number | undefined;
}

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

/**
 * A policy source reading the bundle at `path`.
 *
 * @example
 * ```ts
 * const live = await permissions.follow(filePolicySource('generated/policy.json'));
 * ```
 */
export function filePolicySource(path: string, options: FilePolicySourceOptions = {}): PolicySource {
  if (typeof path !== 'string' || path === '')
    throw new PermissionsUsageError('filePolicySource(path): path must be the path of a policy bundle (policy.json).');
  const pollIntervalMs = durationOption('filePolicySource(): pollIntervalMs', options.pollIntervalMs, 1000, 10);
  const maxBytes = options.maxBytes ?? MAX_POLICY_BUNDLE_LENGTH * 4;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new PermissionsUsageError('filePolicySource(): maxBytes must be a positive integer.');
  const file = resolve(path);
  const description = `file ${file}`;
  const reading = {
    subject: `The policy bundle of ${description}`,
    maxBytes,
    instead: 'give the path of a policy bundle file, such as the policy.json that npx typed-permissions compile writes',
  };
  return {
    description,
    async read(): Promise<SourcedPolicy | undefined> {
      let text: string;
      try {
        text = await regularFileText(file, reading);
      } catch (error) {
        // No file yet: no version yet (the compiler or a deployment writes it later).
        if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
        throw error;
      }
      return { bundle: parseBundleText(text, description) };
    },
    watch(changed, failed) {
      let watcher: FSWatcher | undefined;
      let last: string | undefined;
      const startWatch = () => {
        try {
          watcher = watch(dirname(file), (_event, name) => {
            if (name === null || name === basename(file) || name.startsWith('..')) changed();
          });
          watcher.on('error', (error) => {
            failed(error);
            watcher?.close();
            watcher = undefined;
          });
        } catch (error) {
          failed(error);
        }
      };
      startWatch();
      void identityOf(file).then((identity) => (last = identity));
      const poll = setInterval(() => {
        void identityOf(file).then((identity) => {
          if (watcher === undefined) startWatch();
          if (identity !== last) {
            last = identity;
            changed();
          }
        });
      }, pollIntervalMs);
      poll.unref();
      return () => {
        clearInterval(poll);
        watcher?.close();
        return Promise.resolve();
      };
    },
  };
}
