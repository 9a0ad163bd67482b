/**
 * Live policies and declared actions: the compiled code's types allow exactly the actions a resource declares, so a
 * new version may not remove one of them (the code would then ask what the version refuses), nor start declaring the
 * actions of a resource the code declares none of (its types allow what was granted when it was compiled). Declaring
 * more actions, within the vocabulary, or none at all, stays within what the code asks. A follower registers its
 * declared actions, and a publisher checks a version against them exactly as the follower will.
 */
import { describe, expect, it } from '@jest/globals';
import { refusingFollowers } from '../../compiler/commands/policy-followers.js';
import { capabilityProblems } from '../../runtime/live/policy-candidate.js';
import { capabilitiesOf, type PolicyRejection } from '../../runtime/live/policy-follower.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import type { RegisteredFollower } from '../../runtime/live/postgres-follower-registry.js';
import { vocabularyOf } from '../../runtime/core/tables/vocabulary.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { Permissions, PermissionsUsageError, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { memorySource } from './memory-source.js';

const admin: User<number> = { id: 1, roles: ['ADMIN'] };
const definitions: PermissionDefinition[] = [
  { roles: ['ADMIN'], resource: '*', grant: ['*:any'] },
  { roles: ['EDITOR'], resource: 'doc', grant: ['read'] },
  { roles: ['EDITOR'], resource: 'note', grant: ['read', 'publish'] },
];

/** A bundle of `definitions` with these declared actions, built at run time as the compiler builds it. */
function bundleOf(resourceActions: Record<string, string[]>): PolicyBundle {
  const built = new Permissions({ resourceActions, logger: { warn: () => undefined } }).addPermissions(definitions).build();
  return policyBundleOf(built.tables);
}

const compiled = bundleOf({ doc: ['read', 'approve'] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Follows a source that publishes `candidate` after the compiled version; what was rejected, and the engine. */
async function follow(candidate: PolicyBundle) {
  const permissions = Permissions.fromTables<User<number>>(compiled, { logger: { warn: () => undefined } });
  const { source, publish } = memorySource({ bundle: compiled, sequence: 1 });
  const rejections: PolicyRejection[] = [];
  const live = await permissions.follow(source, { onReject: (rejection) => rejections.push(rejection) });
  publish({ bundle: candidate, sequence: 2 });
  await settle();
  await live.close();
  return { permissions, reasons: rejections.flatMap((rejection) => rejection.reasons) };
}

describe('a new version against the actions the running code declares', () => {
  it('removing an action the compiled code may ask is refused, and the last good version stays', async () => {
    const { permissions, reasons } = await follow(bundleOf({ doc: ['read'] }));
    expect(reasons).toEqual(['it removes actions of "doc" that the running code may ask: "approve"']);
    expect([permissions.policyVersion, permissions.grantPermitSync({ user: admin, resource: 'doc', action: 'approve' }).granted]).toEqual([
      compiled.version,
      true,
    ]);
  });

  it("declaring the actions of a resource the code declares none of is refused: the code's types allow every action granted there", async () => {
    const { permissions, reasons } = await follow(bundleOf({ doc: ['read', 'approve'], note: ['read', 'publish'] }));
    expect(reasons).toEqual([
      'it declares the actions of "note", which the running code does not declare (its compiled types allow every action granted on it): ' +
        'deploy code compiled with the declaration first',
    ]);
    expect(permissions.policyVersion).toBe(compiled.version);
  });

  it('declaring one more action the code knows is taken: the code never asks it, the version grants it', async () => {
    const candidate = bundleOf({ doc: ['read', 'approve', 'publish'] });
    const { permissions, reasons } = await follow(candidate);
    expect([reasons, permissions.policyVersion]).toEqual([[], candidate.version]);
    expect(permissions.grantPermitSync({ user: admin, resource: 'doc', action: 'publish' }).granted).toBe(true);
  });

  it('declaring no actions any more is taken: every action is accepted again, as on a resource that never declared', async () => {
    const candidate = bundleOf({});
    const { permissions, reasons } = await follow(candidate);
    expect([reasons, permissions.policyVersion]).toEqual([[], candidate.version]);
    expect(permissions.grantPermitSync({ user: admin, resource: 'doc', action: 'create' }).granted).toBe(true);
    expect(permissions.grantPermitSync({ user: admin, resource: 'doc', action: 'archive' }).granted).toBe(false);
  });

  it('the running version refuses an undeclared action with the usage error, before and after a swap that keeps the declaration', async () => {
    const candidate = bundleOf({ doc: ['approve', 'read'] });
    expect(candidate.version).toBe(compiled.version);
    const { permissions } = await follow(bundleOf({ doc: ['read', 'approve', 'publish'] }));
    expect(() => permissions.grantPermitSync({ user: admin, resource: 'doc', action: 'update' })).toThrow(
      new PermissionsUsageError('grantPermit: "update" is not an action of "doc"; its actions are "approve", "publish", "read".'),
    );
  });
});

describe('followers registered with a store, checked by a publisher', () => {
  const capabilities = capabilitiesOf(vocabularyOf(compiled.tables as GrantTables), undefined);

  it('a follower registers the actions its code declares', () => {
    expect(capabilities.vocabulary).toEqual({
      resources: [
        ['doc', null],
        ['note', null],
      ],
      actions: ['approve', 'create', 'delete', 'publish', 'read', 'update'],
      declaredActions: [['doc', ['approve', 'read']]],
    });
  });

  it('a version is checked against them as the follower checks it', () => {
    expect(capabilityProblems(bundleOf({ doc: ['read'] }), capabilities)).toEqual(['it removes actions of "doc" that the running code may ask: "approve"']);
    expect(capabilityProblems(bundleOf({ doc: ['read', 'approve', 'publish'] }), capabilities)).toEqual([]);
  });

  it('the publisher reads a registration with declared actions from the store, and names the follower that would refuse', () => {
    const follower = {
      instance: '1c2d3e4f5a6b',
      host: 'web-1',
      pid: 4242,
      capabilities: JSON.parse(JSON.stringify(capabilities)) as unknown,
    } as unknown as RegisteredFollower;
    expect(refusingFollowers(bundleOf({ doc: ['read'] }), [follower]).map(({ reasons }) => reasons)).toEqual([
      ['it removes actions of "doc" that the running code may ask: "approve"'],
    ]);
    expect(refusingFollowers(bundleOf({ doc: ['read', 'approve'] }), [follower])).toEqual([]);
  });
});
