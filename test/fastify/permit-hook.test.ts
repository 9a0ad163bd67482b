/**
 * `permit({ action })` in a route's preHandler option, on a real Fastify server listening on loopback: the same
 * answers as Express's `permit()` — 200 with the permit on the request, 403 and 400 with the same JSON bodies,
 * 401 from the application's getUser, 404 from the application's handler, 500 with nothing of the error — the
 * same decision headers, one decision per request logged `via: 'fastify'`, and hostile input refused.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { PermissionsHookError, PermissionsUsageError } from 'typed-permissions';
import { createPermitHook, fastifyPermissions, permitOf } from 'typed-permissions/fastify';
import { ask, closeAll, documentsEngine, FORBIDDEN, INTERNAL, permitFor, serve, userOf, type GuardedServer } from './fastify-fixture.js';

afterEach(closeAll, 30_000);

/** A getter or Proxy trap of a hostile thrown value, whose message must not reach the caller. */
const failingGetter = (): never => {
  throw new Error('cannot compute status: db-7.internal:5432 down');
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const notADocumentId = (id: string) =>
  `${id.length > 40 ? `${JSON.stringify(id.slice(0, 40))}…` : JSON.stringify(id)} is not an id of "document": its ids are an integer written in decimal ` +
  'without leading zeros, within ±9007199254740991 (such as 42).';

/** GET /documents/:id (read), GET /documents (list), DELETE /documents/:id; each handler counts its runs. */
async function documentsServer(): Promise<GuardedServer & { ran: string[] }> {
  const ran: string[] = [];
  const server = await serve(async (app, permit) => {
    await app.register(fastifyPermissions);
    app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) => {
      ran.push('read');
      const permit = permitOf<{ id: number; roles: string[] }, number>(request);
      // The application's own 404, for a document nobody has: only after the check let the request through.
      if ((permit.resourceId as number) > 100) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
      return reply.send({ read: permit.resourceId, granted: permit.granted });
    });
    app.get('/documents', { preHandler: [permit({ action: 'list' })] }, (request, reply) => {
      ran.push('list');
      return reply.send({ list: permitOf(request).resourceId ?? null });
    });
    app.delete('/documents/:id', { preHandler: permit({ action: 'delete' }) }, (request, reply) => {
      ran.push('delete');
      return reply.send({ deleted: permitOf(request).resourceId });
    });
  });
  return { ...server, ran };
}

describe('fastify permit({ action }) per route, on a real server', () => {
  it("a record route checks that record: own 200 with the permit on the request, someone else's 403 with the Express body", async () => {
    const server = await documentsServer();
    expect(await ask(server, '/documents/2', { userId: '1' })).toMatchObject({ status: 200, body: { read: 2, granted: true } });
    expect(await ask(server, '/documents/3', { userId: '1' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await ask(server, '/documents', { userId: '1' })).toMatchObject({ status: 200, body: { list: null } });
    expect(await ask(server, '/documents/3', { userId: '1', method: 'DELETE' })).toMatchObject({
      status: 403,
      body: { statusCode: 403, error: 'Forbidden', message: 'delete on document is not granted', reason: 'not-owner' },
    });
    expect(await ask(server, '/documents/1', { userId: '2' })).toMatchObject({ status: 403, body: FORBIDDEN });
    // The anonymous placeholder's role has no definition: nothing is granted.
    expect(await ask(server, '/documents')).toMatchObject({
      status: 403,
      // ANONYMOUS is no role of the policy ('unknown-role' on the permit): the caller is told 'no-grant'.
      body: { statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' },
    });
    expect(server.ran).toEqual(['read', 'list']);
    expect(server.serverErrors).toEqual([]);
  });

  it('sends the decision headers with granted and refused answers, the call id the decision log holds; one decision per request, via fastify', async () => {
    const server = await documentsServer();
    const granted = await ask(server, '/documents/1', { userId: '1' });
    const refused = await ask(server, '/documents/3', { userId: '1' });
    const head = await ask(server, '/documents/3', { method: 'HEAD', userId: '1' });
    const events = await server.decisions();
    expect(events.map((event) => [event.via, event.action, event.resourceId, event.granted])).toEqual([
      ['fastify', 'read', 1, true],
      ['fastify', 'read', 3, false],
      ['fastify', 'read', 3, false], // HEAD, which Fastify routes beside each GET, is checked as the GET
    ]);
    expect([granted.callId, refused.callId, head.callId]).toEqual(events.map((event) => event.callId));
    expect(granted.callId).toMatch(UUID);
    expect([granted.version, refused.version, head.version]).toEqual(events.map((event) => event.policyVersion));
    expect([head.status, head.body]).toEqual([403, null]);
  });

  it('a malformed id is 400 with the reason, never checked and without decision headers — also a long one', async () => {
    const server = await documentsServer();
    // 100 characters: the longest path parameter Fastify's router passes on (its maxParamLength).
    for (const id of ['abc', '01', '-0', '1.5', '1e3', ' 1', '9'.repeat(100), 'x'.repeat(100)]) {
      expect(await ask(server, `/documents/${encodeURIComponent(id)}`, { userId: '1' })).toEqual({
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: notADocumentId(id) },
        version: null,
        callId: null,
      });
    }
    // A longer parameter (414) and a malformed percent-encoding (400) never reach a route: Fastify's router answers.
    expect(await ask(server, `/documents/${'9'.repeat(101)}`, { userId: '1' })).toMatchObject({
      status: 414,
      body: { statusCode: 414, code: 'FST_ERR_MAX_PARAM_LENGTH' },
    });
    expect((await ask(server, '/documents/%E0%A4%A', { userId: '1' })).status).toBe(400);
    expect(await server.decisions()).toEqual([]);
    expect(server.ran).toEqual([]);
  });

  it('an unknown user is 401 with the message getUser threw; 404 is the application handler’s, after the check', async () => {
    const server = await documentsServer();
    expect(await ask(server, '/documents/1', { userId: 'mallory' })).toEqual({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user.' },
      version: null,
      callId: null,
    });
    expect(await ask(server, '/documents/999', { userId: '5' })).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'No such document.' },
    });
    // An employee is refused a document nobody has: the check comes first, so its existence does not show (the
    // same 'not-owner' as for someone else's document).
    expect(await ask(server, '/documents/999', { userId: '1' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(server.ran).toEqual(['read']);
  });

  it('getUser, an ownership method and projectResourceId that throw: 500 with nothing of the error; the handler never runs', async () => {
    let ran = 0;
    const server = await serve(
      async (app, permit) => {
        await app.register(fastifyPermissions);
        app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: ++ran }));
      },
      {
        projectResourceId: (raw) => {
          if (raw === 'explode') throw new Error('projection bug');
          return /^[1-9]\d*$/.test(raw) ? Number(raw) : undefined;
        },
      },
    );
    for (const [path, userId] of [
      ['/documents/1', 'boom'],
      ['/documents/1', '9'],
      ['/documents/explode', '1'],
    ] as const)
      expect(await ask(server, path, { userId })).toEqual({ status: 500, body: INTERNAL, version: null, callId: null });
    expect(server.serverErrors.map((error) => [(error as Error).constructor.name, (error as Error).message])).toEqual([
      ['Error', 'the session store is down'],
      [PermissionsHookError.name, 'Ownership hook isCreator threw: the ownership database is down'],
      ['Error', 'projection bug'],
    ]);
    // projectResourceId's undefined is a 400 like the declared id type's.
    expect(await ask(server, '/documents/abc', { userId: '1' })).toMatchObject({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: '"abc" is not an id of "document".' },
    });
    expect(ran).toBe(0);
  });

  it('an application with an asynchronous onSend hook (compression, an etag): every refusal still keeps the handler from running', async () => {
    let ran = 0;
    const server = await serve(async (app, permit) => {
      // Holds every answer back for a moment, as a compressing or logging onSend hook does: a refusal sent from the
      // preHandler is not written yet when the hook returns.
      app.addHook('onSend', async (_request, _reply, payload) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return payload;
      });
      await app.register(fastifyPermissions);
      app.delete('/documents/:id', { preHandler: permit({ action: 'delete' }) }, (_request, reply) => reply.send({ ran: ++ran }));
    });
    expect(await ask(server, '/documents/3', { method: 'DELETE', userId: '1' })).toMatchObject({
      status: 403,
      body: { ...FORBIDDEN, message: 'delete on document is not granted' },
    });
    expect(await ask(server, '/documents/abc', { method: 'DELETE', userId: '1' })).toMatchObject({ status: 400 });
    expect(await ask(server, '/documents/3', { method: 'DELETE', userId: 'stranger' })).toMatchObject({ status: 401 });
    expect(await ask(server, '/documents/3', { method: 'DELETE', userId: 'boom' })).toMatchObject({ status: 500, body: INTERNAL });
    expect(ran).toBe(0);
    // A granted request still reaches the handler, once.
    expect(await ask(server, '/documents/1', { method: 'DELETE', userId: '1' })).toMatchObject({ status: 200, body: { ran: 1 } });
  });

  it('an onServerError that throws changes nothing of the 500 answer', async () => {
    const server = await serve(
      async (app, permit) => {
        await app.register(fastifyPermissions);
        app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: true }));
      },
      {
        onServerError: () => {
          throw new Error('the log shipper is down');
        },
      },
    );
    expect(await ask(server, '/documents/1', { userId: 'boom' })).toEqual({ status: 500, body: INTERNAL, version: null, callId: null });
  });

  it('an onServerError whose promise rejects: the same 500, and no unhandled rejection (which stops a Node.js process)', async () => {
    const server = await serve(
      async (app, permit) => {
        await app.register(fastifyPermissions);
        app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: true }));
      },
      {
        // eslint-disable-next-line @typescript-eslint/no-misused-promises -- an async reporter, as an application may write one
        onServerError: () => Promise.reject(new Error('the log shipper is down')),
      },
    );
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      expect(await ask(server, '/documents/1', { userId: 'boom' })).toEqual({ status: 500, body: INTERNAL, version: null, callId: null });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });

  it.each([
    ['an Error whose statusCode getter throws', () => Object.defineProperty(new Error('session store down'), 'statusCode', { get: failingGetter })],
    ['a Proxy whose getPrototypeOf trap throws', () => new Proxy({}, { getPrototypeOf: failingGetter })],
  ])('getUser throws %s: 500 with nothing of the inner error, reported; the handler never runs', async (_label, hostile) => {
    const thrown = hostile();
    let ran = 0;
    const server = await serve(
      async (app, permit) => {
        await app.register(fastifyPermissions);
        app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: ++ran }));
      },
      {
        getUser: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile value under test
          throw thrown;
        },
      },
    );
    expect(await ask(server, '/documents/1', { userId: '1' })).toEqual({ status: 500, body: INTERNAL, version: null, callId: null });
    expect(ran).toBe(0);
    // What getUser threw, as it was thrown: the hook answers the value itself, it wraps nothing.
    expect(server.serverErrors).toHaveLength(1);
    expect(server.serverErrors[0]).toBe(thrown);
  });

  it('a refusal or an error that comes after the reply was answered (a timeout sent 503): the 503 stays, nothing is sent again', async () => {
    const TIMEOUT = { statusCode: 503, error: 'Service Unavailable', message: 'Response timeout' };
    const { permissions } = documentsEngine();
    const serverErrors: unknown[] = [];
    const logged: string[] = [];
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } } });
    // The timeout fires while getUser runs: the reply is answered 503 before the check decides.
    const replies = new WeakMap<FastifyRequest, FastifyReply>();
    app.addHook('onRequest', async (request, reply) => void replies.set(request, reply));
    const permit = permitFor(permissions, serverErrors, {
      getUser: (request) => {
        void replies.get(request)!.code(503).send(TIMEOUT);
        return userOf(request);
      },
    });
    await app.register(fastifyPermissions);
    app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: true }));
    try {
      await app.ready();
      for (const userId of ['1', 'boom', 'stranger'])
        expect(await ask({ app }, '/documents/3', { userId })).toEqual({ status: 503, body: TIMEOUT, version: null, callId: null });
      // The late error is still the application's to hear of; no "Reply was already sent" warning blames the route.
      expect(serverErrors.map((error) => (error as Error).message)).toEqual(['the session store is down']);
      expect(logged).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('a params schema that coerces the id (an integer) changes nothing: the check reads the text the URL carried', async () => {
    const server = await serve(async (app, permit) => {
      await app.register(fastifyPermissions);
      const schema = { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } };
      app.get('/documents/:id', { schema, preHandler: permit({ action: 'read' }) }, (request, reply) =>
        reply.send({ read: permitOf(request).resourceId, params: request.params }),
      );
    });
    expect(await ask(server, '/documents/1', { userId: '1' })).toMatchObject({ status: 200, body: { read: 1, params: { id: 1 } } });
    expect(await ask(server, '/documents/3', { userId: '1' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(server.serverErrors).toEqual([]);
  });

  it("hooks of the application that throw before the check: Fastify's error answer, no decision, no handler", async () => {
    let ran = 0;
    const server = await serve(async (app, permit) => {
      await app.register(fastifyPermissions);
      app.addHook('onRequest', (request, _reply, done) => {
        done(request.headers['x-fail'] === 'on-request' ? new Error('an onRequest hook failed') : undefined);
      });
      const failing = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        done(request.headers['x-fail'] === 'pre-handler' ? Object.assign(new Error('rate limited'), { statusCode: 429 }) : undefined);
      };
      app.get('/documents/:id', { preHandler: [failing, permit({ action: 'read' })] }, (_request, reply) => reply.send({ ran: ++ran }));
    });
    expect((await ask(server, '/documents/1', { userId: '1', headers: { 'x-fail': 'on-request' } })).status).toBe(500);
    expect(await ask(server, '/documents/1', { userId: '1', headers: { 'x-fail': 'pre-handler' } })).toMatchObject({
      status: 429,
      body: { statusCode: 429, error: 'Too Many Requests', message: 'rate limited' },
    });
    expect(await server.decisions()).toEqual([]);
    expect(ran).toBe(0);
    expect(await ask(server, '/documents/1', { userId: '1' })).toMatchObject({ status: 200, body: { ran: 1 } });
  });

  it('huge and repeated headers: a 12 KB unknown user id is 401; past the 16 KB header limit Node answers 431 before any decision', async () => {
    const server = await documentsServer();
    expect(await ask(server, '/documents/1', { userId: '1'.repeat(12_000) })).toMatchObject({ status: 401 });
    expect((await ask(server, '/documents/1', { userId: '1'.repeat(20_000) })).status).toBe(431);
    // Two x-user-id headers arrive as one "1, 1": no user of that id.
    expect((await ask(server, '/documents/1', { userId: ['1', '1'] })).status).toBe(401);
    expect(await server.decisions()).toEqual([]);
  });

  it('permitOf(request) on a route without permit() fails the handler (500) rather than run it unrestricted', async () => {
    const server = await serve(async (app) => {
      await app.register(fastifyPermissions);
      app.get('/open/:id', (request, reply) => reply.send(permitOf(request).granted));
    });
    expect(await ask(server, '/open/1', { userId: '1' })).toMatchObject({
      status: 500,
      body: {
        statusCode: 500,
        error: 'Internal Server Error',
        message:
          "permitOf(request) found no permit on GET /open/:id: put permit({ action }) in the route's preHandler option, and register the " +
          'fastifyPermissions plugin before the route.',
      },
    });
  });
});

describe('createPermitHook and permit() refuse wrong options when the application starts', () => {
  const { permissions } = documentsEngine();

  it('an engine that is not one, or not built; getUser, projectResourceId and onServerError that are not functions', () => {
    expect(() => createPermitHook({ permissions: {} as never, getUser: userOf })).toThrow(
      new PermissionsUsageError(
        'createPermitHook(): options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).',
      ),
    );
    expect(() => createPermitHook(null as never)).toThrow(
      new PermissionsUsageError(
        'createPermitHook(options): options must be an object { permissions, getUser, getTenant?, resource?, projectResourceId?, onServerError? }.',
      ),
    );
    expect(() => createPermitHook({ permissions, getUser: 'user' as never })).toThrow(
      new PermissionsUsageError('createPermitHook(): options.getUser must be a function (request) => user.'),
    );
    expect(() => createPermitHook({ permissions, getUser: userOf, projectResourceId: 1 as never })).toThrow(
      new PermissionsUsageError('createPermitHook(): options.projectResourceId must be a function (raw, { resource }) => id | undefined.'),
    );
    expect(() => createPermitHook({ permissions, getUser: userOf, onServerError: 'log' as never })).toThrow(
      new PermissionsUsageError('createPermitHook(): options.onServerError must be a function (error, request) => void.'),
    );
  });

  it('a route without an action or a resource, or with a resourceIdParam that is no name', () => {
    const permit = createPermitHook({ permissions, getUser: userOf });
    expect(() => permit({ action: '' })).toThrow(
      new PermissionsUsageError('permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.'),
    );
    expect(() => permit({ action: 'read' })).toThrow(
      new PermissionsUsageError('permit({ action: "read" }): no resource; pass resource here or to createPermitHook.'),
    );
    expect(() => permit({ action: 'read', resource: 'document', resourceIdParam: '' })).toThrow(
      new PermissionsUsageError('permit(): resourceIdParam must be a parameter name or null, got "".'),
    );
  });
});
