/**
 * Reading a file that an operator names (a policy bundle, a tokens file) without trusting what its path leads to.
 * The file is opened once and everything is asked of that handle, so the check and the read are of the same file:
 * anything but a regular file — a device such as /dev/zero, a named pipe, a socket, a folder — is refused, and at
 * most one byte past the limit is read, whatever size the file said it had (a file that grows while it is read,
 * or one whose size is not what it holds, is refused rather than read whole). It is opened non-blocking, because
 * a plain open of a named pipe waits for a writer that may never come.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { PermissionsUsageError } from '../core/common/errors.js';

/** What {@link regularFileText} says about the file it reads, and how much of it. */
export interface RegularFileRead {
  /** The file as messages name it, starting a sentence: `The tokens file /run/secrets/decision-tokens`. */
  readonly subject: string;
  /** The most bytes the file may hold. */
  readonly maxBytes: number;
  /** What to give instead of a path that is not a regular file, ending a sentence: `give the path of a regular file`. */
  readonly instead: string;
}

/** O_NONBLOCK so that a named pipe is opened (and refused) rather than waited on; O_NOCTTY so that a terminal is never made the process's own. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The most bytes one read asks for beyond what the file said it holds. */
const READ_CHUNK = 64 * 1024;

/** The tests of a file's type that `fs.Stats` has: written out, so that declarations need no Node.js types. */
export interface FileTypeTests {
  isDirectory(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
}

/**
 * What a path that is not a regular file is, for messages: the runtime's file readers and the compiler's say it
 * the same way.
 *
 * @example
 * ```ts
 * fileKindOf(await stat('/dev/zero')); // 'a character device'
 * ```
 */
export function fileKindOf(info: FileTypeTests): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  return 'a special file';
}

function notRegular(info: Stats, { subject, instead }: RegularFileRead): PermissionsUsageError {
  return new PermissionsUsageError(`${subject} is ${fileKindOf(info)}, not a regular file; ${instead}.`);
}

/** Opens `path` for reading; a socket or folder that cannot be opened is refused as what it is, other failures are thrown as they are. */
async function openFile(path: string, read: RegularFileRead): Promise<FileHandle> {
  try {
    return await open(path, OPEN_FLAGS);
  } catch (error) {
    // A socket cannot be opened (ENXIO on Linux, EOPNOTSUPP elsewhere), nor a folder on some systems: say what the path is, not the errno.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENXIO' || code === 'EOPNOTSUPP' || code === 'EISDIR') {
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && !info.isFile()) throw notRegular(info, read);
    }
    throw error;
  }
}

/**
 * The text (UTF-8) of the regular file at `path`, or a PermissionsUsageError saying what the path is and what to
 * give instead, or that the file holds more than `maxBytes`. A file that cannot be opened at all (missing, not
 * permitted) rejects with the file system's error, `code` and all, for the caller to report.
 *
 * @example
 * ```ts
 * const text = await regularFileText('/run/secrets/decision-tokens', {
 *   subject: 'The tokens file /run/secrets/decision-tokens',
 *   maxBytes: 1_048_576,
 *   instead: 'give the path of a regular file with one token per line',
 * });
 * ```
 */
export async function regularFileText(path: string, read: RegularFileRead): Promise<string> {
  const { subject, maxBytes } = read;
  const handle = await openFile(path, read);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(info, read);
    if (info.size > maxBytes) throw new PermissionsUsageError(`${subject} is ${info.size} bytes, more than the limit of ${maxBytes}.`);
    const chunks: Buffer[] = [];
    let total = 0;
    // One byte past the limit is enough to know the file is over it: no more is ever read, whatever it holds.
    const cap = maxBytes + 1;
    while (total < cap) {
      const size = Math.min(cap - total, Math.max(READ_CHUNK, info.size + 1 - total));
      const buffer = Buffer.allocUnsafe(size);
      const { bytesRead } = await handle.read(buffer, 0, size, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes)
      throw new PermissionsUsageError(
        `${subject} holds more than ${maxBytes} bytes, the limit, though it said ${info.size} when it was opened ` +
          '(it grew while it was read, or it is not an ordinary file); it is not read.',
      );
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}
