/**
 * The versioned API — `POST /v1/check`, `POST /v1/slice`, `GET /v1/policy`, `GET /v1/openapi.json` — in a Fastify
 * scope of its own, so that its routes share one rate limit per token (the probes and the metrics are not limited),
 * and so does a request to a `/v1/...` path no route answers: the limit counts every request to /v1 with a token.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerChecks, type CheckQuery, type CheckUser } from './check-answers.js';
import type { OpenApiDocument } from './openapi-from-routes.js';
import { policyAnswer } from './policy-answer.js';
import { notFoundProblem, ServiceProblem } from './problem-details.js';
import { documented, POLICY_VERSION_HEADER, servedPolicy, type DecisionServerContext } from './server-context.js';
import { bodyResponse, problemResponses, schemaRef } from './service-schemas.js';
import { withTenantsLoaded } from './tenant-loading.js';

interface CheckBody {
  readonly checks: readonly CheckQuery[];
  readonly policyVersion?: string | undefined;
}

interface SliceBody {
  readonly user: CheckUser;
  readonly tenant?: string | undefined;
}

const DECISION_PROBLEMS = problemResponses({
  400: 'The body is not what the schema says, or names what the policy does not have (the detail names the field and index).',
  401: 'No bearer token, or one the service does not accept.',
  413: 'The body is larger than the limit.',
  415: 'The body is not application/json.',
  429: 'Too many requests with this token; retry after retry-after seconds.',
  503: 'No policy is loaded yet, or the custom roles of a tenant the request names cannot be read now.',
});

const READ_PROBLEMS = problemResponses({
  401: 'No bearer token, or one the service does not accept.',
  429: 'Too many requests with this token; retry after retry-after seconds.',
  503: 'No policy is loaded yet.',
});

/** Decision answers name the policy version they were decided on in a header. */
const VERSIONED = { headers: [POLICY_VERSION_HEADER] } as const;

const OPENAPI_PROBLEMS = problemResponses({
  401: 'No bearer token, or one the service does not accept.',
  429: 'Too many requests with this token; retry after retry-after seconds.',
});

function registerCheckRoute(api: FastifyInstance, context: DecisionServerContext): void {
  api.post<{ Body: CheckBody }>(
    '/v1/check',
    {
      schema: documented({
        operationId: 'check',
        summary: 'Decide a batch of checks',
        description:
          'Each check asks whether user may perform action on resource (the record resourceId), in its tenant when it names one. The answers ' +
          'come in order, all from one policy version. Where ownership decides, the answer lists the ownership groups and the methods or rule ' +
          'that decide them; send ownedBy (the ' +
          'groups that own the record) for the final decision and attributes, or the record (and the user’s attributes) for the service to ' +
          'evaluate the rule groups on it.',
        body: schemaRef('CheckRequest'),
        response: {
          200: bodyResponse('One answer per check, in order, all from one policy version.', 'CheckResponse', VERSIONED),
          ...DECISION_PROBLEMS,
          ...problemResponses({ 409: 'The active policy version is not policyVersion.' }),
        },
      }),
    },
    async (request, reply) => {
      const { checks, policyVersion } = request.body;
      const asked = checks.map((check, i) => ({ field: `checks[${i}].tenant`, tenant: check.tenant }));
      const { answers, active } = await withTenantsLoaded(servedPolicy(context).engine, asked, context.limits.maxTenants, () => {
        // Read after the tenants are ready: every answer comes from the version active now.
        const { engine, vocabulary } = servedPolicy(context);
        const version = engine.policyVersion;
        if (policyVersion !== undefined && policyVersion !== version)
          throw new ServiceProblem(
            'policy-version-changed',
            `The active policy version is ${version}, not ${policyVersion}: ask again without ownedBy, or with the group numbers of version ${version}.`,
          );
        return { answers: answerChecks(engine, vocabulary, checks, context.limits.maxRelatedRecords), active: version };
      });
      for (const answer of answers)
        context.metrics.decisions.inc({ result: answer.needsOwnership ? 'needs_ownership' : answer.granted ? 'granted' : 'denied' });
      void reply.header(POLICY_VERSION_HEADER, answers[0]?.policyVersion ?? active);
      return { answers };
    },
  );
}

function registerSliceRoute(api: FastifyInstance, context: DecisionServerContext): void {
  api.post<{ Body: SliceBody }>(
    '/v1/slice',
    {
      schema: documented({
        operationId: 'getSlice',
        summary: 'The user’s slice, for a browser',
        description:
          'What permissions.sliceFor(user, { tenant }) returns: per resource and granted action, the any attributes and the ownership groups with the ' +
          'attributes they add. No role names, hook names or definition text. Serve it to the user’s browser and read it with createClient ' +
          'of typed-permissions/client.',
        body: schemaRef('SliceRequest'),
        response: { 200: bodyResponse('The user’s slice, as permissions.sliceFor(user) returns it.', 'SliceResponse', VERSIONED), ...DECISION_PROBLEMS },
      }),
    },
    async (request, reply) => {
      const { user, tenant } = request.body;
      const slice = await withTenantsLoaded(servedPolicy(context).engine, [{ field: 'tenant', tenant }], context.limits.maxTenants, () =>
        servedPolicy(context).engine.sliceFor(user, { tenant }),
      );
      void reply.header(POLICY_VERSION_HEADER, slice.version);
      return slice;
    },
  );
}

function registerPolicyRoute(api: FastifyInstance, context: DecisionServerContext): void {
  api.get(
    '/v1/policy',
    {
      schema: documented({
        operationId: 'getPolicy',
        summary: 'The active policy version and its vocabulary',
        description:
          'The resources (with their id types) and actions checks may name, the ownership methods the active version uses, and its ownership ' +
          'rules. No role grants.',
        response: { 200: bodyResponse('The active policy version and its vocabulary.', 'PolicyResponse', VERSIONED), ...READ_PROBLEMS },
      }),
    },
    (_request, reply) => {
      const { engine, vocabulary } = servedPolicy(context);
      const answer = policyAnswer(engine.tables, engine.policyVersion, vocabulary);
      void reply.header(POLICY_VERSION_HEADER, answer.policyVersion);
      return answer;
    },
  );
}

/**
 * Registers the versioned API on `api` (a scope of its own): the rate limit per token — `requestKeys` holds the key
 * of each authenticated request — then the routes.
 *
 * @example
 * ```ts
 * await server.register((api) => registerVersionedRoutes(api, context, requestKeys, openApi));
 * ```
 */
export async function registerVersionedRoutes(
  api: FastifyInstance,
  context: DecisionServerContext,
  requestKeys: WeakMap<FastifyRequest, string>,
  openApi: () => OpenApiDocument,
): Promise<void> {
  const { limits } = context;
  await api.register(rateLimit, {
    global: true,
    max: limits.rateLimitMax,
    timeWindow: limits.rateLimitWindowMs,
    hook: 'onRequest',
    keyGenerator: (request) => requestKeys.get(request) ?? `address:${request.ip}`,
    errorResponseBuilder: (_request, { after }) =>
      new ServiceProblem('rate-limited', `More than ${limits.rateLimitMax} requests in ${limits.rateLimitWindowMs} ms with this token; retry in ${after}.`),
  });
  registerCheckRoute(api, context);
  registerSliceRoute(api, context);
  registerPolicyRoute(api, context);
  // Fastify keeps one not-found answer per path prefix: this one, for /v1 and below, is counted by the same limit
  // (@fastify/rate-limit's hook, which it does not add to a not-found answer by itself).
  await api.register(
    (v1, _options, done) => {
      v1.setNotFoundHandler({ preHandler: v1.rateLimit() }, (request) => {
        throw notFoundProblem(request.method, request.url);
      });
      done();
    },
    { prefix: '/v1' },
  );
  api.get(
    '/v1/openapi.json',
    {
      schema: documented({
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of the service, with the limits it runs with. It needs a token, like every /v1 route.',
        response: { 200: bodyResponse('The OpenAPI document.', 'OpenApiDocument'), ...OPENAPI_PROBLEMS },
      }),
    },
    () => openApi(),
  );
}
