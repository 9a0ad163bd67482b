/**
 * The decision log and OpenTelemetry through the integrations: NestJS (REST and GraphQL), express and Fastify log every
 * guarded decision with `via`, send its call id as `x-permissions-call-id` (the same as the event's, so an
 * application's logs can be joined to it), and each guarded decision is a span `typed_permissions.decide` with a
 * counter of decisions by result, when an OpenTelemetry SDK is registered.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import express from 'express';
import Fastify from 'fastify';
import request from 'supertest';
import { Permissions, type DecisionEvent, type User } from '../../runtime/permissions/index.js';
import { createPermitMiddleware, permitOf } from '../../runtime/express/index.js';
import { createPermitHook, fastifyPermissions, permitOf as fastifyPermitOf } from '../../runtime/fastify/index.js';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule, PermissionsService, createPermissionsGuard } from '../../runtime/nest/index.js';
import {
  DOCUMENT_DEFINITIONS,
  HandlerLog,
  InMemoryOwnership,
  integerId,
  makeDocumentsController,
  startApp,
  userFromHeader,
  type TestApp,
} from '../nest/fixtures/documents.fixture.js';
import { gqlDocumentsModule, postGraphQL } from '../nest/fixtures/graphql/graphql-app.fixture.js';
import { GqlDocumentsResolver } from '../nest/fixtures/graphql/graphql-documents.resolvers.js';

/** Collects metrics on demand. */
class ManualReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const spans = new InMemorySpanExporter();
const reader = new ManualReader();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The counter's points: attributes → value. */
async function decisionCounts(): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const counts: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== 'typed_permissions.decisions') continue;
      for (const point of metric.dataPoints) counts[JSON.stringify(point.attributes)] = point.value as number;
    }
  }
  return counts;
}

/** The attributes of the finished decide spans, and their status codes. */
function decideSpans(): { attributes: Record<string, unknown>; status: number }[] {
  return spans
    .getFinishedSpans()
    .filter((span) => span.name === 'typed_permissions.decide')
    .map((span) => ({ attributes: { ...span.attributes }, status: span.status.code }));
}

beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

describe('NestJS REST', () => {
  const events: DecisionEvent[] = [];
  let app: TestApp;
  const DocumentsGuard = createPermissionsGuard({ resource: 'document' });

  beforeAll(async () => {
    app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          projectResourceId: integerId,
          definitions: [...DOCUMENT_DEFINITIONS],
          logger: { warn: () => undefined },
          onDecision: (event) => void events.push(event),
        }),
      ],
      controllers: [makeDocumentsController(DocumentsGuard)],
      providers: [HandlerLog, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }],
    });
  }, 30_000);
  afterAll(async () => {
    await app.close();
  });

  it('logs each guarded decision via nest, with the call id the response carries; spans and counts it', async () => {
    spans.reset();
    const owned = await request(app.getHttpServer()).get('/documents/1').set('x-user-id', '1');
    const refused = await request(app.getHttpServer()).get('/documents/3').set('x-user-id', '1');
    await app.get(PermissionsService).permissions.decisionLog?.flush();
    expect([owned.status, refused.status]).toEqual([200, 403]);
    expect(events.map((event) => [event.via, event.resourceId, event.granted, event.possession, event.ownershipChecked])).toEqual([
      ['nest', 1, true, 'own', true],
      ['nest', 3, false, null, true],
    ]);
    expect([owned.headers['x-permissions-call-id'], refused.headers['x-permissions-call-id']]).toEqual(events.map((event) => event.callId));
    expect(events[0]?.callId).toMatch(UUID);
    expect(decideSpans()).toEqual([
      {
        status: 0,
        attributes: {
          'typed_permissions.via': 'nest',
          'typed_permissions.resource': 'document',
          'typed_permissions.action': 'read',
          'typed_permissions.granted': true,
          'typed_permissions.possession': 'own',
          'typed_permissions.policy.version': owned.headers['x-permissions-version'],
          'typed_permissions.call_id': events[0]?.callId,
        },
      },
      {
        status: 0,
        attributes: {
          'typed_permissions.via': 'nest',
          'typed_permissions.resource': 'document',
          'typed_permissions.action': 'read',
          'typed_permissions.granted': false,
          'typed_permissions.possession': 'none',
          'typed_permissions.policy.version': refused.headers['x-permissions-version'],
          'typed_permissions.call_id': events[1]?.callId,
        },
      },
    ]);
  });
});

describe('NestJS GraphQL', () => {
  const events: DecisionEvent[] = [];
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp(
      gqlDocumentsModule({ resolvers: [GqlDocumentsResolver], logger: { warn: () => undefined }, onDecision: (event) => void events.push(event) }),
    );
  }, 30_000);
  afterAll(async () => {
    await app.close();
  });

  it('logs each resolver decision via graphql', async () => {
    spans.reset();
    const answer = await postGraphQL(app, '{ document(id: 2) { id } }', { userId: 1 });
    await app.get(PermissionsService).permissions.decisionLog?.flush();
    expect(answer.body).toEqual({ data: { document: { id: 2 } } });
    expect(events.map((event) => [event.via, event.action, event.resourceId, event.granted])).toEqual([['graphql', 'read', 2, true]]);
    expect(decideSpans().map((span) => span.attributes['typed_permissions.via'])).toEqual(['graphql']);
  });
});

type AppUser = User<number>;
const EXPRESS_DEFINITIONS = [
  { roles: ['READER'], resource: 'doc', grant: ['read:any'] },
  { roles: ['OWNER'], resource: 'doc', possession: 'own' as const, grant: ['read'], isOwner: 'isMine', listOwned: 'listMine' },
];
const failingOwnership = {
  isMine: () => {
    throw new Error('the ownership database is down');
  },
  listMine: () => [],
};

function expressApp(permissions: Permissions<AppUser>, user: AppUser): express.Express {
  const permit = createPermitMiddleware({ permissions, resource: 'doc', getUser: () => user });
  const app = express();
  app.get('/docs/:id', permit({ action: 'read' }), (req, res) => {
    res.json({ id: permitOf(req).resourceId });
  });
  app.use((error: Error, req: express.Request, res: express.Response, next: express.NextFunction) => {
    // Four parameters make it express's error handler; only the response is used.
    void [req, next];
    res.status(500).json({ error: error.message });
  });
  return app;
}

describe('express', () => {
  it('logs via express and sends the call id; a failing hook is a span with an error status and an error count', async () => {
    spans.reset();
    const events: DecisionEvent[] = [];
    const permissions = new Permissions<AppUser>({
      ownership: failingOwnership,
      resourceIdTypes: { doc: 'number' },
      logger: { warn: () => undefined },
      onDecision: (event) => void events.push(event),
    })
      .addPermissions(EXPRESS_DEFINITIONS, { source: 'doc rules' })
      .build();
    const before = await decisionCounts();
    const read = await request(expressApp(permissions, { id: 5, roles: ['READER'] })).get('/docs/7');
    const failed = await request(expressApp(permissions, { id: 5, roles: ['OWNER'] })).get('/docs/7');
    await permissions.decisionLog?.flush();
    expect([read.status, read.body, failed.status]).toEqual([200, { id: 7 }, 500]);
    // The failed decision is no decision: nothing is logged for it, and no call id is sent.
    expect(events.map((event) => [event.via, event.granted, event.definitions])).toEqual([['express', true, [{ source: 'doc rules', index: 0 }]]]);
    expect([read.headers['x-permissions-call-id'], failed.headers['x-permissions-call-id']]).toEqual([events[0]?.callId, undefined]);
    expect(decideSpans().map((span) => [span.attributes['typed_permissions.granted'], span.status])).toEqual([
      [true, 0],
      [undefined, 2],
    ]);
    const after = await decisionCounts();
    const key = (result: string) =>
      JSON.stringify({ 'typed_permissions.result': result, 'typed_permissions.via': 'express', 'typed_permissions.resource': 'doc' });
    expect([(after[key('granted')] ?? 0) - (before[key('granted')] ?? 0), (after[key('error')] ?? 0) - (before[key('error')] ?? 0)]).toEqual([1, 1]);
  });

  it('telemetry: false traces nothing; { userId: true } adds the user id; direct grantPermit is never traced', async () => {
    const quiet = { warn: () => undefined };
    const off = new Permissions<AppUser>({ resourceIdTypes: { doc: 'number' }, logger: quiet, telemetry: false })
      .addPermissions(EXPRESS_DEFINITIONS.slice(0, 1))
      .build();
    const withUser = new Permissions<AppUser>({ resourceIdTypes: { doc: 'number' }, logger: quiet, telemetry: { userId: true } })
      .addPermissions(EXPRESS_DEFINITIONS.slice(0, 1))
      .build();
    spans.reset();
    await request(expressApp(off, { id: 5, roles: ['READER'] })).get('/docs/7');
    await off.grantPermit({ user: { id: 5, roles: ['READER'] }, resource: 'doc', action: 'read' });
    await withUser.grantPermit({ user: { id: 5, roles: ['READER'] }, resource: 'doc', action: 'read' });
    expect(decideSpans()).toEqual([]);
    await request(expressApp(withUser, { id: 5, roles: ['READER'] })).get('/docs/7');
    expect(decideSpans().map((span) => span.attributes['typed_permissions.user.id'])).toEqual([5]);
  });
});

describe('fastify', () => {
  it('logs via fastify and sends the call id; a failing hook is a span with an error status and an error count', async () => {
    spans.reset();
    const events: DecisionEvent[] = [];
    const permissions = new Permissions<AppUser>({
      ownership: failingOwnership,
      resourceIdTypes: { doc: 'number' },
      logger: { warn: () => undefined },
      onDecision: (event) => void events.push(event),
    })
      .addPermissions(EXPRESS_DEFINITIONS, { source: 'doc rules' })
      .build();
    const permit = createPermitHook({
      permissions,
      resource: 'doc',
      getUser: (request): AppUser => (request.headers['x-role'] === 'OWNER' ? { id: 5, roles: ['OWNER'] } : { id: 5, roles: ['READER'] }),
      onServerError: () => undefined,
    });
    const app = Fastify();
    await app.register(fastifyPermissions);
    app.get('/docs/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) => reply.send({ id: fastifyPermitOf(request).resourceId }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const before = await decisionCounts();
      const read = await request(app.server).get('/docs/7').set('connection', 'close');
      const failed = await request(app.server).get('/docs/7').set('x-role', 'OWNER').set('connection', 'close');
      await permissions.decisionLog?.flush();
      expect([read.status, read.body, failed.status]).toEqual([200, { id: 7 }, 500]);
      expect(events.map((event) => [event.via, event.granted, event.definitions])).toEqual([['fastify', true, [{ source: 'doc rules', index: 0 }]]]);
      expect([read.headers['x-permissions-call-id'], failed.headers['x-permissions-call-id']]).toEqual([events[0]?.callId, undefined]);
      expect(decideSpans().map((span) => [span.attributes['typed_permissions.via'], span.attributes['typed_permissions.granted'], span.status])).toEqual([
        ['fastify', true, 0],
        ['fastify', undefined, 2],
      ]);
      const after = await decisionCounts();
      const key = (result: string) =>
        JSON.stringify({ 'typed_permissions.result': result, 'typed_permissions.via': 'fastify', 'typed_permissions.resource': 'doc' });
      expect([(after[key('granted')] ?? 0) - (before[key('granted')] ?? 0), (after[key('error')] ?? 0) - (before[key('error')] ?? 0)]).toEqual([1, 1]);
    } finally {
      await app.close();
    }
  });
});
