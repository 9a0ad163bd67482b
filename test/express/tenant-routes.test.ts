/**
 * Express asks in the tenant `getTenant` names: a custom role grants in its own tenant only, a tenant that is no
 * tenant id answers 400, a getTenant that throws is a reported 500, and a tenant whose custom roles cannot be read
 * answers 503 — over real HTTP on loopback.
 */
import { describe, expect, it } from '@jest/globals';
import express, { type Request } from 'express';
import request from 'supertest';
import { createPermitMiddleware, permissionsErrorHandler } from '../../runtime/express/index.js';
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

async function tenantApp() {
  const { permissions, roles } = await tenantEngine();
  const reported: unknown[] = [];
  const permit = createPermitMiddleware({
    permissions,
    getUser: () => AUDITOR,
    getTenant: (req: Request) => {
      if (req.get(TENANT_HEADER) === 'boom') throw new Error('the tenant directory is down');
      return tenantOfHeader(req.get(TENANT_HEADER));
    },
  });
  const app = express();
  app.get('/decisions', permit({ resource: 'decision', action: 'list' }), (_req, res) => void res.json({ listed: 'decisions' }));
  app.get('/documents', permit({ resource: 'document', action: 'list' }), (_req, res) => void res.json({ listed: 'documents' }));
  app.use(permissionsErrorHandler({ onServerError: (error) => reported.push(error) }));
  return { app, roles, reported };
}

describe('express permit() in a tenant', () => {
  it("grants what the tenant's custom role grants there, and nowhere else", async () => {
    const { app } = await tenantApp();
    expect((await request(app).get('/decisions').set(TENANT_HEADER, 'acme').expect(200)).body).toEqual({ listed: 'decisions' });
    expect((await request(app).get('/documents').set(TENANT_HEADER, 'acme').expect(403)).body).toEqual(NOT_LISTED('document'));
    expect((await request(app).get('/documents').set(TENANT_HEADER, 'globex').expect(200)).body).toEqual({ listed: 'documents' });
    expect((await request(app).get('/decisions').set(TENANT_HEADER, 'globex').expect(403)).body).toEqual(NOT_LISTED('decision'));
    // No tenant: the policy alone, where AUDITOR is no role.
    await request(app).get('/decisions').expect(403);
    await request(app).get('/documents').expect(403);
  });

  it('answers 400 for a tenant that is no tenant id (past the longest), and decides one of the longest length', async () => {
    const { app, roles, reported } = await tenantApp();
    expect((await request(app).get('/decisions').set(TENANT_HEADER, TOO_LONG_TENANT).expect(400)).body).toEqual(TOO_LONG_ANSWER);
    expect((await request(app).get('/decisions').set(TENANT_HEADER, '').expect(400)).body).toEqual(EMPTY_ANSWER);
    expect((await request(app).get('/decisions').set(TENANT_HEADER, LONGEST_TENANT).expect(403)).body).toEqual(NOT_LISTED('decision'));
    expect(roles.reads).toEqual([LONGEST_TENANT]);
    expect(reported).toEqual([]);
  });

  it('answers 500 for a getTenant that throws, with the error given to onServerError only', async () => {
    const { app, reported } = await tenantApp();
    const response = await request(app).get('/decisions').set(TENANT_HEADER, 'boom').expect(500);
    expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' });
    expect(reported).toEqual([new Error('the tenant directory is down')]);
  });

  it("answers 503 while the tenant's custom roles cannot be read, then decides once they can", async () => {
    const { app, roles } = await tenantApp();
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expect((await request(app).get('/decisions').set(TENANT_HEADER, 'acme').expect(503)).body).toEqual(UNAVAILABLE_ANSWER('acme'));
    roles.fail(undefined);
    await request(app).get('/decisions').set(TENANT_HEADER, 'acme').expect(200);
  });

  it('answers 503 too when the source fails with a value that is no Error and cannot be made a text', async () => {
    const { app, roles } = await tenantApp();
    // What some client libraries reject with: an object without a prototype (String() of it throws).
    roles.fail(Object.create(null) as Error);
    expect((await request(app).get('/decisions').set(TENANT_HEADER, 'acme').expect(503)).body).toEqual(UNAVAILABLE_ANSWER('acme'));
  });
});
