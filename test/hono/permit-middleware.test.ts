/**
 * The Hono integration on a real server (@hono/node-server on loopback), with the same results as the express
 * integration: `permit({ action })` in a route answers 200 with the permit in `c.var.permit`, 400 for a malformed
 * id, 401 for an unknown caller (through `getUser` and the JSON error handler), 403 when not granted — each with
 * the same JSON body — and the decision headers; routes that do not say which parameter is the record's id are
 * refused (500), never guessed; errors of hooks and of `getUser` never grant.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import {
  permissionsFromDefinitions,
  PermissionsUsageError,
  type DecisionEvent,
  type PermissionDefinition,
  type User,
} from '../../runtime/permissions/index.js';
import { createPermitMiddleware, permissionsErrorHandler, type PermitRoute } from '../../runtime/hono/index.js';
import { ask, serveOnLoopback, type HonoServer } from './hono-server.js';

type AppUser = User<number>;

/** Documents 1 and 2 are user 1's; 3 is user 2's. */
const CREATORS = new Map([
  [1, 1],
  [2, 1],
  [3, 2],
]);
const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read', 'delete', 'list:any'], isOwner: 'isCreator', listOwned: 'listCreated' },
];
const ownership = {
  isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => {
    if (resourceId === 666) throw new Error('the ownership database is down');
    return CREATORS.get(resourceId as number) === user.id;
  },
  listCreated: ({ user }: { user: AppUser }) => [...CREATORS].filter(([, creator]) => creator === user.id).map(([id]) => id),
};

/** Employees read their own documents only: a refusal of someone else's (or of one that does not exist) is 'not-owner'. */
const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };
const INTERNAL = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };

interface TestApp {
  readonly server: HonoServer;
  /** What the error handler saw as server errors (500). */
  readonly serverErrors: unknown[];
  readonly events: DecisionEvent[];
  flush(): Promise<void>;
}

async function serveWith(mount: (app: Hono, permit: PermitRoute<AppUser, unknown, 'document'>) => void): Promise<TestApp> {
  const events: DecisionEvent[] = [];
  const permissions = permissionsFromDefinitions<AppUser>(definitions, {
    ownership,
    resourceIdTypes: { document: 'number' },
    logger: { warn: () => undefined },
    onDecision: (event) => void events.push(event),
  });
  const permit = createPermitMiddleware({
    permissions,
    resource: 'document',
    getUser: (c): AppUser => {
      const header = c.req.header('x-user-id');
      if (header === 'boom') throw new Error('the session store is down');
      // What careless code throws: no Error, which Hono would not hand to its error handler.
      if (header === 'throw-text') throw 'session expired'; // eslint-disable-line @typescript-eslint/only-throw-error -- the careless throw under test
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the careless throw under test
      if (header === 'throw-status') throw { statusCode: 401, message: 'Session expired.' };
      // A user whose roles getter throws no Error: the decision, not getUser, rejects with it.
      if (header === 'roles-throw-text')
        return {
          id: 1,
          get roles(): string[] {
            throw 'roles store down'; // eslint-disable-line @typescript-eslint/only-throw-error -- the careless throw under test
          },
        };
      if (header === undefined || !/^[1-9]\d*$/.test(header)) throw new HTTPException(401, { message: 'Unknown user.' });
      return { id: Number(header), roles: ['EMPLOYEE'] };
    },
  });
  const app = new Hono();
  const serverErrors: unknown[] = [];
  mount(app, permit);
  app.onError(permissionsErrorHandler({ onServerError: (error) => serverErrors.push(error) }));
  return { server: await serveOnLoopback(app), serverErrors, events, flush: async () => permissions.decisionLog?.flush() };
}

const as = (userId: string) => ({ headers: { 'x-user-id': userId } });

describe('permit({ action }) in a route of a Hono app served on loopback', () => {
  let served: TestApp;
  let ran: string[];

  beforeAll(async () => {
    ran = [];
    served = await serveWith((app, permit) => {
      app.get('/documents/:id', permit({ action: 'read' }), (c) => {
        ran.push('read');
        return c.json({ read: c.var.permit.resourceId ?? null, granted: c.get('permit').granted });
      });
      app.get('/documents', permit({ action: 'list' }), async (c) => c.json({ list: await c.var.permit.filterPick([{ id: 1 }, { id: 3 }]) }));
      // A handler that answers with a Response of its own, not one the context made.
      app.delete('/documents/:id', permit({ action: 'delete' }), () => new Response(null, { status: 204 }));
    });
  }, 30_000);

  afterAll(async () => served.server.close(), 10_000);

  it("a record route checks that record: own 200 with the permit in c.var; someone else's 403 with a JSON body", async () => {
    const own = await ask(served.server.baseUrl, '/documents/2', as('1'));
    expect([own.status, own.body]).toEqual([200, { read: 2, granted: true }]);
    const other = await ask(served.server.baseUrl, '/documents/3', as('1'));
    expect([other.status, other.body, other.headers.get('content-type')]).toEqual([403, FORBIDDEN, 'application/json']);
    const list = await ask(served.server.baseUrl, '/documents', as('1'));
    expect([list.status, list.body]).toEqual([200, { list: [{ id: 1 }, { id: 3 }] }]);
  });

  it('granted and refused answers carry the decision headers, the call id the decision log has; the handler runs only when granted', async () => {
    ran.length = 0;
    // The decision log writes in batches: an earlier test's decisions are delivered first, then forgotten.
    await served.flush();
    served.events.length = 0;
    const granted = await ask(served.server.baseUrl, '/documents/1', as('1'));
    const refused = await ask(served.server.baseUrl, '/documents/3', as('1'));
    const ownResponse = await ask(served.server.baseUrl, '/documents/2', { ...as('1'), method: 'DELETE' });
    await served.flush();
    expect(served.events.map((event) => [event.via, event.action, event.resourceId, event.granted])).toEqual([
      ['hono', 'read', 1, true],
      ['hono', 'read', 3, false],
      ['hono', 'delete', 2, true],
    ]);
    const decided = [granted, refused, ownResponse];
    expect(decided.map((answer) => answer.headers.get('x-permissions-call-id'))).toEqual(served.events.map((event) => event.callId));
    expect(decided.map((answer) => answer.headers.get('x-permissions-version'))).toEqual(served.events.map((event) => event.policyVersion));
    expect(ownResponse.status).toBe(204);
    expect(ran).toEqual(['read']);
  });

  it('a malformed id is 400 with the reason and no decision headers, never 500 — also a malformed percent-encoding', async () => {
    for (const id of ['abc', '01', '1.5', '1e3', '-0', 'x'.repeat(5000)]) {
      const answer = await ask(served.server.baseUrl, `/documents/${id}`, as('1'));
      const shown = id.length > 40 ? `${JSON.stringify(id.slice(0, 40))}…` : JSON.stringify(id);
      expect([answer.status, answer.body]).toEqual([
        400,
        {
          statusCode: 400,
          error: 'Bad Request',
          message:
            `${shown} is not an id of "document": its ids are an integer written in decimal without leading zeros, ` + 'within ±9007199254740991 (such as 42).',
        },
      ]);
      expect([answer.headers.get('x-permissions-version'), answer.headers.get('x-permissions-call-id')]).toEqual([null, null]);
    }
    const encoded = await ask(served.server.baseUrl, '/documents/%E0%A4%A', as('1'));
    expect([encoded.status, (encoded.body as { error: string }).error]).toEqual([400, 'Bad Request']);
    expect(ran.filter((what) => what !== 'read')).toEqual([]);
    expect(served.serverErrors).toEqual([]);
  });

  it('an unknown caller is 401 (an HTTPException getUser throws); a getUser that fails is 500 with nothing of the error', async () => {
    ran.length = 0;
    expect(await ask(served.server.baseUrl, '/documents/1', as('mallory'))).toMatchObject({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user.' },
    });
    expect(await ask(served.server.baseUrl, '/documents/1', as('boom'))).toMatchObject({ status: 500, body: INTERNAL });
    expect(served.serverErrors.map((error) => (error as Error).message)).toEqual(['the session store is down']);
    expect(ran).toEqual([]);
    served.serverErrors.length = 0;
  });

  it('a getUser that throws no Error: the same JSON answers (500 reported, or the 4xx it carries), never an empty 500', async () => {
    ran.length = 0;
    expect(await ask(served.server.baseUrl, '/documents/1', as('throw-text'))).toMatchObject({ status: 500, body: INTERNAL });
    expect(await ask(served.server.baseUrl, '/documents/1', as('throw-status'))).toMatchObject({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: 'Session expired.' },
    });
    expect(served.serverErrors).toEqual([expect.objectContaining({ name: 'ThrownValueError', thrown: 'session expired' })]);
    expect(ran).toEqual([]);
    served.serverErrors.length = 0;
  });

  it('a decision that rejects with no Error (a roles getter throws a string): the JSON 500, reported, never an empty 500', async () => {
    ran.length = 0;
    const { status, body } = await ask(served.server.baseUrl, '/documents/1', as('roles-throw-text'));
    expect([status, body]).toEqual([500, INTERNAL]);
    expect(served.serverErrors).toEqual([expect.objectContaining({ name: 'ThrownValueError', thrown: 'roles store down' })]);
    expect(ran).toEqual([]);
    served.serverErrors.length = 0;
  });

  it('an ownership hook that throws is 500, never a grant, and the handler does not run', async () => {
    ran.length = 0;
    expect(await ask(served.server.baseUrl, '/documents/666', as('1'))).toMatchObject({ status: 500, body: INTERNAL });
    expect(served.serverErrors).toHaveLength(1);
    expect(ran).toEqual([]);
    served.serverErrors.length = 0;
  });

  it('a 404 of the app is the app’s: a path no route matches is answered by Hono, not by permit()', async () => {
    expect(await ask(served.server.baseUrl, '/nothing/here', as('1'))).toMatchObject({ status: 404, body: '404 Not Found' });
  });

  it('huge headers are refused by the server (431) before any check, and the server goes on serving', async () => {
    const huge = await fetch(`${served.server.baseUrl}/documents/1`, { headers: { 'x-user-id': '1', 'x-padding': 'a'.repeat(64 * 1024) } });
    expect(huge.status).toBe(431);
    expect((await ask(served.server.baseUrl, '/documents/1', as('1'))).status).toBe(200);
  });
});

describe('routes that do not say which parameter is the record id are refused (500), not guessed', () => {
  const servers: TestApp[] = [];
  afterAll(async () => Promise.all(servers.map((one) => one.server.close())), 10_000);
  const start = async (mount: Parameters<typeof serveWith>[0]) => {
    const served = await serveWith(mount);
    servers.push(served);
    return served;
  };

  it("a nested route users/:id/documents/:docId does not take the user's id as the document id; resourceIdParam names it", async () => {
    const served = await start((app, permit) => {
      app.delete('/users/:id/documents/:docId', permit({ action: 'delete' }), (c) => c.json({ deleted: true }));
      app.delete('/u/:id/d/:docId', permit({ action: 'delete', resourceIdParam: 'docId' }), (c) => c.json({ deleted: c.var.permit.resourceId }));
    });
    expect(await ask(served.server.baseUrl, '/users/1/documents/3', { ...as('1'), method: 'DELETE' })).toMatchObject({ status: 500, body: INTERNAL });
    expect(served.serverErrors).toEqual([
      new PermissionsUsageError(
        'DELETE /users/:id/documents/:docId ("/users/:id/documents/:docId") declares the parameters "id", "docId" ' +
          'but none of them is the resource id: the default "id" counts only as the last parameter, so the permissions ' +
          'check cannot tell which record it is about. Set resourceIdParam to the parameter that holds the id of the ' +
          'record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler does not act ' +
          'on one record.',
      ),
    ]);
    expect((await ask(served.server.baseUrl, '/u/1/d/3', { ...as('1'), method: 'DELETE' })).status).toBe(403);
    expect(await ask(served.server.baseUrl, '/u/2/d/1', { ...as('1'), method: 'DELETE' })).toMatchObject({ status: 200, body: { deleted: 1 } });
  });

  it("an app mounted under /documents/:id with a route '/' must name the parent's parameter; then it checks that record", async () => {
    const served = await start((app, permit) => {
      const guessed = new Hono().delete('/', permit({ action: 'delete' }), (c) => c.json({ deleted: true }));
      const named = new Hono().delete('/', permit({ action: 'delete', resourceIdParam: 'id' }), (c) => c.json({ deleted: c.var.permit.resourceId }));
      app.route('/guessed/:id', guessed).route('/named/:id', named);
    });
    expect((await ask(served.server.baseUrl, '/guessed/3', { ...as('1'), method: 'DELETE' })).status).toBe(500);
    expect((served.serverErrors[0] as Error).message).toBe(
      'DELETE /guessed/:id ("/") has no path parameter of its own, but receives "id" from a parent router, which may or may not be the ' +
        "record's id, so the permissions check cannot tell which record it is about. Set resourceIdParam to the parameter that holds the " +
        'record id (one of "id"), or to null if the route acts on no single record.',
    );
    expect((await ask(served.server.baseUrl, '/named/3', { ...as('1'), method: 'DELETE' })).status).toBe(403);
    expect(await ask(served.server.baseUrl, '/named/1', { ...as('1'), method: 'DELETE' })).toMatchObject({ status: 200, body: { deleted: 1 } });
  });

  it('a wildcard route (app.use) must name its parameter or opt out with null; a pattern parameter :id{[0-9]+} is the id', async () => {
    const served = await start((app, permit) => {
      app.use('/wild/*', permit({ action: 'read' }));
      app.get('/wild/:id', (c) => c.json({ ran: true }));
      app.use('/listed/*', permit({ action: 'list', resourceIdParam: null })).get('/listed/all', (c) => c.json({ list: c.var.permit.resourceId ?? null }));
      app.get('/pattern/:id{[0-9]+}', permit({ action: 'read' }), (c) => c.json({ read: c.var.permit.resourceId }));
      // A pattern with braces of its own (a quantifier) ends at the brace that closes the one it opened with.
      app.get('/quantified/:id{[0-9]{1,3}}', permit({ action: 'read' }), (c) => c.json({ read: c.var.permit.resourceId }));
    });
    expect((await ask(served.server.baseUrl, '/wild/3', as('1'))).status).toBe(500);
    expect((served.serverErrors[0] as Error).message).toBe(
      'ALL /wild/* ("/wild/*") ends in a wildcard (*), whose path segments may hold the record\'s id but reach the check as no parameter, so ' +
        "the permissions check cannot tell which record it is about. Put permit() in the route that names the record's id " +
        "(app.get('/documents/:id', permit({ action }), handler)), set resourceIdParam to a parameter before the wildcard, or opt out with " +
        'resourceIdParam: null if this handler does not act on one record.',
    );
    expect(await ask(served.server.baseUrl, '/listed/all', as('1'))).toMatchObject({ status: 200, body: { list: null } });
    expect(await ask(served.server.baseUrl, '/pattern/2', as('1'))).toMatchObject({ status: 200, body: { read: 2 } });
    expect((await ask(served.server.baseUrl, '/pattern/3', as('1'))).status).toBe(403);
    expect(await ask(served.server.baseUrl, '/quantified/2', as('1'))).toMatchObject({ status: 200, body: { read: 2 } });
    expect((await ask(served.server.baseUrl, '/quantified/3', as('1'))).status).toBe(403);
    expect(served.serverErrors).toHaveLength(1);
  });

  it('a route registered twice runs its first permit() and handler; the same permit() in two routes resolves each route', async () => {
    const served = await start((app, permit) => {
      const read = permit({ action: 'read' });
      app.get('/twice/:id', read, (c) => c.json({ first: c.var.permit.resourceId }));
      app.get('/twice/:id', read, (c) => c.json({ second: c.var.permit.resourceId }));
      app.get('/other/:id', read, (c) => c.json({ other: c.var.permit.resourceId }));
    });
    expect(await ask(served.server.baseUrl, '/twice/1', as('1'))).toMatchObject({ status: 200, body: { first: 1 } });
    expect((await ask(served.server.baseUrl, '/twice/3', as('1'))).status).toBe(403);
    expect(await ask(served.server.baseUrl, '/other/2', as('1'))).toMatchObject({ status: 200, body: { other: 2 } });
    await served.flush();
    expect(served.events.map((event) => event.resourceId)).toEqual([1, 3, 2]);
  });
});

describe('createPermitMiddleware and permit() refuse wrong wiring when the app is built', () => {
  const permissions = permissionsFromDefinitions<AppUser>(definitions, { ownership, logger: { warn: () => undefined } });
  const getUser = (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] });

  it('names what is wrong', () => {
    expect(() => createPermitMiddleware(null as never)).toThrow(
      new PermissionsUsageError(
        'createPermitMiddleware(options): options must be an object { permissions, getUser, getTenant?, resource?, projectResourceId? }.',
      ),
    );
    expect(() => createPermitMiddleware({ permissions: {} as never, getUser })).toThrow(
      'createPermitMiddleware(): options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).',
    );
    expect(() => createPermitMiddleware({ permissions, getUser: 'me' as never })).toThrow(
      new PermissionsUsageError('createPermitMiddleware(): options.getUser must be a function (c) => user.'),
    );
    const permit = createPermitMiddleware({ permissions, getUser });
    expect(() => permit({ action: '' })).toThrow('permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.');
    expect(() => permit({ action: 'read' })).toThrow('permit({ action: "read" }): no resource; pass resource here or to createPermitMiddleware.');
    expect(() => permit({ action: 'read', resource: 'document', resourceIdParam: '' })).toThrow(
      'permit(): resourceIdParam must be a parameter name or null, got "".',
    );
  });
});
