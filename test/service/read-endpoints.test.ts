/**
 * The other endpoints, with exact answers: `POST /v1/slice` is what `sliceFor` returns; `GET /v1/policy` the
 * version and vocabulary (no grants); `/healthz`; `/readyz` 503 until a policy is loaded, then 200; `/metrics`
 * in the Prometheus text format, counting decisions, refusals and the policy; unknown routes and methods a 404
 * problem; `/v1/openapi.json` the document made from the routes' schemas.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createDecisionService, decisionServiceOpenApi, type DecisionService, type OpenApiDocument } from '../../runtime/service/index.js';
import { memorySource } from '../live/memory-source.js';
import { ask, fixtureBundle, fixtureService, problem, recordingLogger, TOKEN, until, type JsonSchema } from './service-fixture.js';

const bundle = fixtureBundle();
const version = bundle.version;
let service: DecisionService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('POST /v1/slice', () => {
  it('is the user’s slice, exactly as sliceFor cuts it, with the version header', async () => {
    service = await fixtureService();
    const answer = await ask(service, { method: 'POST', url: '/v1/slice', payload: { user: { id: 1, roles: ['AUTHOR'] } } });
    expect([answer.status, answer.headers['x-permissions-version']]).toEqual([200, version]);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(service.permissions.sliceFor({ id: 1, roles: ['AUTHOR'] }))));
    expect(answer.body).toEqual({
      format: 1,
      version,
      plans: [
        [1, [['notes', null]]],
        [
          0,
          [
            ['id', null],
            ['title', null],
          ],
        ],
        [
          0,
          [
            ['body', null],
            ['title', null],
          ],
        ],
      ],
      grants: [
        [
          'article',
          [
            ['list', 1, 1, [0, 0], [0]],
            ['read', -1, 1, [0, 0], [0]],
            ['update', -1, 1, [0, 2], [0]],
          ],
        ],
      ],
    });
    expect(answer.text).not.toMatch(/AUTHOR|isAuthor|listAuthored|Authors read/);
  });
});

describe('GET /v1/policy', () => {
  it('is the active version, the vocabulary and the ownership methods; no role and no grant', async () => {
    service = await fixtureService();
    const answer = await ask(service, { method: 'GET', url: '/v1/policy' });
    expect([answer.status, answer.headers['x-permissions-version'], answer.body]).toEqual([
      200,
      version,
      {
        policyVersion: version,
        resources: [
          { name: 'article', idType: 'number' },
          { name: 'team', idType: 'string' },
        ],
        actions: ['create', 'delete', 'list', 'publish', 'read', 'update'],
        ownershipMethods: { isOwner: ['isAuthor'], listOwned: ['listAuthored'], limitOwned: ['limitToMember'], ownedAmong: ['teamsAmong'] },
        ownershipRules: { rules: [], relations: {} },
      },
    ]);
  });
});

describe('health and readiness', () => {
  it('/healthz answers at once; /readyz is 503 until the source has a policy, then 200 with its version; no token needed', async () => {
    const memory = memorySource(undefined, 'an empty store');
    service = await createDecisionService({ source: memory.source, tokens: [TOKEN], port: 0, logger: recordingLogger() });
    const noToken = { authorization: '' };
    expect(await ask(service, { method: 'GET', url: '/healthz', headers: noToken })).toMatchObject({ status: 200, body: { status: 'ok' } });
    const notReady = await ask(service, { method: 'GET', url: '/readyz', headers: noToken });
    expect([notReady.status, notReady.headers['content-type'], notReady.body]).toEqual([
      503,
      'application/problem+json; charset=utf-8',
      problem('not-ready', 503, 'Not ready', 'No policy is loaded yet; the service answers once its policy source has one.'),
    ]);
    // Decisions wait for a policy too.
    const check = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [] } });
    expect([check.status, check.body.type]).toEqual([503, 'urn:typed-permissions:problem:not-ready']);
    expect((await ask(service, { method: 'GET', url: '/v1/policy' })).status).toBe(503);
    expect((await ask(service, { method: 'POST', url: '/v1/slice', payload: { user: { id: 1, roles: [] } } })).status).toBe(503);

    memory.publish({ bundle, sequence: 1 });
    await until('the policy loaded', () => service?.policyVersion === version);
    expect(await ask(service, { method: 'GET', url: '/readyz', headers: noToken })).toMatchObject({
      status: 200,
      body: { status: 'ready', policyVersion: version },
    });
    const answered = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [{ user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'publish' }] },
    });
    expect([answered.status, answered.body.answers[0]?.granted]).toEqual([200, true]);
  }, 20_000);
});

describe('GET /metrics', () => {
  it('counts decisions by result, refusals by reason, the active policy and request latency, in the Prometheus text format', async () => {
    service = await fixtureService();
    await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: {
        checks: [
          { user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'read' },
          { user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'delete' },
          { user: { id: 1, roles: ['AUTHOR'] }, resource: 'article', action: 'read', resourceId: 3 },
          { user: { id: 1, roles: ['AUTHOR'] }, resource: 'article', action: 'read', resourceId: 3, ownedBy: [0] },
        ],
      },
    });
    await ask(service, { method: 'GET', url: '/v1/policy', headers: { authorization: '' } });
    await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [{ user: { id: 1, roles: [] }, resource: 'nothing', action: 'read' }] } });
    const metrics = await ask(service, { method: 'GET', url: '/metrics' });
    expect([metrics.status, metrics.headers['content-type']]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8']);
    const lines = metrics.text.split('\n');
    for (const line of [
      'typed_permissions_decisions_total{result="granted"} 2',
      'typed_permissions_decisions_total{result="denied"} 1',
      'typed_permissions_decisions_total{result="needs_ownership"} 1',
      `typed_permissions_policy_info{version="${version}"} 1`,
      'typed_permissions_requests_refused_total{reason="unauthorized"} 1',
      'typed_permissions_requests_refused_total{reason="invalid_request"} 1',
      'typed_permissions_request_duration_seconds_count{route="/v1/check",status="200"} 1',
      'typed_permissions_request_duration_seconds_count{route="/v1/check",status="400"} 1',
      'typed_permissions_request_duration_seconds_count{route="/v1/policy",status="401"} 1',
      'typed_permissions_policy_reloads_total 0',
      'typed_permissions_policy_rejections_total 0',
      'typed_permissions_policy_source_errors_total 0',
    ])
      expect([line, lines.includes(line)]).toEqual([line, true]);
    // Without a token the metrics are refused like the API.
    expect((await ask(service, { method: 'GET', url: '/metrics', headers: { authorization: '' } })).status).toBe(401);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/v2/check', 'There is no GET /v2/check; see GET /v1/openapi.json.'],
    ['GET', '/v1/check', 'There is no GET /v1/check; see GET /v1/openapi.json.'],
    ['DELETE', '/v1/policy?x=1', 'There is no DELETE /v1/policy; see GET /v1/openapi.json.'],
    ['POST', '/', 'There is no POST /; see GET /v1/openapi.json.'],
  ] as const)('%s %s is a 404 problem', async (method, url, detail) => {
    service = await fixtureService();
    const answer = await ask(service, { method, url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect([answer.status, answer.headers['content-type'], answer.body]).toEqual([
      404,
      'application/problem+json; charset=utf-8',
      problem('not-found', 404, 'Not found', detail),
    ]);
  });

  it('asked without a token, an unknown route is 401 like every other non-public one', async () => {
    service = await fixtureService();
    expect((await ask(service, { method: 'GET', url: '/admin', headers: { authorization: '' } })).status).toBe(401);
  });
});

describe('GET /v1/openapi.json', () => {
  it('is the OpenAPI 3.1 document of the routes, the same decisionServiceOpenApi() makes, its server the origin it is fetched from', async () => {
    service = await fixtureService();
    const answer = await ask(service, { method: 'GET', url: '/v1/openapi.json' });
    const document = answer.body as unknown as OpenApiDocument;
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(document).toEqual({
      ...(await decisionServiceOpenApi()),
      servers: [{ url: '/', description: 'This service: the origin this document was fetched from.' }],
    });
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/healthz', '/readyz', '/metrics', '/v1/check', '/v1/slice', '/v1/policy', '/v1/openapi.json']);
  });

  it('needs a token, like every /v1 route', async () => {
    service = await fixtureService();
    const answer = await ask(service, { method: 'GET', url: '/v1/openapi.json', headers: { authorization: '' } });
    expect([answer.status, answer.headers['www-authenticate'], answer.body['type']]).toEqual([
      401,
      'Bearer realm="typed-permissions"',
      'urn:typed-permissions:problem:unauthorized',
    ]);
  });

  it('states the limits the service runs with', async () => {
    service = await fixtureService({ limits: { maxChecks: 10, maxRoles: 3 } });
    const document = (await ask(service, { method: 'GET', url: '/v1/openapi.json' })).body as unknown as OpenApiDocument;
    const schemas = document.components.schemas as unknown as Readonly<Record<string, JsonSchema>>;
    expect([schemas['CheckRequest']?.properties['checks']?.maxItems, schemas['User']?.properties['roles']?.maxItems]).toEqual([10, 3]);
  });
});
