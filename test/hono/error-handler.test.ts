/**
 * `permissionsErrorHandler()` as a Hono app's `onError`, on a real server (@hono/node-server on loopback) and
 * through the app's own `fetch` (what Deno, Bun and workers call): a 500 is the JSON body with nothing of the error
 * in it, whatever the application's `onServerError` does. Were its reporter's throw not caught, the app's `fetch`
 * would throw it to the server (on Node.js, a 500 with an empty body; elsewhere, whatever the host shows).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Hono, type Context } from 'hono';
import { permissionsFromDefinitions, PermissionsUsageError, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { createPermitMiddleware, permissionsErrorHandler, type PermissionsErrorHandlerOptions } from '../../runtime/hono/index.js';
import { ask, serveOnLoopback, type HonoServer } from './hono-server.js';

type AppUser = User<number>;

const INTERNAL = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };

const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
];

const servers: HonoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}, 10_000);

/** A getter or Proxy trap of a hostile thrown value, whose message must not reach the caller. */
const failingGetter = (): never => {
  throw new Error('cannot compute status: db-7.internal:5432 down');
};

/** What getUser throws for the request header `x-hostile`: values whose getters or Proxy traps throw. */
const HOSTILE: Readonly<Record<string, () => unknown>> = {
  'statusCode-getter': () => Object.defineProperty(new Error('session store down'), 'statusCode', { get: failingGetter }),
  'no-prototype': () => new Proxy({}, { getPrototypeOf: failingGetter }),
};

/**
 * An app whose ownership hook fails for document 666, with a message that must not reach the caller; its getUser
 * throws {@link HOSTILE}'s value of the `x-hostile` header; `/own-response` throws an Error whose `res` getter throws.
 */
function appWith(options: PermissionsErrorHandlerOptions): Hono {
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
  const getUser = (c: Context): AppUser => {
    const hostile = HOSTILE[c.req.header('x-hostile') ?? ''];
    if (hostile !== undefined) throw hostile();
    return { id: 1, roles: ['EMPLOYEE'] };
  };
  const permit = createPermitMiddleware({ permissions, resource: 'document', getUser });
  const app = new Hono();
  app.get('/documents/:id', permit({ action: 'read' }), (c) => c.json({ read: c.var.permit.resourceId }));
  // A route of one handler: Hono calls onError, and would throw what it throws, synchronously from fetch.
  app.get('/broken', () => {
    throw new Error('db-7 refused the password hunter2');
  });
  // Read as an HTTPException that brings its own response: the getter throws instead.
  app.get('/own-response', () => {
    throw Object.defineProperty(new Error('x'), 'res', { get: failingGetter });
  });
  app.onError(permissionsErrorHandler(options));
  return app;
}

async function served(app: Hono): Promise<string> {
  const server = await serveOnLoopback(app);
  servers.push(server);
  return server.baseUrl;
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

describe('permissionsErrorHandler({ onServerError }) of Hono', () => {
  it('an onServerError that throws changes nothing of the 500 on a real server: JSON with nothing of either error, and the server goes on', async () => {
    const reported: unknown[] = [];
    const baseUrl = await served(
      appWith({
        onServerError: (error, c) => {
          reported.push([(error as Error).message, c.req.path]);
          throw new Error('the log shipper is down');
        },
      }),
    );
    for (const path of ['/documents/666', '/broken']) {
      const { status, body, headers } = await ask(baseUrl, path);
      expect([status, body, headers.get('content-type')]).toEqual([500, INTERNAL, 'application/json']);
    }
    expect(reported).toEqual([
      ['Ownership hook isCreator threw: db-7 refused the password hunter2', '/documents/666'],
      ['db-7 refused the password hunter2', '/broken'],
    ]);
    const granted = await ask(baseUrl, '/documents/1');
    expect([granted.status, granted.body]).toEqual([200, { read: 1 }]);
  }, 20_000);

  it("through the app's own fetch (as other runtimes call it) a throwing onServerError gives the same Response, never a throw", async () => {
    const app = appWith({
      onServerError: () => {
        throw new Error('the log shipper is down');
      },
    });
    for (const path of ['/documents/666', '/broken']) {
      // A throw, synchronous or not, fails the test here.
      const response = await app.request(path);
      expect([response.status, await response.json()]).toEqual([500, INTERNAL]);
    }
  });

  it('an onServerError whose promise rejects: the same 500, and no unhandled rejection (which stops a Node.js process)', async () => {
    const baseUrl = await served(
      appWith({
        // eslint-disable-next-line @typescript-eslint/no-misused-promises -- an async reporter, as an application may write one
        onServerError: () => Promise.reject(new Error('the log shipper is down')),
      }),
    );
    const unhandled = await unhandledRejectionsDuring(async () => {
      const { status, body } = await ask(baseUrl, '/documents/666');
      expect([status, body]).toEqual([500, INTERNAL]);
    });
    expect(unhandled).toEqual([]);
  }, 20_000);

  it('a thrown value whose getters or Proxy traps throw: the same JSON 500 with nothing of the inner error, reported, never a throw', async () => {
    const reported: unknown[] = [];
    const app = appWith({ onServerError: (error) => void reported.push(error) });
    for (const [path, hostile] of [
      ['/documents/1', 'statusCode-getter'],
      ['/documents/1', 'no-prototype'],
      ['/own-response', ''],
    ] as const) {
      const response = await app.request(path, { headers: { 'x-hostile': hostile } });
      expect([response.status, await response.json()]).toEqual([500, INTERNAL]);
    }
    // An Error as thrown; what is no Error wrapped (Hono hands its error handler Errors only).
    expect(reported.map((error) => (error as Error).message)).toEqual(['session store down', 'The application threw object, which is not an Error.', 'x']);
  });

  it('an onServerError that is not a function is refused when the handler is made, not at the first 500', () => {
    expect(() => permissionsErrorHandler({ onServerError: 'log' as never })).toThrow(
      new PermissionsUsageError('permissionsErrorHandler(): options.onServerError must be a function (error, c) => void.'),
    );
  });
});
