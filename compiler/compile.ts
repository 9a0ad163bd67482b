/**
 * The compiler: definitions folder in, generated TypeScript out. Nothing under the output folder
 * changes unless every definition is valid, and the output is replaced as a whole — only ever a
 * folder that holds nothing but generated files (see output-folder.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { CompileLimitError } from './compile-limit-error.js';
import type { CompileProblem } from './compile-problem.js';
import { assertReplaceable, inspectOutputFolder, UnsafeOutputError, type OutputFolders } from './output-folder.js';
import { compileModel, type CompiledModel } from './compile-model.js';
import type { EmitContext, EmittedFile } from './emit/emit-context.js';
import { emitIndex } from './emit/emit-index.js';
import { emitJsonSchemas } from './emit/emit-json-schema.js';
import { emitMatrix } from './emit/emit-matrix.js';
import { emitOwnership } from './emit/emit-ownership.js';
import { emitPermissions } from './emit/emit-permissions.js';
import { emitTables } from './emit/emit-tables.js';
import { emitTypes } from './emit/emit-types.js';

/** Options of {@link compile}. */
export interface CompileOptions {
  /** The definitions folder. */
  readonly definitionsDir: string;
  /**
   * The output folder, replaced as a whole; refused (`unsafe-output`) unless it is missing or holds only generated files,
   * and is neither, nor contains, nor lies inside `definitionsDir`.
   */
  readonly outDir: string;
  /** Compare instead of writing: report the files that would change. */
  readonly check?: boolean;
  /**
   * Import specifier of the runtime core in generated code; by default `typed-permissions`,
   * or a relative path inside the typed-permissions repository itself.
   */
  readonly runtimeImport?: string;
}

/** The result of {@link compile}. */
export type CompileResult =
  | {
      readonly ok: true;
      readonly model: CompiledModel;
      readonly files: readonly EmittedFile[];
      readonly written: boolean;
      readonly stale: readonly string[];
      readonly inputs: readonly string[];
    }
  | { readonly ok: false; readonly problems: readonly CompileProblem[]; readonly inputs: readonly string[] };

/** The runtime entry generated code imports: the precompiled engine (no zod, no table builder). */
export const RUNTIME_IMPORT = 'typed-permissions/precompiled';

/** The root of this repository above `start` (its runtime workspace holds the sources), if `start` is inside it. */
function findSourceRepository(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    try {
      const runtime = JSON.parse(readFileSync(join(dir, 'runtime', 'package.json'), 'utf8')) as { name?: string };
      if (runtime.name === 'typed-permissions' && existsSync(join(dir, 'runtime', 'core', 'precompiled.ts'))) return dir;
    } catch {
      // No runtime workspace here: look further up.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * How generated code imports the runtime: `typed-permissions/precompiled`, or inside the
 * typed-permissions repository itself (where the package is not built) a relative path to its source.
 *
 * @example
 * ```ts
 * defaultRuntimeImport('generated'); // 'typed-permissions/precompiled' in an application
 * ```
 */
export function defaultRuntimeImport(outDir: string): string {
  const root = findSourceRepository(outDir);
  if (root === undefined) return RUNTIME_IMPORT;
  const path = relative(resolve(outDir), join(root, 'runtime', 'core', 'precompiled.js'))
    .split(sep)
    .join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * Emits every output file of a model, in memory.
 *
 * @example
 * ```ts
 * const files = await emitAll(model, { runtimeImport: 'typed-permissions', definitionsLabel: 'definitions' });
 * ```
 */
export async function emitAll(model: CompiledModel, options: Omit<EmitContext, 'model'>): Promise<EmittedFile[]> {
  const context: EmitContext = { model, ...options };
  const modules = await Promise.all([emitTypes(context), emitOwnership(context), emitTables(context), emitPermissions(context)]);
  const index = await emitIndex(
    context,
    modules.map((file) => file.path),
  );
  const docs = [emitMatrix(context), ...(await emitJsonSchemas(context))];
  return [...modules, index, ...docs].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The files of an output folder that holds only generated files (checked before), by name. */
function readExisting(target: string): Map<string, string> {
  const existing = new Map<string, string>();
  if (!existsSync(target)) return existing;
  for (const name of readdirSync(target).sort()) existing.set(name, readFileSync(join(target, name), 'utf8'));
  return existing;
}

/**
 * Undoes what a run killed in the middle of {@link writeAtomically} left behind: puts the old
 * version back when the kill landed between the two renames, and removes a partial `.next` and a
 * stale `.previous`. Runs at the start of every compile that may write, so leftovers never outlive
 * the next run, even when the output is already up to date. Throws {@link UnsafeOutputError} (and
 * touches nothing) when the output folder or one of those two holds anything the compiler did not write.
 *
 * @example
 * ```ts
 * recoverInterruptedWrite('generated');
 * ```
 */
export function recoverInterruptedWrite(outDir: string): void {
  recoverFolders(assertReplaceable(outDir));
}

function recoverFolders({ target, next, previous }: OutputFolders): void {
  if (!existsSync(target) && existsSync(previous)) renameSync(previous, target);
  rmSync(next, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
}

/**
 * Replaces `outDir` with `files` as a whole: the new version is written beside it, then swapped in
 * with renames, so a reader (or a crash) sees the old or the new version, never a mix. A swap left
 * half-done by a crash is completed by the next run. Throws {@link UnsafeOutputError} (and touches
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

/**
 * Compiles a definitions folder into typed TypeScript.
 *
 * @example
 * ```ts
 * const result = await compile({ definitionsDir: 'definitions', outDir: 'generated' });
 * if (!result.ok) process.exitCode = 1;
 * ```
 */
export async function compile(options: CompileOptions): Promise<CompileResult> {
  const output = inspectOutputFolder(options.outDir, options.definitionsDir);
  if (options.check !== true && output.problems.length === 0) recoverFolders(output);
  const result = compileModel(options.definitionsDir);
  if (!result.ok || output.problems.length > 0)
    return { ok: false, problems: [...output.problems, ...(result.ok ? [] : result.problems)], inputs: result.files };
  let files: EmittedFile[];
  try {
    files = await emitAll(result.model, {
      runtimeImport: options.runtimeImport ?? defaultRuntimeImport(options.outDir),
      definitionsLabel: basename(resolve(options.definitionsDir)),
    });
  } catch (error) {
    // An output that would outgrow its limit is a problem of the policy, reported like the others.
    if (!(error instanceof CompileLimitError)) throw error;
    return { ok: false, problems: [{ file: '.', path: [], code: error.code, message: error.message, fix: error.fix }], inputs: result.files };
  }
  const existing = readExisting(output.target);
  const stale = [
    ...files.filter((file) => existing.get(file.path) !== file.content).map((file) => file.path),
    ...[...existing.keys()].filter((name) => !files.some((file) => file.path === name)),
  ].sort();
  if (options.check === true || stale.length === 0) return { ok: true, model: result.model, files, written: false, stale, inputs: result.files };
  try {
    writeAtomically(options.outDir, files);
  } catch (error) {
    // Something foreign appeared in the folder since it was inspected: still refuse, with the same problem lines.
    if (error instanceof UnsafeOutputError) return { ok: false, problems: error.problems, inputs: result.files };
    throw error;
  }
  return { ok: true, model: result.model, files, written: true, stale, inputs: result.files };
}
