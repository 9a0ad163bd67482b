/**
 * typed-permissions — the engine (`Permissions`, `Permit`) and both ways in: `permissionsFromDefinitions`
 * (definitions validated and built at run time, with zod, an optional peer loaded only then) and
 * `permissionsFromTables` (tables compiled ahead of time). Importing it has no side effect and loads no zod.
 */
export * from './precompiled.js';
// The full engine: the precompiled one (which `export *` brings as Permissions) plus build(); this export wins.
export { Permissions, permissionsFromDefinitions } from './permissions.js';
export { parseDefinitionsJson } from '../core/definition/definitions-file.js';
// The source of the records behind ownership rules when they are held in memory.
export { memoryOwnership } from '../core/ownership-rules/memory-ownership.js';
