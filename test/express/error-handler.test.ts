/**
 * `permissionsErrorHandler()` on a real Express server listening on loopback: a 500 is the JSON body with nothing
 * of the error in it, whatever the application's `onServerError` does. Were its reporter's throw not caught, Express
 * would hand the reporter's error to its final handler, which answers an HTML page — with the error's stack outside
 * production.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import { permissionsFromDefinitions, PermissionsUsageError, type PermissionDefinition, type User } from 'typed-permissions';
import { createPermitMiddleware, permissionsErrorHandler, permitOf, type PermissionsErrorHandlerOptions } from 'typed-permissions/express';

type AppUser = User<number>;

const INTERNAL = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };

const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
}, 10_000);

/**
 * An app whose ownership hook fails for document 666 (with a message that must not reach the caller), in the
 * Express environment `env`, listening on loopback; resolves to its address once it listens (at most 10 s).
 */
async function serve(env: string, options: PermissionsErrorHandlerOptions): Promise<string> {
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
  const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] }) });
  const app = express();
  // The environment Express's final handler reads: outside production it shows an error's stack.
  app.set('env', env);
  app.get('/documents/:id', permit({ action: 'read' }), (req: Request, res) => void res.json({ read: permitOf(req).resourceId }));
  app.use(permissionsErrorHandler(options));
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

  it('an onServerError that is not a function is refused when the handler is made, not at the first 500', () => {
    expect(() => permissionsErrorHandler({ onServerError: 'log' as never })).toThrow(
      new PermissionsUsageError('permissionsErrorHandler(): options.onServerError must be a function (error, req) => void.'),
    );
  });
});
