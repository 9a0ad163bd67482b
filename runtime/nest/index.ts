/**
 * typed-permissions/nest — the NestJS integration: `PermissionsModule`, `createPermissionsGuard`,
 * `@GetPermit()`, `@Permission()`, `@SkipPermissions()`, `PermissionsService`,
 * `typedPermissions<ResourceActions>()`, and `formatGraphQLError` for GraphQL servers (the guard and
 * `@GetPermit()` work on `@nestjs/graphql` resolvers too).
 */
export { GetPermit } from './get-permit-decorator.js';
export { formatGraphQLError, type FormattedGraphQLError } from './graphql/graphql-errors.js';
export { Permission, SkipPermissions, type PermissionOverride } from './permission-decorator.js';
export type { PermissionsGuardOptions } from './permissions-guard-options.js';
export type { PermissionsModuleOptions, ProjectResourceId } from './permissions-module-options.js';
export { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PERMIT_REQUEST_KEY } from './permissions-constants.js';
export { createPermissionsGuard } from './permissions-guard.js';
export { PermissionsModule } from './permissions-module.js';
export { PERMISSIONS_MODULE_OPTIONS } from './permissions-module-definition.js';
export { PermissionsService } from './permissions-service.js';
export {
  typedPermissions,
  type ActionDecorator,
  type ActionNameOf,
  type AnyActionNameOf,
  type ResourceNameOf,
  type TypedPermissionsDecorators,
  type TypedPermissionsGuardOptions,
} from './typed-decorators.js';
