/**
 * The OpenAPI document (the committed docs/decision-service.openapi.json is checked by `npm run generate:check`):
 * every operation has a unique operationId; every request and response body, problems included, is a `$ref` to a
 * named component; the components are the very schemas Fastify validates and answers with; `servers` is a template
 * in the file and the origin the document is fetched from when served; and the security it states for each
 * operation is what the service enforces.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  decisionServiceOpenApi,
  DEFAULT_SERVICE_LIMITS,
  type DecisionService,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../../runtime/service/index.js';
import { serviceSchemas } from '../../runtime/service/service-schemas.js';
import { repoRoot } from '../compiler/helpers.js';
import { ask, fixtureService, type Answer } from './service-fixture.js';

/** Every operation of the document, as `METHOD /path`, in the document's order. */
function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Every `$ref` in `value`, in order. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

/** A schema Fastify holds as the document shows it: without its `$id`, its references to named schemas as component references. */
function asComponent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asComponent);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$id')
      .map(([key, inner]) => [key, key === '$ref' ? `#/components/schemas/${String(inner).replace(/#$/, '')}` : asComponent(inner)]),
  );
}

const COMPONENT = '#/components/schemas/';

/** A body each POST operation answers 200 to. */
const VALID_BODIES: Readonly<Record<string, unknown>> = { '/v1/check': { checks: [] }, '/v1/slice': { user: { id: 1, roles: [] } } };

/** Whether `answer` is one `operation` documents: its status, its media type, and the headers documented for it. */
function answerAsDocumented(operation: OpenApiOperation, answer: Answer): boolean {
  const response = operation.responses[String(answer.status)];
  const mediaType = answer.headers['content-type']?.split(';')[0] ?? '';
  // A HEAD answer has no body, and its operation documents none.
  const body = answer.text === '' ? response?.content === undefined : Object.keys(response?.content ?? {}).includes(mediaType);
  return response !== undefined && body && Object.keys(response.headers ?? {}).every((name) => answer.headers[name] !== undefined);
}
const committed = () => JSON.parse(readFileSync(join(repoRoot, 'docs', 'decision-service.openapi.json'), 'utf8')) as OpenApiDocument;

let service: DecisionService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('the OpenAPI document', () => {
  it('is the committed docs/decision-service.openapi.json', async () => {
    expect(committed()).toEqual(await decisionServiceOpenApi());
  });

  it('names every operation with a unique camelCase operationId, declared with its route', async () => {
    const operations = operationsOf(await decisionServiceOpenApi());
    expect(operations.map(({ method, path, operation }) => `${method} ${path} ${operation.operationId}`)).toEqual([
      'GET /healthz health',
      'HEAD /healthz healthHead',
      'GET /readyz ready',
      'HEAD /readyz readyHead',
      'GET /metrics metrics',
      'HEAD /metrics metricsHead',
      'POST /v1/check check',
      'POST /v1/slice getSlice',
      'GET /v1/policy getPolicy',
      'HEAD /v1/policy getPolicyHead',
      'GET /v1/openapi.json getOpenApiDocument',
      'HEAD /v1/openapi.json getOpenApiDocumentHead',
    ]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
  });

  it('refers to every request and response body by a named component, problems as application/problem+json', async () => {
    const bodies = operationsOf(await decisionServiceOpenApi()).flatMap(({ method, path, operation }) => [
      ...Object.entries(operation.requestBody?.content ?? {}).map(([type, { schema }]) => `${method} ${path} request ${type} ${JSON.stringify(schema)}`),
      ...Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {}).map(([type, { schema }]) => `${method} ${path} ${status} ${type} ${JSON.stringify(schema)}`),
      ),
    ]);
    const ref = (name: string) => JSON.stringify({ $ref: `${COMPONENT}${name}` });
    const problems = (at: string, statuses: readonly number[]) => statuses.map((status) => `${at} ${status} application/problem+json ${ref('Problem')}`);
    expect(bodies).toEqual([
      `GET /healthz 200 application/json ${ref('HealthResponse')}`,
      `GET /readyz 200 application/json ${ref('ReadyResponse')}`,
      ...problems('GET /readyz', [503]),
      `GET /metrics 200 text/plain ${ref('Metrics')}`,
      ...problems('GET /metrics', [401]),
      `POST /v1/check request application/json ${ref('CheckRequest')}`,
      `POST /v1/check 200 application/json ${ref('CheckResponse')}`,
      ...problems('POST /v1/check', [400, 401, 409, 413, 415, 429, 503]),
      `POST /v1/slice request application/json ${ref('SliceRequest')}`,
      `POST /v1/slice 200 application/json ${ref('SliceResponse')}`,
      ...problems('POST /v1/slice', [400, 401, 413, 415, 429, 503]),
      `GET /v1/policy 200 application/json ${ref('PolicyResponse')}`,
      ...problems('GET /v1/policy', [401, 429, 503]),
      `GET /v1/openapi.json 200 application/json ${ref('OpenApiDocument')}`,
      ...problems('GET /v1/openapi.json', [401, 429]),
    ]);
  });

  it('holds as components exactly the schemas Fastify validates and answers with, each referred to, every reference resolving', async () => {
    const document = await decisionServiceOpenApi();
    const schemas = serviceSchemas(DEFAULT_SERVICE_LIMITS);
    expect(document.components.schemas).toEqual(Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, asComponent(schema)])));
    expect(Object.keys(document.components.schemas)).toEqual([
      'User',
      'Check',
      'CheckRequest',
      'OwnershipGroup',
      'CheckAnswer',
      'CheckResponse',
      'SliceRequest',
      'SliceResponse',
      'PolicyResponse',
      'HealthResponse',
      'ReadyResponse',
      'Metrics',
      'OpenApiDocument',
      'Problem',
    ]);
    // What a running service's Fastify holds by $id is the same, object for object.
    service = await fixtureService();
    expect(service.server.getSchemas()).toEqual(schemas);

    const refs = refsIn(document);
    expect(refs.filter((target) => !target.startsWith(COMPONENT) || !(target.slice(COMPONENT.length) in document.components.schemas))).toEqual([]);
    expect(Object.keys(document.components.schemas).filter((name) => !refs.includes(`${COMPONENT}${name}`))).toEqual([]);
  });

  it('names a template server in the file, with the defaults of typed-permissions serve', async () => {
    expect((await decisionServiceOpenApi()).servers).toEqual([
      {
        url: '{scheme}://{host}:{port}',
        description: 'A decision service (typed-permissions serve); the defaults are those of serve.',
        variables: {
          scheme: { default: 'http', enum: ['http', 'https'], description: 'https where a load balancer or proxy terminates TLS in front of the service.' },
          host: { default: '127.0.0.1', description: 'The host the service is reached at (serve --host).' },
          port: { default: '8080', description: 'The port the service is reached at (serve --port).' },
        },
      },
    ]);
  });

  it('states who may call each operation as the service enforces it (the probes are open, the rest needs a token), and what it answers', async () => {
    const document = await decisionServiceOpenApi();
    expect(document.components.securitySchemes).toEqual({
      bearerToken: { type: 'http', scheme: 'bearer', description: 'One of the tokens the service accepts.' },
    });
    expect(document.security).toEqual([{ bearerToken: [] }]);
    const operations = operationsOf(document);
    expect(operations.map(({ method, path, operation }) => `${method} ${path} ${JSON.stringify(operation.security ?? 'bearerToken')}`)).toEqual([
      'GET /healthz []',
      'HEAD /healthz []',
      'GET /readyz []',
      'HEAD /readyz []',
      'GET /metrics "bearerToken"',
      'HEAD /metrics "bearerToken"',
      'POST /v1/check "bearerToken"',
      'POST /v1/slice "bearerToken"',
      'GET /v1/policy "bearerToken"',
      'HEAD /v1/policy "bearerToken"',
      'GET /v1/openapi.json "bearerToken"',
      'HEAD /v1/openapi.json "bearerToken"',
    ]);
    service = await fixtureService();
    for (const { method, path, operation } of operations) {
      const request = { method: method as 'GET' | 'HEAD' | 'POST', url: path, ...(method === 'POST' ? { payload: VALID_BODIES[path] } : {}) };
      const withoutToken = await ask(service, { ...request, headers: { authorization: '' } });
      expect([method, path, withoutToken.status === 401]).toEqual([method, path, operation.security === undefined]);
      expect([method, path, answerAsDocumented(operation, withoutToken)]).toEqual([method, path, true]);
      const withToken = await ask(service, request);
      expect([method, path, withToken.status]).toEqual([method, path, 200]);
      expect([method, path, answerAsDocumented(operation, withToken)]).toEqual([method, path, true]);
    }
  });

  it('names the headers answers carry: the policy version of a decision, the challenge of a 401, the wait of a 429', async () => {
    const headers = operationsOf(await decisionServiceOpenApi()).flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.keys(response.headers ?? {}).map((name) => `${method} ${path} ${status} ${name}`),
      ),
    );
    expect(headers).toEqual([
      'GET /metrics 401 www-authenticate',
      'HEAD /metrics 401 www-authenticate',
      'POST /v1/check 200 x-permissions-version',
      'POST /v1/check 401 www-authenticate',
      'POST /v1/check 429 retry-after',
      'POST /v1/slice 200 x-permissions-version',
      'POST /v1/slice 401 www-authenticate',
      'POST /v1/slice 429 retry-after',
      'GET /v1/policy 200 x-permissions-version',
      'GET /v1/policy 401 www-authenticate',
      'GET /v1/policy 429 retry-after',
      'HEAD /v1/policy 200 x-permissions-version',
      'HEAD /v1/policy 401 www-authenticate',
      'HEAD /v1/policy 429 retry-after',
      'GET /v1/openapi.json 401 www-authenticate',
      'GET /v1/openapi.json 429 retry-after',
      'HEAD /v1/openapi.json 401 www-authenticate',
      'HEAD /v1/openapi.json 429 retry-after',
    ]);
  });
});
