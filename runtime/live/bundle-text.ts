/**
 * Reading a policy bundle from text (a file, an HTTP body, a store's column): bounded in size, parsed as JSON.
 * The engine checks what it is; here it only has to be JSON.
 */
import { MAX_POLICY_BUNDLE_LENGTH } from './policy-bundle.js';
import { PermissionsUsageError } from '../core/common/errors.js';

/**
 * The JSON value of a bundle's text from `where`, or a PermissionsUsageError saying why it cannot be read
 * (too large, not JSON — a file being written, a body cut short).
 *
 * @example
 * ```ts
 * const bundle = parseBundleText(await readFile(path, 'utf8'), `file ${path}`);
 * ```
 */
export function parseBundleText(text: string, where: string): unknown {
  if (text.length > MAX_POLICY_BUNDLE_LENGTH)
    throw new PermissionsUsageError(`The policy bundle of ${where} has ${text.length} characters, more than the limit of ${MAX_POLICY_BUNDLE_LENGTH}.`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PermissionsUsageError(`The policy bundle of ${where} is not JSON (${(error as Error).message}); it is not loaded.`);
  }
}
