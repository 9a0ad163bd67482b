/**
 * What a permissions guard checks for one handler, worked out once per handler (at start for every
 * handler of a guarded controller) so that a request only looks the answer up.
 */
import type { PermissionDefinition } from '../core/index.js';
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
  /** `@SkipPermissions()`: no check, no permit. */
  readonly skip: boolean;
  readonly resource: string;
  readonly action: string;
  readonly resourceIdParam: string;
  readonly projectResourceId: ProjectResourceId | undefined;
}

const guardConfigs = new WeakMap<Function, PermissionsGuardConfig>();

/** @internal Records the configuration of a guard class made by `createPermissionsGuard()`. */
export function registerPermissionsGuard(guard: Function, config: PermissionsGuardConfig): void {
  guardConfigs.set(guard, config);
}

/** @internal The configuration of a permissions guard (given its class or an instance), else undefined. */
export function permissionsGuardConfigOf(guard: unknown): PermissionsGuardConfig | undefined {
  if (typeof guard === 'function') return guardConfigs.get(guard);
  if (typeof guard === 'object' && guard !== null) return guardConfigs.get(guard.constructor);
  return undefined;
}

/** The name under which `handler` is a method of `controller` (or its base classes). */
function methodNameOf(controller: Function, handler: Function): string {
  for (let proto: object | null = controller.prototype as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key !== 'constructor' && Object.getOwnPropertyDescriptor(proto, key)?.value === handler) return key;
    }
  }
  return handler.name;
}

/** @internal Works out what `config`'s guard checks for `handler` of `controller`. */
export function resolvePermissionsRoute(config: PermissionsGuardConfig, controller: Function, handler: Function, moduleProjection: ProjectResourceId | undefined): PermissionsRoute {
  const methodName = methodNameOf(controller, handler);
  const override = readPermissionOverride(handler);
  return {
    label: `${controller.name}.${methodName}`,
    skip: isPermissionsSkipped(handler),
    resource: override?.resource ?? config.options.resource,
    action: override?.action ?? methodName,
    resourceIdParam: override?.resourceIdParam ?? config.options.resourceIdParam ?? 'id',
    projectResourceId: config.options.projectResourceId ?? moduleProjection,
  };
}
