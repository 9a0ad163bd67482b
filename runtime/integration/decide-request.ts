/**
 * The decision of a request, as data: the resource id it names (projected, or a 400 answer), then the permit —
 * granted, with the decision headers, or refused, with its 403 answer. An integration maps its framework's
 * request to the query and sends what comes back; every integration answers alike.
 */
import type { GrantQuery, Permissions, Permit, User } from '../permissions/index.js';
// The errors from their own file: the package's main entry would also load the run-time definition builder, which
// a bundle for a browser or a worker does not want.
import { PermissionsError, PermissionsInvalidIdError, PermissionsUsageError } from '../core/common/errors.js';
import { describeValue } from '../core/common/describe-value.js';
import { tenantIdProblem } from '../core/decision/tenant-id.js';
import { requestResourceId, type ProjectResourceId } from '../core/decision/resource-id.js';
import type { PermissionsSchema } from '../permissions/schema-types.js';
import type { TypedPermissions } from '../permissions/precompiled-permissions.js';
import { decisionHeaders, type DecisionHeaders } from './decision-headers.js';
import { forbiddenReason, type ErrorAnswer, type PermissionsErrorBody, type PermissionsForbiddenBody } from './error-answers.js';

/**
 * The resource id of a request: the id to check (undefined for a collection check), or the 400 answer.
 *
 * @example
 * ```ts
 * const requested = projectRequestId(raw, 'document', undefined);
 * if ('answer' in requested) return send(requested.answer);
 * ```
 */
export type RequestResourceId = { readonly resourceId: unknown } | { readonly answer: ErrorAnswer<PermissionsErrorBody> };

/**
 * The decision of a request: granted, with the permit, or refused, with the answer to send.
 *
 * @example
 * ```ts
 * const decision = await decideRequest(permissions, query, 'fastify');
 * if (!decision.granted) return reply.code(decision.answer.status).send(decision.answer.body);
 * ```
 */
export type RequestDecision<TUser extends User<unknown> = User<unknown>, TFilter = any> =
  | {
      readonly granted: true;
      readonly permit: Permit<TUser, unknown, TFilter>;
      /** The headers to send with the response. */
      readonly headers: DecisionHeaders;
    }
  | {
      readonly granted: false;
      /** The refusing permit; undefined for a 400 (the query was not decided). */
      readonly permit: Permit<TUser, unknown, TFilter> | undefined;
      /** The headers to send with the answer; undefined for a 400. */
      readonly headers: DecisionHeaders | undefined;
      /**
       * 403 when nothing is granted; 400 when the id is no id of the resource or the tenant no tenant id; 503 when
       * the tenant's custom roles cannot be read now.
       */
      readonly answer: ErrorAnswer<PermissionsErrorBody>;
    };

function invalidIdAnswer(error: PermissionsInvalidIdError): ErrorAnswer<PermissionsErrorBody> {
  return badRequest(error.message);
}

function badRequest(message: string): ErrorAnswer<PermissionsErrorBody> {
  return { status: 400, body: { statusCode: 400, error: 'Bad Request', message } };
}

/**
 * The engine's PermissionsTenantRolesError, told by its code: importing the class would load the tenants' cache
 * into every integration's bundle, which the engine loads only when a question first names a tenant.
 */
function isTenantRolesUnavailable(error: unknown): error is PermissionsError & { readonly tenant: string } {
  return error instanceof PermissionsError && error.code === 'PERMISSIONS_TENANT_ROLES_UNAVAILABLE';
}

/**
 * The 400 answer for the tenant a request names when it is no tenant id; undefined when it is one (or absent).
 * A tenant that is no string is the application's mistake (what `getTenant` returned), thrown as a usage error.
 */
function invalidTenantAnswer(tenant: unknown): ErrorAnswer<PermissionsErrorBody> | undefined {
  if (tenant === undefined) return undefined;
  if (typeof tenant !== 'string')
    throw new PermissionsUsageError(
      `The tenant of a request must be a tenant id (a string) or undefined, got ${describeValue(tenant)}: ` +
        'check what the tenant option returns (getTenant; extractTenantFromRequest in NestJS).',
    );
  const problem = tenantIdProblem(tenant);
  return problem === undefined ? undefined : badRequest(`The tenant of the request is no tenant id: it ${problem}.`);
}

/**
 * The id a request names from the raw text of its path parameter or argument (`undefined`: a collection check):
 * through the integration's `projectResourceId` when it has one (its `undefined` or `null` answers 400), else
 * the text, which the decision projects to the resource's declared id type (`'10'` → `10`; `'01'` answers 400
 * there). Whatever else the projection throws (a framework's own HTTP error) is thrown on.
 *
 * @example
 * ```ts
 * const id = projectRequestId(request.params.id, 'document', undefined); // { resourceId: '10' }
 * if ('answer' in id) return reply.code(id.answer.status).send(id.answer.body);
 * ```
 */
export function projectRequestId(raw: string | undefined, resource: string, projectResourceId: ProjectResourceId | undefined): RequestResourceId {
  if (raw === undefined) return { resourceId: undefined };
  try {
    return { resourceId: requestResourceId(raw, resource, projectResourceId) };
  } catch (error) {
    if (error instanceof PermissionsInvalidIdError) return { answer: invalidIdAnswer(error) };
    throw error;
  }
}

/**
 * Decides a request's query: `permissions.grantPermitVia(query, via)`, where `via` is the integration's label for
 * the decision log and spans (`'fastify'`: a letter, then letters, digits, `.`, `_` or `-`, at most 32
 * characters). Resolves to the permit and the headers when granted; to the 403 answer (with the headers) when
 * nothing is granted; to the 400 answer when the id is no id of the resource, or the query's `tenant` (what the
 * integration's `getTenant` returned) is a string that is no tenant id; to the 503 answer when the tenant's
 * custom roles cannot be read now (the source is down). Rejects with what else went wrong (an ownership hook
 * that failed, a malformed query, a tenant that is no string): answer it with `answerOfError` (500).
 *
 * @example
 * ```ts
 * const decision = await decideRequest(permissions, { user, resource: 'document', action: 'read', resourceId: '10' }, 'fastify');
 * if (decision.headers !== undefined) reply.headers(decision.headers);
 * if (!decision.granted) return reply.code(decision.answer.status).send(decision.answer.body);
 * request.permit = decision.permit;
 * ```
 */
export async function decideRequest<TUser extends User<unknown>, TFilter>(
  permissions: Permissions<TUser, TFilter>,
  query: GrantQuery<TUser>,
  via: string,
): Promise<RequestDecision<TUser, TFilter>> {
  const tenantAnswer = invalidTenantAnswer((query as { readonly tenant?: unknown }).tenant);
  if (tenantAnswer !== undefined) return { granted: false, permit: undefined, headers: undefined, answer: tenantAnswer };
  let permit: Permit<TUser, unknown, TFilter>;
  try {
    permit = await permissions.grantPermitVia(query, via);
  } catch (error) {
    if (error instanceof PermissionsInvalidIdError) return { granted: false, permit: undefined, headers: undefined, answer: invalidIdAnswer(error) };
    if (isTenantRolesUnavailable(error)) {
      // The source's own words (a host, a path) stay out of the answer.
      const message = `The custom roles of tenant ${JSON.stringify(error.tenant)} cannot be read now; try again later.`;
      return {
        granted: false,
        permit: undefined,
        headers: undefined,
        answer: { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message } },
      };
    }
    throw error;
  }
  const headers = decisionHeaders(permit);
  if (permit.granted) return { granted: true, permit, headers };
  const answer: ErrorAnswer<PermissionsForbiddenBody> = {
    status: 403,
    body: { statusCode: 403, error: 'Forbidden', message: `${query.action} on ${query.resource} is not granted`, reason: forbiddenReason(permit.reason) },
  };
  return { granted: false, permit, headers, answer };
}

/**
 * The engine an integration was given — what the generated `createPermissions()` returns (typed by the schema)
 * or a `Permissions` — checked once, at start: it must be an engine with a policy. `caller` starts the messages
 * (`'fastifyPermissions()'`).
 *
 * @example
 * ```ts
 * const permissions = permissionsEngineOf(options.permissions, 'fastifyPermissions()');
 * ```
 */
export function permissionsEngineOf<TUser extends User<unknown>, TFilter>(
  permissions: Permissions<TUser, TFilter> | TypedPermissions<PermissionsSchema, TUser, TFilter>,
  caller: string,
): Permissions<TUser, TFilter> {
  const engine: unknown =
    typeof permissions === 'object' && permissions !== null && 'grantPermitSync' in permissions && 'permissions' in permissions
      ? permissions.permissions
      : permissions;
  if (typeof engine !== 'object' || engine === null || typeof (engine as { grantPermit?: unknown }).grantPermit !== 'function')
    throw new PermissionsUsageError(
      `${caller}: options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).`,
    );
  if (!(engine as { built?: unknown }).built)
    throw new PermissionsUsageError(`${caller}: options.permissions is not built; call permissions.build() at boot (or use initPermissions) first.`);
  return engine as Permissions<TUser, TFilter>;
}
