/**
 * Reading a policy bundle from text (a file, an HTTP body, a store's column): bounded in size, parsed as JSON.
 * The engine checks what it is; here it only has to be JSON.
 */
import { MAX_POLICY_BUNDLE_LENGTH } from './policy-bundle.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { printableText } from '../core/common/printable-text.js';

const BYTE_ORDER_MARK = '\ufeff';

/**
 * The JSON value of a bundle's text from `where` (one leading byte order mark allowed), or a PermissionsUsageError
 * saying why it cannot be read (too large, not JSON — a file being written, a body cut short).
 *
 * @example
 * ```ts
 * const bundle = parseBundleText(await readFile(path, 'utf8'), `file ${path}`);
 * ```
 */
export function parseBundleText(text: string, where: string): unknown {
  // One leading byte order mark is allowed, as in a definitions file (an editor may save policy.json with one); it is
  // no part of the JSON, and the version is the hash of the tables, not of the text.
  const json = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  if (json.length > MAX_POLICY_BUNDLE_LENGTH)
    throw new PermissionsUsageError(`The policy bundle of ${where} has ${json.length} characters, more than the limit of ${MAX_POLICY_BUNDLE_LENGTH}.`);
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    // JSON.parse quotes the text it stopped at: an invisible character there (a second byte order mark) is shown escaped.
    throw new PermissionsUsageError(`The policy bundle of ${where} is not JSON (${printableText((error as Error).message)}); it is not loaded.`);
  }
}
