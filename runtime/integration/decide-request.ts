/**
 * The decision of a request, as data: the resource id it names (projected, or a 400 answer), then the permit —
 * granted, with the decision headers, or refused, with its 403 answer. An integration maps its framework's
 * request to the query and sends what comes back; every integration answers alike.
 */
import { PermissionsInvalidIdError, PermissionsUsageError, type GrantQuery, type Permissions, type Permit, type User } from '../permissions/index.js';
import { requestResourceId, type ProjectResourceId } from '../core/decision/resource-id.js';
import type { PermissionsSchema } from '../permissions/schema-types.js';
import type { TypedPermissions } from '../permissions/precompiled-permissions.js';
import { decisionHeaders, type DecisionHeaders } from './decision-headers.js';
import { errorAnswer, type ErrorAnswer, type PermissionsErrorBody, type PermissionsForbiddenBody } from './error-answers.js';

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
      /** 403 when nothing is granted, 400 when the id is no id of the resource. */
      readonly answer: ErrorAnswer<PermissionsErrorBody>;
    };

function invalidIdAnswer(error: PermissionsInvalidIdError): ErrorAnswer<PermissionsErrorBody> {
  return { status: 400, body: { statusCode: 400, error: 'Bad Request', message: error.message } };
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
 * nothing is granted; to the 400 answer when the id is no id of the resource. Rejects with what else went wrong
 * (an ownership hook that failed, a malformed query): answer it with `answerOfError` (500).
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
  let permit: Permit<TUser, unknown, TFilter>;
  try {
    permit = await permissions.grantPermitVia(query, via);
  } catch (error) {
    if (error instanceof PermissionsInvalidIdError) return { granted: false, permit: undefined, headers: undefined, answer: invalidIdAnswer(error) };
    throw error;
  }
  const headers = decisionHeaders(permit);
  if (permit.granted) return { granted: true, permit, headers };
  const answer = errorAnswer(403, `${query.action} on ${query.resource} is not granted`) as ErrorAnswer<PermissionsForbiddenBody>;
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
