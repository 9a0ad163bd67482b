/**
 * Express gets a per-route form, `permit({ action })` in the route, which sees the
 * matched route's parameters, resolves the record id by the same rules as the Nest guard, answers a
 * malformed id with 400 (never 500), and refuses — rather than guesses — when the route does not say
 * which parameter is the record's id. (The README's earlier wiring read `req.params.id` in an
 * `app.use()` that ran before any route matched, and answered every request with 500.)
 */
import { describe, expect, it } from '@jest/globals';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { PermissionsUsageError, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { resolveResourceIdParam } from '../../runtime/integration/resource-id-param.js';
import { checkPermitRoutes, createPermitMiddleware, initPermissions, type PermitRoute, type RequestWithPermit } from '../../runtime/express/index.js';
import { rawResourceIdOf } from '../../runtime/integration/request-resource-id.js';
import { routePathParams } from '../../runtime/integration/route-path-params.js';
import type { ThrownValueError } from '../../runtime/integration/thrown-value.js';

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
  isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => CREATORS.get(resourceId as number) === user.id,
  listCreated: ({ user }: { user: AppUser }) => [...CREATORS].filter(([, creator]) => creator === user.id).map(([id]) => id),
};

function appWith(mount: (app: express.Express, permit: PermitRoute<'document', string, Request>) => void) {
  const permissions = initPermissions<AppUser>(definitions, { ownership, logger: { warn: () => undefined } });
  const permit = createPermitMiddleware({
    permissions,
    resource: 'document',
    getUser: (req: Request): AppUser => {
      const header = req.get('x-user-id');
      if (header === 'boom') throw new Error('the session store is down');
      // What careless code rejects or throws: values Express would read as "go on" or "skip this route" in next().
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the careless rejection under test
      if (header === 'reject-nothing') return Promise.reject() as never;
      if (header === 'throw-null') throw null; // eslint-disable-line @typescript-eslint/only-throw-error -- the careless throw under test
      if (header === 'throw-route') throw 'route'; // eslint-disable-line @typescript-eslint/only-throw-error -- the careless throw under test
      return { id: Number(header), roles: ['EMPLOYEE'] };
    },
    projectResourceId: (raw) => {
      if (raw === 'explode') throw new Error('projection bug');
      return /^[1-9]\d*$/.test(raw) ? Number(raw) : undefined;
    },
  });
  const app = express();
  const errors: unknown[] = [];
  mount(app, permit);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- express takes a handler as an error handler only when it declares four parameters
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    errors.push(error);
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    res.status(status).json({ statusCode: status, message: (error as Error).message });
  });
  return { app, errors };
}

const resourceIdOf = (req: Request) => (req as RequestWithPermit<AppUser, number>).permit?.resourceId ?? null;

describe('express permit({ action }) per route', () => {
  const { app, errors } = appWith((app, permit) => {
    app.get('/documents/:id', permit({ action: 'read' }), (req, res) => void res.json({ read: resourceIdOf(req) }));
    app.get('/documents', permit({ action: 'list' }), (req, res) => void res.json({ list: resourceIdOf(req) }));
  });

  it("a record route checks that record: own 200, someone else's 403 with a JSON body", async () => {
    expect((await request(app).get('/documents/2').set('x-user-id', '1').expect(200)).body).toEqual({ read: 2 });
    expect((await request(app).get('/documents/3').set('x-user-id', '1').expect(403)).body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'read on document is not granted',
      reason: 'not-owner',
    });
    expect((await request(app).get('/documents').set('x-user-id', '1').expect(200)).body).toEqual({ list: null });
  });

  it('a malformed id is 400, never 500 — also a malformed percent-encoding', async () => {
    for (const id of ['abc', '0', '-1', '1.5', 'x'.repeat(5000)]) {
      const response = await request(app).get(`/documents/${id}`).set('x-user-id', '1').expect(400);
      expect(response.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `${id.length > 40 ? `${JSON.stringify(id.slice(0, 40))}…` : JSON.stringify(id)} is not an id of "document".`,
      });
    }
    await request(app).get('/documents/%E0%A4%A').set('x-user-id', '1').expect(400);
    expect(errors.filter((error) => (error as { status?: number }).status !== 400)).toEqual([]);
  });
});

describe('routes that do not say which parameter is the record id are refused, not guessed', () => {
  it('permit() mounted with app.use (outside a route) is a wiring error that names the fix', async () => {
    const { app, errors } = appWith((app, permit) => {
      app.use(permit({ action: 'read' }));
      app.get('/documents/:id', (_req, res) => void res.json({ ran: true }));
    });
    await request(app).get('/documents/3').set('x-user-id', '1').expect(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PermissionsUsageError);
    expect((errors[0] as Error).message).toBe(
      'permit({ action: "read" }) ran outside a route (GET /documents/3): put it in the route, ' +
        "router.get('/documents/:id', permit({ action }), handler), not in app.use(), so that it sees the route's " +
        'parameters.',
    );
  });

  it("a nested route users/:id/documents/:docId does not take the user's id as the document id", async () => {
    const { app, errors } = appWith((app, permit) => {
      app.delete('/users/:id/documents/:docId', permit({ action: 'delete' }), (_req, res) => void res.json({ deleted: true }));
      app.delete('/u/:id/d/:docId', permit({ action: 'delete', resourceIdParam: 'docId' }), (req, res) => void res.json({ deleted: resourceIdOf(req) }));
    });
    await request(app).delete('/users/1/documents/3').set('x-user-id', '1').expect(500);
    expect((errors[0] as Error).message).toBe(
      'DELETE /users/:id/documents/:docId ("/users/:id/documents/:docId") declares the parameters "id", "docId" ' +
        'but none of them is the resource id: the default "id" counts only as the last parameter, so the permissions ' +
        'check cannot tell which record it is about. Set resourceIdParam to the parameter that holds the id of the ' +
        'record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler does not act ' +
        'on one record.',
    );
    await request(app).delete('/u/1/d/3').set('x-user-id', '1').expect(403);
    expect((await request(app).delete('/u/2/d/1').set('x-user-id', '1').expect(200)).body).toEqual({ deleted: 1 });
  });

  it("a router under /documents/:id (mergeParams) with a route '/' must name the parent's parameter; then it checks that record", async () => {
    const { app, errors } = appWith((app, permit) => {
      const guessed = Router({ mergeParams: true });
      guessed.delete('/', permit({ action: 'delete' }), (_req, res) => void res.json({ deleted: true }));
      app.use('/guessed/:id', guessed);
      const named = Router({ mergeParams: true });
      named.delete('/', permit({ action: 'delete', resourceIdParam: 'id' }), (req, res) => void res.json({ deleted: resourceIdOf(req) }));
      app.use('/named/:id', named);
    });
    await request(app).delete('/guessed/3').set('x-user-id', '1').expect(500);
    expect((errors[0] as Error).message).toContain(
      'DELETE / ("/") has no path parameter of its own, but receives "id" from a parent router, which may or may not be the record\'s id',
    );
    await request(app).delete('/named/3').set('x-user-id', '1').expect(403);
    expect((await request(app).delete('/named/1').set('x-user-id', '1').expect(200)).body).toEqual({ deleted: 1 });
  });

  it('resourceIdParam: null is an explicit collection check; a RegExp route must use it', async () => {
    const { app, errors } = appWith((app, permit) => {
      app.get('/folders/:folderId/documents', permit({ action: 'list', resourceIdParam: null }), (req, res) => void res.json({ list: resourceIdOf(req) }));
      app.get(/^\/regex\/(\d+)$/, permit({ action: 'read' }), (_req, res) => void res.json({ ran: true }));
    });
    expect((await request(app).get('/folders/9/documents').set('x-user-id', '1').expect(200)).body).toEqual({ list: null });
    await request(app).get('/regex/3').set('x-user-id', '1').expect(500);
    expect((errors[0] as Error).message).toContain('is a RegExp route, whose parameters cannot be read');
  });

  it('errors of getUser and projectResourceId go to next(error); the handler never runs', async () => {
    let ran = 0;
    const { app, errors } = appWith((app, permit) => {
      app.get('/documents/:id', permit({ action: 'read' }), (_req, res) => {
        ran++;
        res.json({});
      });
    });
    await request(app).get('/documents/1').set('x-user-id', 'boom').expect(500);
    await request(app).get('/documents/explode').set('x-user-id', '1').expect(500);
    expect(errors.map((error) => (error as Error).message)).toEqual(['the session store is down', 'projection bug']);
    expect(ran).toBe(0);
  });

  it('a getUser that rejects with nothing, throws null or throws "route": an error for next(), never "go on" or "next route"', async () => {
    let ran = 0;
    const { app, errors } = appWith((app, permit) => {
      app.delete('/documents/:id', permit({ action: 'delete' }), (_req, res) => {
        ran++;
        res.json({ deleted: true });
      });
      // The route Express would go on to with next('route'): unguarded, it must not be reached either.
      app.delete('/documents/:id', (_req, res) => {
        ran++;
        res.json({ fallthrough: true });
      });
    });
    for (const header of ['reject-nothing', 'throw-null', 'throw-route'])
      expect((await request(app).delete('/documents/3').set('x-user-id', header)).body).toEqual({
        statusCode: 500,
        message: expect.stringMatching(/^The application threw .+, which is not an Error\.$/),
      });
    expect(errors.map((error) => [(error as Error).name, (error as ThrownValueError).thrown])).toEqual([
      ['ThrownValueError', undefined],
      ['ThrownValueError', null],
      ['ThrownValueError', 'route'],
    ]);
    expect(ran).toBe(0);
  });
});

describe('the resource id rules the Nest guard and express permit() share', () => {
  const params = (...names: string[]) => names.map((name) => ({ name, optional: false, wildcard: false }));

  it('the default id counts only as the last parameter; explicit names must be declared; null opts out', () => {
    expect(resolveResourceIdParam([params('id')], undefined, 'default')).toEqual({ kind: 'param', name: 'id', optional: false });
    expect(resolveResourceIdParam([params('id', 'docId')], undefined, 'default')).toHaveProperty('problem');
    expect(resolveResourceIdParam([params('docId', 'id')], undefined, 'default')).toEqual({ kind: 'param', name: 'id', optional: false });
    expect(resolveResourceIdParam([[]], undefined, 'default')).toEqual({ kind: 'none' });
    expect(resolveResourceIdParam([params('a')], null, 'handler')).toEqual({ kind: 'none' });
    expect(resolveResourceIdParam([[]], 'documentId', 'guard')).toEqual({ kind: 'none' });
    expect(resolveResourceIdParam([[]], 'documentId', 'handler')).toHaveProperty('problem');
    expect(resolveResourceIdParam([params('id'), params('docId')], undefined, 'default')).toHaveProperty('problem');
    expect(resolveResourceIdParam([params('id'), params('x', 'id')], undefined, 'default')).toEqual({ kind: 'param', name: 'id', optional: false });
    expect(resolveResourceIdParam([routePathParams('/documents{/:id}')], undefined, 'default')).toEqual({ kind: 'param', name: 'id', optional: true });
  });

  it('a wildcard is never offered as the id: the fixes name the parameters that can hold one id, or a single-segment ":id"', () => {
    const wildcard = (name: string) => ({ name, optional: false, wildcard: true });
    const optOut = 'or opt out with resourceIdParam: null if this handler does not act on one record';
    expect(resolveResourceIdParam([[wildcard('path')]], undefined, 'default')).toEqual({
      problem:
        'declares the parameters "path" but none of them is the resource id: the default "id" counts only as the last parameter, ' +
        'and the last, "path", is a wildcard, which matches several path segments',
      fix: `Declare the id as a single segment parameter (":id"), ${optOut}.`,
    });
    expect(resolveResourceIdParam([[...params('docId'), wildcard('id')]], undefined, 'default')).toEqual({
      problem:
        'declares the parameters "docId", "id" but none of them is the resource id: the default "id" counts only as the last parameter, ' +
        'and the last, "id", is a wildcard, which matches several path segments',
      fix: `Set resourceIdParam to the parameter that holds the id of the record checked (one of "docId"), ${optOut}.`,
    });
    // Fastify names its unnamed wildcard "*", which no path could declare as ":*".
    expect(resolveResourceIdParam([[wildcard('*')]], '*', 'handler')).toEqual({
      problem: 'takes the resource id from the wildcard "*", which matches several path segments',
      fix: `Declare the id as a single segment parameter (":id") ${optOut}.`,
    });
    expect(resolveResourceIdParam([[{ name: 'filter', optional: false, wildcard: true }]], undefined, 'default', 'any')).toEqual({
      problem: 'declares the arguments "filter" but none of them is the resource id: the default is an argument named "id" holding one id',
      fix: `Take the id from an argument of a scalar type (Int, ID, String), ${optOut}.`,
    });
  });

  it('at request time a parameter the route did not declare, or a missing required id, is refused', () => {
    const route = {
      label: 'DocumentsController.read',
      paths: ['/documents/:id'],
      resourceId: { kind: 'param', name: 'id', optional: false } as const,
      declaredParams: new Set(['id']),
    };
    expect(rawResourceIdOf(route, { id: '7' })).toBe('7');
    expect(() => rawResourceIdOf(route, { id: '7', tenant: 'x' })).toThrow(
      'DocumentsController.read received the path parameter "tenant", which its paths "/documents/:id" do not ' +
        'declare; the permissions check refuses a request whose resource id it did not resolve at start.',
    );
    expect(() => rawResourceIdOf(route, {})).toThrow('takes the resource id from path parameter "id", but the request has none');
    expect(() => rawResourceIdOf(route, { id: ['a', 'b'] })).toThrow('path parameter "id" is not a single value');
  });
});

describe('checkPermitRoutes(app) finds ambiguous routes at boot', () => {
  const permitFor = () => {
    const permissions = initPermissions<AppUser>(definitions, { ownership, logger: { warn: () => undefined } });
    return createPermitMiddleware({ permissions, resource: 'document', getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] }) });
  };
  const HEADLINE =
    'Routes whose record id parameter is ambiguous; the server does not start, because a check without the right record id could grant ' +
    'access to the wrong record:\n';

  it('passes an app whose every permit route resolves its id (own parameters, a named merged one, null)', () => {
    const permit = permitFor();
    const app = express();
    app.get('/documents/:id', permit({ action: 'read' }));
    app.get('/documents', permit({ action: 'list' }));
    app.get('/folders/:folderId/documents', permit({ action: 'list', resourceIdParam: null }));
    const named = Router({ mergeParams: true });
    named.delete('/', permit({ action: 'delete', resourceIdParam: 'id' }));
    app.use('/named/:id', named);
    // A router without mergeParams never sees its parent's parameters: its own route decides.
    const separate = Router();
    separate.get('/:id', permit({ action: 'read' }));
    app.use('/teams/:teamId/documents', separate);
    expect(() => checkPermitRoutes(app)).not.toThrow();
  });

  it('lists every ambiguous route, in nested routers too, before any request', () => {
    const permit = permitFor();
    const app = express();
    app.get('/documents/:id', permit({ action: 'read' }));
    app.delete('/users/:id/documents/:docId', permit({ action: 'delete' }));
    const guessed = Router({ mergeParams: true });
    guessed.get('/', permit({ action: 'read' }));
    const inner = Router({ mergeParams: true });
    inner.get('/:id', permit({ action: 'read', resourceIdParam: 'documentId' }));
    guessed.use('/inner', inner);
    app.use('/guessed/:id', guessed);
    app.get(/^\/regex\/(\d+)$/, permit({ action: 'read' }));
    expect(() => checkPermitRoutes(app)).toThrow(
      new PermissionsUsageError(
        HEADLINE +
          '  - DELETE /users/:id/documents/:docId (permit({ action: "delete" }) on "/users/:id/documents/:docId") declares the parameters "id", "docId" ' +
          'but none of them is the resource id: the default "id" counts only as the last parameter. Fix: Set resourceIdParam to the parameter that holds ' +
          'the id of the record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
          '  - GET /guessed/:id/ (permit({ action: "read" }) on "/") has no path parameter of its own, but receives "id" from a parent router, which may ' +
          'or may not be the record\'s id. Fix: Set resourceIdParam to the parameter that holds the record id (one of "id"), or to null if the route ' +
          'acts on no single record.\n' +
          '  - GET /guessed/:id/inner/:id (permit({ action: "read" }) on "/:id") takes the resource id from parameter "documentId", which it does not ' +
          'declare (it declares "id"). Fix: Set resourceIdParam to one of "id", or opt out with resourceIdParam: null if this handler does not act on ' +
          'one record.\n' +
          `  - GET /^\\/regex\\/(\\d+)$/ (permit({ action: "read" }) on ${JSON.stringify(String(/^\/regex\/(\d+)$/))}) is a RegExp route` +
          ', whose parameters cannot be read. Fix: ' +
          'Give the route a string path (/documents/:id), or pass resourceIdParam: null if it acts on no single record.',
      ),
    );
  });

  it("a router mounted under a path's parameters without mergeParams never sees them: a route without its own id is refused", () => {
    const permit = permitFor();
    const app = express();
    // Express hands these routes no "id": the check would be on the collection, under a record's URL.
    const unmerged = Router();
    unmerged.get('/', permit({ action: 'read' }));
    unmerged.delete('/', permit({ action: 'delete', resourceIdParam: 'id' }));
    app.use('/documents/:id', unmerged);
    const nested = Router();
    nested.use('/comments', Router().get('/', permit({ action: 'read' })));
    app.use('/users/:userId', nested);
    // Its own id, or an explicit collection check, is what it sees: fine.
    const own = Router().get('/:id', permit({ action: 'read' }));
    own.get('/', permit({ action: 'list', resourceIdParam: null }));
    app.use('/teams/:teamId/documents', own);
    const fix = 'Fix: Create the router with Router({ mergeParams: true }), or pass resourceIdParam: null if the route is about the collection.';
    const unseenId = `is mounted under /documents/:id without mergeParams: its routes never see "id". ${fix}`;
    expect(() => checkPermitRoutes(app)).toThrow(
      new PermissionsUsageError(
        HEADLINE +
          `  - GET /documents/:id/ (permit({ action: "read" }) on "/") ${unseenId}\n` +
          `  - DELETE /documents/:id/ (permit({ action: "delete" }) on "/") ${unseenId}\n` +
          `  - GET /users/:userId/comments/ (permit({ action: "read" }) on "/") is mounted under /users/:userId/comments without mergeParams: its routes ` +
          `never see "userId". ${fix}`,
      ),
    );
  });

  it('refuses what is not an express application or router', () => {
    expect(() => checkPermitRoutes({})).toThrow(new PermissionsUsageError('checkPermitRoutes(app): app must be an express application or router.'));
  });
});

describe('createPermitMiddleware and permit() refuse wrong wiring at boot, naming createPermitMiddleware and req', () => {
  const permissions = initPermissions<AppUser>(definitions, { ownership, logger: { warn: () => undefined } });
  const getUser = (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] });

  it('options that are no object, an engine that is not one, getUser and projectResourceId that are not functions', () => {
    expect(() => createPermitMiddleware(null as never)).toThrow(
      new PermissionsUsageError(
        'createPermitMiddleware(options): options must be an object { permissions, getUser, getTenant?, resource?, projectResourceId? }.',
      ),
    );
    expect(() => createPermitMiddleware({ permissions: {} as never, getUser })).toThrow(
      new PermissionsUsageError(
        'createPermitMiddleware(): options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).',
      ),
    );
    expect(() => createPermitMiddleware({ permissions, getUser: 'user' as never })).toThrow(
      new PermissionsUsageError('createPermitMiddleware(): options.getUser must be a function (req) => user.'),
    );
    expect(() => createPermitMiddleware({ permissions, getUser, projectResourceId: 1 as never })).toThrow(
      new PermissionsUsageError('createPermitMiddleware(): options.projectResourceId must be a function (raw, { resource }) => id | undefined.'),
    );
  });

  it('a route without an action or a resource, or with a resourceIdParam that is no name — one JSON cannot write too', () => {
    const permit = createPermitMiddleware({ permissions, getUser });
    expect(() => permit(undefined as never)).toThrow(
      new PermissionsUsageError('permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.'),
    );
    expect(() => permit({ action: 'read' })).toThrow(
      new PermissionsUsageError('permit({ action: "read" }): no resource; pass resource here or to createPermitMiddleware.'),
    );
    expect(() => permit({ action: 'read', resource: 'document', resourceIdParam: 5 as never })).toThrow(
      new PermissionsUsageError('permit(): resourceIdParam must be a parameter name or null, got 5.'),
    );
    // JSON.stringify throws on a BigInt: the refusal still is a PermissionsUsageError, not a TypeError.
    expect(() => permit({ action: 'read', resource: 'document', resourceIdParam: 5n as never })).toThrow(
      new PermissionsUsageError('permit(): resourceIdParam must be a parameter name or null, got bigint.'),
    );
  });
});
