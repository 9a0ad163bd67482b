/**
 * The options of `PermissionsModule.forRoot()` / `forRootAsync()`: the engine's own options (the same
 * `PermissionsOptions` as `new Permissions()` and express's `initPermissions`), plus what only the
 * integration needs.
 */
import type { GrantTables, PermissionDefinition, PermissionsOptions, TenantRolesOptions, User } from '../permissions/index.js';
import type { FollowOptions, PolicyBundle, PolicySource, TenantRolesSource } from '../live/index.js';
import type { ProjectResourceId } from '../integration/index.js';

export type { ProjectResourceId } from '../integration/index.js';

/**
 * Options of the permissions module. Every engine option of `PermissionsOptions` (`limitOwnReduce`,
 * `strict`, `logger`, `getResourceId`, `hookTimeoutMs`, `ownedAmong`, `resourceIdTypes`, `ownership`) is
 * passed to the engine as it is; the ownership service may also be provided under
 * `PERMISSIONS_OWNERSHIP_SERVICE_TOKEN` in any module instead of the `ownership` option.
 *
 * @example
 * ```ts
 * PermissionsModule.forRoot({
 *   extractUserFromRequest: (request: Request) => usersFromHeader(request),
 *   tables: grantTables, // from generated/: ids of `"idType": "number"` resources arrive as numbers
 * });
 * ```
 */
export interface PermissionsModuleOptions<TUser extends User<unknown> = User<unknown>, TFilter = any> extends PermissionsOptions<TUser, TFilter> {
  /**
   * Returns the user of a request (id and roles). The library never authenticates: this is where the
   * application does. It may throw, for example `UnauthorizedException`; the error propagates (401).
   * Requests without a real user should get a placeholder user carrying a dedicated role.
   * `request` is the platform's request object (an express `Request` with the express adapter).
   */
  extractUserFromRequest(request: unknown): TUser | Promise<TUser>;
  /**
   * Returns the tenant a request is asked in (from a header, a subdomain, the session), or `undefined` for a
   * question in no tenant; `extractUserFromRequest`'s roles are then the roles the user holds in that tenant.
   * A string that is no tenant id answers 400 (GraphQL: `BAD_USER_INPUT`) and nothing is checked; what it throws
   * propagates. Asked once per request, like the user.
   */
  readonly extractTenantFromRequest?: ((request: unknown) => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * Turns the id of a request (path parameter text; a GraphQL argument in decimal) into the application's id
   * type, for every guard that does not set its own. It may throw an `HttpException` (for example
   * `BadRequestException`), which propagates; `undefined` or `null` answers 400. Default: the resource's
   * declared id type (`"idType"` in its `*.resource.json`, or the `resourceIdTypes` option) projects it —
   * `'10'` becomes `10`, `'01'` or `'abc'` answers 400 — and a resource without one keeps the text.
   */
  readonly projectResourceId?: ProjectResourceId | undefined;
  /** Definitions that apply to the whole application, built at start with those of guards and `forFeature`. */
  readonly definitions?: readonly PermissionDefinition[] | undefined;
  /**
   * Precompiled grant tables (what `typed-permissions compile` emits into `generated/`). With tables
   * nothing is validated or expanded at start, and no other definitions may be given: they belong in
   * `definitions/`, compiled again.
   */
  readonly tables?: GrantTables | PolicyBundle | undefined;
  /**
   * A live policy to follow (`typed-permissions/live`: `filePolicySource`, `postgresPolicySource`,
   * `httpPolicySource`): loaded at start — after `tables` or `definitions`, which then fix the vocabulary the new
   * versions must stay within; without them the first version sets it, and the start fails when none can be
   * loaded — and swapped on every later valid version, with no restart. Closed when the application shuts down.
   */
  readonly source?: PolicySource | undefined;
  /** What to do on each change, rejection and source failure of `source` (default: warnings through `logger`). */
  readonly follow?: FollowOptions | undefined;
  /**
   * The tenants' custom roles to follow (`typed-permissions/live`: `postgresTenantRoles`, `fileTenantRoles`, or an
   * object of your own with `read(tenant)`): followed when the application starts, as
   * `permissions.followTenantRoles(tenantRoles, followTenantRoles)` would, and closed when it shuts down.
   */
  readonly tenantRoles?: TenantRolesSource | undefined;
  /** The bounds of the tenants' cache and what to do on a watch's trouble (`maxTenants`, `maxBytes`, `onError`). */
  readonly followTenantRoles?: TenantRolesOptions | undefined;
}
