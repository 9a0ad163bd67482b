/**
 * The options of `PermissionsModule.forRoot()` / `forRootAsync()`.
 */
import type { GrantTables, LimitOwnReducer, OwnedAmongHook, PermissionDefinition, PermissionsLogger, User } from '../core/index.js';

/** Converts the resource id string of a request path into the application's id type. */
export type ProjectResourceId = (id: string, context: { readonly resource: string }) => unknown;

/**
 * Options of the permissions module.
 *
 * @example
 * ```ts
 * PermissionsModule.forRoot({
 *   extractUserFromRequest: (request: Request) => usersFromHeader(request),
 *   projectResourceId: (id) => {
 *     if (!/^\d+$/.test(id)) throw new BadRequestException(`id must be an integer, got ${id}`);
 *     return Number(id);
 *   },
 *   tables: grantTables, // from generated/
 * });
 * ```
 */
export interface PermissionsModuleOptions<TUser extends User<unknown> = User<unknown>, TFilter = any> {
  /**
   * Returns the user of a request (id and roles). The library never authenticates: this is where the
   * application does. It may throw, for example `UnauthorizedException`; the error propagates (401).
   * Requests without a real user should get a placeholder user carrying a dedicated role.
   * `request` is the platform's request object (an express `Request` with the express adapter).
   */
  extractUserFromRequest(request: unknown): TUser | Promise<TUser>;
  /** Combines the filters of several limitOwned hooks for `permit.limitOwn()`, typically with OR. */
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  /**
   * Converts the id path parameter (a string) into the application's id type, for every guard that
   * does not set its own. It may throw an `HttpException` (for example `BadRequestException`), which
   * propagates. Default: the string is kept as it is.
   */
  readonly projectResourceId?: ProjectResourceId | undefined;
  /** Definitions that apply to the whole application, built at start with those of guards and `forFeature`. */
  readonly definitions?: readonly PermissionDefinition[] | undefined;
  /**
   * Precompiled grant tables (what `typed-permissions compile` emits into `generated/`). With tables
   * nothing is validated or expanded at start, and no other definitions may be given: they belong in
   * `definitions/`, compiled again.
   */
  readonly tables?: GrantTables | undefined;
  /** Throw instead of warning on unknown roles, resources and actions, at start and per request. Default false. */
  readonly strict?: boolean | undefined;
  /** Receives warnings. Default `console`. */
  readonly logger?: PermissionsLogger | undefined;
  /** How long an ownership hook may take before the check fails closed (500). Default 5000 ms. */
  readonly hookTimeoutMs?: number | undefined;
  /**
   * The ownedAmong executor of each resource that has one, when definitions are built at start: a
   * method name of the ownership service (or a function) that runs a limitOwned filter over given
   * ids. With precompiled `tables` it comes from the resource's `*.resource.json` instead.
   */
  readonly ownedAmong?: { readonly [resource: string]: OwnedAmongHook<TUser, TFilter> | string } | undefined;
}
