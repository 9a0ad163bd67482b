/**
 * The HTTP side of the decision service, on Fastify: bearer-token authentication before anything else runs, one
 * JSON body parser, one error handler that answers every refusal as problem details (never a stack, never a 500
 * for bad input), no caching of answers, a latency histogram — and the routes, whose JSON Schemas both validate
 * requests and make the OpenAPI document (by @fastify/swagger, as Fastify registers them).
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { problemForError, REFUSAL_REASONS } from './error-problems.js';
import { parseJsonBody } from './json-body.js';
import { collectOpenApi, SERVED_DOCUMENT_SERVERS, type OpenApiDocument, type OpenApiServer } from './openapi-from-routes.js';
import { PUBLIC_ROUTES, registerOperationalRoutes } from './operational-routes.js';
import { PROBLEM_MEDIA_TYPE, ServiceProblem } from './problem-details.js';
import { authenticate } from './request-authentication.js';
import type { DecisionServerContext } from './server-context.js';
import type { ResolvedServiceLimits } from './service-limits.js';
import { serviceSchemas } from './service-schemas.js';
import { registerVersionedRoutes } from './versioned-routes.js';

/** A decision server, and the OpenAPI document of its routes. */
export interface DecisionServer {
  readonly server: FastifyInstance;
  /** The OpenAPI 3.1 document of the routes (complete once the server is ready). */
  readonly openApi: () => OpenApiDocument;
}

/** Fastify with the service's limits, a strict validator (no coercion, no defaults, the first error only) and no parser but JSON's. */
function fastifyWithLimits(limits: ResolvedServiceLimits): FastifyInstance {
  const server = Fastify({
    logger: false,
    bodyLimit: limits.maxBodyBytes,
    requestTimeout: limits.requestTimeoutMs,
    // Node checks request deadlines every connectionsCheckingInterval (30 s by default): check often enough that the limit holds.
    http: {
      headersTimeout: Math.min(limits.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(limits.requestTimeoutMs / 4))),
    },
    return503OnClosing: true,
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, allowUnionTypes: true } },
  });
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  return server;
}

/** Every refusal as problem details, counted by reason; internal errors logged with their stack, answered without it. */
function answerProblems(server: FastifyInstance, context: DecisionServerContext): void {
  const sendProblem = (reply: FastifyReply, problem: ServiceProblem): FastifyReply => {
    context.metrics.refusals.inc({ reason: REFUSAL_REASONS[problem.kind] });
    return reply.code(problem.statusCode).headers(problem.headers).type(PROBLEM_MEDIA_TYPE).send(JSON.stringify(problem.problem));
  };
  server.setErrorHandler((error, request, reply) => {
    const problem = problemForError(error as Error, context.limits);
    if (problem.kind === 'internal')
      context.logger.error(
        `${request.method} ${request.routeOptions.url ?? request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    return sendProblem(reply, problem);
  });
  server.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendProblem(reply, new ServiceProblem('not-found', `There is no ${request.method} ${shown}; see GET /v1/openapi.json.`));
  });
}

/** The hooks of every request: who is asking (first: nothing else runs without an accepted token), no caching, the latency. */
function addRequestHooks(server: FastifyInstance, context: DecisionServerContext, requestKeys: WeakMap<FastifyRequest, string>): void {
  server.addHook('onRequest', (request, _reply, done) => {
    try {
      if (!PUBLIC_ROUTES.has(request.routeOptions.url ?? ''))
        requestKeys.set(request, authenticate(request.headers.authorization, context.tokens, context.allowAnonymous));
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
  server.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
  server.addHook('onResponse', (request, reply, done) => {
    const labels = { route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) };
    context.metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The Fastify server of a decision service, ready to listen (or to answer `inject`). `documentServers` are the
 * servers its OpenAPI document names: by default the origin the document is fetched from.
 *
 * @example
 * ```ts
 * const { server } = await createDecisionServer(context);
 * const response = await server.inject({ method: 'GET', url: '/healthz' }); // 200 { status: 'ok' }
 * ```
 */
export async function createDecisionServer(
  context: DecisionServerContext,
  documentServers: readonly OpenApiServer[] = SERVED_DOCUMENT_SERVERS,
): Promise<DecisionServer> {
  const server = fastifyWithLimits(context.limits);
  answerProblems(server, context);
  const requestKeys = new WeakMap<FastifyRequest, string>();
  addRequestHooks(server, context, requestKeys);
  // The named schemas, before any route refers to them: what routes validate and answer with, and the document's components.
  for (const schema of Object.values(serviceSchemas(context.limits))) server.addSchema(schema);
  const openApi = await collectOpenApi(server, documentServers);
  registerOperationalRoutes(server, context);
  await server.register((api) => registerVersionedRoutes(api, context, requestKeys, openApi));
  return { server, openApi };
}
