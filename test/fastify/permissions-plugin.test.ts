/**
 * The `fastifyPermissions` plugin: it resolves every guarded route's record id when the route is registered —
 * by the rules Express's `checkPermitRoutes` applies, read in Fastify's path syntax — and the server does not start
 * (`ready()` and `listen()` reject) with an ambiguous one; it follows Fastify's encapsulation (routes of the
 * context it is registered in and of the contexts inside it); registered twice it throws, so that no route is
 * decided twice; a `permit()` hook the plugin did not see refuses every request.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { PermissionsUsageError } from 'typed-permissions';
import { fastifyPermissions, permitOf } from 'typed-permissions/fastify';
import { ask, closeAll, documentsEngine, FORBIDDEN, INTERNAL, permitFor, serve } from './fastify-fixture.js';

afterEach(closeAll, 30_000);

const HEADLINE =
  'Routes whose permissions check is misconfigured; the server does not start, because a check without the right record id could grant access to the ' +
  'wrong record:\n';

/** An app with the plugin and `mount`'s routes, not started. */
function appWith(mount: (app: FastifyInstance, permit: ReturnType<typeof permitFor>) => void) {
  const { permissions } = documentsEngine();
  const app = Fastify();
  const permit = permitFor(permissions, []);
  return { app, permit, mount: () => mount(app, permit) };
}

describe('the record id of every guarded route is resolved at start', () => {
  it("routes that resolve: their own id, a named one, null, a prefix's parameter named, an optional id, a regular expression", async () => {
    const server = await serve(async (app, permit) => {
      await app.register(fastifyPermissions);
      const echo = (request: FastifyRequest, reply: FastifyReply) => reply.send({ id: permitOf(request).resourceId ?? null });
      app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, echo);
      app.delete('/users/:id/documents/:docId', { preHandler: permit({ action: 'delete', resourceIdParam: 'docId' }) }, echo);
      app.get('/folders/:folderId/documents', { preHandler: permit({ action: 'list', resourceIdParam: null }) }, echo);
      app.get('/maybe/:id?', { preHandler: permit({ action: 'read' }) }, echo);
      app.get('/numbered/:id(^\\d+)', { preHandler: permit({ action: 'read' }) }, echo);
      await app.register(
        (child, _options, done) => {
          child.delete('/', { preHandler: permit({ action: 'delete', resourceIdParam: 'id' }) }, echo);
          // The route's own parameter is the id; the prefix's is not.
          child.get('/versions/:id', { preHandler: permit({ action: 'read' }) }, echo);
          done();
        },
        { prefix: '/named/:id' },
      );
    });
    expect(await ask(server, '/documents/2', { userId: '1' })).toMatchObject({ status: 200, body: { id: 2 } });
    expect(await ask(server, '/users/2/documents/1', { userId: '1', method: 'DELETE' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await ask(server, '/users/1/documents/3', { userId: '1', method: 'DELETE' })).toMatchObject({ status: 403 });
    expect(await ask(server, '/folders/3/documents', { userId: '1' })).toMatchObject({ status: 200, body: { id: null } });
    expect(await ask(server, '/maybe/1', { userId: '1' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await ask(server, '/maybe/3', { userId: '1' })).toMatchObject({ status: 403, body: FORBIDDEN });
    // Without the optional id, the check is on the resource as a whole (an employee may read their own: granted).
    expect(await ask(server, '/maybe', { userId: '1' })).toMatchObject({ status: 200, body: { id: null } });
    expect(await ask(server, '/numbered/1', { userId: '1' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await ask(server, '/named/3', { userId: '1', method: 'DELETE' })).toMatchObject({ status: 403 });
    expect(await ask(server, '/named/1', { userId: '1', method: 'DELETE' })).toMatchObject({ status: 200, body: { id: 1 } });
    // The path with a trailing slash, which Fastify registers beside it, is checked alike.
    expect(await ask(server, '/named/3/', { userId: '1', method: 'DELETE' })).toMatchObject({ status: 403 });
    expect(await ask(server, '/named/3/versions/1', { userId: '1' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(server.serverErrors).toEqual([]);
  });

  it('lists every ambiguous route, in child contexts too, and the server does not listen', async () => {
    const { app, permit, mount } = appWith((app, permit) => {
      void app.register(async (inner) => {
        inner.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send('fine'));
        inner.delete('/users/:id/documents/:docId', { preHandler: permit({ action: 'delete' }) }, (_request, reply) => reply.send('guessed'));
        inner.get('/files/*', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send('wildcard'));
        inner.get('/folders/:folderId', { preHandler: permit({ action: 'read', resourceIdParam: 'documentId' }) }, (_request, reply) =>
          reply.send('undeclared'),
        );
        await inner.register(
          (child, _options, done) => {
            child.get('/', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send('prefix'));
            done();
          },
          { prefix: '/guessed/:id' },
        );
      });
    });
    await app.register(fastifyPermissions);
    mount();
    void permit;
    const refusal = new PermissionsUsageError(
      HEADLINE +
        '  - DELETE /users/:id/documents/:docId (permit({ action: "delete" }) on "/users/:id/documents/:docId") declares the parameters "id", "docId" ' +
        'but none of them is the resource id: the default "id" counts only as the last parameter. Fix: Set resourceIdParam to the parameter that holds ' +
        'the id of the record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
        '  - GET,HEAD /files/* (permit({ action: "read" }) on "/files/*") declares the parameters "*" but none of them is the resource id: the default ' +
        '"id" counts only as the last parameter, and the last, "*", is a wildcard, which matches several path segments. Fix: Declare the id as a ' +
        'single segment parameter (":id"), or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
        '  - GET,HEAD /folders/:folderId (permit({ action: "read" }) on "/folders/:folderId") takes the resource id from parameter "documentId", which ' +
        'it does not declare (it declares "folderId"). Fix: Set resourceIdParam to one of "folderId", or opt out with resourceIdParam: null if this ' +
        'handler does not act on one record.\n' +
        '  - GET,HEAD /guessed/:id (permit({ action: "read" }) on "") has no path parameter of its own, but receives "id" from a parent router, which ' +
        'may or may not be the record\'s id. Fix: Set resourceIdParam to the parameter that holds the record id (one of "id"), or to null if the route ' +
        'acts on no single record.\n' +
        // Fastify registers the path with a trailing slash too, and a HEAD route for it: the GET shares the options of /guessed/:id.
        '  - HEAD /guessed/:id/ (permit({ action: "read" }) on "/") has no path parameter of its own, but receives "id" from a parent router, which ' +
        'may or may not be the record\'s id. Fix: Set resourceIdParam to the parameter that holds the record id (one of "id"), or to null if the route ' +
        'acts on no single record.',
    );
    await expect(app.listen({ port: 0, host: '127.0.0.1' })).rejects.toThrow(refusal);
    expect(app.server.listening).toBe(false);
    await app.close();
  });

  it('more than one permit() on a route, or one in a hook that runs after the handler, stops the start', async () => {
    const { app, mount } = appWith((app, permit) => {
      app.get('/twice/:id', { preHandler: [permit({ action: 'read' }), permit({ action: 'delete' })] }, (_request, reply) => reply.send('twice'));
      app.get('/split/:id', { onRequest: permit({ action: 'read' }), preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send('split'));
      app.post('/late/:id', { onSend: permit({ action: 'delete' }) }, (_request, reply) => reply.send('late'));
    });
    await app.register(fastifyPermissions);
    mount();
    await expect(app.ready()).rejects.toThrow(
      new PermissionsUsageError(
        HEADLINE +
          '  - GET,HEAD /twice/:id has 2 permit() hooks ("read", "delete"); each would decide, and log, on its own. Fix: keep one permit() per route.\n' +
          '  - GET,HEAD /split/:id has 2 permit() hooks ("read", "read"); each would decide, and log, on its own. Fix: keep one permit() per route.\n' +
          '  - POST /late/:id has permit({ action: "delete" }) in its onSend hooks, where it cannot decide before the handler. Fix: put it in the ' +
          'preHandler option.',
      ),
    );
    await app.close();
  });

  it('a permit() in onRequest or preValidation decides there, before the body is read', async () => {
    let ran = 0;
    const server = await serve(async (app, permit) => {
      await app.register(fastifyPermissions);
      app.post('/early/:id', { onRequest: permit({ action: 'delete' }) }, (_request, reply) => reply.send({ ran: ++ran }));
      app.post('/validated/:id', { preValidation: [permit({ action: 'delete' })] }, (_request, reply) => reply.send({ ran: ++ran }));
    });
    // An employee may delete their own document 1, not 3.
    expect(await ask(server, '/early/3', { userId: '1', method: 'POST' })).toMatchObject({ status: 403 });
    expect(await ask(server, '/validated/1', { userId: '1', method: 'POST' })).toMatchObject({ status: 200, body: { ran: 1 } });
    expect((await server.decisions()).map((event) => event.via)).toEqual(['fastify', 'fastify']);
  });
});

describe('encapsulation', () => {
  const NOT_SEEN = (route: string, action = 'read') =>
    `permit({ action: "${action}" }) ran on ${route}, which the fastifyPermissions plugin did not see registered, so its record id was not resolved at ` +
    'start: register the plugin (await app.register(fastifyPermissions)) before the routes, in the context that holds them or a parent of it, and ' +
    "put permit() in the route's options ({ preHandler: permit({ action }) }), not in app.addHook().";

  it("registered in a child context, it guards that context's routes and its children's; a sibling's permit() refuses every request", async () => {
    const server = await serve(async (app, permit) => {
      await app.register(async (guarded) => {
        await guarded.register(fastifyPermissions);
        guarded.get('/guarded/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) => reply.send({ id: permitOf(request).resourceId }));
        await guarded.register((inner, _options, done) => {
          inner.get('/inner/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) => reply.send({ id: permitOf(request).resourceId }));
          done();
        });
      });
      await app.register((sibling, _options, done) => {
        sibling.get('/sibling/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: true }));
        done();
      });
    });
    expect(await ask(server, '/guarded/1', { userId: '1' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await ask(server, '/inner/3', { userId: '1' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await ask(server, '/sibling/1', { userId: '1' })).toEqual({ status: 500, body: INTERNAL, version: null, callId: null });
    expect(server.serverErrors).toEqual([new PermissionsUsageError(NOT_SEEN('GET /sibling/:id'))]);
    expect((await server.decisions()).length).toBe(2);
  });

  it('a route registered before the plugin was (its register not awaited), and a permit() added with addHook, refuse every request', async () => {
    const server = await serve(async (app, permit) => {
      void app.register(fastifyPermissions);
      app.get('/too-early/:id', { preHandler: permit({ action: 'read' }) }, (_request, reply) => reply.send({ ran: true }));
      await app.register((child, _options, done) => {
        child.addHook('preHandler', permit({ action: 'delete' }));
        child.get('/hooked/:id', (_request, reply) => reply.send({ ran: true }));
        done();
      });
    });
    expect(await ask(server, '/too-early/1', { userId: '1' })).toMatchObject({ status: 500, body: INTERNAL });
    expect(await ask(server, '/hooked/1', { userId: '1' })).toMatchObject({ status: 500, body: INTERNAL });
    expect(server.serverErrors).toEqual([
      new PermissionsUsageError(NOT_SEEN('GET /too-early/:id')),
      new PermissionsUsageError(NOT_SEEN('GET /hooked/:id', 'delete')),
    ]);
    expect(await server.decisions()).toEqual([]);
  });

  it('registered twice on the same routes (in one context, or in a parent and a child) it throws; in two siblings each decides once', async () => {
    const TWICE = new PermissionsUsageError(
      'fastifyPermissions is registered twice on the same routes (here, and in this context or a parent of it): each registration would bind ' +
        'the routes it sees. Fix: register it once, in the context that holds the guarded routes or a parent of it.',
    );
    const same = Fastify();
    await same.register(fastifyPermissions);
    await expect(same.register(fastifyPermissions)).rejects.toThrow(TWICE);
    await same.close();
    const nested = Fastify();
    void nested.register(fastifyPermissions);
    void nested.register(async (child) => {
      await child.register(fastifyPermissions);
    });
    await expect(nested.ready()).rejects.toThrow(TWICE);
    await nested.close();

    const server = await serve(async (app, permit) => {
      for (const prefix of ['/a', '/b'])
        await app.register(
          async (sibling) => {
            await sibling.register(fastifyPermissions);
            sibling.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) => reply.send({ id: permitOf(request).resourceId }));
          },
          { prefix },
        );
    });
    expect(await ask(server, '/a/documents/1', { userId: '1' })).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await ask(server, '/b/documents/3', { userId: '1' })).toMatchObject({ status: 403 });
    expect((await server.decisions()).map((event) => [event.resourceId, event.granted])).toEqual([
      [1, true],
      [3, false],
    ]);
  });

  it('the same route registered twice is refused by Fastify; one permit() on two routes is bound to each', async () => {
    const { app, permit, mount } = appWith(() => undefined);
    mount();
    await app.register(fastifyPermissions);
    const read = permit({ action: 'read' });
    app.get('/documents/:id', { preHandler: read }, (_request, reply) => reply.send('first'));
    expect(() => app.get('/documents/:id', { preHandler: read }, (_request, reply) => reply.send('again'))).toThrow(
      "Method 'GET' already declared for route '/documents/:id'",
    );
    app.get('/users/:userId/documents/:id', { preHandler: read }, (request, reply) => reply.send({ id: permitOf(request).resourceId }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(await ask({ app }, '/users/7/documents/2', { userId: '1' })).toMatchObject({ status: 200, body: { id: 2 } });
    await app.close();
  });
});
