/**
 * The decision log's `reason` is the permit's, for every word: the event works it out from the policy's tables
 * when it is delivered (its own path, not the permit's getter), so the two are compared on every reason, in and
 * out of tenants.
 */
import { describe, expect, it } from '@jest/globals';
import { createPermissions } from '../../generated/permissions.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { DecisionEvent } from '../../runtime/core/decision-log/decision-event.js';
import { AUDITOR, memoryTenantRoles } from '../tenants/tenant-fixture.js';

const employee = { id: 1, roles: ['EMPLOYEE'], companyId: 10, managedUserIds: [] as number[] };

describe('the reason of a decision event', () => {
  it('is the permit’s reason, each word, in and out of tenants', async () => {
    const events: DecisionEvent[] = [];
    const permissions = createPermissions({
      ownershipRules: memoryOwnership({ document: [{ id: 10, creatorId: 1 }], user: [{ id: 1, companyId: 10 }] }),
      logger: { warn: () => undefined },
      onDecision: (event) => void events.push(event),
    });
    await permissions.followTenantRoles(memoryTenantRoles().source);
    type Query = Parameters<typeof permissions.grantPermit>[0];
    const queries: [string, Query][] = [
      ['granted-own', { user: employee, resource: 'document', action: 'read', resourceId: 10 }],
      ['not-owner', { user: employee, resource: 'document', action: 'read', resourceId: 11 }],
      ['granted-any', { user: employee, resource: 'document', action: 'list' }],
      ['no-grant', { user: employee, resource: 'decision', action: 'list' }],
      ['unknown-role', { user: { ...employee, roles: ['GHOST'] }, resource: 'document', action: 'read' }],
      ['unknown-resource', { user: employee, resource: 'invoice', action: 'read' } as unknown as Query],
      ['granted-any', { user: AUDITOR, resource: 'decision', action: 'list', tenant: 'acme' }],
      ['no-grant', { user: AUDITOR, resource: 'document', action: 'list', tenant: 'acme' }],
      ['unknown-tenant', { user: AUDITOR, resource: 'document', action: 'list', tenant: 'initech' }],
    ];
    const permits = [];
    for (const [, query] of queries) permits.push(await permissions.grantPermit(query));
    await permissions.decisionLog?.flush();
    expect(permits.map((permit) => permit.reason)).toEqual(queries.map(([reason]) => reason));
    expect(events.map((event) => event.reason)).toEqual(queries.map(([reason]) => reason));
  }, 30_000);

  it.each([
    ['in a tenant without custom roles first', ['acme', undefined]],
    ['without a tenant first', [undefined, 'acme']],
  ])(
    'tells a tenant without custom roles from no tenant, asked %s',
    async (_order, tenants) => {
      const events: DecisionEvent[] = [];
      const permissions = createPermissions({
        ownershipRules: memoryOwnership({ document: [], user: [] }),
        logger: { warn: () => undefined },
        onDecision: (event) => void events.push(event),
      });
      await permissions.followTenantRoles({ description: 'no custom roles', read: () => Promise.resolve(undefined) });
      const permits = [];
      for (const tenant of tenants) permits.push(await permissions.grantPermit({ user: AUDITOR, resource: 'document', action: 'list', tenant }));
      await permissions.decisionLog?.flush();
      const expected = tenants.map((tenant) => (tenant === undefined ? 'unknown-role' : 'unknown-tenant'));
      expect(permits.map((permit) => permit.reason)).toEqual(expected);
      expect(events.map((event) => [event.tenant, event.reason])).toEqual(tenants.map((tenant, index) => [tenant, expected[index]]));
    },
    30_000,
  );
});
