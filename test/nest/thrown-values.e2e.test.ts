/**
 * What the application's extractUserFromRequest and extractTenantFromRequest throw reaches the client as the other
 * integrations answer it: an HttpException as it is, a value carrying a 4xx status with Express's body, anything
 * else 500 "Internal server error" — never a plain object's own 5xx message, and a Proxy whose traps throw does not
 * end the process.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createPermissionsGuard, PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule } from '../../runtime/nest/index.js';
import {
  DOCUMENT_DEFINITIONS,
  HandlerLog,
  InMemoryOwnership,
  integerId,
  makeDocumentsController,
  startApp,
  type TestApp,
} from './fixtures/documents.fixture.js';

/** A Proxy whose every trap throws the Proxy itself: reading it in any way throws it again. */
function selfThrowingProxy(): unknown {
  const proxy: unknown = new Proxy(
    {},
    {
      get: () => {
        throw proxy;
      },
      getPrototypeOf: () => {
        throw proxy;
      },
      has: () => {
        throw proxy;
      },
      ownKeys: () => {
        throw proxy;
      },
      getOwnPropertyDescriptor: () => {
        throw proxy;
      },
    },
  );
  return proxy;
}

/** What the application throws, by the request's `x-throw` header. */
const THROWN: Readonly<Record<string, () => unknown>> = {
  'plain-500': () => ({ statusCode: 500, message: 'db password hunter2 at 10.0.0.3' }),
  'plain-502': () => ({ statusCode: 502, message: 'upstream 10.0.0.3 refused' }),
  'plain-401': () => ({ statusCode: 401, message: 'who are you' }),
  proxy: selfThrowingProxy,
  string: () => 'roles store down',
};

function thrownBy(request: unknown): unknown {
  const kind = (request as { headers: Record<string, string | undefined> }).headers['x-throw'] ?? '';
  return Object.hasOwn(THROWN, kind) ? (THROWN[kind] as () => unknown)() : undefined;
}

let app: TestApp;
const server = () => app.getHttpServer();

beforeAll(async () => {
  app = await startApp({
    imports: [
      PermissionsModule.forRoot({
        extractUserFromRequest: (request: unknown) => {
          const thrown = thrownBy(request);
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- an application may throw any value: that is what is tested
          if (thrown !== undefined && (request as { headers: Record<string, string | undefined> }).headers['x-in'] !== 'tenant') throw thrown;
          return { id: 1, roles: ['READER'] };
        },
        extractTenantFromRequest: (request: unknown) => {
          const thrown = thrownBy(request);
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- an application may throw any value: that is what is tested
          if (thrown !== undefined && (request as { headers: Record<string, string | undefined> }).headers['x-in'] === 'tenant') throw thrown;
          return undefined;
        },
        projectResourceId: integerId,
        definitions: [...DOCUMENT_DEFINITIONS],
        logger: { warn: () => undefined },
      }),
    ],
    controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
    providers: [HandlerLog, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }],
  });
}, 30_000);

afterAll(async () => {
  await app.close();
});

describe.each(['user', 'tenant'])('a value the %s extractor throws', (where) => {
  it.each([
    ['plain-500', 500, { statusCode: 500, message: 'Internal server error' }],
    ['plain-502', 500, { statusCode: 500, message: 'Internal server error' }],
    ['plain-401', 401, { statusCode: 401, error: 'Unauthorized', message: 'who are you' }],
    ['string', 500, { statusCode: 500, message: 'Internal server error' }],
    ['proxy', 500, { statusCode: 500, message: 'Internal server error' }],
  ])('%s answers %i with the body the other integrations send, and the server goes on answering', async (kind, status, body) => {
    const response = await request(server()).get('/documents/1').set('x-throw', kind).set('x-in', where);
    expect([response.status, response.body]).toEqual([status, body]);
    const next = await request(server()).get('/documents/1');
    expect(next.status).toBe(200);
  });
});
