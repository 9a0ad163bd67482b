/**
 * What the decision service's routes share: the policy they answer from (once one is loaded), the limits,
 * tokens, metrics and logger, and the conventions of every answer (the policy-version header, documented schemas).
 */
import type { FastifySchema } from 'fastify';
import type { PrecompiledPermissions } from '../permissions/precompiled-permissions.js';
import type { Vocabulary } from '../core/tables/vocabulary.js';
import type { BearerTokens } from './bearer-tokens.js';
import type { RouteDocumentation } from './openapi-from-routes.js';
import { ServiceProblem } from './problem-details.js';
import type { ServiceLogger } from './service-logger.js';
import type { ResolvedServiceLimits } from './service-limits.js';
import type { ServiceMetrics } from './service-metrics.js';

/** The policy the routes answer from: the engine and the vocabulary checks are validated against, once one is loaded. */
export interface ServedPolicy {
  readonly engine: PrecompiledPermissions;
  readonly vocabulary: Vocabulary;
}

/** What the server is made of. */
export interface DecisionServerContext {
  readonly limits: ResolvedServiceLimits;
  readonly tokens: BearerTokens;
  readonly allowAnonymous: boolean;
  readonly metrics: ServiceMetrics;
  readonly logger: ServiceLogger;
  /** The policy, or undefined while none is loaded (the service is not ready). */
  readonly policy: () => ServedPolicy | undefined;
}

/** The header every decision answer carries: the policy version it was decided on. */
export const POLICY_VERSION_HEADER = 'x-permissions-version';

/**
 * The policy of `context`, or a 503 problem while none is loaded.
 *
 * @example
 * ```ts
 * const { engine, vocabulary } = servedPolicy(context); // throws ServiceProblem('not-ready', …) before the first version
 * ```
 */
export function servedPolicy(context: DecisionServerContext): ServedPolicy {
  const policy = context.policy();
  if (policy === undefined) throw new ServiceProblem('not-ready', 'No policy is loaded yet; the service answers once its policy source has one.');
  return policy;
}

/**
 * A route's schema with the words of its documentation (which Fastify's own schema type does not name, and ignores).
 *
 * @example
 * ```ts
 * server.get('/healthz', { schema: documented({ operationId: 'health', summary: 'Liveness', security: [], response: { 200: health } }) }, handler);
 * ```
 */
export function documented(schema: RouteDocumentation): FastifySchema {
  return schema;
}
