/**
 * A live policy version that names ownership rules: a follower with a rule source takes it (and its embedded policy
 * tests evaluate the rules on their records), one without a source refuses it and keeps the running version, and a
 * publisher reading registrations names the followers that would refuse it.
 */
import { describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/model/compile-model.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { capabilityProblems } from '../../runtime/live/policy-candidate.js';
import { capabilitiesOf, type PolicyRejection } from '../../runtime/live/policy-follower.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { vocabularyOf } from '../../runtime/core/tables/vocabulary.js';
import { Permissions, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { fixture } from '../compiler/helpers.js';
import { memorySource } from './memory-source.js';

const compiled = compileModel(fixture('ownership-rules'));
if (!compiled.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(compiled.problems)}`);
const withRules: PolicyBundle = policyBundleOf(compiled.model.tables, compiled.model.tests);
const definitions: PermissionDefinition[] = [
  { roles: ['SUPER_ADMIN'], resource: 'document', grant: ['read:any', 'review:any', 'update:any', 'list:any'] },
  { roles: ['AUDITOR'], resource: 'document', grant: ['read:own'], isOwner: 'isAudited', listOwned: 'listAudited' },
];
const hooks = { isAudited: () => false, listAudited: () => [] };
const first = policyBundleOf(
  new Permissions({ ownership: hooks, resourceIdTypes: { document: 'number' }, resourceActions: { document: ['list', 'read', 'review', 'update'] } })
    .addPermissions(definitions)
    .build().tables,
);
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const records = { document: [{ id: 100, title: 'a', confidential: 'x', creatorId: 1 }], user: [{ id: 1, companyId: 10 }] };

/** Follows a source that publishes the rule version after `first`; what was rejected, and the engine. */
async function follow(ownershipRules: ReturnType<typeof memoryOwnership> | undefined) {
  const permissions = Permissions.fromTables<User<number> & { companyId: number; managedUserIds: number[] }>(first, {
    ownership: hooks,
    ...(ownershipRules === undefined ? {} : { ownershipRules }),
    logger: { warn: () => undefined },
  });
  const { source, publish } = memorySource({ bundle: first, sequence: 1 });
  const rejections: PolicyRejection[] = [];
  const live = await permissions.follow(source, { onReject: (rejection) => rejections.push(rejection) });
  publish({ bundle: withRules, sequence: 2 });
  await settle();
  await live.close();
  return { permissions, reasons: rejections.flatMap((rejection) => rejection.reasons) };
}

describe('a live version naming ownership rules', () => {
  it('is taken by a follower with a rule source: its decisions follow the rule', async () => {
    const { permissions, reasons } = await follow(memoryOwnership(records));
    expect([reasons, permissions.policyVersion]).toEqual([[], withRules.version]);
    const employee = { id: 1, roles: ['EMPLOYEE'], companyId: 10, managedUserIds: [] };
    expect((await permissions.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 100 })).granted).toBe(true);
    expect((await permissions.grantPermit({ user: { ...employee, id: 2 }, resource: 'document', action: 'read', resourceId: 100 })).granted).toBe(false);
  });

  it('is refused by a follower without one, naming each definition; the running version stays', async () => {
    const { permissions, reasons } = await follow(undefined);
    expect(permissions.policyVersion).toBe(first.version);
    expect(reasons).toEqual(
      ['creator', 'creatorOrManaged', 'sameCompany'].map(
        (rule) =>
          `The definition's ownership rule "${rule}" of "document" needs the records it reads, and no ownershipRules source is given. ` +
          'Pass ownershipRules (for example kyselyOwnership(db, { tables }) from typed-permissions/kysely, or memoryOwnership) to createPermissions.',
      ),
    );
  });

  it('a follower registers whether it has a rule source; a publisher names the ones that would refuse', () => {
    const vocabulary = vocabularyOf(first.tables as GrantTables);
    const without = capabilitiesOf(vocabulary, hooks);
    const withSource = capabilitiesOf(vocabulary, hooks, true);
    expect([without.ownershipRules, withSource.ownershipRules]).toEqual([undefined, true]);
    expect(capabilityProblems(withRules, JSON.parse(JSON.stringify(withSource)) as typeof withSource)).toEqual([]);
    expect(capabilityProblems(withRules, without)).toHaveLength(3);
  });
});
