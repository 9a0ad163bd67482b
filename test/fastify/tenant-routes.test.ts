/**
 * Fastify asks in the tenant `getTenant` names: a custom role grants in its own tenant only, a tenant that is no
 * tenant id answers 400, a getTenant that throws is a 500 given to onServerError, and a tenant whose custom roles
 * cannot be read answers 503 — over real HTTP on loopback.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import request from 'supertest';
import { createPermitHook, fastifyPermissions } from '../../runtime/fastify/index.js';
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
  tenantOfHeader,
} from '../tenants/tenant-fixture.js';

const opened: FastifyInstance[] = [];
afterEach(async () => void (await Promise.all(opened.splice(0).map((app) => app.close()))), 30_000);

async function tenantServer() {
  const { permissions, roles } = await tenantEngine();
  const reported: unknown[] = [];
  const permit = createPermitHook({
    permissions,
    getUser: () => AUDITOR,
    getTenant: (request) => {
      if (request.headers[TENANT_HEADER] === 'boom') throw new Error('the tenant directory is down');
      return tenantOfHeader(request.headers[TENANT_HEADER]);
    },
    onServerError: (error) => void reported.push(error),
  });
  const app = Fastify();
  opened.push(app);
  await app.register(fastifyPermissions);
  app.get('/decisions', { preHandler: permit({ resource: 'decision', action: 'list' }) }, () => ({ listed: 'decisions' }));
  app.get('/documents', { preHandler: permit({ resource: 'document', action: 'list' }) }, () => ({ listed: 'documents' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ask = (path: string, tenant?: string) => {
    const pending = request(app.server).get(path).timeout(10_000).set('connection', 'close');
    return tenant === undefined ? pending : pending.set(TENANT_HEADER, tenant);
  };
  return { ask, roles, reported };
}

describe('fastify permit() in a tenant, on a real server', () => {
  it("grants what the tenant's custom role grants there, and nowhere else", async () => {
    const { ask } = await tenantServer();
    expect((await ask('/decisions', 'acme').expect(200)).body).toEqual({ listed: 'decisions' });
    expect((await ask('/documents', 'acme').expect(403)).body).toEqual(NOT_LISTED('document'));
    expect((await ask('/documents', 'globex').expect(200)).body).toEqual({ listed: 'documents' });
    expect((await ask('/decisions', 'globex').expect(403)).body).toEqual(NOT_LISTED('decision'));
    await ask('/decisions').expect(403);
    await ask('/documents').expect(403);
  });

  it('answers 400 for a tenant that is no tenant id (past the longest), and decides one of the longest length', async () => {
    const { ask, roles, reported } = await tenantServer();
    expect((await ask('/decisions', TOO_LONG_TENANT).expect(400)).body).toEqual(TOO_LONG_ANSWER);
    expect((await ask('/decisions', '').expect(400)).body).toEqual(EMPTY_ANSWER);
    expect((await ask('/decisions', LONGEST_TENANT).expect(403)).body).toEqual(NOT_LISTED('decision'));
    expect(roles.reads).toEqual([LONGEST_TENANT]);
    expect(reported).toEqual([]);
  });

  it('answers 500 for a getTenant that throws, with the error given to onServerError only', async () => {
    const { ask, reported } = await tenantServer();
    expect((await ask('/decisions', 'boom').expect(500)).body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' });
    expect(reported).toEqual([new Error('the tenant directory is down')]);
  });

  it("answers 503 while the tenant's custom roles cannot be read, then decides once they can", async () => {
    const { ask, roles } = await tenantServer();
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expect((await ask('/decisions', 'acme').expect(503)).body).toEqual(UNAVAILABLE_ANSWER('acme'));
    roles.fail(undefined);
    await ask('/decisions', 'acme').expect(200);
  });
});
