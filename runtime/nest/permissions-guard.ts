/**
 * `createPermissionsGuard()`: the guard that asks for a permit before a handler runs.
 */
import { BadRequestException, ForbiddenException, HttpException, Inject, Injectable, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import { PermissionsUsageError, type PermissionDefinition, type Permit, type User } from '../permissions/index.js';
import {
  answerOfError,
  decideRequest,
  errorOfThrown,
  projectRequestId,
  rawResourceIdOf,
  type DecisionHeaders,
  type ErrorAnswer,
  type PermissionsForbiddenBody,
} from '../integration/index.js';
import type { PermissionsGuardOptions } from './permissions-guard-options.js';
import { PERMIT_REQUEST_KEY } from './permissions-constants.js';
import { registerPermissionsGuard, type PermissionsGuardConfig, type PermissionsRoute } from './guarded-routes.js';
import { isPermissionsSkipped } from './permission-decorator.js';
import { isFieldResolver } from './graphql/resolver-methods.js';
import { rawResolverIdOf, requestOfResolverCall, resolverCallOf, storeResolverPermit } from './graphql/resolver-call.js';
import type { RouteHandler } from './nest-targets.js';
import { PermissionsService } from './permissions-service.js';

/** The request as the guard reads and writes it. */
interface GuardedRequest {
  readonly params?: Record<string, string | undefined>;
  [PERMIT_REQUEST_KEY]?: unknown;
}

/** The response header naming the policy version a guarded response was decided on. */
export { POLICY_VERSION_HEADER } from '../integration/index.js';

/** A 403 in Nest's own order of fields (message, error, statusCode, as its other exceptions), with the kit's reason. */
function forbiddenException({ message, reason }: PermissionsForbiddenBody): ForbiddenException {
  return new ForbiddenException({ message, error: 'Forbidden', statusCode: 403, reason });
}

/** The exception Nest answers a refusal of the integration kit with (its exception filter sends the same JSON body). */
function exceptionOf(answer: ErrorAnswer): HttpException {
  const { status, body } = answer;
  return status === 400
    ? new BadRequestException(body.message)
    : status === 403
      ? forbiddenException(body as PermissionsForbiddenBody)
      : new HttpException(body, status);
}

/** Whether `thrown` is a NestJS HttpException (false for a value whose prototype cannot be read: a Proxy whose traps throw). */
function isHttpException(thrown: unknown): boolean {
  try {
    return thrown instanceof HttpException;
  } catch {
    return false;
  }
}

/**
 * What the application's `extractUserFromRequest` or `extractTenantFromRequest` settles with; what it rejects with
 * is thrown as the guard's answer: an HttpException as it is; a value carrying a 4xx (or 503) status as the
 * integrations answer it (Express's body); anything else as an Error, which Nest answers 500 "Internal server error".
 * Left as thrown, Nest would send a plain object's own status and message, and a Proxy whose traps throw would end
 * the process.
 */
async function fromApplication<T>(asked: Promise<T>): Promise<T> {
  try {
    return await asked;
  } catch (error: unknown) {
    if (isHttpException(error)) throw error;
    const answer = answerOfError(error);
    throw answer.serverError ? errorOfThrown(error) : exceptionOf(answer);
  }
}

/** Sets the decision headers on an express (`setHeader`) or fastify (`header`) response whose headers are not sent yet. */
function setHeaders(response: unknown, headers: DecisionHeaders): void {
  const target = response as {
    setHeader?: (name: string, value: string) => unknown;
    header?: (name: string, value: string) => unknown;
    headersSent?: boolean;
  } | null;
  if (typeof target !== 'object' || target === null || target.headersSent === true) return;
  const set = typeof target.setHeader === 'function' ? target.setHeader : typeof target.header === 'function' ? target.header : undefined;
  if (set === undefined) return;
  for (const [name, value] of Object.entries(headers)) set.call(target, name, value);
}

function checkGuardOptions(options: unknown): PermissionsGuardOptions {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError('createPermissionsGuard(options): options must be an object { resource, resourceIdParam?, projectResourceId? }.');
  const { resource, resourceIdParam, projectResourceId } = options as Partial<PermissionsGuardOptions>;
  if (typeof resource !== 'string' || resource === '' || resource === '*')
    throw new PermissionsUsageError(`createPermissionsGuard(): resource must be the name of one resource, got ${JSON.stringify(resource)}.`);
  if (resourceIdParam !== undefined && resourceIdParam !== null && (typeof resourceIdParam !== 'string' || resourceIdParam === '')) {
    throw new PermissionsUsageError(
      `createPermissionsGuard(): resourceIdParam must be the name of a path parameter, or null, got ${JSON.stringify(resourceIdParam)}.`,
    );
  }
  if (projectResourceId !== undefined && typeof projectResourceId !== 'function')
    throw new PermissionsUsageError('createPermissionsGuard(): projectResourceId must be a function (id, { resource }) => id.');
  return { resource, resourceIdParam, projectResourceId };
}

/**
 * Creates a guard class for a controller (or single handlers). For each request it asks for a permit
 * for the handler's action on the guard's resource and, when the route has an id parameter, on that
 * record; it refuses with 403 (and the handler does not run) when nothing is granted, or when the
 * record is not owned and the action is not granted on any record. A granted permit is stored on the
 * request for `@GetPermit()`.
 *
 * - action: the handler method's name, unless `@Permission({ action })` overrides it;
 * - resource id: the path parameter `resourceIdParam` (default: `'id'` when it is the route's last
 *   parameter; `null` for none), resolved for every guarded handler when the application starts —
 *   a route that declares parameters but resolves no id parameter stops the start — and converted
 *   with `projectResourceId` (the guard's, else the module's), or by default to the resource's declared id
 *   type (`"idType": "number"`: `'10'` becomes `10`). An id that is no id of the resource (`'01'`, `'abc'`, a
 *   projection returning `undefined`) answers 400 before any check; a projection's HttpException is sent as is;
 * - the user: the module's `extractUserFromRequest`, asked once per request (its errors propagate:
 *   UnauthorizedException → 401);
 * - an ownership hook that throws, rejects or times out fails the request (500), the handler does not run.
 *
 * On a GraphQL resolver (`@Query()`, `@Mutation()`; `@nestjs/graphql`) the same rules hold per call: the
 * id comes from the argument `resourceIdParam` (default: an argument named `id`; dotted paths such as
 * `'input.id'` reach input objects), resolved against the schema when the application starts; the user
 * comes from the GraphQL context's `req`; the permit is kept for that one call (`@GetPermit()`), since an
 * operation runs many resolvers at once. Refusals surface as GraphQL errors (see `formatGraphQLError`).
 *
 * `definitions` are collected at start with those of `PermissionsModule.forRoot`, `forFeature` and
 * every other guard a controller or resolver uses, and built once: all take effect equally, wherever
 * they were written. Only guards that some controller or resolver actually uses contribute. What each
 * handler checks is worked out at start too; a request only looks it up.
 *
 * @example
 * ```ts
 * const DocumentsGuard = createPermissionsGuard({ resource: 'document' }, documentDefinitions);
 *
 * @Controller('documents')
 * @UseGuards(DocumentsGuard)
 * export class DocumentsController {
 *   @Get(':id')
 *   async read(@GetPermit() permit: Permit<AppUser, string>, @Param('id') id: string) {
 *     return permit.pick(await this.documents.findById(id));
 *   }
 * }
 *
 * @Resolver(() => DocumentModel)
 * @UseGuards(DocumentsGuard)
 * export class DocumentsResolver {
 *   @Query(() => DocumentModel, { nullable: true })
 *   async read(@Args('id', { type: () => Int }) id: number, @GetPermit() permit: Permit<AppUser, number>) {
 *     return permit.pick(await this.documents.findById(id));
 *   }
 * }
 * ```
 */
export function createPermissionsGuard(options: PermissionsGuardOptions, definitions: readonly PermissionDefinition[] = []): Type<CanActivate> {
  const config: PermissionsGuardConfig = { options: checkGuardOptions(options), definitions };
  if (!Array.isArray(definitions))
    throw new PermissionsUsageError('createPermissionsGuard(options, definitions): definitions must be an array of PermissionDefinitions.');

  @Injectable()
  class PermissionsGuard implements CanActivate {
    constructor(@Inject(PermissionsService) private readonly permissionsService: PermissionsService) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const type = context.getType<string>();
      // Nest types the handler as Function; it is the controller or resolver method, which RouteHandler describes.
      const handler = context.getHandler() as RouteHandler;
      if (type === 'graphql') return this.checkResolverCall(context, handler);
      if (type !== 'http')
        throw new PermissionsUsageError(
          `The permissions guard supports HTTP handlers and GraphQL resolvers, not ${type}; ask PermissionsService.grantPermit() yourself there.`,
        );
      const route = this.permissionsService.routeFor(config, context.getClass(), handler);
      if (route.skip) return true;
      const request = context.switchToHttp().getRequest<GuardedRequest>();
      const user = await fromApplication(this.permissionsService.userOf(request));
      const tenant = await fromApplication(this.permissionsService.tenantOf(request));
      request[PERMIT_REQUEST_KEY] = await this.grant(route, user, tenant, rawResourceIdOf(route, request.params), context.switchToHttp().getResponse(), 'nest');
      return true;
    }

    /** A `@Query()` or `@Mutation()` method: the id comes from its arguments, the permit is kept per call. */
    private async checkResolverCall(context: ExecutionContext, handler: RouteHandler): Promise<boolean> {
      if (isPermissionsSkipped(handler)) return true;
      if (isFieldResolver(handler)) {
        throw new PermissionsUsageError(
          `${context.getClass().name}.${handler.name} is a field resolver (@ResolveField), which the permissions guard does not check: ` +
            `its parent was checked by the root field's resolver. Mark it @SkipPermissions(), or guard the Query and Mutation methods only.`,
        );
      }
      const route = this.permissionsService.resolverRouteFor(config, context.getClass(), handler);
      if (route.skip) return true;
      const call = resolverCallOf(context.getArgs());
      const request = requestOfResolverCall(call, route.label);
      const user = await fromApplication(this.permissionsService.userOf(request));
      const tenant = await fromApplication(this.permissionsService.tenantOf(request));
      storeResolverPermit(call, await this.grant(route, user, tenant, rawResolverIdOf(route, call.args), (request as { res?: unknown }).res, 'graphql'));
      return true;
    }

    /**
     * Projects the raw id (the route's projection, else the resource's declared id type in grantPermit), asks for
     * the permit in the request's tenant, and refuses: 400 for an id that is no id of the resource or a tenant that
     * is no tenant id, 403 when nothing is granted, 503 when the tenant's custom roles cannot be read now.
     */
    private async grant(
      route: PermissionsRoute,
      user: User<unknown>,
      tenant: string | undefined,
      rawId: string | undefined,
      response: unknown,
      via: 'nest' | 'graphql',
    ): Promise<Permit> {
      const requested = projectRequestId(rawId, route.resource, route.projectResourceId);
      if ('answer' in requested) throw exceptionOf(requested.answer);
      const query = { user, resource: route.resource, action: route.action, resourceId: requested.resourceId, tenant };
      const decision = await decideRequest(this.permissionsService.permissions, query, via);
      // The policy that decided this response, granted or refused, and the decision's call id for the application's logs.
      if (decision.headers !== undefined) setHeaders(response, decision.headers);
      if (!decision.granted) throw exceptionOf(decision.answer);
      return decision.permit;
    }
  }

  Object.defineProperty(PermissionsGuard, 'name', { value: `PermissionsGuard(${config.options.resource})` });
  registerPermissionsGuard(PermissionsGuard, config);
  return PermissionsGuard;
}
