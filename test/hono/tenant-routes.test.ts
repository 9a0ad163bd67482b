/**
 * Hono asks in the tenant `getTenant` names: a custom role grants in its own tenant only, a tenant that is no
 * tenant id answers 400, a getTenant that throws is a 500 given to the error handler's onServerError, and a
 * tenant whose custom roles cannot be read answers 503 — over real HTTP on loopback (@hono/node-server).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Hono } from 'hono';
import { createPermitMiddleware, permissionsErrorHandler } from '../../runtime/hono/index.js';
import {
  AUDITOR,
  EMPTY_ANSWER,
  LONGEST_TENANT,
  NOT_LISTED,
  TENANT_HEADER,
  TOO_LONG_ANSWER,
  TOO_LONG_TENANT,
  UNAVAILABLE_ANSWER,
  tenantEngine,
} from '../tenants/tenant-fixture.js';
import { ask as askServer, serveOnLoopback, type HonoServer } from './hono-server.js';

const opened: HonoServer[] = [];
afterEach(async () => void (await Promise.all(opened.splice(0).map((server) => server.close()))), 30_000);

async function tenantServer() {
  const { permissions, roles } = await tenantEngine();
  const reported: unknown[] = [];
  const permit = createPermitMiddleware({
    permissions,
    getUser: () => AUDITOR,
    getTenant: (c) => {
      const tenant = c.req.header(TENANT_HEADER);
      if (tenant === 'boom') throw new Error('the tenant directory is down');
      return tenant;
    },
  });
  const app = new Hono();
  app.get('/decisions', permit({ resource: 'decision', action: 'list' }), (c) => c.json({ listed: 'decisions' }));
  app.get('/documents', permit({ resource: 'document', action: 'list' }), (c) => c.json({ listed: 'documents' }));
  app.onError(permissionsErrorHandler({ onServerError: (error) => void reported.push(error) }));
  const server = await serveOnLoopback(app);
  opened.push(server);
  const ask = async (path: string, tenant?: string) => {
    const { status, body } = await askServer(server.baseUrl, path, tenant === undefined ? {} : { headers: { [TENANT_HEADER]: tenant } });
    return { status, body };
  };
  return { ask, roles, reported };
}

describe('hono permit() in a tenant, on a real server', () => {
  it("grants what the tenant's custom role grants there, and nowhere else", async () => {
    const { ask } = await tenantServer();
    expect(await ask('/decisions', 'acme')).toEqual({ status: 200, body: { listed: 'decisions' } });
    expect(await ask('/documents', 'acme')).toEqual({ status: 403, body: NOT_LISTED('document') });
    expect(await ask('/documents', 'globex')).toEqual({ status: 200, body: { listed: 'documents' } });
    expect(await ask('/decisions', 'globex')).toEqual({ status: 403, body: NOT_LISTED('decision') });
    expect((await ask('/decisions')).status).toBe(403);
    expect((await ask('/documents')).status).toBe(403);
  });

  it('answers 400 for a tenant that is no tenant id (past the longest), and decides one of the longest length', async () => {
    const { ask, roles, reported } = await tenantServer();
    expect(await ask('/decisions', TOO_LONG_TENANT)).toEqual({ status: 400, body: TOO_LONG_ANSWER });
    expect(await ask('/decisions', '')).toEqual({ status: 400, body: EMPTY_ANSWER });
    expect(await ask('/decisions', LONGEST_TENANT)).toEqual({ status: 403, body: NOT_LISTED('decision') });
    expect(roles.reads).toEqual([LONGEST_TENANT]);
    expect(reported).toEqual([]);
  });

  it('answers 500 for a getTenant that throws, with the error given to onServerError only', async () => {
    const { ask, reported } = await tenantServer();
    expect(await ask('/decisions', 'boom')).toEqual({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' },
    });
    expect(reported).toEqual([new Error('the tenant directory is down')]);
  });

  it("answers 503 while the tenant's custom roles cannot be read, then decides once they can", async () => {
    const { ask, roles } = await tenantServer();
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expect(await ask('/decisions', 'acme')).toEqual({ status: 503, body: UNAVAILABLE_ANSWER('acme') });
    roles.fail(undefined);
    expect((await ask('/decisions', 'acme')).status).toBe(200);
  });
});
