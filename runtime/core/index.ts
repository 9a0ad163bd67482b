/**
 * typed-permissions — the runtime core: `Permissions` (with `addPermissions` and `build`), `Permit`,
 * the definition types, schema and errors, and the table builder that the compiler reuses. Loading
 * this entry lets `build()` validate definitions (with zod); `typed-permissions/precompiled` is the
 * same engine without that, for precompiled tables.
 */
import { validateDefinition } from './definition-schema.js';
import { provideDefinitionsBuilder } from './permissions.js';
import { buildGrantTables } from './table-builder.js';

provideDefinitionsBuilder({ validate: (definition) => validateDefinition(definition, 'functions-or-names'), buildTables: buildGrantTables });

export * from './precompiled.js';
export { definitionSchema, validateDefinition, type HookForm, type SchemaProblem } from './definition-schema.js';
export { parseDefinitionsJson } from './definitions-file.js';
export { buildGrantTables, type HookValue, type LocatedDefinition, type TableBuildResult, type ValidDefinition } from './table-builder.js';
export { compileAttributePatterns, planToPatterns, type AttributePlanJson } from './attribute-plan.js';
export { CRUD_ACTIONS, parseAttributePattern, parseGrantKey } from './grant-syntax.js';
