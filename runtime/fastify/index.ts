/**
 * typed-permissions/fastify — the Fastify integration: `createPermitHook` for a `permit({ action })` hook in each
 * route's options (typed by the generated `createPermissions()`), the `fastifyPermissions` plugin that binds
 * those hooks to their routes and refuses to start with an ambiguous one, and `permitOf(request)` in the handler.
 */
export type {
  ErrorBody,
  ForbiddenReason,
  PermissionsErrorBody,
  PermissionsForbiddenBody,
  ProjectResourceId,
  ResourceIdParamSetting,
} from '../integration/index.js';
export { createPermitHook, type PermitHook, type PermitHookOptions, type PermitRoute, type PermitRouteOptions, type TypedPermitRoute } from './permit-hook.js';
export { fastifyPermissions } from './permissions-plugin.js';
export { permitOf, type RequestWithPermit } from './permit-of.js';
