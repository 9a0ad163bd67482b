/** typed-permissions/compiler: compile definition files into typed TypeScript, programmatically. */
export { compile, defaultRuntimeImport, emitAll, recoverInterruptedWrite, writeAtomically, type CompileOptions, type CompileResult } from './compile.js';
export { compileModel, type CompiledModel, type CompileModelResult, type HookMethod } from './compile-model.js';
export { CompileLimitError } from './compile-limit-error.js';
export { formatCompileProblem, formatJsonPath, type CompileProblem } from './compile-problem.js';
export { inspectOutputFolder, UnsafeOutputError, type OutputFolders } from './output-folder.js';
export { readDefinitionsFolder, type ReadDefinition, type ReadResult, type ResourceMetadata } from './read-definitions.js';
export { main, runMain } from './cli.js';
