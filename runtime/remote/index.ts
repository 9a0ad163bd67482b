/**
 * typed-permissions/remote — permissions decided by a shared decision service (`npx typed-permissions serve`),
 * with the embedded engine's typed `grantPermit` → Permit API and ownership answered in the application.
 */
export { createRemotePermissions, RemotePermissions } from './remote-permissions.js';
export type { RemotePermissionsOptions } from './remote-options.js';
export { PermissionsServiceError } from './service-error.js';
export type { Permit } from '../core/decision/permit.js';
