/**
 * `permissionsErrorHandler()` on a real Express server listening on loopback: a 500 is the JSON body with nothing
 * of the error in it, whatever the application's `onServerError` does. Were its reporter's throw not caught, Express
 * would hand the reporter's error to its final handler, which answers an HTML page — with the error's stack outside
 * production.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { permissionsFromDefinitions, PermissionsUsageError, type PermissionDefinition, type User } from 'typed-permissions';
import {
  createPermissionsMiddleware,
  createPermitMiddleware,
  permissionsErrorHandler,
  permitOf,
  type PermissionsErrorHandlerOptions,
  type RequestWithPermit,
} from 'typed-permissions/express';
import { ThrownValueError } from 'typed-permissions/integration';

type AppUser = User<number>;

const INTERNAL = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };

/** A getter or Proxy trap of a hostile thrown value, whose message must not reach the caller. */
const failingGetter = (): never => {
  throw new Error('cannot compute status: db-7.internal:5432 down');
};

const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
}, 10_000);

/** Starts `app` on loopback (closed after the tests); resolves to its address once it listens (at most 10 s). */
async function listen(app: express.Express): Promise<string> {
  const server = await new Promise<Server>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the Express server did not listen within 10 s')), 10_000);
    const listening = app.listen(0, '127.0.0.1', () => {
      clearTimeout(timer);
      resolve(listening);
    });
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * An app whose ownership hook fails for document 666 (with a message that must not reach the caller), in the
 * Express environment `env`, listening on loopback; resolves to its address once it listens (at most 10 s).
 * `getUser` is an employee's unless given.
 */
async function serve(env: string, options: PermissionsErrorHandlerOptions, getUser = (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] })): Promise<string> {
  const ownership = {
    isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => {
      if (resourceId === 666) throw new Error('db-7 refused the password hunter2');
      return resourceId === user.id;
    },
    listCreated: ({ user }: { user: AppUser }) => [user.id],
  };
  const permissions = permissionsFromDefinitions<AppUser>(definitions, {
    ownership,
    resourceIdTypes: { document: 'number' },
    logger: { warn: () => undefined },
  });
  const permit = createPermitMiddleware({ permissions, resource: 'document', getUser });
  const app = express();
  // The environment Express's final handler reads: outside production it shows an error's stack.
  app.set('env', env);
  app.get('/documents/:id', permit({ action: 'read' }), (req: Request, res) => void res.json({ read: permitOf(req).resourceId }));
  app.use(permissionsErrorHandler(options));
  return listen(app);
}

async function ask(baseUrl: string, path: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const type = response.headers.get('content-type');
  return { status: response.status, type, body: type?.startsWith('application/json') === true ? JSON.parse(text) : text };
}

/** The process's unhandled rejections while `run` runs, and for 50 ms after. */
async function unhandledRejectionsDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('permissionsErrorHandler({ onServerError }) of express, on a real server', () => {
  it.each(['development', 'production'])(
    'an onServerError that throws changes nothing of the 500: JSON with nothing of either error (env %s), and the server goes on',
    async (env) => {
      const reported: unknown[] = [];
      const baseUrl = await serve(env, {
        onServerError: (error, req) => {
          reported.push([(error as Error).message, req.originalUrl]);
          throw new Error('the log shipper is down');
        },
      });
      expect(await ask(baseUrl, '/documents/666')).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: INTERNAL });
      expect(reported).toEqual([['Ownership hook isCreator threw: db-7 refused the password hunter2', '/documents/666']]);
      expect(await ask(baseUrl, '/documents/1')).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { read: 1 } });
    },
    20_000,
  );

  it('an onServerError whose promise rejects: the same 500, and no unhandled rejection (which stops a Node.js process)', async () => {
    const baseUrl = await serve('development', {
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- an async reporter, as an application may write one
      onServerError: () => Promise.reject(new Error('the log shipper is down')),
    });
    const unhandled = await unhandledRejectionsDuring(async () => {
      expect(await ask(baseUrl, '/documents/666')).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: INTERNAL });
    });
    expect(unhandled).toEqual([]);
  }, 20_000);

  it.each([
    ['an Error whose statusCode getter throws', () => Object.defineProperty(new Error('session store down'), 'statusCode', { get: failingGetter }), false],
    ['a Proxy whose getPrototypeOf trap throws', () => new Proxy({}, { getPrototypeOf: failingGetter }), true],
  ])(
    'getUser throws %s: the same JSON 500 with nothing of the inner error, reported, no unhandled rejection (the process went on)',
    async (_label, hostile, wrapped) => {
      const thrown = hostile();
      const reported: unknown[] = [];
      const baseUrl = await serve('development', { onServerError: (error) => void reported.push(error) }, () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile value under test
        throw thrown;
      });
      const unhandled = await unhandledRejectionsDuring(async () => {
        expect(await ask(baseUrl, '/documents/1')).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: INTERNAL });
      });
      expect(unhandled).toEqual([]);
      // The value as thrown, or the Error that wraps what is no Error.
      expect(reported).toHaveLength(1);
      expect(reported[0] instanceof ThrownValueError).toBe(wrapped);
      expect(wrapped ? (reported[0] as ThrownValueError).thrown : reported[0]).toBe(thrown);
    },
    20_000,
  );

  it('an onServerError that is not a function is refused when the handler is made, not at the first 500', () => {
    expect(() => permissionsErrorHandler({ onServerError: 'log' as never })).toThrow(
      new PermissionsUsageError('permissionsErrorHandler(): options.onServerError must be a function (error, req) => void.'),
    );
  });
});

describe('a decision that comes after the response was answered (a timeout middleware answered 503 first)', () => {
  const TIMEOUT = { statusCode: 503, error: 'Service Unavailable', message: 'Response timeout' };

  /**
   * An app whose first middleware answers 503 and lets the request go on, as a timeout middleware does when it fires
   * while the check still runs; `x-user-id: boom` is a session store that fails. Its permit and permissions
   * middlewares decide after the answer was sent; the errors answered 500 are in `reported`, those
   * permissionsErrorHandler hands on in `handedOn`.
   */
  async function timedOutServer(): Promise<{ baseUrl: string; reported: unknown[]; handedOn: unknown[] }> {
    const reported: unknown[] = [];
    const handedOn: unknown[] = [];
    const permissions = permissionsFromDefinitions<AppUser>(definitions, {
      ownership: {
        isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => resourceId === user.id,
        listCreated: ({ user }: { user: AppUser }) => [user.id],
      },
      resourceIdTypes: { document: 'number' },
      logger: { warn: () => undefined },
    });
    const userOf = (req: Request): AppUser => {
      if (req.get('x-user-id') === 'boom') throw new Error('the session store is down');
      return { id: 1, roles: ['EMPLOYEE'] };
    };
    const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: userOf });
    const app = express();
    app.use((req, res, next) => {
      if (req.get('x-timed-out') === 'yes') res.status(503).json(TIMEOUT);
      next();
    });
    app.get('/documents/:id', permit({ action: 'read' }), (req: Request, res) => void res.json({ read: permitOf(req).resourceId }));
    app.get(
      '/queried/:id',
      (req, _res, next) => {
        (req as RequestWithPermit<AppUser>).permissionsQuery = { user: userOf(req), resource: 'document', action: 'read', resourceId: Number(req.params.id) };
        next();
      },
      createPermissionsMiddleware({ permissions }),
      (req, res) => void res.json({ read: (req as RequestWithPermit<AppUser, number>).permit!.resourceId }),
    );
    app.use(permissionsErrorHandler({ onServerError: (error) => void reported.push((error as Error).message) }));
    // What permissionsErrorHandler hands on: Express's own handler would close the connection.
    app.use((error: unknown, _req: Request, _res: Response, next: NextFunction) => {
      handedOn.push(error);
      next(error);
    });
    return { baseUrl: await listen(app), reported, handedOn };
  }

  async function askTimedOut(baseUrl: string, path: string, userId = '1') {
    const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-timed-out': 'yes', 'x-user-id': userId }, signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: await response.json(), version: response.headers.get('x-permissions-version') };
  }

  it('a late refusal is dropped: the 503 stays as sent, no ERR_HTTP_HEADERS_SENT rejection (which ended the process), the server goes on', async () => {
    const { baseUrl, reported } = await timedOutServer();
    const unhandled = await unhandledRejectionsDuring(async () => {
      // Document 2 is not user 1's: refused by permit() and by the permissions middleware, after the 503.
      for (const path of ['/documents/2', '/queried/2']) expect(await askTimedOut(baseUrl, path)).toEqual({ status: 503, body: TIMEOUT, version: null });
    });
    expect(unhandled).toEqual([]);
    expect(reported).toEqual([]);
    expect(await ask(baseUrl, '/documents/1')).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { read: 1 } });
  }, 20_000);

  it('a late error is reported and answers nothing: the 503 stays as sent, its connection is not closed, and the server goes on', async () => {
    const { baseUrl, reported, handedOn } = await timedOutServer();
    const unhandled = await unhandledRejectionsDuring(async () => {
      expect(await askTimedOut(baseUrl, '/documents/1', 'boom')).toEqual({ status: 503, body: TIMEOUT, version: null });
    });
    expect(unhandled).toEqual([]);
    expect(reported).toEqual(['the session store is down']);
    expect(handedOn).toEqual([]);
    expect(await ask(baseUrl, '/documents/1')).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { read: 1 } });
  }, 20_000);
});
