/**
 * `checkPermitRoutes(app)` reads Hono's `app.routes` — mounted applications included, also those with an error
 * handler of their own, whose handlers Hono wraps — and stops the start, listing every guarded route whose record
 * id is ambiguous, by the same rules as the middleware applies per request.
 */
import { describe, expect, it } from '@jest/globals';
import { Hono } from 'hono';
import { permissionsFromDefinitions, PermissionsUsageError, type User } from '../../runtime/permissions/index.js';
import { checkPermitRoutes, createPermitMiddleware } from '../../runtime/hono/index.js';

type AppUser = User<number>;

const permitFor = () => {
  const permissions = permissionsFromDefinitions<AppUser>([{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:any', 'delete:any', 'list:any'] }], {
    logger: { warn: () => undefined },
  });
  return createPermitMiddleware({ permissions, resource: 'document', getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] }) });
};
const HEADLINE =
  'Routes whose record id parameter is ambiguous; the server does not start, because a check without the right record id could grant ' +
  'access to the wrong record:\n';
const ok = () => new Response('ok');

describe('checkPermitRoutes(app) finds ambiguous routes at start', () => {
  it('passes an app whose every permit route resolves its id (own parameters, patterns, optional, a named parent parameter, null)', () => {
    const permit = permitFor();
    const app = new Hono();
    app.get('/documents/:id', permit({ action: 'read' }), ok);
    app.get('/documents', permit({ action: 'list' }), ok);
    app.get('/pattern/:id{[0-9]+}', permit({ action: 'read' }), ok);
    app.get('/optional/:id?', permit({ action: 'read' }), ok);
    app.get('/folders/:folderId/documents', permit({ action: 'list', resourceIdParam: null }), ok);
    app.use('/admin/*', permit({ action: 'list', resourceIdParam: null }));
    app.use('/files/:id/*', permit({ action: 'read', resourceIdParam: 'id' }));
    app.route('/named/:id', new Hono().delete('/', permit({ action: 'delete', resourceIdParam: 'id' }), ok));
    // A mounted app's own routes decide: '/:id' under '/teams/:teamId/documents' is the document's id.
    app.route('/teams/:teamId/documents', new Hono().get('/:id', permit({ action: 'read' }), ok));
    app.get('/plain/:id', ok); // no permit: not checked
    expect(() => checkPermitRoutes(app)).not.toThrow();
  });

  it('lists every ambiguous route once, in mounted apps too (with an error handler of their own), before any request', () => {
    const permit = permitFor();
    const app = new Hono();
    app.get('/documents/:id', permit({ action: 'read' }), ok);
    const nested = permit({ action: 'delete' });
    app.delete('/users/:id/documents/:docId', nested, ok);
    app.delete('/users/:id/documents/:docId', nested, ok); // registered twice: listed once
    const guessed = new Hono().get('/', permit({ action: 'read' }), ok);
    guessed.onError((error, c) => c.text(error.message, 500));
    app.route('/guessed/:id', guessed);
    app.route('/api', new Hono().basePath('/v1').get('/:id', permit({ action: 'read', resourceIdParam: 'documentId' }), ok));
    app.use(permit({ action: 'read' }));
    app.on(['GET', 'PUT'], '/files/*', permit({ action: 'read' }), ok);
    expect(() => checkPermitRoutes(app)).toThrow(
      new PermissionsUsageError(
        HEADLINE +
          '  - DELETE /users/:id/documents/:docId (permit({ action: "delete" }) on "/users/:id/documents/:docId") declares the parameters "id", "docId" ' +
          'but none of them is the resource id: the default "id" counts only as the last parameter. Fix: Set resourceIdParam to the parameter that holds ' +
          'the id of the record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
          '  - GET /guessed/:id (permit({ action: "read" }) on "/") has no path parameter of its own, but receives "id" from a parent router, which may ' +
          'or may not be the record\'s id. Fix: Set resourceIdParam to the parameter that holds the record id (one of "id"), or to null if the route ' +
          'acts on no single record.\n' +
          '  - GET /api/v1/:id (permit({ action: "read" }) on "/:id") takes the resource id from parameter "documentId", which it does not declare ' +
          '(it declares "id"). Fix: Set resourceIdParam to one of "id", or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
          '  - ALL /* (permit({ action: "read" }) on "/*") ends in a wildcard (*), whose path segments may hold the record\'s id but reach the check as ' +
          "no parameter. Fix: Put permit() in the route that names the record's id (app.get('/documents/:id', permit({ action }), handler)), set " +
          'resourceIdParam to a parameter before the wildcard, or opt out with resourceIdParam: null if this handler does not act on one record.\n' +
          '  - GET /files/* (permit({ action: "read" }) on "/files/*") ends in a wildcard (*), whose path segments may hold the record\'s id but reach ' +
          "the check as no parameter. Fix: Put permit() in the route that names the record's id (app.get('/documents/:id', permit({ action }), " +
          'handler)), set resourceIdParam to a parameter before the wildcard, or opt out with resourceIdParam: null if this handler does not act on one ' +
          'record.\n' +
          '  - PUT /files/* (permit({ action: "read" }) on "/files/*") ends in a wildcard (*), whose path segments may hold the record\'s id but reach ' +
          "the check as no parameter. Fix: Put permit() in the route that names the record's id (app.get('/documents/:id', permit({ action }), " +
          'handler)), set resourceIdParam to a parameter before the wildcard, or opt out with resourceIdParam: null if this handler does not act on one ' +
          'record.',
      ),
    );
  });

  it("a route whose record id has the name of its parent path's parameter: Hono reads the parent's segment, so it is refused", async () => {
    const permit = permitFor();
    const comments = new Hono().delete('/comments/:id', permit({ action: 'delete' }), ok);
    const app = new Hono();
    app.route('/documents/:id', comments);
    const problem =
      "names its record id :id as its parent path /documents/:id names one of its parameters, and Hono reads the parent's segment for that " +
      "name. Fix: Rename one of the two parameters (/documents/:documentId with /comments/:id), so that the check reads the route's own segment.";
    expect(() => checkPermitRoutes(app)).toThrow(
      new PermissionsUsageError(`${HEADLINE}  - DELETE /documents/:id/comments/:id (permit({ action: "delete" }) on "/comments/:id") ${problem}`),
    );
    // Asked anyway, it is a 500: never the check of the parent's record.
    expect((await app.request('/documents/1/comments/2', { method: 'DELETE' })).status).toBe(500);
    // Named apart, the route's own segment is the record's id.
    const renamed = new Hono();
    renamed.route('/documents/:documentId', new Hono().delete('/comments/:id', permit({ action: 'delete' }), ok));
    expect(() => checkPermitRoutes(renamed)).not.toThrow();
  });

  it('a route whose own path names its record id twice: Hono reads the first segment, so it is refused at start and per request', async () => {
    const permit = permitFor();
    const app = new Hono();
    let ran = 0;
    app.get('/users/:id/documents/:id', permit({ action: 'read' }), () => new Response(`ran ${++ran}`));
    app.get('/u/:userId/d/:userId', permit({ action: 'read', resourceIdParam: 'userId' }), ok);
    const problem = (name: string) =>
      `names its record id :${name} twice in its own path, and Hono reads the first segment for that name. Fix: Rename one of the two ` +
      "parameters (/users/:userId/documents/:id), so that the check reads the route's own segment.";
    expect(() => checkPermitRoutes(app)).toThrow(
      new PermissionsUsageError(
        `${HEADLINE}  - GET /users/:id/documents/:id (permit({ action: "read" }) on "/users/:id/documents/:id") ${problem('id')}\n` +
          `  - GET /u/:userId/d/:userId (permit({ action: "read" }) on "/u/:userId/d/:userId") ${problem('userId')}`,
      ),
    );
    // Asked anyway, it is a 500: never the check of the user's id as a document's.
    const errors: unknown[] = [];
    app.onError((error) => {
      errors.push(error);
      return new Response(null, { status: 500 });
    });
    expect((await app.request('/users/1/documents/3')).status).toBe(500);
    expect(errors).toEqual([
      new PermissionsUsageError(
        'GET /users/:id/documents/:id ("/users/:id/documents/:id") names its record id :id twice in its own path, and Hono reads the first ' +
          'segment for that name, so the permissions check cannot tell which record it is about. Rename one of the two parameters ' +
          "(/users/:userId/documents/:id), so that the check reads the route's own segment.",
      ),
    ]);
    expect(ran).toBe(0);
    // A name twice that is not the record id's changes nothing.
    const other = new Hono().get('/orgs/:org/teams/:org/documents/:id', permit({ action: 'read' }), ok);
    expect(() => checkPermitRoutes(other)).not.toThrow();
  });

  it('refuses what is not a Hono application', () => {
    const refusal = new PermissionsUsageError('checkPermitRoutes(app): app must be a Hono application (its routes are app.routes).');
    expect(() => checkPermitRoutes({} as never)).toThrow(refusal);
    expect(() => checkPermitRoutes(null as never)).toThrow(refusal);
  });
});
