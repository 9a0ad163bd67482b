/**
 * The typed face of `Permissions` for generated code: the compiler emits a schema type (resources,
 * their actions and id types), and `permissions.typed<Schema>()` gives the same engine typed by it, so that
 * a misspelt resource or an action the resource does not have fails at compile time.
 */
import type { LimitOwnReducer } from '../core/definition/definition-types.js';
import type { PermissionsOptions } from './permissions-options.js';

/** What the compiler knows about a project's definitions, as types: the generated `Schema` has this shape. */
export interface PermissionsSchema {
  readonly resources: { readonly [resource: string]: { readonly actions: string; readonly id: unknown } };
}

/**
 * Resource → action union, from the generated `Schema` (or a map written that way by hand, which is kept as
 * it is): what the NestJS decorators and the browser client are typed with.
 *
 * @example
 * ```ts
 * type Actions = ResourceActionsOf<Schema>; // { document: 'create' | 'read' | 'list' | … }
 * ```
 */
export type ResourceActionsOf<T> = T extends { readonly resources: { readonly [resource: string]: { readonly actions: string } } }
  ? { readonly [R in keyof T['resources']]: T['resources'][R]['actions'] }
  : T;

/** The resource names of a schema. */
export type SchemaResource<S extends PermissionsSchema> = keyof S['resources'] & string;
/** The actions of one resource of a schema. */
export type SchemaAction<S extends PermissionsSchema, R extends SchemaResource<S>> = S['resources'][R]['actions'];
/** The id type of one resource of a schema. */
export type SchemaResourceId<S extends PermissionsSchema, R extends SchemaResource<S>> = S['resources'][R]['id'];

/** A grant query checked against the schema: only the resource's actions and its id type. */
export interface TypedGrantQuery<S extends PermissionsSchema, TUser, R extends SchemaResource<S>> {
  readonly user: TUser;
  readonly resource: R;
  readonly action: SchemaAction<S, R>;
  readonly resourceId?: SchemaResourceId<S, R> | null | undefined;
  /** The tenant asked in: `user.roles` are the roles the user holds there (the policy's and the tenant's custom roles). */
  readonly tenant?: string | undefined;
}

/**
 * Options of the generated `createPermissions`: the ownership service is required and typed by the generated
 * interface; executors, id types and declared actions come from the tables.
 */
export interface TypedPermissionsOptions<TOwnership extends object, TUser, TFilter> extends Omit<
  PermissionsOptions<TUser, TFilter>,
  'ownership' | 'ownedAmong' | 'resourceIdTypes' | 'resourceActions' | 'limitOwnReduce'
> {
  readonly ownership: TOwnership;
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
}
