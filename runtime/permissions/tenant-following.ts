/**
 * What deciding in tenants loads when a question first names a tenant, in one chunk: the tenants' snapshots,
 * checking the options of following custom roles, and their builder (the table builder, the definitions' zod
 * schema). A page that never names a tenant does not carry any of it.
 */
export { TenantSnapshots } from './tenant-snapshots.js';
export { checkTenantRolesOptions } from './tenant-roles-options.js';
export { buildTenantRoles } from '../core/table-building/tenant-roles.js';
