/**
 * The reason of a remote permit is the embedded one's: the service's slice says when every role is unknown (or
 * only a tenant without custom roles could have defined them), and the service's vocabulary names unknown
 * resources and actions. Remote permits name no deciding definition: the service sends none.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantRolesSource } from '../../runtime/live/tenant-roles-source.js';
import { Permissions } from '../../runtime/permissions/index.js';
import { createRemotePermissions, type RemotePermissions } from '../../runtime/remote/index.js';
import type { DecisionService } from '../../runtime/service/index.js';
import { fixtureDefinitions, fixtureOwnership, fixtureService, TOKEN } from '../service/service-fixture.js';

const TENANTS: Record<string, unknown> = { acme: { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: ['publish:any'] }] } };
const source: TenantRolesSource = {
  description: 'tenant roles in memory',
  read: (tenant) => Promise.resolve(Object.hasOwn(TENANTS, tenant) ? { tenant, sequence: 1, document: TENANTS[tenant] } : undefined),
};
const quiet = { warn: () => undefined };

let service: DecisionService;
let remote: RemotePermissions;
beforeAll(async () => {
  service = await fixtureService({ tenantRoles: source });
  remote = await createRemotePermissions({ url: await service.listen(), token: TOKEN, ownership: fixtureOwnership, logger: quiet });
}, 30_000);
afterAll(async () => {
  remote.close();
  await service.close();
}, 30_000);

/** The questions, each with the word both engines give. */
const QUESTIONS: readonly [string, { id: number; roles: string[] }, string, string, (number | undefined)?, (string | undefined)?][] = [
  ['granted-any', { id: 2, roles: ['EDITOR'] }, 'article', 'read', 7],
  ['granted-own', { id: 1, roles: ['AUTHOR'] }, 'article', 'read'],
  ['not-owner', { id: 1, roles: ['AUTHOR'] }, 'article', 'update', 7],
  ['no-grant', { id: 2, roles: ['EDITOR'] }, 'article', 'update'],
  ['unknown-role', { id: 3, roles: ['GHOST'] }, 'article', 'read'],
  ['unknown-resource', { id: 2, roles: ['EDITOR'] }, 'invoice', 'read'],
  ['unknown-action', { id: 2, roles: ['EDITOR'] }, 'article', 'archive'],
  ['granted-any', { id: 7, roles: ['PUBLISHER'] }, 'article', 'publish', undefined, 'acme'],
  ['no-grant', { id: 7, roles: ['PUBLISHER'] }, 'article', 'read', undefined, 'acme'],
  ['unknown-tenant', { id: 7, roles: ['PUBLISHER'] }, 'article', 'read', undefined, 'initech'],
  ['unknown-role', { id: 7, roles: ['PUBLISHER'] }, 'article', 'read'],
  // Names no role can have, which the service refuses to read: unknown like any other.
  ['unknown-role', { id: 3, roles: [''] }, 'article', 'read'],
  ['unknown-role', { id: 3, roles: ['G'.repeat(129), ''] }, 'article', 'read'],
  ['granted-any', { id: 2, roles: ['', 'EDITOR', 'E'.repeat(500)] }, 'article', 'read', 7],
  ['unknown-role', { id: 7, roles: [''] }, 'article', 'read', undefined, 'acme'],
  ['unknown-tenant', { id: 7, roles: ['P'.repeat(129)] }, 'article', 'read', undefined, 'initech'],
];

describe('remote permit.reason', () => {
  it('is the embedded permit’s, word for word, in and out of tenants; reasonSource is undefined', async () => {
    const embedded = new Permissions({
      ownership: fixtureOwnership,
      resourceIdTypes: { article: 'number', team: 'string' },
      ownedAmong: { team: 'teamsAmong' },
      logger: quiet,
    })
      .addPermissions(fixtureDefinitions)
      .build();
    await embedded.followTenantRoles(source);
    for (const [expected, user, resource, action, resourceId, tenant] of QUESTIONS) {
      const query = { user, resource, action, ...(resourceId === undefined ? {} : { resourceId }), ...(tenant === undefined ? {} : { tenant }) };
      const permit = await remote.grantPermit(query);
      const local = await embedded.grantPermit(query);
      expect([resource, action, tenant, permit.reason, local.reason]).toEqual([resource, action, tenant, expected, expected]);
      expect(permit.reasonSource).toBeUndefined();
    }
  }, 30_000);
});
