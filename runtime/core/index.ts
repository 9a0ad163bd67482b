/**
 * typed-permissions — the runtime core: `Permissions`, `Permit`, the definition types, schema and
 * errors, and the table builder that the compiler reuses.
 */
export { Permissions, type GrantQuery, type PermissionsLogger, type PermissionsOptions } from './permissions.js';
export { Permit } from './permit.js';
export type {
  Awaitable,
  Grant,
  IsOwnerHook,
  LimitOwnedHook,
  LimitOwnReducer,
  ListOwnedHook,
  OwnershipHooksExactlyOneOfListOwnedOrLimitOwned,
  PermissionDefinition,
  PermissionDefinitionBase,
  PermissionDefinitionExactlyOneOfLimitOwned,
  PermissionDefinitionExactlyOneOfListOwned,
  PermissionDefinitionJson,
  PermissionDefinitionNoOwnership,
  PermissionDefinitionWithOwnership,
  Possession,
  User,
} from './definition-types.js';
export { definitionSchema, validateDefinition, type HookForm, type SchemaProblem } from './definition-schema.js';
export { parseDefinitionsJson } from './definitions-file.js';
export {
  formatProblemLocation,
  PermissionDefinitionError,
  PermissionsError,
  PermissionsHookError,
  PermissionsUsageError,
  type DefinitionLocation,
  type DefinitionProblem,
  type DefinitionProblemCode,
  type PermissionsErrorCode,
} from './errors.js';
export { buildGrantTables, type HookValue, type LocatedDefinition, type TableBuildResult, type ValidDefinition } from './table-builder.js';
export type { DefinitionSummary, GrantCell, GrantTables, HookKind, HookRef, OwnerGroup } from './grant-tables.js';
export { compileAttributePatterns, pickWithPlan, planToPatterns, type AttributePlan, type AttributePlanJson } from './attribute-plan.js';
export { CRUD_ACTIONS, parseAttributePattern, parseGrantKey } from './grant-syntax.js';
export {
  createTypedPermissions,
  type PermissionsSchema,
  type SchemaAction,
  type SchemaResource,
  type SchemaResourceId,
  type TypedGrantQuery,
  type TypedPermissions,
  type TypedPermissionsOptions,
} from './typed-permissions.js';
export { explainGrant, formatExplanation, type ExplainedDefinition, type ExplainedOwnership, type ExplainedRole, type Explanation } from './explain.js';
