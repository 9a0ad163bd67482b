/**
 * `typedPermissions<ResourceActions>()`: the guard factory and decorators, typed by the resources
 * and actions the compiler emitted, so that a misspelt resource or action fails to compile.
 */
import type { CanActivate, Type } from '@nestjs/common';
import type { PermissionDefinition } from '../permissions/index.js';
import type { ResourceActionsOf } from '../integration/index.js';
import { Permission } from './permission-decorator.js';
import type { PermissionsGuardOptions } from './permissions-guard-options.js';
import { createPermissionsGuard } from './permissions-guard.js';

/** The resource names of the generated `Schema` (or of a resource → action union map). */
export type ResourceNameOf<TSchema> = Extract<keyof ResourceActionsOf<TSchema>, string>;

/** The actions declared for resource `R`. */
export type ActionNameOf<TSchema, R extends keyof ResourceActionsOf<TSchema>> = Extract<ResourceActionsOf<TSchema>[R], string>;

/** Every action declared for some resource. */
export type AnyActionNameOf<TSchema> = {
  [R in keyof ResourceActionsOf<TSchema>]: Extract<ResourceActionsOf<TSchema>[R], string>;
}[keyof ResourceActionsOf<TSchema>];

/**
 * A method decorator whose second parameter, the decorated method's name, must be one of `TAction`:
 * decorating a method whose name is not an action is a compile error.
 */
export type ActionDecorator<TAction extends string> = (target: object, propertyKey: TAction, descriptor: PropertyDescriptor) => void;

/** Guard options whose resource must be declared. */
export interface TypedPermissionsGuardOptions<R extends string> extends PermissionsGuardOptions {
  readonly resource: R;
}

/**
 * The typed guard factory and decorators returned by {@link typedPermissions}. They use no `this`
 * (`this: void`), so they are meant to be destructured.
 */
export interface TypedPermissionsDecorators<TResourceActions> {
  /** {@link createPermissionsGuard}, accepting only declared resources, and definitions that name only declared resources and actions. */
  createPermissionsGuard<R extends ResourceNameOf<TResourceActions>>(
    this: void,
    options: TypedPermissionsGuardOptions<R>,
    definitions?: readonly PermissionDefinition<string, ResourceNameOf<TResourceActions>, AnyActionNameOf<TResourceActions>>[],
  ): Type<CanActivate>;
  /** {@link Permission} with a resource: the action must be declared for that resource. */
  Permission<R extends ResourceNameOf<TResourceActions>>(
    this: void,
    override: {
      readonly resource: R;
      readonly action?: ActionNameOf<TResourceActions, R>;
      readonly resourceIdParam?: string | null;
    },
  ): MethodDecorator;
  /** {@link Permission} keeping the guard's resource: the action must be declared for some resource. */
  Permission(
    this: void,
    override: {
      readonly resource?: undefined;
      readonly action?: AnyActionNameOf<TResourceActions>;
      readonly resourceIdParam?: string | null;
    },
  ): MethodDecorator;
  /** Declares the decorated method as an action of `resource` (which the handler then checks): its name must be an action declared for that resource. */
  Action<R extends ResourceNameOf<TResourceActions>>(this: void, resource: R): ActionDecorator<ActionNameOf<TResourceActions, R>>;
  /**
   * Declares the decorated method as an action of the guard's resource: its name must be an action
   * declared for some resource (pass the resource for the exact check).
   */
  Action(this: void): ActionDecorator<AnyActionNameOf<TResourceActions>>;
}

/**
 * Returns `createPermissionsGuard`, `Permission` and `Action` typed by a `ResourceActions` map
 * (resource name → union of its actions), usually the one in `generated/index.ts`. At run time they
 * are the plain ones; the types make these compile errors:
 * - a guard or `@Permission()` naming a resource that is not declared;
 * - `@Permission({ resource, action })` with an action not declared for that resource;
 * - `@Action('document')` on a method whose name is not an action of `document`.
 *
 * @example
 * ```ts
 * import type { ResourceActions } from '../generated/index.js';
 *
 * const { createPermissionsGuard, Permission, Action } = typedPermissions<ResourceActions>();
 *
 * @Controller('documents')
 * @UseGuards(createPermissionsGuard({ resource: 'document' }))
 * export class DocumentsController {
 *   @Get(':id') @Action('document') read(@GetPermit() permit: Permit) { … }      // 'read' is an action of document
 *   @Post(':id/approve') @Permission({ action: 'review' }) approve() { … }      // checks 'review'
 * }
 * ```
 */
export function typedPermissions<TResourceActions>(): TypedPermissionsDecorators<TResourceActions> {
  const Action = (resource?: string) => {
    return (target: object, propertyKey: string, descriptor: PropertyDescriptor): void => {
      Permission(resource === undefined ? { action: propertyKey } : { action: propertyKey, resource })(target, propertyKey, descriptor);
    };
  };
  return { createPermissionsGuard, Permission, Action } as TypedPermissionsDecorators<TResourceActions>;
}
