/**
 * The shape of a PermissionDefinition as TypeScript types. The runtime accepts hooks as functions
 * or as method names of an ownership service; the compiler emits narrowed versions of these types
 * for the names a project actually uses.
 */

/** A value or a promise of it: isOwner, listOwned and ownedAmong may answer either way (limitOwned returns its filter as it is). */
export type Awaitable<T> = T | PromiseLike<T>;

/** The user of a grant query: an id and the names of its roles. The library never authenticates. */
export interface User<TId = string | number, TRole extends string = string> {
  readonly id: TId;
  readonly roles: readonly TRole[];
}

/*
 * Every hook's arguments hold `tenant`, the tenant the permit was decided in, when the grant query named one; the
 * key is absent for a question without a tenant.
 */

/** Answers whether `user` (in `tenant`, when there is one) owns the record `resourceId`. */
export type IsOwnerHook<TUser = any, TId = any> = (args: { user: TUser; tenant?: string; resourceId: TId }) => Awaitable<boolean>;
/** Lists the ids of the records `user` (in `tenant`, when there is one) owns. */
export type ListOwnedHook<TUser = any, TId = any> = (args: { user: TUser; tenant?: string }) => Awaitable<readonly TId[]>;
/**
 * Configures (never executes) a filter that restricts a collection to what `user` (in `tenant`, when there is one)
 * owns: a where-clause, a predicate, query parameters.
 */
export type LimitOwnedHook<TUser = any, TFilter = any> = (args: { user: TUser; tenant?: string }) => TFilter;

/**
 * A resource's executor of limitOwned filters: runs `filter` (what one limitOwned hook returned)
 * restricted to `resourceIds`, and returns those of them that match — one query for many records
 * (`where id = any($1) and <filter>`). Return the ids as they were given (same type).
 */
export type OwnedAmongHook<TUser = any, TFilter = any, TId = any> = (args: {
  user: TUser;
  tenant?: string;
  filter: TFilter;
  resourceIds: readonly TId[];
}) => Awaitable<readonly TId[]>;

/** Combines the filters of several limitOwned hooks, typically with a logical OR. */
export type LimitOwnReducer<TUser = any, TFilter = any> = (args: {
  user: TUser;
  tenant?: string;
  limitOwneds: readonly LimitOwnedHook<TUser, TFilter>[];
}) => TFilter;

/** `'own'` or `'any'`: whether a grant covers only the records the user owns, or every record. */
export type Possession = 'own' | 'any';

/** A grant: action strings (`'read'`, `'read:own'`, `'*:any'`), or action keys mapped to attribute patterns. */
export type Grant<TAction extends string = string> =
  | readonly (TAction | `${TAction}:${Possession}` | '*' | `*:${Possession}`)[]
  | { readonly [K in TAction | `${TAction}:${Possession}` | '*' | `*:${Possession}`]?: readonly string[] };

/** The fields every definition has, with or without ownership hooks. */
export interface PermissionDefinitionBase<TRole extends string = string, TResource extends string = string, TAction extends string = string> {
  /** Role name(s); `'*'` means every known role. */
  readonly roles: TRole | '*' | readonly (TRole | '*')[];
  /** Resource name; `'*'` means every known resource. */
  readonly resource: TResource | '*';
  /** What the rule is for, in words a non-developer reads. */
  readonly descr?: string;
  /** Default possession of grant entries without a `:any`/`:own` suffix (else `'any'`). */
  readonly possession?: Possession;
  readonly grant: Grant<TAction>;
}

/**
 * The type of a hook that must not be there. Its name states the rule, so that TypeScript's message
 * for a definition with only isOwner, or with both list and limit hooks, reads as the rule:
 * ownership is decided by exactly one of listOwned or limitOwned (isOwner optional beside them).
 */
export interface OwnershipHooksExactlyOneOfListOwnedOrLimitOwned {
  readonly 'ownership is decided by exactly one of listOwned or limitOwned': never;
}

/** A definition without ownership hooks: it may grant only `any` actions. */
export interface PermissionDefinitionNoOwnership<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
> extends PermissionDefinitionBase<TRole, TResource, TAction> {
  readonly isOwner?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
  readonly listOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
  readonly limitOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
}

/**
 * Ownership by listOwned (one of the exactly-one-of branches). isOwner is optional: without it, a
 * record is owned when listOwned lists its id (called once per permit).
 */
export interface PermissionDefinitionExactlyOneOfListOwned<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
> extends PermissionDefinitionBase<TRole, TResource, TAction> {
  readonly isOwner?: IsOwnerHook<TUser, TId> | string;
  readonly listOwned: ListOwnedHook<TUser, TId> | string;
  readonly limitOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
}

/**
 * Ownership by limitOwned (the other branch), with isOwner to decide one record. Without isOwner
 * see {@link PermissionDefinitionComputedLimitOwned}: only where the resource declares ownedAmong.
 */
export interface PermissionDefinitionExactlyOneOfLimitOwned<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
  TFilter = any,
> extends PermissionDefinitionBase<TRole, TResource, TAction> {
  readonly isOwner: IsOwnerHook<TUser, TId> | string;
  readonly limitOwned: LimitOwnedHook<TUser, TFilter> | string;
  readonly listOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
}

/**
 * Ownership by limitOwned without isOwner: computed by the ownedAmong executor of the resource,
 * so only resources that declare one (`TComputable`; the generated types name them) may use it.
 */
export interface PermissionDefinitionComputedLimitOwned<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TFilter = any,
  TComputable extends string = TResource | '*',
> extends PermissionDefinitionBase<TRole, TResource, TAction> {
  readonly resource: TComputable & (TResource | '*');
  readonly isOwner?: undefined;
  readonly limitOwned: LimitOwnedHook<TUser, TFilter> | string;
  readonly listOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
}

/**
 * A definition with ownership hooks: exactly one of listOwned / limitOwned, and isOwner — optional
 * where ownership can be computed (with listOwned; with limitOwned on resources in `TComputable`,
 * those that declare an ownedAmong executor). Hooks are functions or method names of the
 * ownership service.
 */
export type PermissionDefinitionWithOwnership<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
  TFilter = any,
  TComputable extends string = TResource | '*',
> =
  | PermissionDefinitionExactlyOneOfListOwned<TRole, TResource, TAction, TUser, TId>
  | PermissionDefinitionExactlyOneOfLimitOwned<TRole, TResource, TAction, TUser, TId, TFilter>
  | PermissionDefinitionComputedLimitOwned<TRole, TResource, TAction, TUser, TFilter, TComputable>;

/**
 * A PermissionDefinition: exactly one of {@link PermissionDefinitionWithOwnership} or
 * {@link PermissionDefinitionNoOwnership}. `TComputable` are the resources whose ownership can be
 * computed from limitOwned (default: any — `build()` checks it against the executors it was given).
 */
export type PermissionDefinition<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
  TFilter = any,
  TComputable extends string = TResource | '*',
> = PermissionDefinitionWithOwnership<TRole, TResource, TAction, TUser, TId, TFilter, TComputable> | PermissionDefinitionNoOwnership<TRole, TResource, TAction>;

/** The neutral JSON form: hooks are method names of the ownership service. */
export type PermissionDefinitionJson = PermissionDefinitionBase & {
  readonly isOwner?: string;
  readonly listOwned?: string;
  readonly limitOwned?: string;
  /** An ownership rule of the resource (declared in its `*.resource.json`), in place of the hooks. */
  readonly owner?: string;
};
