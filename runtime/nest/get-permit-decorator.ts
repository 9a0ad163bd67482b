/**
 * `@GetPermit()`: injects the Permit the permissions guard obtained for the request.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { PermissionsUsageError } from '../permissions/index.js';
import { PERMIT_REQUEST_KEY } from './permissions-constants.js';
import { resolverCallOf, resolverPermitOf } from './graphql/resolver-call.js';

/**
 * A parameter decorator that injects the Permit the permissions guard created for this request (for
 * a GraphQL resolver: for this call of the resolver) through `grantPermit`. Carry it into the service and data layers and let it restrict records
 * (`isOwn`, `limitOwn`, `listOwn`, `filterPick`) and attributes (`pick`, `filterPick`).
 *
 * Used on a handler that no permissions guard checked (no guard, or `@SkipPermissions()`), it
 * throws a PermissionsUsageError (500) rather than inject `undefined`: a missing permit is a wiring
 * mistake, and failing loudly keeps data from leaking unfiltered.
 *
 * @example
 * ```ts
 * @Get(':id')
 * async read(@Param('id', ParseIntPipe) id: number, @GetPermit() permit: Permit<AppUser, number>) {
 *   return permit.pick(await this.documents.findById(id));
 * }
 * ```
 */
export const GetPermit: () => ParameterDecorator = createParamDecorator(permitOfContext);

/** What `@GetPermit()` injects: the permit the guard stored for this request, or this resolver call. */
function permitOfContext(_data: unknown, context: ExecutionContext): unknown {
  const permit =
    context.getType<string>() === 'graphql'
      ? resolverPermitOf(resolverCallOf(context.getArgs()))
      : context.switchToHttp().getRequest<Record<symbol, unknown>>()[PERMIT_REQUEST_KEY];
  if (permit === undefined) {
    throw new PermissionsUsageError(
      `@GetPermit() on ${context.getClass().name}.${context.getHandler().name} found no permit: no permissions ` +
        `guard checked this handler (add @UseGuards(createPermissionsGuard(…)) to the controller, resolver or handler), or it ` +
        `is marked @SkipPermissions().`,
    );
  }
  return permit;
}

/**
 * @internal Whether method `methodName` of `owner` (or of a base class) has a `@GetPermit()` parameter, as
 * Nest's parameter metadata records it (per class and method name, each entry with its factory).
 *
 * @example
 * ```ts
 * class DocumentsController { @Get(':id') read(@GetPermit() permit: Permit) {} }
 * injectsPermit(DocumentsController, 'read'); // true
 * ```
 */
export function injectsPermit(owner: object, methodName: string): boolean {
  const params: unknown = Reflect.getMetadata(ROUTE_ARGS_METADATA, owner, methodName);
  if (typeof params !== 'object' || params === null) return false;
  return Object.values(params).some(
    (param: unknown) => typeof param === 'object' && param !== null && (param as { factory?: unknown }).factory === permitOfContext,
  );
}
