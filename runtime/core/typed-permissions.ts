/**
 * The typed face of `Permissions` for generated code: the compiler emits a schema type (resources,
 * their actions and id types) and instantiates {@link createTypedPermissions} with it, so that a
 * misspelt resource or an action the resource does not have fails at compile time.
 */
import type { PermissionSlice } from './permission-slice.js';
import type { LimitOwnReducer, User } from './definition-types.js';
import type { GrantTables } from './grant-tables.js';
import { Permissions, type PermissionsLogger } from './permissions.js';
import type { Permit } from './permit.js';

/** What the compiler knows about a project's definitions, as types. */
export interface PermissionsSchema {
  readonly resources: { readonly [resource: string]: { readonly actions: string; readonly id: unknown } };
}

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
}

/** Options of the generated `createPermissions`: the ownership service is required and typed by the generated interface. */
export interface TypedPermissionsOptions<TOwnership extends object, TUser, TFilter> {
  readonly ownership: TOwnership;
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  readonly strict?: boolean | undefined;
  readonly logger?: PermissionsLogger | undefined;
  readonly getResourceId?: ((args: { resource: string; item: object }) => unknown) | undefined;
  readonly hookTimeoutMs?: number | undefined;
}

/** A built `Permissions` whose `grantPermit` is typed by resource and action. */
export interface TypedPermissions<S extends PermissionsSchema, TUser extends User<unknown>, TFilter> {
  /** The untyped engine underneath, for integrations that take a `Permissions`. */
  readonly permissions: Permissions<TUser, TFilter>;
  /** Like `Permissions.grantPermit`, with the resource's actions and id type checked at compile time. */
  grantPermit<R extends SchemaResource<S>>(query: TypedGrantQuery<S, TUser, R>): Promise<Permit<TUser, SchemaResourceId<S, R>, TFilter>>;
  /** Like `Permissions.grantPermitSync`, typed the same way. */
  grantPermitSync<R extends SchemaResource<S>>(query: TypedGrantQuery<S, TUser, R>): Permit<TUser, SchemaResourceId<S, R>, TFilter>;
  /** `Permissions.sliceFor`: what the user may do, as JSON for `createClient<ResourceActions>(slice)` in the browser. */
  sliceFor(user: TUser): PermissionSlice;
}

/**
 * Loads generated tables (no rebuild) and binds hook names to the ownership service.
 *
 * @example
 * ```ts
 * // generated/permissions.ts
 * export const createPermissions = (options: CreatePermissionsOptions) => createTypedPermissions<Schema, …>(grantTables, options);
 * ```
 */
export function createTypedPermissions<S extends PermissionsSchema, TOwnership extends object, TUser extends User<unknown>, TFilter>(
  tables: GrantTables,
  options: TypedPermissionsOptions<TOwnership, TUser, TFilter>,
): TypedPermissions<S, TUser, TFilter> {
  const permissions = Permissions.fromTables<TUser, TFilter>(tables, options);
  return {
    permissions,
    grantPermit: (query) => permissions.grantPermit(query),
    grantPermitSync: (query) => permissions.grantPermitSync(query),
    sliceFor: (user) => permissions.sliceFor(user),
  };
}
