/**
 * typed-permissions/precompiled — the engine for precompiled grant tables, what the code the compiler
 * generates imports: `permissionsFromTables` (and the `Permissions` facade), `Permit`, the errors and the
 * types an application writes. Nothing here loads zod.
 */
export { PermissionsEngine as Permissions, permissionsFromTables } from './engine/permissions-engine.js';
export { Permit } from './engine/permit.js';
export { formatExplanation, type Explanation } from './engine/explain.js';
export {
  PermissionDefinitionError,
  PermissionsError,
  PermissionsHookError,
  PermissionsInvalidIdError,
  PermissionsUsageError,
  type DefinitionProblem,
  type PermissionsErrorCode,
} from './errors.js';
export type { DecisionEvent } from './engine/decision-log.js';
export type { GrantQuery } from './engine/grant-query.js';
export type { PermissionsLogger, PermissionsOptions } from './engine/permissions-options.js';
export type { PermissionSlice } from './engine/permission-slice.js';
export type { ResourceIdType } from './engine/resource-id.js';
export type { PermissionsSchema, TypedGrantQuery, TypedPermissions, TypedPermissionsOptions } from './engine/typed-permissions.js';
export type { GrantTables } from './tables/grant-tables.js';
export type {
  Awaitable,
  IsOwnerHook,
  LimitOwnedHook,
  LimitOwnReducer,
  ListOwnedHook,
  OwnedAmongHook,
  PermissionDefinition,
  PermissionDefinitionJson,
  PermissionDefinitionNoOwnership,
  PermissionDefinitionWithOwnership,
  User,
} from './definition/definition-types.js';
