/**
 * The checks an integration's `permit` factory makes when the application starts: the factory's options (the
 * engine, `getUser`, the default resource, `projectResourceId`) and each route's `permit({ action, resource?,
 * resourceIdParam? })`. Written once, with the shape checker, so that every integration refuses the same mistakes
 * in the same words — naming its own factory and what its `getUser` is given.
 */
import type { Permissions, User } from '../permissions/index.js';
import type { PermissionsSchema } from '../permissions/schema-types.js';
import type { TypedPermissions } from '../permissions/precompiled-permissions.js';
import type { ProjectResourceId } from '../core/decision/resource-id.js';
import { describeValue } from '../core/common/describe-value.js';
import { functionOption } from '../core/shape/option-shapes.js';
import { text, usageChecked, valid } from '../core/shape/shape-check.js';
import { permissionsEngineOf } from './decide-request.js';
import type { ResourceIdParamSetting } from './resource-id-param.js';

/**
 * The integration's function whose options are checked, as its messages name it.
 *
 * @example
 * ```ts
 * const factory: IntegrationFactory = { name: 'createPermitHook', receives: 'request', extraOptions: ['onServerError?'] };
 * ```
 */
export interface IntegrationFactory {
  /** Its name, which every message starts with: `'createPermitHook'`. */
  readonly name: string;
  /** What it hands the application's callbacks (`getUser`, `onServerError`), as messages write it: `'req'`, `'c'`, `'request'`. */
  readonly receives: string;
  /**
   * Its options beyond `permissions`, `getUser`, `getTenant`, `resource` and `projectResourceId`, listed in the message for
   * options that are no object; optional ones end in `?`.
   */
  readonly extraOptions?: readonly string[] | undefined;
}

/**
 * The options every `permit` factory takes: the engine, who the caller is, the default resource and how a path
 * parameter becomes the resource's id. An integration's options extend them (and document `getUser` for its
 * framework: where what it throws goes).
 *
 * @example
 * ```ts
 * // getUser is given Koa's context; what it throws goes to Koa's error handling.
 * interface KoaPermitOptions<TUser extends User<unknown>> extends PermitOptions<TUser, any, string, KoaContext> {
 *   readonly getUser: (ctx: KoaContext) => TUser | Promise<TUser>;
 * }
 * ```
 */
export interface PermitOptions<TUser extends User<unknown> = User<unknown>, TFilter = any, TResource extends string = string, TRequest = unknown> {
  /**
   * The engine: what the generated `createPermissions()` returns (then every route's resource and action are
   * checked at compile time), or a built `Permissions`.
   */
  readonly permissions: Permissions<TUser, TFilter> | TypedPermissions<PermissionsSchema, TUser, TFilter>;
  /**
   * The user of a request (id and roles), from where the application's authentication left it. May be async.
   * Requests without a real user should get a placeholder user carrying a role of its own.
   */
  readonly getUser: (request: TRequest) => TUser | Promise<TUser>;
  /**
   * The tenant a request is asked in (from a header, a subdomain, the session), or `undefined` for a question in
   * no tenant. May be async. `getUser`'s roles are then the roles the user holds in that tenant. A string that is
   * no tenant id answers 400 and the request is never checked; what it throws is a server error (500).
   */
  readonly getTenant?: ((request: TRequest) => string | undefined | Promise<string | undefined>) | undefined;
  /** The resource of the routes, unless a route names its own. */
  readonly resource?: TResource | undefined;
  /**
   * Turns the id path parameter (text) into the resource's id; `undefined` or `null` answers 400 and the request
   * is never checked. Default: the resource's declared id type projects it (`'10'` → `10` where ids are numbers;
   * `'01'` or `'abc'` answers 400), and a resource without one keeps the text.
   */
  readonly projectResourceId?: ProjectResourceId | undefined;
}

/**
 * A factory's options once checked: the engine itself (unwrapped from what `createPermissions()` returns), and
 * the rest as given. The default resource is checked per route, where a route without one of its own needs it.
 *
 * @example
 * ```ts
 * const checked: CheckedPermitOptions<AppUser, unknown, Request> = checkPermitOptions(options, factory);
 * const { permissions, getUser, getTenant, resource, projectResourceId } = checked;
 * ```
 */
export interface CheckedPermitOptions<TUser extends User<unknown> = User<unknown>, TFilter = any, TRequest = unknown> {
  readonly permissions: Permissions<TUser, TFilter>;
  readonly getUser: (request: TRequest) => TUser | Promise<TUser>;
  readonly getTenant: ((request: TRequest) => string | undefined | Promise<string | undefined>) | undefined;
  readonly resource: unknown;
  readonly projectResourceId: ProjectResourceId | undefined;
}

/**
 * Checks a `permit` factory's options when the application starts, one mistake at a time in this order: options
 * that are no object, an engine that is not one or not built, a `getUser` that is no function, a
 * `getTenant` or `projectResourceId` that is neither a function nor undefined. Throws a `PermissionsUsageError` naming the
 * factory (`createPermitHook(): options.getUser must be a function (request) => user.`); returns the engine and
 * the options.
 *
 * @example
 * ```ts
 * export function createKoaPermit<TUser extends User<unknown>>(options: PermitOptions<TUser, any, string, KoaContext>) {
 *   const { permissions, getUser, resource, projectResourceId } = checkPermitOptions(options, { name: 'createKoaPermit', receives: 'ctx' });
 *   return (route: unknown) => checkPermitRoute(route, resource, 'createKoaPermit');
 * }
 * ```
 */
export function checkPermitOptions<TUser extends User<unknown>, TFilter, TRequest>(
  options: PermitOptions<TUser, TFilter, string, TRequest>,
  factory: IntegrationFactory,
): CheckedPermitOptions<TUser, TFilter, TRequest> {
  const listed = ['permissions', 'getUser', 'getTenant?', 'resource?', 'projectResourceId?', ...(factory.extraOptions ?? [])].join(', ');
  usageChecked(
    // An array passes here, as it always has: its missing engine is the first thing refused.
    valid((value) => typeof value === 'object' && value !== null, `${factory.name}(options): options must be an object { ${listed} }.`),
    options,
  );
  const permissions = permissionsEngineOf(options.permissions, `${factory.name}()`);
  const getUser = usageChecked(
    valid<PermitOptions<TUser, TFilter, string, TRequest>['getUser']>(
      (value) => typeof value === 'function',
      `${factory.name}(): options.getUser must be a function (${factory.receives}) => user.`,
    ),
    options.getUser,
  );
  const getTenant = usageChecked(
    functionOption(`${factory.name}(): options.getTenant must be a function (${factory.receives}) => tenant id | undefined.`),
    options.getTenant,
  ) as CheckedPermitOptions<TUser, TFilter, TRequest>['getTenant'];
  const projectResourceId = usageChecked(
    functionOption(`${factory.name}(): options.projectResourceId must be a function (raw, { resource }) => id | undefined.`),
    options.projectResourceId,
  ) as ProjectResourceId | undefined;
  return { permissions, getUser, getTenant, resource: options.resource, projectResourceId };
}

/**
 * The argument of `permit(route)`: what one route checks. The integration's typed `permit` narrows `TResource` to
 * the schema's resources and `TAction` to the actions of the route's resource.
 *
 * @example
 * ```ts
 * const nested: PermitRouteOptions = { action: 'delete', resourceIdParam: 'docId' }; // DELETE /users/:id/documents/:docId
 * ```
 */
export interface PermitRouteOptions<TResource extends string = string, TAction extends string = string> {
  readonly action: TAction;
  /** The resource, when not the factory's. */
  readonly resource?: TResource | undefined;
  /**
   * The path parameter holding the record id. Default: `id` when it is the last parameter of the route's own
   * path. `null`: the route acts on no single record although its path has parameters.
   */
  readonly resourceIdParam?: ResourceIdParamSetting;
}

/**
 * A route's `permit(route)` once checked: the action, the resource (the route's own, else the factory's) and where
 * its record id comes from (`undefined`: the default, `id` as the path's last parameter; `null`: none).
 *
 * @example
 * ```ts
 * const read: CheckedPermitRoute = { action: 'read', resource: 'document', resourceIdParam: undefined };
 * ```
 */
export interface CheckedPermitRoute {
  readonly action: string;
  readonly resource: string;
  readonly resourceIdParam: ResourceIdParamSetting;
}

/** A value as the messages about a route have always written it: as JSON, or described when it has none (a BigInt, a cycle). */
function asJson(value: unknown): string {
  try {
    return String(JSON.stringify(value));
  } catch {
    return describeValue(value);
  }
}

/**
 * Checks the argument of `permit(route)` when the route is declared, and resolves it: a non-empty `action`; the
 * route's `resource`, else `defaultResource` (the factory's option), which must be a non-empty string; a
 * `resourceIdParam` that is a parameter name, `null` or absent. Throws a `PermissionsUsageError` that says what
 * to pass where (`permit({ action: "read" }): no resource; pass resource here or to createPermitHook.`).
 *
 * @example
 * ```ts
 * checkPermitRoute({ action: 'read' }, 'document', 'createPermitHook'); // { action: 'read', resource: 'document', resourceIdParam: undefined }
 * checkPermitRoute({ action: 'read', resourceIdParam: 'docId' }, undefined, 'createPermitHook');
 * // throws: permit({ action: "read" }): no resource; pass resource here or to createPermitHook.
 * ```
 */
export function checkPermitRoute(route: unknown, defaultResource: unknown, factory: string): CheckedPermitRoute {
  const given = usageChecked(
    valid<{ readonly action: string; readonly resource?: unknown; readonly resourceIdParam?: unknown }>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { action?: unknown }).action === 'string' &&
        (value as { action: string }).action !== '',
      'permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.',
    ),
    route,
  );
  const { action } = given;
  const resource = usageChecked(
    text({ min: 1 }, `permit({ action: ${JSON.stringify(action)} }): no resource; pass resource here or to ${factory}.`),
    given.resource ?? defaultResource,
  );
  const resourceIdParam = usageChecked(
    valid<ResourceIdParamSetting>(
      (value) => value === undefined || value === null || (typeof value === 'string' && value !== ''),
      (value) => `permit(): resourceIdParam must be a parameter name or null, got ${asJson(value)}.`,
    ),
    given.resourceIdParam,
  );
  return { action, resource, resourceIdParam };
}
