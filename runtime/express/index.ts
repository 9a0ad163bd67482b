/**
 * typed-permissions/express — the express integration: `initPermissions` at boot,
 * `createPermitMiddleware` for a `permit({ action })` in each route (typed by the generated
 * `createPermissions()`), `permitOf(req)` in the handler, `checkPermitRoutes(app)` before listening,
 * `permissionsErrorHandler()` for JSON errors, and `createPermissionsMiddleware` for a grant query an
 * earlier step put on the request.
 */
export type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
export type { ErrorBody, ForbiddenReason, PermissionsErrorBody, PermissionsForbiddenBody, ProjectResourceId } from '../integration/index.js';
export { checkPermitRoutes } from './check-permit-routes.js';
export { permissionsErrorHandler, type PermissionsErrorHandlerOptions } from './error-handler.js';
export { initPermissions } from './init-permissions.js';
export { createPermitMiddleware, type PermitMiddlewareOptions, type PermitRoute, type PermitRouteOptions, type TypedPermitRoute } from './permit-middleware.js';
export { permitOf } from './permit-of.js';
export { createPermissionsMiddleware, type PermissionsMiddlewareOptions, type RequestWithPermit } from './permissions-middleware.js';
