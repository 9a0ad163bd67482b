/**
 * typed-permissions/express — the express integration: `initPermissions` at boot,
 * `createPermitMiddleware` for a `permit({ action })` in each route, and
 * `createPermissionsMiddleware` for a grant query an earlier step put on the request.
 */
export type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
export type { PermissionsErrorBody, PermissionsForbiddenBody } from './grant-answer.js';
export { initPermissions } from './init-permissions.js';
export { createPermitMiddleware, type PermitMiddlewareOptions, type PermitRoute, type PermitRouteOptions } from './permit-middleware.js';
export { createPermissionsMiddleware, type PermissionsMiddlewareOptions, type RequestWithPermit } from './permissions.middleware.js';
