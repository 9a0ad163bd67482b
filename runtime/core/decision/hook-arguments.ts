/**
 * The argument object of an ownership hook: the user, the tenant the permit was decided in, and what the hook
 * asks about. Every hook call of the engine builds it here, so that every hook sees the tenant alike.
 */

/**
 * `{ user, tenant, ...rest }`, with the key `tenant` only when the permit was decided in a tenant: a hook of an
 * application without tenants keeps receiving exactly what it received before, and `'tenant' in args` tells the
 * two questions apart.
 *
 * @example
 * ```ts
 * hookArguments(user, 'acme', { resourceId: 3 }); // { user, tenant: 'acme', resourceId: 3 }
 * hookArguments(user, undefined, { resourceId: 3 }); // { user, resourceId: 3 }
 * ```
 */
export function hookArguments<Rest extends object>(
  user: object,
  tenant: string | undefined,
  rest: Rest,
): { readonly user: object; readonly tenant?: string } & Rest {
  return tenant === undefined ? { user, ...rest } : { user, tenant, ...rest };
}

/**
 * `args` with the permit's tenant added (or replaced), when there is one: for the filters handed to
 * `limitOwnReduce`, which the application calls with `{ user }`.
 *
 * @example
 * ```ts
 * withTenant({ user }, 'acme'); // { user, tenant: 'acme' }
 * ```
 */
export function withTenant(args: object, tenant: string | undefined): object {
  return tenant === undefined ? args : { ...args, tenant };
}
