/**
 * What a permissions guard checks for one handler, worked out once per handler (at start for every
 * handler a permissions guard protects) so that a request only looks the answer up.
 */
import { resolveResourceIdParam, type ResolvedResourceIdParam, type ResourceIdParamProblem } from '../core/resource-id-param.js';
import type { PermissionDefinition } from '../core/index.js';
import { routePathParams } from '../http/route-path-params.js';
import type { NestClass, RouteHandler } from './nest-targets.js';
import { isPermissionsSkipped, readPermissionOverride } from './permission.decorator.js';
import type { PermissionsGuardOptions } from './permissions-guard-options.interface.js';
import type { ProjectResourceId } from './permissions-module-options.interface.js';

/** @internal What `createPermissionsGuard()` was called with, kept per guard class. */
export interface PermissionsGuardConfig {
  readonly options: PermissionsGuardOptions;
  readonly definitions: readonly PermissionDefinition[];
}

/** @internal The resolved check of one handler. */
export interface PermissionsRoute {
  /** `Controller.method`, for messages. */
  readonly label: string;
  /** The full paths the handler is served at, as the router registers them (for messages). */
  readonly paths: readonly string[];
  /** `@SkipPermissions()`: no check, no permit. */
  readonly skip: boolean;
  readonly resource: string;
  readonly action: string;
  /** Where the resource id comes from; a problem makes the application refuse to start. */
  readonly resourceId: ResolvedResourceIdParam | ResourceIdParamProblem;
  /** Every parameter the paths declare: a request carrying another one was not understood at start, and is refused. */
  readonly declaredParams: ReadonlySet<string>;
  readonly projectResourceId: ProjectResourceId | undefined;
}

const guardConfigs = new WeakMap<object, PermissionsGuardConfig>();

/** @internal Records the configuration of a guard class made by `createPermissionsGuard()`. */
export function registerPermissionsGuard(guard: NestClass, config: PermissionsGuardConfig): void {
  guardConfigs.set(guard, config);
}

/** @internal The configuration of a permissions guard (given its class or an instance), else undefined. */
export function permissionsGuardConfigOf(guard: unknown): PermissionsGuardConfig | undefined {
  if (typeof guard === 'function') return guardConfigs.get(guard);
  if (typeof guard === 'object' && guard !== null) return guardConfigs.get(guard.constructor);
  return undefined;
}

/** The name under which `handler` is a method of `controller` (or its base classes). */
function methodNameOf(controller: NestClass, handler: RouteHandler): string {
  for (
    let proto: object | null = controller.prototype as object | null;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key !== 'constructor' && Object.getOwnPropertyDescriptor(proto, key)?.value === handler) return key;
    }
  }
  return handler.name;
}

/**
 * @internal Works out what `config`'s guard checks for `handler` of `controller`, served at `paths`
 * (full paths: global prefix, module path, controller path and method path).
 */
export function resolvePermissionsRoute(
  config: PermissionsGuardConfig,
  controller: NestClass,
  handler: RouteHandler,
  paths: readonly string[],
  moduleProjection: ProjectResourceId | undefined,
): PermissionsRoute {
  const methodName = methodNameOf(controller, handler);
  const override = readPermissionOverride(handler);
  const variants = paths.map(routePathParams);
  const fromHandler = override?.resourceIdParam !== undefined;
  const setting = fromHandler ? override?.resourceIdParam : config.options.resourceIdParam;
  return {
    label: `${controller.name}.${methodName}`,
    paths,
    skip: isPermissionsSkipped(handler),
    resource: override?.resource ?? config.options.resource,
    action: override?.action ?? methodName,
    resourceId: resolveResourceIdParam(variants, setting, fromHandler ? 'handler' : setting === undefined ? 'default' : 'guard'),
    declaredParams: new Set(variants.flat().map((param) => param.name)),
    projectResourceId: config.options.projectResourceId ?? moduleProjection,
  };
}
