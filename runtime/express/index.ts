/**
 * typed-permissions/express — the generic express integration: `initPermissions` at boot,
 * `createPermissionsMiddleware` per route.
 */
export { initPermissions } from './init-permissions.js';
export {
  createPermissionsMiddleware,
  type PermissionsForbiddenBody,
  type PermissionsMiddlewareOptions,
  type RequestWithPermit,
} from './permissions.middleware.js';
