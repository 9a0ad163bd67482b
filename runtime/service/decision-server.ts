/**
 * The HTTP side of the decision service, on Fastify: bearer-token authentication before anything else runs, one
 * JSON body parser, one error handler that answers every refusal as problem details (never a stack, never a 500
 * for bad input), no caching of answers, a latency histogram — and the routes, whose JSON Schemas both validate
 * requests and make the OpenAPI document (by @fastify/swagger, as Fastify registers them).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { problemForError, REFUSAL_REASONS } from './error-problems.js';
import { parseJsonBody } from './json-body.js';
import { collectOpenApi, SERVED_DOCUMENT_SERVERS, type OpenApiDocument, type OpenApiServer } from './openapi-from-routes.js';
import { PUBLIC_ROUTES, registerOperationalRoutes } from './operational-routes.js';
import { notFoundProblem, PROBLEM_MEDIA_TYPE, ServiceProblem } from './problem-details.js';
import { authenticate } from './request-authentication.js';
import type { DecisionServerContext } from './server-context.js';
import type { ResolvedServiceLimits } from './service-limits.js';
import type { ServiceMetrics } from './service-metrics.js';
import { serviceSchemas } from './service-schemas.js';
import { registerVersionedRoutes } from './versioned-routes.js';

/** A decision server, and the OpenAPI document of its routes. */
export interface DecisionServer {
  readonly server: FastifyInstance;
  /** The OpenAPI 3.1 document of the routes (complete once the server is ready). */
  readonly openApi: () => OpenApiDocument;
}

/**
 * The answer to what never became a request — HTTP Node could not read, headers past its limit, a request that did
 * not arrive in time — as problem details like every other refusal (Fastify's own answer is plain JSON), counted,
 * and the connection closed.
 */
function clientErrorHandler(limits: ResolvedServiceLimits, metrics: ServiceMetrics): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // A connection reset by the client: nobody is there to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const problem =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ServiceProblem('request-timeout', `The request did not arrive within ${limits.requestTimeoutMs} ms.`)
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? new ServiceProblem('headers-too-large', "The request's headers are larger than the server reads.")
          : new ServiceProblem('invalid-request', 'The request is not HTTP the server can read.');
    metrics.refusals.inc({ reason: REFUSAL_REASONS[problem.kind] });
    const body = JSON.stringify(problem.problem);
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${problem.statusCode} ${STATUS_CODES[problem.statusCode] ?? ''}\r\nContent-Type: ${PROBLEM_MEDIA_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy(error);
  };
}

/** Fastify with the service's limits, a strict validator (no coercion, no defaults, the first error only) and no parser but JSON's. */
function fastifyWithLimits(limits: ResolvedServiceLimits, metrics: ServiceMetrics): FastifyInstance {
  const server = Fastify({
    clientErrorHandler: clientErrorHandler(limits, metrics),
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
  // Outside /v1 (which has a not-found answer of its own, rate-limited like its routes).
  server.setNotFoundHandler((request, reply) => sendProblem(reply, notFoundProblem(request.method, request.url)));
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
  const server = fastifyWithLimits(context.limits, context.metrics);
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
