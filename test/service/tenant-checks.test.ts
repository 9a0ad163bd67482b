/**
 * The decision service answers a check in the tenant it names, with that tenant's custom roles read from the
 * `tenantRoles` source; a tenant that is no tenant id, or more tenants than the limit, refuse the request (400);
 * a tenant whose custom roles cannot be read refuses it with 503; a slice in a tenant is that tenant's.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createClient } from '../../runtime/client/index.js';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import type { DecisionService } from '../../runtime/service/index.js';
import type { DecisionEvent } from '../../runtime/permissions/index.js';
import { memoryTenantRoles } from '../tenants/tenant-fixture.js';
import { ask, fixtureBundle, fixtureService, postChecks, problem, recordingLogger, REFUSED_CHECK } from './service-fixture.js';

const version = fixtureBundle().version;
/** PUBLISHER publishes every article in acme, and reads them in globex; no policy role has that name. */
const CUSTOM_ROLES = {
  acme: { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: ['publish:any'] }] },
  globex: { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: { 'read:any': ['id', 'title'] } }] },
};
const publisher = { id: 7, roles: ['PUBLISHER'] };
const granted = (anyAttributes: string[]) => ({
  granted: true,
  anyGranted: true,
  ownGranted: true,
  needsOwnership: false,
  reason: 'granted-any',
  anyAttributes,
  attributes: anyAttributes,
  ownership: [],
  policyVersion: version,
});
const denied = { ...REFUSED_CHECK, policyVersion: version };
/** The status and body of an answer, to compare whole. */
const exactly = ({ status, body }: { status: number; body: unknown }) => ({ status, body });
const invalid = (detail: string) => problem('invalid-request', 400, 'Invalid request', detail);

let service: DecisionService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
}, 30_000);

async function tenantService(limits: { maxTenants?: number } = {}) {
  const roles = memoryTenantRoles(CUSTOM_ROLES);
  const logger = recordingLogger();
  service = await fixtureService({ tenantRoles: roles.source, logger, limits });
  const check = (...checks: object[]) => postChecks(service as DecisionService, ...checks);
  return { roles, logger, check, service };
}

describe('POST /v1/check in a tenant', () => {
  it("answers each check with its own tenant's custom roles; a check without a tenant with the policy's roles", async () => {
    const { check, roles } = await tenantService();
    const { status, body } = await check(
      { user: publisher, tenant: 'acme', resource: 'article', action: 'publish' },
      { user: publisher, tenant: 'globex', resource: 'article', action: 'publish' },
      { user: publisher, tenant: 'globex', resource: 'article', action: 'read', resourceId: 3 },
      { user: publisher, resource: 'article', action: 'publish' },
      { user: publisher, tenant: 'acme', resource: 'article', action: 'read' },
    );
    expect(status).toBe(200);
    // Without a tenant, PUBLISHER is no role at all ('unknown-role'); in acme it is one that does not read ('no-grant').
    expect(body.answers).toEqual([granted(['*']), denied, granted(['id', 'title']), { ...denied, reason: 'unknown-role' }, denied]);
    expect(roles.reads.sort()).toEqual(['acme', 'globex']);
  });

  it('refuses a tenant that is no tenant id, naming the check', async () => {
    const { check } = await tenantService();
    const read = { user: publisher, resource: 'article', action: 'read' };
    expect(exactly(await check(read, { ...read, tenant: 'ac\u0007me' }))).toEqual({
      status: 400,
      body: invalid('checks[1].tenant must not contain control or format characters.'),
    });
    expect(exactly(await check({ ...read, tenant: '' }))).toEqual({ status: 400, body: invalid('checks[0].tenant must not be empty.') });
    expect(exactly(await check({ ...read, tenant: 't'.repeat(257) }))).toEqual({
      status: 400,
      body: invalid('checks[0].tenant must be at most 256 characters long.'),
    });
    expect(exactly(await check({ ...read, tenant: 7 }))).toEqual({ status: 400, body: invalid('checks[0].tenant must be a string.') });
    // A tenant the source holds no custom roles for, and a role only such custom roles could have defined.
    expect((await check({ ...read, tenant: 't'.repeat(256) })).body.answers).toEqual([{ ...denied, reason: 'unknown-tenant' }]);
  });

  it('answers a request naming maxTenants tenants, and refuses one naming more', async () => {
    const { check, roles } = await tenantService({ maxTenants: 2 });
    const inTenant = (tenant: string) => ({ user: publisher, tenant, resource: 'article', action: 'publish' });
    expect((await check(inTenant('acme'), inTenant('globex'), inTenant('acme'))).body.answers).toEqual([granted(['*']), denied, granted(['*'])]);
    expect(exactly(await check(inTenant('acme'), inTenant('globex'), inTenant('initech')))).toEqual({
      status: 400,
      body: invalid('The request names 3 tenants; one request may name at most 2 (the limit maxTenants): split it.'),
    });
    expect(roles.reads.sort()).toEqual(['acme', 'globex']);
  });

  it("refuses with 503 while a tenant's custom roles cannot be read, the cause in the log only, then answers", async () => {
    const { check, roles, logger } = await tenantService();
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    const asked = { user: publisher, tenant: 'acme', resource: 'article', action: 'publish' };
    const refused = await check(asked);
    expect({ status: refused.status, body: refused.body, type: refused.headers['content-type'] }).toEqual({
      status: 503,
      body: problem('tenant-roles-unavailable', 503, 'Tenant roles unavailable', 'The custom roles of tenant "acme" cannot be read now; try again later.'),
      type: 'application/problem+json; charset=utf-8',
    });
    expect(logger.lines.filter((line) => line.includes('ECONNREFUSED'))).toEqual([
      'warn: typed-permissions: The custom roles of tenant "acme" could not be read from tenant roles in memory: connect ECONNREFUSED ' +
        '10.0.0.7:5432. Its questions are refused until the source answers.',
    ]);
    roles.fail(undefined);
    expect((await check(asked)).body.answers).toEqual([granted(['*'])]);
  });
});

describe('the decision log of checks in a tenant', () => {
  it('carries the tenant of each check, and none for a check without one', async () => {
    const events: DecisionEvent[] = [];
    service = await fixtureService({ tenantRoles: memoryTenantRoles(CUSTOM_ROLES).source, onDecision: (event) => void events.push(event) });
    const checks = [
      { user: publisher, tenant: 'acme', resource: 'article', action: 'publish' },
      { user: publisher, resource: 'article', action: 'publish' },
    ];
    const { body } = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks } });
    await service.permissions.decisionLog?.flush();
    expect(events.map((event) => [event.callId, event.tenant, event.granted])).toEqual([
      [body.answers[0]?.callId, 'acme', true],
      [body.answers[1]?.callId, undefined, false],
    ]);
  });
});

describe('POST /v1/slice in a tenant', () => {
  it("is the tenant's slice: a client of it grants what the tenant's custom role grants, and another tenant's does not", async () => {
    const { service } = await tenantService();
    const sliceIn = async (tenant?: string) => {
      const { status, body } = await ask(service, {
        method: 'POST',
        url: '/v1/slice',
        payload: { user: publisher, ...(tenant === undefined ? {} : { tenant }) },
      });
      expect(status).toBe(200);
      return createClient(body as never);
    };
    expect((await sliceIn('acme')).can('publish', 'article')).toBe(true);
    expect((await sliceIn('globex')).can('publish', 'article')).toBe(false);
    expect((await sliceIn('globex')).attributes('read', 'article')).toEqual(['id', 'title']);
    expect((await sliceIn()).can('publish', 'article')).toBe(false);
  });

  it('refuses a tenant that is no tenant id', async () => {
    const { service } = await tenantService();
    expect(exactly(await ask(service, { method: 'POST', url: '/v1/slice', payload: { user: publisher, tenant: '\u200bacme' } }))).toEqual({
      status: 400,
      body: invalid('tenant must not contain control or format characters.'),
    });
  });
});

describe('createDecisionService({ tenantRoles })', () => {
  it('refuses what is no source of tenant roles', async () => {
    await expect(fixtureService({ tenantRoles: {} as never })).rejects.toThrow(
      new PermissionsUsageError(
        'createDecisionService(options): tenantRoles must be a source of tenant roles: an object with read(tenant) and, to follow changes, ' +
          'watch(changed, failed).',
      ),
    );
  });
});
