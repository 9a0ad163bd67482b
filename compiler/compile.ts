/**
 * The compiler: definitions folder in, generated TypeScript out. Nothing under the output folder
 * changes unless every definition is valid, and the output is replaced as a whole — only ever a
 * folder that holds nothing but generated files (see output/output-folder.ts and output/write-output.ts).
 */
import { basename, resolve } from 'node:path';
import { compileModel, type CompiledModel } from './model/compile-model.js';
import type { CompilePhase } from './model/compile-phase.js';

export type { CompilePhase } from './model/compile-phase.js';
import type { CompileProblem } from './problems/compile-problem.js';
import { NONE_UNLISTED, type UnlistedProblems } from './problems/problem-cap.js';
import { emitAll } from './emit/emit-all.js';
import { policyFileProblem } from './emit/emit-policy.js';
import type { EmittedFile } from './emit/emit-context.js';
import { inspectOutputFolder, UnsafeOutputError } from './output/output-folder.js';
import { defaultRuntimeImport } from './output/runtime-import.js';
import { readExisting, recoverFolders, writeAtomically } from './output/write-output.js';

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
   * Import specifier of the runtime in generated code; by default `typed-permissions/precompiled`,
   * or a relative path to its source inside the typed-permissions repository itself.
   */
  readonly runtimeImport?: string;
  /** Told as each phase starts, with its count (the command line shows it on a terminal). */
  readonly progress?: ((phase: CompilePhase) => void) | undefined;
}

/** The result of {@link compile}. */
export type CompileResult =
  | {
      readonly ok: true;
      readonly model: CompiledModel;
      /** Every output file, sorted by path. */
      readonly files: readonly EmittedFile[];
      /** Whether the output folder was replaced (never with `check`, nor when nothing changed). */
      readonly written: boolean;
      /** The output files that differ from the folder's (or are missing, or no longer generated), sorted. */
      readonly stale: readonly string[];
      /** The definition, metadata and policy test files read, relative to the definitions folder. */
      readonly inputs: readonly string[];
    }
  | {
      readonly ok: false;
      /** The problems listed (see {@link compileModel}), those of the output folder first. */
      readonly problems: readonly CompileProblem[];
      /** What was found, or not looked for, past the most problems a compile lists. */
      readonly unlisted: UnlistedProblems;
      readonly inputs: readonly string[];
    };

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
  const result = compileModel(options.definitionsDir, options.progress);
  if (!result.ok || output.problems.length > 0)
    return {
      ok: false,
      problems: [...output.problems, ...(result.ok ? [] : result.problems)],
      unlisted: result.ok ? NONE_UNLISTED : result.unlisted,
      inputs: result.files,
    };
  options.progress?.({ name: 'emitting', count: result.model.tables.cells.length });
  const files = await emitAll(result.model, {
    runtimeImport: options.runtimeImport ?? defaultRuntimeImport(options.outDir),
    definitionsLabel: basename(resolve(options.definitionsDir)),
  });
  // Checked before anything is written: a bundle no follower reads would otherwise be written, and published.
  const tooLarge = policyFileProblem(files.find((file) => file.path === 'policy.json') as EmittedFile);
  if (tooLarge !== undefined) return { ok: false, problems: [tooLarge], unlisted: NONE_UNLISTED, inputs: result.files };
  const existing = readExisting(output.target);
  const stale = [
    ...files.filter((file) => existing.get(file.path) !== file.content).map((file) => file.path),
    ...[...existing.keys()].filter((name) => !files.some((file) => file.path === name)),
  ].sort();
  if (options.check === true || stale.length === 0) return { ok: true, model: result.model, files, written: false, stale, inputs: result.files };
  try {
    options.progress?.({ name: 'writing', count: files.length });
    writeAtomically(options.outDir, files);
  } catch (error) {
    // Something foreign appeared in the folder since it was inspected: still refuse, with the same problem lines.
    if (error instanceof UnsafeOutputError) return { ok: false, problems: error.problems, unlisted: NONE_UNLISTED, inputs: result.files };
    throw error;
  }
  return { ok: true, model: result.model, files, written: true, stale, inputs: result.files };
}
