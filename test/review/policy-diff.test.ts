/**
 * Changes the policy diff must not hide, each one a change of what a user is shown: the attributes of one ownership
 * group of a cell that has several (a record owned through that group alone shows them), and parts of a declared
 * attribute (`address.city` against the whole `address`).
 */
import { describe, expect, it } from '@jest/globals';
import { formatDiffText } from '../../compiler/review/diff-text.js';
import { diffPolicies, type AttributeChange } from '../../compiler/review/policy-diff.js';
import { buildGrantTables, type TableBuildOptions, type ValidDefinition } from '../../runtime/core/table-building/table-builder.js';
import type { OwnershipCondition } from '../../runtime/core/ownership-rules/ownership-rule.js';
import type { GrantTables } from '../../runtime/permissions/index.js';

const CREATOR = { isOwner: 'isCreator', listOwned: 'listCreated' } as const;
const MEMBER = { isOwner: 'isMember', listOwned: 'listMembers' } as const;

function tables(
  definitions: readonly ValidDefinition[],
  attributes?: Readonly<Record<string, readonly string[]>>,
  options: TableBuildOptions = {},
): GrantTables {
  const located = definitions.map((definition, index) => ({ definition, location: { index, source: 'p.permissions.json' } }));
  const built = buildGrantTables(located, attributes === undefined ? options : { ...options, attributes: new Map(Object.entries(attributes)) });
  if (built.problems.length > 0) throw new Error(JSON.stringify(built.problems));
  return built.tables;
}

const attributesOf = (before: GrantTables, after: GrantTables): readonly AttributeChange[] =>
  diffPolicies(before, after, { before: 'before', after: 'after' }).attributes;

describe('an own cell of several ownership groups', () => {
  // R reads own documents through two groups: the ones it created (title) and the ones of its members (title, secret).
  const policy = (creatorSees: string[], memberSees: string[]): GrantTables =>
    tables([
      { roles: ['R'], resource: 'doc', possession: 'own', grant: { read: creatorSees }, ...CREATOR },
      { roles: ['*'], resource: 'doc', possession: 'own', grant: { read: memberSees }, ...MEMBER },
    ]);

  it("reports a change of one group's attributes that leaves the union over the groups as it was", () => {
    expect(attributesOf(policy(['title'], ['title', 'secret']), policy(['title', 'secret'], ['title', 'secret']))).toEqual([
      {
        role: 'R',
        resource: 'doc',
        action: 'read',
        possession: 'own',
        change: 'widened',
        basis: 'patterns',
        added: ['secret'],
        removed: [],
        before: ['title'],
        after: ['secret', 'title'],
        ownership: 'isCreator',
      },
    ]);
  });

  it('reports each group whose attributes changed when attributes move from one group to the other', () => {
    const changes = attributesOf(policy(['title'], ['secret']), policy(['secret'], ['title']));
    expect(changes.map(({ ownership, change, added, removed }) => ({ ownership, change, added, removed }))).toEqual([
      { ownership: 'isCreator', change: 'changed', added: ['secret'], removed: ['title'] },
      { ownership: 'isMember', change: 'changed', added: ['title'], removed: ['secret'] },
    ]);
  });

  it('names no group for a cell of one group, as before', () => {
    const one = (sees: string[]) => tables([{ roles: ['R'], resource: 'doc', possession: 'own', grant: { read: sees }, ...CREATOR }]);
    expect(attributesOf(one(['title']), one(['title', 'secret']))).toEqual([expect.not.objectContaining({ ownership: expect.anything() as unknown })]);
  });
});

describe('parts of a declared attribute', () => {
  const DECLARED = { person: ['id', 'address'] };
  const reads = (patterns: string[]) => tables([{ roles: ['R'], resource: 'person', grant: { 'read:any': patterns } }], DECLARED);
  const change = (before: string[], after: string[]) =>
    attributesOf(reads(before), reads(after)).map(({ change: kind, basis, added, removed }) => ({ change: kind, basis, added, removed }));

  it('the whole attribute where only a part was shown is a widening, and the reverse a narrowing', () => {
    expect(change(['id', 'address.city'], ['id', 'address'])).toEqual([{ change: 'widened', basis: 'declared', added: ['address'], removed: [] }]);
    expect(change(['id', 'address'], ['id', 'address.city'])).toEqual([{ change: 'narrowed', basis: 'declared', added: [], removed: ['address'] }]);
    expect(change(['*', '!address.street'], ['*'])).toEqual([{ change: 'widened', basis: 'declared', added: ['address'], removed: [] }]);
  });

  it('one part shown instead of another is both', () => {
    expect(change(['id', 'address.city'], ['id', 'address.street'])).toEqual([
      { change: 'changed', basis: 'declared', added: ['address'], removed: ['address'] },
    ]);
  });

  it('every field where only the declared ones were kept is a widening: pick() then returns fields not declared', () => {
    expect(change(['id', 'address'], ['*'])).toEqual([{ change: 'widened', basis: 'declared', added: ['(undeclared attributes)'], removed: [] }]);
    expect(change(['*', '!address'], ['id'])).toEqual([{ change: 'narrowed', basis: 'declared', added: [], removed: ['(undeclared attributes)'] }]);
    expect(change(['id', 'address.city'], ['*', '!id'])).toEqual([
      { change: 'changed', basis: 'declared', added: ['address', '(undeclared attributes)'], removed: ['id'] },
    ]);
  });

  it('patterns that differ and show the same is no change', () => {
    expect(change(['*', '!address.street'], ['*', '!address.street', '!notDeclared'])).toEqual([]);
  });
});

describe('ownership of the same name that decides otherwise', () => {
  const diffText = (before: GrantTables, after: GrantTables) => formatDiffText(diffPolicies(before, after, { before: 'a', after: 'b' }));

  it('a rule whose condition changed is an ownership change', () => {
    const ruled = (condition: OwnershipCondition) =>
      tables([{ roles: ['R'], resource: 'doc', possession: 'own', grant: ['read'], owner: 'creator' }], undefined, {
        ownershipRules: new Map([['doc', { rules: { creator: condition }, userAttributes: { id: 'number', managedUserIds: 'number[]' }, relations: {} }]]),
      });
    const before = ruled({ attribute: 'creatorId', equals: { user: 'id' } });
    const after = ruled({ attribute: 'creatorId', in: { user: 'managedUserIds' } });
    expect(diffPolicies(before, after, { before: 'a', after: 'b' }).ownership).toEqual([
      {
        role: 'R',
        resource: 'doc',
        action: 'read',
        before: ['rule creator'],
        after: ['rule creator'],
        added: [],
        removed: [],
        redefined: ['rule creator'],
        definitionsBefore: ["rule creator: creatorId is the user's id (user.id number)"],
        definitionsAfter: ["rule creator: creatorId is one of the user's managedUserIds (user.managedUserIds number[])"],
      },
    ]);
    expect(diffText(before, before)).toBe('Policy diff a -> b: no change');
  });

  it('the same isOwner with another listOwned is an ownership change', () => {
    const hooks = (listOwned: string) => tables([{ roles: ['R'], resource: 'doc', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned }]);
    expect(diffText(hooks('listCreated'), hooks('listEveryDocument'))).toBe(
      [
        'Policy diff a -> b: +0 −0 cells, 1 ownership change',
        'doc:',
        '  ~ R read:own, ownership isCreator -> isCreator ' +
          '(redefined isCreator: isOwner isCreator, listOwned listCreated -> isOwner isCreator, listOwned listEveryDocument)',
      ].join('\n'),
    );
  });

  it('another ownedAmong of the resource is an ownership change', () => {
    const among = (ownedAmong: string) =>
      tables([{ roles: ['R'], resource: 'doc', possession: 'own', grant: ['read'], limitOwned: 'limitToCreator' }], undefined, {
        ownedAmong: new Map([['doc', ownedAmong]]),
      });
    expect(diffPolicies(among('ownedAmongA'), among('ownedAmongB'), { before: 'a', after: 'b' }).ownership).toEqual([
      expect.objectContaining({
        before: ['limitToCreator via ownedAmongA'],
        after: ['limitToCreator via ownedAmongB'],
        redefined: [],
        definitionsBefore: ['limitOwned limitToCreator, ownedAmong ownedAmongA'],
        definitionsAfter: ['limitOwned limitToCreator, ownedAmong ownedAmongB'],
      }),
    ]);
  });
});

describe("a resource's declarations", () => {
  const grants: ValidDefinition[] = [{ roles: ['R'], resource: 'doc', grant: ['read:any'] }];

  it('another id type is a change', () => {
    const typed = (idType: 'number' | 'string') => tables(grants, undefined, { idTypes: new Map([['doc', idType]]) });
    const diff = diffPolicies(typed('number'), typed('string'), { before: 'a', after: 'b' });
    expect(diff.declarations).toEqual([{ resource: 'doc', idType: { before: 'number', after: 'string' } }]);
    expect(diff.summary).toMatchObject({ declarationsChanged: 1, changed: true });
    expect(formatDiffText(diff)).toBe(
      ['Policy diff a -> b: +0 −0 cells, declarations of 1 resource changed', 'doc:', '  ~ id type number -> string'].join('\n'),
    );
  });

  it('a declared action no role is granted is a change', () => {
    const declaring = (actions: string[]) =>
      tables(grants, undefined, { actions: new Map([['doc', { actions, declaredIn: '"actions" in doc.resource.json' }]]) });
    const diff = diffPolicies(declaring(['read']), declaring(['purge', 'read']), { before: 'a', after: 'b' });
    expect(diff.declarations).toEqual([{ resource: 'doc', actions: { before: ['read'], after: ['purge', 'read'], added: ['purge'], removed: [] } }]);
    expect(formatDiffText(diff)).toBe(
      [
        'Policy diff a -> b: +0 −0 cells, declarations of 1 resource changed, actions +1 −0',
        'actions added: "purge"',
        'doc:',
        '  ~ declared actions read -> purge, read (+purge)',
      ].join('\n'),
    );
  });
});

describe('the text of a diff of long attribute lists', () => {
  it('shows as many patterns as fit 300 characters, then how many more', () => {
    const names = Array.from({ length: 100 }, (_, i) => `attribute_name_${String(i).padStart(5, '0')}`);
    const after = tables([{ roles: ['R'], resource: 'doc', grant: { 'read:any': names } }]);
    const shown = names.slice(0, 14).join(' ');
    expect(
      formatDiffText(diffPolicies(tables([]), after, { before: 'a', after: 'b' }))
        .split('\n')
        .at(-1),
    ).toBe(`  + R read:any, attributes ${shown} … and 86 more`);
  });
});
