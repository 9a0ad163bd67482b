/**
 * One call of a GraphQL resolver, as the permissions guard and `@GetPermit()` see it: its arguments, its
 * context (whose `req` is the HTTP request) and its `info`, the object graphql-js creates for each field
 * it resolves. One HTTP request runs many resolvers, concurrently, so a resolver's permit is kept per
 * `info`, never on the shared request.
 */
import { PermissionsUsageError } from '../../permissions/index.js';
import { isResourceIdParamProblem } from '../../integration/index.js';
import type { PermissionsRoute } from '../guarded-routes.js';

/** The arguments Nest passes to a resolver: `[root, args, context, info]`. */
export interface ResolverCall {
  readonly args: unknown;
  readonly context: unknown;
  readonly info: unknown;
}

/**
 * Reads a resolver call from the arguments of Nest's execution context.
 *
 * @example
 * ```ts
 * const call = resolverCallOf(context.getArgs()); // { args: { id: 10 }, context: { req }, info }
 * ```
 */
export function resolverCallOf(args: readonly unknown[]): ResolverCall {
  return { args: args[1], context: args[2], info: args[3] };
}

const permits = new WeakMap<object, unknown>();

/**
 * Keeps the permit the guard obtained for one resolver call (keyed by the call's `info`).
 *
 * @example
 * ```ts
 * storeResolverPermit(call, permit);
 * ```
 */
export function storeResolverPermit(call: ResolverCall, permit: unknown): void {
  if (typeof call.info !== 'object' || call.info === null)
    throw new PermissionsUsageError('A GraphQL resolver was called without its info argument; the permissions guard cannot keep its permit.');
  permits.set(call.info, permit);
}

/**
 * The permit the guard obtained for this resolver call, or `undefined`.
 *
 * @example
 * ```ts
 * const permit = resolverPermitOf(resolverCallOf(context.getArgs()));
 * ```
 */
export function resolverPermitOf(call: ResolverCall): unknown {
  return typeof call.info === 'object' && call.info !== null ? permits.get(call.info) : undefined;
}

/**
 * The HTTP request of a resolver call (`context.req`, which the Apollo and Mercurius drivers of
 * `@nestjs/graphql` set), for the module's `extractUserFromRequest`. Throws a PermissionsUsageError when
 * the context has none (a subscription over websockets, a custom context that dropped it).
 *
 * @example
 * ```ts
 * const request = requestOfResolverCall(call, 'DocumentsResolver.document');
 * ```
 */
export function requestOfResolverCall(call: ResolverCall, label: string): object {
  const request = (call.context as { req?: unknown } | null | undefined)?.req;
  if (typeof request !== 'object' || request === null) {
    throw new PermissionsUsageError(
      `${label}: the GraphQL context has no request (context.req), so the permissions guard cannot tell who calls. Keep the ` +
        `driver's default context, or return { req } from your context function.`,
    );
  }
  return request;
}

/**
 * The raw resource id of a resolver call, as text (Int and Float arguments are written in decimal, as a
 * path parameter would be), or `undefined` for a collection check. Throws a PermissionsUsageError (the
 * call fails closed) when the route could not be resolved at start, when a required id is missing, or
 * when its value is not one id.
 *
 * @example
 * ```ts
 * rawResolverIdOf(route, { id: 10 }); // '10'
 * rawResolverIdOf(routeOfInputId, { input: { id: 'a1' } }); // 'a1'
 * ```
 */
export function rawResolverIdOf(route: PermissionsRoute, args: unknown): string | undefined {
  const where = route.resourceId;
  if (isResourceIdParamProblem(where))
    throw new PermissionsUsageError(
      `${route.label} (${route.paths.join(', ')}) ${where.problem}, so the permissions check cannot tell which record it is about. ${where.fix}`,
    );
  if (where.kind === 'none') return undefined;
  let value: unknown = args;
  for (const step of where.name.split('.')) {
    value = typeof value === 'object' && value !== null && Object.hasOwn(value, step) ? (value as Record<string, unknown>)[step] : undefined;
  }
  if (value === undefined || value === null) {
    if (where.optional) return undefined;
    throw new PermissionsUsageError(
      `${route.label} takes the resource id from argument ${JSON.stringify(where.name)}, but the call has none; the check is refused ` +
        `rather than run without a record id.`,
    );
  }
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return String(value);
  throw new PermissionsUsageError(`${route.label}: argument ${JSON.stringify(where.name)} is not one id (a string or a number).`);
}
