/**
 * typed-permissions/precompiled — the engine for precompiled grant tables, what the code the compiler
 * generates imports: `permissionsFromTables` (and the `Permissions` facade), `Permit`, the errors and the
 * types an application writes. Nothing here loads zod.
 */
export { PrecompiledPermissions as Permissions, permissionsFromTables } from './precompiled-permissions.js';
export { Permit } from '../core/decision/permit.js';
export type { PermitReason } from '../core/decision/permit-reason.js';
export { loadDefinitionDescriptions, unpackGrantTables } from '../core/tables/packed-tables.js';
export { formatExplanation, type Explanation } from '../core/decision/explain.js';
export {
  PermissionDefinitionError,
  PermissionsError,
  PermissionsHookError,
  PermissionsInvalidIdError,
  PermissionsTenantRolesError,
  PermissionsUsageError,
  type DefinitionProblem,
  type PermissionsErrorCode,
} from '../core/common/errors.js';
export type { DecisionEvent } from '../core/decision-log/decision-event.js';
export type { GrantQuery } from '../core/decision/grant-query.js';
export type { PermissionsOptions } from './permissions-options.js';
export type { PermissionsLogger } from '../core/decision/engine-settings.js';
export type { PermissionSlice } from '../core/decision/permission-slice.js';
export type { ResourceIdType } from '../core/decision/resource-id.js';
export type { PermissionsSchema, TypedGrantQuery, TypedPermissionsOptions } from './schema-types.js';
export type { FollowedTenantRoles, TypedPermissions } from './precompiled-permissions.js';
export type { TenantRolesOptions } from './tenant-roles-options.js';
export type { GrantTables } from '../core/tables/grant-tables.js';
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
} from '../core/definition/definition-types.js';
// The interface of a source of the records behind ownership rules: what generated code names. The rules' other types
// are typed-permissions/ownership's; memoryOwnership is typed-permissions' (here it would weigh on every page).
export type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
