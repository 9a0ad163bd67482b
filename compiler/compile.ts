/**
 * The compiler: definitions folder in, generated TypeScript out. Nothing under the output folder
 * changes unless every definition is valid, and the output is replaced as a whole.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { CompileProblem } from './compile-problem.js';
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
  /** The output folder (replaced as a whole). */
  readonly outDir: string;
  /** Compare instead of writing: report the files that would change. */
  readonly check?: boolean;
  /** Import specifier of the runtime core in generated code; by default `typed-permissions`, or a relative path inside the typed-permissions repository itself. */
  readonly runtimeImport?: string;
}

/** The result of {@link compile}. */
export type CompileResult =
  | { readonly ok: true; readonly model: CompiledModel; readonly files: readonly EmittedFile[]; readonly written: boolean; readonly stale: readonly string[]; readonly inputs: readonly string[] }
  | { readonly ok: false; readonly problems: readonly CompileProblem[]; readonly inputs: readonly string[] };

function findPackageRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Inside this repository the generated code imports the runtime by relative path (the package is not built there); elsewhere by its package name. */
export function defaultRuntimeImport(outDir: string): string {
  const root = findPackageRoot(outDir);
  if (root === undefined) return 'typed-permissions';
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string };
    if (pkg.name !== 'typed-permissions' || !existsSync(join(root, 'runtime', 'core', 'index.ts'))) return 'typed-permissions';
  } catch {
    return 'typed-permissions';
  }
  const path = relative(resolve(outDir), join(root, 'runtime', 'core', 'index.js')).split(sep).join('/');
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
  const index = await emitIndex(context, modules.map((file) => file.path));
  const docs = [emitMatrix(context), ...(await emitJsonSchemas(context))];
  return [...modules, index, ...docs].sort((a, b) => (a.path < b.path ? -1 : 1));
}

function readExisting(outDir: string): Map<string, string> {
  const existing = new Map<string, string>();
  if (!existsSync(outDir)) return existing;
  for (const name of readdirSync(outDir).sort()) existing.set(name, readFileSync(join(outDir, name), 'utf8'));
  return existing;
}

function swapFolders(outDir: string): { target: string; next: string; previous: string } {
  const target = resolve(outDir);
  const parent = dirname(target);
  return { target, next: join(parent, `.${basename(target)}.next`), previous: join(parent, `.${basename(target)}.previous`) };
}

/**
 * Undoes what a run killed in the middle of {@link writeAtomically} left behind: puts the old
 * version back when the kill landed between the two renames, and removes a partial `.next` and a
 * stale `.previous`. Runs at the start of every compile that may write, so leftovers never outlive
 * the next run, even when the output is already up to date.
 */
export function recoverInterruptedWrite(outDir: string): void {
  const { target, next, previous } = swapFolders(outDir);
  if (!existsSync(target) && existsSync(previous)) renameSync(previous, target);
  rmSync(next, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
}

/**
 * Replaces `outDir` with `files` as a whole: the new version is written beside it, then swapped in
 * with renames, so a reader (or a crash) sees the old or the new version, never a mix. A swap left
 * half-done by a crash is completed by the next run.
 */
export function writeAtomically(outDir: string, files: readonly EmittedFile[]): void {
  const { target, next, previous } = swapFolders(outDir);
  recoverInterruptedWrite(outDir);
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
  if (options.check !== true) recoverInterruptedWrite(options.outDir);
  const result = compileModel(options.definitionsDir);
  if (!result.ok) return { ok: false, problems: result.problems, inputs: result.files };
  const files = await emitAll(result.model, {
    runtimeImport: options.runtimeImport ?? defaultRuntimeImport(options.outDir),
    definitionsLabel: basename(resolve(options.definitionsDir)),
  });
  const existing = readExisting(options.outDir);
  const stale = [
    ...files.filter((file) => existing.get(file.path) !== file.content).map((file) => file.path),
    ...[...existing.keys()].filter((name) => !files.some((file) => file.path === name)),
  ].sort();
  if (options.check === true || stale.length === 0) return { ok: true, model: result.model, files, written: false, stale, inputs: result.files };
  writeAtomically(options.outDir, files);
  return { ok: true, model: result.model, files, written: true, stale, inputs: result.files };
}
