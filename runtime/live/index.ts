/**
 * typed-permissions/live — sources of live policies for `permissions.follow(source)`: a file
 * (`filePolicySource`), a PostgreSQL store (`postgresPolicySource`, what `typed-permissions policy publish`
 * writes) and a URL (`httpPolicySource`); tenants' custom roles from a PostgreSQL store (`postgresTenantRoles`) or a
 * folder (`fileTenantRoles`), and their admin for an application's own screens (`postgresTenantRolesAdmin`,
 * `fileTenantRolesAdmin`, what `typed-permissions tenant` runs).
 */
export { filePolicySource, type FilePolicySourceOptions } from './file-policy-source.js';
export { httpPolicySource, type HttpPolicySourceOptions } from './http-policy-source.js';
export { postgresPolicySource, type PostgresPolicySourceOptions } from './postgres-policy-source.js';
export type {
  FollowerCapabilities,
  FollowerRegistration,
  FollowerRejection,
  FollowerStatus,
  PolicySource,
  RegisteredVocabulary,
  SourcedPolicy,
} from './policy-source.js';
export type { FollowOptions, LivePolicy, PolicyChange, PolicyRejection } from './policy-follower.js';
export type { PolicyBundle } from './policy-bundle.js';
export { fileTenantRoles, type FileTenantRolesOptions } from './file-tenant-roles.js';
export { postgresTenantRoles, type PostgresTenantRolesOptions } from './postgres-tenant-roles.js';
export {
  fileTenantRolesAdmin,
  postgresTenantRolesAdmin,
  type FileTenantRolesAdminOptions,
  type PostgresTenantRolesAdminOptions,
  type TenantRolesAdmin,
  type TenantRolesAdminPublishOptions,
  type TenantRolesBase,
} from './tenant-roles-admin.js';
export {
  MAX_TENANT_ROLES_BYTES,
  type TenantRolesDetail,
  type TenantRolesPage,
  type TenantRolesPageOptions,
  type TenantRolesPublishOptions,
  type TenantRolesSummary,
  type TenantRolesVersionEntry,
} from './tenant-roles-document.js';
export type { TenantRolesSource, TenantRolesVersion } from './tenant-roles-source.js';
