/**
 * Per-handler overrides of the permissions guard: `@Permission()` and `@SkipPermissions()`.
 */
import { Reflector } from '@nestjs/core';
import { PermissionsUsageError } from '../permissions/index.js';
import type { RouteHandler } from './nest-targets.js';

/** What `@Permission()` may override for one handler. Unset fields keep the guard's defaults. */
export interface PermissionOverride {
  /** The action to check, instead of the handler method's name. */
  readonly action?: string | undefined;
  /** The resource to check, instead of the guard's resource. */
  readonly resource?: string | undefined;
  /**
   * The path parameter holding the resource id, instead of the guard's (default: `'id'` when it is
   * the route's last parameter). `null`: this handler acts on no single record (a collection check)
   * although its route has parameters — an explicit opt-out, checked at start like every setting.
   */
  readonly resourceIdParam?: string | null | undefined;
}

/** The metadata decorator that stores a handler's override; read through {@link readPermissionOverride}. */
const PermissionMetadata = Reflector.createDecorator<PermissionOverride>({ key: 'typed-permissions:permission' });
const SkipPermissionsMetadata = Reflector.createDecorator<true>({ key: 'typed-permissions:skip' });
const reflector = new Reflector();

const OVERRIDE_KEYS = ['action', 'resource', 'resourceIdParam'] as const;

function checkOverride(override: unknown): PermissionOverride {
  if (typeof override !== 'object' || override === null)
    throw new PermissionsUsageError('@Permission(override) expects an object { action?, resource?, resourceIdParam? }.');
  for (const key of Object.keys(override)) {
    if (!(OVERRIDE_KEYS as readonly string[]).includes(key))
      throw new PermissionsUsageError(`@Permission(): unknown option "${key}"; the options are ${OVERRIDE_KEYS.join(', ')}.`);
    const value = (override as Record<string, unknown>)[key];
    if (key === 'resourceIdParam' && value === null) continue;
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new PermissionsUsageError(
        `@Permission(): ${key} must be a non-empty string${key === 'resourceIdParam' ? ' or null' : ''}, got ${JSON.stringify(value)}.`,
      );
  }
  return override;
}

/**
 * Overrides, for one handler, what the permissions guard checks: the action (default: the method's
 * name), the resource (default: the guard's) and the path parameter of the resource id (default:
 * the guard's, else `'id'`). Several `@Permission()` on one method merge, the upper one winning.
 *
 * @example
 * ```ts
 * @Post(':id/approve')
 * @Permission({ action: 'review', resourceIdParam: 'id' })
 * approveDocument(@Param('id') id: string, @GetPermit() permit: Permit) { … }
 * ```
 */
export function Permission(override: PermissionOverride): MethodDecorator {
  const checked = checkOverride(override);
  return (target, propertyKey, descriptor) => {
    const handler: unknown = descriptor.value;
    // Any function is a RouteHandler (its parameters are never[]); `typeof` only narrows to Function.
    const earlier = typeof handler === 'function' ? readPermissionOverride(handler as RouteHandler) : undefined;
    const merged: PermissionOverride = { ...earlier };
    for (const key of OVERRIDE_KEYS) if (checked[key] !== undefined) (merged as Record<string, string | null>)[key] = checked[key];
    PermissionMetadata(merged)(target, propertyKey, descriptor);
  };
}

/**
 * Marks a handler of a guarded controller as unchecked: the guard lets the request through without
 * asking for a permit, so `@GetPermit()` has nothing to inject there. Use it for endpoints that are
 * the same for everybody (health checks, public listings).
 *
 * @example
 * ```ts
 * @Get('public')
 * @SkipPermissions()
 * publicCount() { return { count: this.documents.count() }; }
 * ```
 */
export function SkipPermissions(): MethodDecorator {
  return (target, propertyKey, descriptor) => SkipPermissionsMetadata(true)(target, propertyKey, descriptor);
}

/**
 * @internal The `@Permission()` override of a handler, if any.
 *
 * @example
 * ```ts
 * readPermissionOverride(DocumentsController.prototype.approveDocument); // { action: 'review', resourceIdParam: 'id' }
 * ```
 */
export function readPermissionOverride(handler: RouteHandler): PermissionOverride | undefined {
  return reflector.get(PermissionMetadata, handler);
}

/**
 * @internal Whether a handler is marked `@SkipPermissions()`.
 *
 * @example
 * ```ts
 * isPermissionsSkipped(DocumentsController.prototype.publicCount); // true
 * ```
 */
export function isPermissionsSkipped(handler: RouteHandler): boolean {
  return reflector.get(SkipPermissionsMetadata, handler) === true;
}
