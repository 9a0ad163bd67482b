/**
 * typed-permissions/hono — the Hono integration: `createPermitMiddleware` for a `permit({ action })` in each route
 * (typed by the generated `createPermissions()`), the permit in the handler as `c.var.permit`,
 * `checkPermitRoutes(app)` before serving, and `permissionsErrorHandler()` for JSON errors. It loads no Node.js
 * module: it runs wherever Hono runs (Node.js, Deno, Bun, workers, a browser).
 */
export type {
  ErrorBody,
  ForbiddenReason,
  PermissionsErrorBody,
  PermissionsForbiddenBody,
  ProjectResourceId,
  ResourceIdParamSetting,
} from '../integration/index.js';
export { checkPermitRoutes } from './check-permit-routes.js';
export { permissionsErrorHandler, type PermissionsErrorHandlerOptions } from './error-handler.js';
export {
  createPermitMiddleware,
  type PermitEnv,
  type PermitMiddlewareOptions,
  type PermitRoute,
  type PermitRouteOptions,
  type TypedPermitRoute,
} from './permit-middleware.js';
