/**
 * typed-permissions-cli: compile a definitions folder into typed TypeScript, programmatically
 * (`compile`), or run the `typed-permissions` command line (`main`, `runMain`). How definition files
 * are read, how the output folder is guarded and replaced, and the emitters stay inside the package:
 * they are not part of its API.
 */
export { compile, type CompileOptions, type CompileResult } from './compile.js';
export type { CompiledModel } from './model/compile-model.js';
export type { HookMethod } from './model/hook-methods.js';
export type { EmittedFile } from './emit/emit-context.js';
export { formatCompileProblem, formatJsonPath, type CompileProblem, type ValuePath } from './problems/compile-problem.js';
export { main, runMain } from './commands/main.js';
export type { CommandOutput, ProgressStream } from './commands/command-line.js';
export type { CompilePhase } from './model/compile-phase.js';
export type { UnlistedProblems } from './problems/problem-cap.js';
// The runtime's types a compiled model holds (its tables, valid definitions and policy tests).
export type { GrantTables, PolicyTests, UserAttributeType, ValidDefinition } from 'typed-permissions/internal';
