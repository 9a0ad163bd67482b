/**
 * typed-permissions/precompiled — the engine for precompiled grant tables: what the code the
 * compiler generates imports. `Permissions.fromTables`, `grantPermit`, `Permit` (pick, filterPick,
 * ownership), the types and errors — and nothing that only building definitions needs (no zod, no
 * table builder), so loading the tables and deciding stay small and fast to start.
 */
export { Permissions, type GrantQuery, type PermissionsLogger, type PermissionsOptions } from './permissions.js';
export { Permit } from './permit.js';
export type { PermissionSlice, SliceAction, SliceResource } from './permission-slice.js';
export type {
  Awaitable,
  Grant,
  IsOwnerHook,
  LimitOwnedHook,
  LimitOwnReducer,
  ListOwnedHook,
  OwnedAmongHook,
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
export {
  formatProblemLocation,
  PermissionDefinitionError,
  PermissionsError,
  PermissionsHookError,
  PermissionsInvalidIdError,
  PermissionsUsageError,
  type DefinitionLocation,
  type DefinitionProblem,
  type DefinitionProblemCode,
  type PermissionsErrorCode,
} from './errors.js';
export type { DefinitionSummary, GrantCell, GrantTables, HookKind, HookRef, OwnerGroup } from './grant-tables.js';
export type { AttributePlan } from './attribute-plan.js';
export { pickWithPlan } from './attribute-picker.js';
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
export { printableText } from './printable-text.js';
export { MAX_STRING_ID_LENGTH, type ProjectResourceId, type ResourceIdType } from './resource-id.js';
