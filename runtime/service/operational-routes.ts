/**
 * The routes of operations: `/healthz` and `/readyz` for a load balancer's probes (no token), `/metrics` for
 * Prometheus (with a token, like the API, but never rate-limited).
 */
import type { FastifyInstance } from 'fastify';
import { documented, servedPolicy, type DecisionServerContext } from './server-context.js';
import { bodyResponse, problemResponses } from './service-schemas.js';

/** The routes anyone may call: a load balancer's probes. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * Registers `/healthz`, `/readyz` and `/metrics` on `server`.
 *
 * @example
 * ```ts
 * registerOperationalRoutes(server, context);
 * ```
 */
export function registerOperationalRoutes(server: FastifyInstance, context: DecisionServerContext): void {
  server.get(
    '/healthz',
    {
      schema: documented({
        operationId: 'health',
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: bodyResponse('The process answers.', 'HealthResponse') },
      }),
    },
    () => ({ status: 'ok' as const }),
  );
  server.get(
    '/readyz',
    {
      schema: documented({
        operationId: 'ready',
        summary: 'Readiness: a policy is loaded',
        security: [],
        response: {
          200: bodyResponse('A policy is loaded: the service answers with this version.', 'ReadyResponse'),
          ...problemResponses({ 503: 'No policy is loaded yet.' }),
        },
      }),
    },
    () => ({ status: 'ready' as const, policyVersion: servedPolicy(context).engine.policyVersion }),
  );
  const { registry } = context.metrics;
  server.get(
    '/metrics',
    {
      schema: documented({
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        response: {
          200: bodyResponse('The metrics, in the Prometheus text format.', 'Metrics', { mediaType: 'text/plain' }),
          ...problemResponses({ 401: 'No bearer token, or one the service does not accept.' }),
        },
      }),
    },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
}
