/**
 * The shape of a PermissionDefinition as TypeScript types. The runtime accepts hooks as functions
 * or as method names of an ownership service; the compiler emits narrowed versions of these types
 * for the names a project actually uses.
 */

/** A value or a promise of it: every hook may answer either way. */
export type Awaitable<T> = T | PromiseLike<T>;

/** The user of a grant query: an id and the names of its roles. The library never authenticates. */
export interface User<TId = string | number, TRole extends string = string> {
  readonly id: TId;
  readonly roles: readonly TRole[];
}

/** Answers whether `user` owns the record `resourceId`. */
export type IsOwnerHook<TUser = any, TId = any> = (args: { user: TUser; resourceId: TId }) => Awaitable<boolean>;
/** Lists the ids of the records `user` owns. */
export type ListOwnedHook<TUser = any, TId = any> = (args: { user: TUser }) => Awaitable<readonly TId[]>;
/** Configures (never executes) a filter that restricts a collection to what `user` owns: a where-clause, a predicate, query parameters. */
export type LimitOwnedHook<TUser = any, TFilter = any> = (args: { user: TUser }) => TFilter;

/** Combines the filters of several limitOwned hooks, typically with a logical OR. */
export type LimitOwnReducer<TUser = any, TFilter = any> = (args: { user: TUser; limitOwneds: readonly LimitOwnedHook<TUser, TFilter>[] }) => TFilter;

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
 * for a definition with only isOwner, only a list/limit hook, or both list and limit hooks, reads
 * as the rule: isOwner goes with exactly one of listOwned or limitOwned.
 */
export interface OwnershipHooksExactlyOneOfListOwnedOrLimitOwned {
  readonly 'isOwner goes with exactly one of listOwned or limitOwned': never;
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

/** Ownership by isOwner plus listOwned (one of the two exactly-one-of branches). */
export interface PermissionDefinitionExactlyOneOfListOwned<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
> extends PermissionDefinitionBase<TRole, TResource, TAction> {
  readonly isOwner: IsOwnerHook<TUser, TId> | string;
  readonly listOwned: ListOwnedHook<TUser, TId> | string;
  readonly limitOwned?: OwnershipHooksExactlyOneOfListOwnedOrLimitOwned;
}

/** Ownership by isOwner plus limitOwned (one of the two exactly-one-of branches). */
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

/** A definition with ownership hooks: isOwner and exactly one of listOwned / limitOwned; hooks are functions or method names of the ownership service. */
export type PermissionDefinitionWithOwnership<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
  TFilter = any,
> =
  | PermissionDefinitionExactlyOneOfListOwned<TRole, TResource, TAction, TUser, TId>
  | PermissionDefinitionExactlyOneOfLimitOwned<TRole, TResource, TAction, TUser, TId, TFilter>;

/**
 * A PermissionDefinition: exactly one of {@link PermissionDefinitionWithOwnership} (isOwner plus
 * exactly one of listOwned / limitOwned) or {@link PermissionDefinitionNoOwnership}.
 */
export type PermissionDefinition<
  TRole extends string = string,
  TResource extends string = string,
  TAction extends string = string,
  TUser = any,
  TId = any,
  TFilter = any,
> = PermissionDefinitionWithOwnership<TRole, TResource, TAction, TUser, TId, TFilter> | PermissionDefinitionNoOwnership<TRole, TResource, TAction>;

/** The neutral JSON form: hooks are method names of the ownership service. */
export type PermissionDefinitionJson = PermissionDefinitionBase & {
  readonly isOwner?: string;
  readonly listOwned?: string;
  readonly limitOwned?: string;
};
