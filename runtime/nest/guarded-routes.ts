/**
 * What a permissions guard checks for one handler, worked out once per handler (at start for every
 * handler a permissions guard protects) so that a request only looks the answer up.
 */
import {
  type DeclaredParam,
  type ResolvedResourceIdParam,
  resolveResourceIdParam,
  type ResourceIdParamProblem,
  routePathParams,
} from '../integration/index.js';
import type { PermissionDefinition } from '../permissions/index.js';
import { classMethodsOf } from './class-methods.js';
import type { NestClass, RouteHandler } from './nest-targets.js';
import { isPermissionsSkipped, readPermissionOverride } from './permission-decorator.js';
import type { PermissionsGuardOptions } from './permissions-guard-options.js';
import type { ProjectResourceId } from './permissions-module-options.js';

/** @internal What `createPermissionsGuard()` was called with, kept per guard class. */
export interface PermissionsGuardConfig {
  readonly options: PermissionsGuardOptions;
  readonly definitions: readonly PermissionDefinition[];
}

/** @internal The resolved check of one handler. */
export interface PermissionsRoute {
  /** `Controller.method`, for messages. */
  readonly label: string;
  /** The full paths the handler is served at, as the router registers them, or its GraphQL field (`Query.document`), for messages. */
  readonly paths: readonly string[];
  /** `@SkipPermissions()`: no check, no permit. */
  readonly skip: boolean;
  readonly resource: string;
  readonly action: string;
  /** Where the resource id comes from; a problem makes the application refuse to start. */
  readonly resourceId: ResolvedResourceIdParam | ResourceIdParamProblem;
  /** Every parameter the paths (or the field's arguments) declare: a request carrying another path parameter was not understood at start, and is refused. */
  readonly declaredParams: ReadonlySet<string>;
  readonly projectResourceId: ProjectResourceId | undefined;
}

const guardConfigs = new WeakMap<object, PermissionsGuardConfig>();

/**
 * @internal Records the configuration of a guard class made by `createPermissionsGuard()`.
 *
 * @example
 * ```ts
 * registerPermissionsGuard(PermissionsGuard, { options: { resource: 'document' }, definitions });
 * ```
 */
export function registerPermissionsGuard(guard: NestClass, config: PermissionsGuardConfig): void {
  guardConfigs.set(guard, config);
}

/**
 * @internal The configuration of a permissions guard (given its class or an instance), else undefined.
 *
 * @example
 * ```ts
 * permissionsGuardConfigOf(createPermissionsGuard({ resource: 'document' })); // { options: { resource: 'document', … }, definitions: [] }
 * permissionsGuardConfigOf(AuthGuard); // undefined
 * ```
 */
export function permissionsGuardConfigOf(guard: unknown): PermissionsGuardConfig | undefined {
  // A class extending a permissions guard (to add a decorator or a constructor of its own) checks what its base does.
  let type: unknown = typeof guard === 'object' && guard !== null ? guard.constructor : guard;
  while (typeof type === 'function') {
    const config = guardConfigs.get(type);
    if (config !== undefined) return config;
    type = Object.getPrototypeOf(type);
  }
  return undefined;
}

/**
 * The name under which `handler` is a method of `controller` (or of a base class), as Nest routes it; a
 * function that is no such method keeps its own name.
 */
function methodNameOf(controller: NestClass, handler: RouteHandler): string {
  return classMethodsOf(controller).find((method) => method.handler === handler)?.methodName ?? handler.name;
}

/** What a guard checks for a handler before its record id is known: the same for routes and resolvers. */
function resolveBasics(config: PermissionsGuardConfig, owner: NestClass, handler: RouteHandler, moduleProjection: ProjectResourceId | undefined) {
  const methodName = methodNameOf(owner, handler);
  const override = readPermissionOverride(handler);
  const fromHandler = override?.resourceIdParam !== undefined;
  const setting = fromHandler ? override?.resourceIdParam : config.options.resourceIdParam;
  return {
    label: `${owner.name}.${methodName}`,
    methodName,
    skip: isPermissionsSkipped(handler),
    resource: override?.resource ?? config.options.resource,
    action: override?.action ?? methodName,
    setting,
    settingFrom: fromHandler ? ('handler' as const) : setting === undefined ? ('default' as const) : ('guard' as const),
    projectResourceId: config.options.projectResourceId ?? moduleProjection,
  };
}

/**
 * @internal Works out what `config`'s guard checks for `handler` of `controller`, served at `paths`
 * (full paths: global prefix, module path, controller path and method path).
 *
 * @example
 * ```ts
 * resolvePermissionsRoute(config, DocumentsController, DocumentsController.prototype.read, ['/documents/:id'], Number);
 * // { label: 'DocumentsController.read', resource: 'document', action: 'read', resourceId: { kind: 'param', name: 'id', optional: false }, … }
 * ```
 */
export function resolvePermissionsRoute(
  config: PermissionsGuardConfig,
  controller: NestClass,
  handler: RouteHandler,
  paths: readonly string[],
  moduleProjection: ProjectResourceId | undefined,
): PermissionsRoute {
  const { label, skip, resource, action, setting, settingFrom, projectResourceId } = resolveBasics(config, controller, handler, moduleProjection);
  const variants = paths.map(routePathParams);
  return {
    label,
    paths,
    skip,
    resource,
    action,
    resourceId: resolveResourceIdParam(variants, setting, settingFrom),
    declaredParams: new Set(variants.flat().map((param) => param.name)),
    projectResourceId,
  };
}

/**
 * @internal Works out what `config`'s guard checks for the GraphQL resolver `handler` of `resolver`,
 * which resolves `field` (`Query.document`) with the arguments `args` (as the schema declares them; input
 * objects' fields flattened to dotted names such as `input.id`). The default id is an argument named `id`
 * anywhere: arguments are named, not nested like path segments.
 *
 * @example
 * ```ts
 * const args = [{ name: 'id', optional: false, wildcard: false }];
 * resolvePermissionsResolverRoute(config, DocumentsResolver, DocumentsResolver.prototype.document, 'Query.document', args, Number);
 * // { label: 'DocumentsResolver.document', paths: ['Query.document'], action: 'document', resourceId: { kind: 'param', name: 'id', optional: false }, … }
 * ```
 */
export function resolvePermissionsResolverRoute(
  config: PermissionsGuardConfig,
  resolver: NestClass,
  handler: RouteHandler,
  field: string,
  args: readonly DeclaredParam[],
  moduleProjection: ProjectResourceId | undefined,
): PermissionsRoute {
  const { label, skip, resource, action, setting, settingFrom, projectResourceId } = resolveBasics(config, resolver, handler, moduleProjection);
  return {
    label,
    paths: [field],
    skip,
    resource,
    action,
    resourceId: resolveResourceIdParam([args], setting, settingFrom, 'any'),
    declaredParams: new Set(args.map((arg) => arg.name)),
    projectResourceId,
  };
}
