/**
 * Writes the output folder: replaced as a whole, through a sibling folder and renames, so that a
 * reader (or a crash) sees the old or the new version, never a mix — and only ever a folder that
 * holds nothing but generated files (see output-folder.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmittedFile } from '../emit/emit-context.js';
import { assertReplaceable, type OutputFolders } from './output-folder.js';

/**
 * The files of an output folder that holds only generated files (checked before), by name: what a
 * compile compares its output with.
 *
 * @example
 * ```ts
 * const stale = files.filter((file) => readExisting(target).get(file.path) !== file.content);
 * ```
 */
export function readExisting(target: string): Map<string, string> {
  const existing = new Map<string, string>();
  if (!existsSync(target)) return existing;
  for (const name of readdirSync(target).sort()) existing.set(name, readFileSync(join(target, name), 'utf8'));
  return existing;
}

/**
 * Undoes what a run killed in the middle of {@link writeAtomically} left behind: puts the old
 * version back when the kill landed between the two renames, and removes a partial `.next` and a
 * stale `.previous`. Runs at the start of every compile that may write, so leftovers never outlive
 * the next run, even when the output is already up to date. Only for folders that
 * `inspectOutputFolder` found safe to replace.
 *
 * @example
 * ```ts
 * const output = inspectOutputFolder('generated', 'definitions');
 * if (output.problems.length === 0) recoverFolders(output);
 * ```
 */
export function recoverFolders({ target, next, previous }: OutputFolders): void {
  if (!existsSync(target) && existsSync(previous)) renameSync(previous, target);
  rmSync(next, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
}

/**
 * Replaces `outDir` with `files` as a whole: the new version is written beside it, then swapped in
 * with renames, so a reader (or a crash) sees the old or the new version, never a mix. A swap left
 * half-done by a crash is completed by the next run. Throws `UnsafeOutputError` (and touches
 * nothing) when the folder holds anything the compiler did not write.
 *
 * @example
 * ```ts
 * writeAtomically('generated', await emitAll(model, { runtimeImport: 'typed-permissions', definitionsLabel: 'definitions' }));
 * ```
 */
export function writeAtomically(outDir: string, files: readonly EmittedFile[]): void {
  const folders = assertReplaceable(outDir);
  const { target, next, previous } = folders;
  recoverFolders(folders);
  mkdirSync(next, { recursive: true });
  for (const file of files) writeFileSync(join(next, file.path), file.content);
  if (existsSync(target)) renameSync(target, previous);
  renameSync(next, target);
  rmSync(previous, { recursive: true, force: true });
}
