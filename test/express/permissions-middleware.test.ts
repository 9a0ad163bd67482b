/**
 * The express integration on a real express 5 app: an earlier middleware puts the grant query on the
 * request, the permissions middleware refuses (403) or puts the permit on the request, and errors go
 * to the application's error handler.
 */
import { describe, expect, it } from '@jest/globals';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import {
  PermissionDefinitionError,
  Permissions,
  PermissionsHookError,
  PermissionsUsageError,
  Permit,
  type PermissionDefinition,
  type User,
} from '../../runtime/permissions/index.js';
import { createPermissionsMiddleware, initPermissions, type RequestWithPermit } from '../../runtime/express/index.js';

type AppUser = User<number>;

interface Doc {
  readonly id: number;
  readonly title: string;
  readonly body: string;
  readonly secret: string;
  readonly creatorId: number;
}

const DOCS: readonly Doc[] = [
  { id: 1, title: 'one', body: 'body 1', secret: 'secret 1', creatorId: 1 },
  { id: 2, title: 'two', body: 'body 2', secret: 'secret 2', creatorId: 2 },
];

const USERS: Record<string, AppUser> = {
  '1': { id: 1, roles: ['AUTHOR'] },
  '2': { id: 2, roles: ['AUTHOR'] },
  '3': { id: 3, roles: ['VISITOR'] },
  '4': { id: 4, roles: ['FLAKY'] },
};

const definitions: PermissionDefinition[] = [
  { roles: ['AUTHOR'], resource: 'doc', possession: 'own', grant: { read: ['*', '!secret'] }, isOwner: 'isAuthor', listOwned: 'listAuthored' },
  { roles: ['AUTHOR', 'VISITOR'], resource: 'doc', grant: { 'list:any': ['title'] } },
  { roles: ['FLAKY'], resource: 'doc', possession: 'own', grant: ['read'], isOwner: 'isAuthorFlaky', listOwned: 'listAuthored' },
];

class DocOwnership {
  isAuthor({ user, resourceId }: { user: AppUser; resourceId: unknown }): boolean {
    return DOCS.some((d) => d.id === resourceId && d.creatorId === user.id);
  }
  listAuthored({ user }: { user: AppUser }): number[] {
    return DOCS.filter((d) => d.creatorId === user.id).map((d) => d.id);
  }
  isAuthorFlaky(): Promise<boolean> {
    return Promise.reject(new Error('connection reset'));
  }
}

const silent = { warn: () => undefined };

/** The app: GET /docs/:id (read), GET /docs (list), GET /no-query (nobody sets the query). */
function makeApp(permissions: Permissions<AppUser>) {
  const ran: string[] = [];
  const errors: unknown[] = [];
  const app = express();
  const permissionsMiddleware = createPermissionsMiddleware({ permissions });

  const queryFor = (action: string) => (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('x-user-id');
    const user = header === undefined ? { id: 0, roles: ['ANONYMOUS'] } : USERS[header];
    const id = req.params['id'];
    (req as RequestWithPermit<AppUser, number>).permissionsQuery = {
      user: user as AppUser,
      resource: 'doc',
      action,
      resourceId: id === undefined ? undefined : Number(id),
    };
    next();
  };

  app.get('/docs/:id', queryFor('read'), permissionsMiddleware, async (req, res) => {
    ran.push('read');
    const { permit } = req as RequestWithPermit<AppUser, number>;
    res.json({ isPermit: permit instanceof Permit, document: await permit!.pick(DOCS.find((d) => d.id === Number(req.params['id'])) as Doc) });
  });
  app.get('/docs', queryFor('list'), permissionsMiddleware, async (req, res) => {
    ran.push('list');
    res.json(await (req as RequestWithPermit<AppUser>).permit!.filterPick(DOCS));
  });
  app.get('/no-query', permissionsMiddleware, (_req, res) => {
    ran.push('no-query');
    res.json({});
  });
  app.get(
    '/bad-user',
    (req, _res, next) => {
      (req as RequestWithPermit).permissionsQuery = { user: { id: 1, roles: 'AUTHOR' as unknown as string[] }, resource: 'doc', action: 'read' };
      next();
    },
    permissionsMiddleware,
    (_req, res) => {
      ran.push('bad-user');
      res.json({});
    },
  );
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- express takes a handler as an error handler only when it declares four parameters
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    errors.push(error);
    res.status(500).json({ name: (error as Error).name });
  });
  return { app, ran, errors };
}

const permissions = initPermissions<AppUser>(definitions, { ownership: new DocOwnership(), logger: silent, source: 'express test' });

describe('createPermissionsMiddleware', () => {
  it('answers 403 with a JSON body when not granted, and the handler does not run', async () => {
    const { app, ran, errors } = makeApp(permissions);
    const notOwned = await request(app).get('/docs/2').set('x-user-id', '1').expect(403);
    // An author reads own docs only: the body says the record is not theirs (as it would for a doc that does not exist).
    expect(notOwned.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on doc is not granted', reason: 'not-owner' });
    const visitor = await request(app).get('/docs/1').set('x-user-id', '3').expect(403);
    expect(visitor.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on doc is not granted', reason: 'no-grant' });
    // ANONYMOUS is no role of the policy: the permit says 'unknown-role', the caller is told no more than 'no-grant'.
    const anonymous = await request(app).get('/docs').expect(403);
    expect(anonymous.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'list on doc is not granted', reason: 'no-grant' });
    expect(ran).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('puts the permit on the request when granted', async () => {
    const { app, ran } = makeApp(permissions);
    const read = await request(app).get('/docs/1').set('x-user-id', '1').expect(200);
    expect(read.body).toEqual({ isPermit: true, document: { id: 1, title: 'one', body: 'body 1', creatorId: 1 } });
    const list = await request(app).get('/docs').set('x-user-id', '2').expect(200);
    expect(list.body).toEqual([{ title: 'one' }, { title: 'two' }]);
    expect(ran).toEqual(['read', 'list']);
  });

  it('passes an ownership hook error to next(error), and the handler does not run', async () => {
    const { app, ran, errors } = makeApp(permissions);
    const response = await request(app).get('/docs/1').set('x-user-id', '4').expect(500);
    expect(response.body).toEqual({ name: 'PermissionsHookError' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PermissionsHookError);
    expect((errors[0] as Error).message).toBe('Ownership hook isAuthorFlaky rejected: connection reset');
    expect(ran).toEqual([]);
  });

  it('passes a missing grant query to next(error) as a PermissionsUsageError, and the handler does not run', async () => {
    const { app, ran, errors } = makeApp(permissions);
    await request(app).get('/no-query').expect(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PermissionsUsageError);
    expect((errors[0] as Error).message).toBe(
      'No grant query for GET /no-query: set req.permissionsQuery = { user, resource, action, resourceId? } in a ' +
        'middleware that runs before the permissions middleware, or pass getQuery to createPermissionsMiddleware.',
    );
    expect(ran).toEqual([]);
  });

  it('passes an invalid grant query to next(error)', async () => {
    const { app, ran, errors } = makeApp(permissions);
    await request(app).get('/bad-user').expect(500);
    expect(errors[0]).toBeInstanceOf(PermissionsUsageError);
    expect(ran).toEqual([]);
  });

  it('reads the query with getQuery when given', async () => {
    const app = express();
    app.get(
      '/docs/:id',
      createPermissionsMiddleware({
        permissions,
        getQuery: (req: Request) => ({
          user: USERS[req.get('x-user-id') ?? ''] as AppUser,
          resource: 'doc',
          action: 'read',
          resourceId: Number(req.params['id']),
        }),
      }),
      (req, res) => {
        res.json({ granted: (req as RequestWithPermit).permit?.granted });
      },
    );
    expect((await request(app).get('/docs/2').set('x-user-id', '2').expect(200)).body).toEqual({ granted: true });
    await request(app).get('/docs/2').set('x-user-id', '1').expect(403);
  });

  it('a getQuery that throws undefined goes to next() as an Error (never read as "go on"), and the handler does not run', async () => {
    const app = express();
    let ran = 0;
    const errors: unknown[] = [];
    app.get(
      '/docs/:id',
      createPermissionsMiddleware({
        permissions,
        getQuery: () => {
          throw undefined; // eslint-disable-line @typescript-eslint/only-throw-error -- the careless throw under test
        },
      }),
      (_req, res) => {
        ran++;
        res.json({ ran: true });
      },
    );
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- express takes a handler as an error handler only when it declares four parameters
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      errors.push(error);
      res.status(500).json({ message: (error as Error).message });
    });
    expect((await request(app).get('/docs/1').expect(500)).body).toEqual({ message: 'The application threw undefined, which is not an Error.' });
    expect(errors).toEqual([expect.objectContaining({ name: 'ThrownValueError', thrown: undefined })]);
    expect(ran).toBe(0);
  });

  it('refuses an engine that is not built, at boot', () => {
    expect(() => createPermissionsMiddleware({ permissions: new Permissions({ logger: silent }) })).toThrow(PermissionsUsageError);
  });
});

describe('initPermissions', () => {
  it('builds at boot, and throws PermissionDefinitionError for an invalid definition', () => {
    expect(permissions.built).toBe(true);
    let thrown: unknown;
    try {
      initPermissions([{ roles: ['A'], resource: 'doc', grant: ['read:mine'] }], { source: 'bad.json' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PermissionDefinitionError);
    expect((thrown as PermissionDefinitionError).problems.map((p) => [p.code, p.source])).toEqual([['bad-possession', 'bad.json']]);
  });
});
