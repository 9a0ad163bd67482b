/**
 * The policy diff is exact: on random pairs of policies, a cell is reported gained exactly when the engine built
 * from the second policy grants it and the engine of the first does not (and lost the other way), the attributes
 * it reports are the ones the engines show, ownership changes are the ones the explanations name, and applying
 * the diff to the first policy's grants gives the second's. A policy compared with itself has no difference.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { diffPolicies, type PolicyDiff } from '../../compiler/review/policy-diff.js';
import { explainGrant } from '../../runtime/core/decision/explain.js';
import { buildGrantTables, type LocatedDefinition, type ValidDefinition } from '../../runtime/core/table-building/table-builder.js';
import { Permissions, type GrantTables } from '../../runtime/permissions/index.js';
import { definitionFieldArbs } from '../core/arbitraries.js';

const ROLES = ['A', 'B', 'C', '__proto__'] as const;
const RESOURCES = ['doc', 'img', '*'] as const;
const ACTIONS = ['create', 'read', 'update', 'approve'] as const;
const ATTRIBUTES = ['id', 'title', 'secret', 'status'] as const;
const PATTERNS = ['*', '!*', ...ATTRIBUTES, ...ATTRIBUTES.map((name) => `!${name}`)] as const;
/** Two ways to decide ownership, so that a definition's change of hooks is an ownership change. */
const HOOKS = [
  { isOwner: 'isCreator', listOwned: 'listCreated' },
  { isOwner: 'isMember', limitOwned: 'limitToMembers' },
] as const;

const definitionArb: fc.Arbitrary<ValidDefinition> = fc
  .record({
    ...definitionFieldArbs({
      roles: ROLES,
      resources: RESOURCES,
      possessions: ['own', 'any', undefined],
      actions: ACTIONS,
      patterns: fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }),
    }),
    hooks: fc.constantFrom(...HOOKS),
  })
  .map(({ hooks, ...definition }) => ({ ...definition, ...hooks }));

/** A policy: its definitions, and whether `doc` declares its attributes (then the diff compares declared attributes). */
const policyArb = fc.record({ definitions: fc.array(definitionArb, { minLength: 0, maxLength: 5 }), declares: fc.boolean() });

/** The tables of a policy, or undefined when its definitions conflict (two definitions of one cell). */
function tablesOf(policy: { definitions: readonly ValidDefinition[]; declares: boolean }): GrantTables | undefined {
  const located: LocatedDefinition[] = policy.definitions.map((definition, index) => ({ definition, location: { index, source: 'p.permissions.json' } }));
  const built = buildGrantTables(located, policy.declares ? { attributes: new Map([['doc', [...ATTRIBUTES]]]) } : {});
  return built.problems.length === 0 ? built.tables : undefined;
}

const ownership = Object.fromEntries(
  ['isCreator', 'listCreated', 'isMember', 'limitToMembers'].map((name) => [name, () => (name.startsWith('is') ? false : name === 'listCreated' ? [] : {})]),
);
const quiet = { warn: () => undefined };

/** What the engine of `tables` decides for one role, resource and action, and which ownership groups the explanation names. */
function decided(tables: GrantTables, role: string, resource: string, action: string) {
  const permit = Permissions.fromTables(tables, { ownership, logger: quiet }).grantPermitSync({ user: { id: 1, roles: [role] }, resource, action });
  const explained = explainGrant(tables, [role], resource, action).byRole.find((entry) => entry.role === role);
  return {
    any: permit.anyGranted,
    anyAttributes: permit.anyAttributes,
    own: (explained?.own.length ?? 0) > 0,
    granted: permit.granted,
    ownership: [...new Set(explained?.own.map((entry) => entry.isOwner) ?? [])].sort(),
  };
}

const has = (diff: PolicyDiff, change: 'gained' | 'lost', role: string, resource: string, action: string, possession: 'any' | 'own') =>
  diff.cells.some(
    (cell) => cell.change === change && cell.role === role && cell.resource === resource && cell.action === action && cell.possession === possession,
  );

describe('diffPolicies is exact against the engine of each side', () => {
  it('reports a cell gained iff the second engine grants it and the first does not, lost the other way, with their attributes', () => {
    fc.assert(
      fc.property(policyArb, policyArb, (first, second) => {
        const before = tablesOf(first);
        const after = tablesOf(second);
        fc.pre(before !== undefined && after !== undefined);
        if (before === undefined || after === undefined) return;
        const diff = diffPolicies(before, after, { before: 'first', after: 'second' });
        const roles = [...new Set([...before.roles, ...after.roles])];
        const resources = [...new Set([...before.resources, ...after.resources])];
        const actions = [...new Set([...before.actions, ...after.actions])];
        let changes = 0;
        for (const resource of resources)
          for (const action of actions)
            for (const role of roles) {
              const old = decided(before, role, resource, action);
              const now = decided(after, role, resource, action);
              expect(has(diff, 'gained', role, resource, action, 'any')).toBe(now.any && !old.any);
              expect(has(diff, 'lost', role, resource, action, 'any')).toBe(old.any && !now.any);
              expect(has(diff, 'gained', role, resource, action, 'own')).toBe(now.own && !old.own);
              expect(has(diff, 'lost', role, resource, action, 'own')).toBe(old.own && !now.own);
              // Applied to the first engine's answer, the diff gives the second's: granted at all, in some possession.
              const gainedAny = has(diff, 'gained', role, resource, action, 'any') || has(diff, 'gained', role, resource, action, 'own');
              const lostAll = (has(diff, 'lost', role, resource, action, 'any') || !old.any) && (has(diff, 'lost', role, resource, action, 'own') || !old.own);
              expect(now.granted).toBe(gainedAny || (old.granted && !lostAll));
              const gained = diff.cells.find(
                (cell) => cell.change === 'gained' && cell.role === role && cell.resource === resource && cell.action === action && cell.possession === 'any',
              );
              if (gained !== undefined) expect(gained.attributes).toEqual(now.anyAttributes);
              const attributes = diff.attributes.find(
                (change) => change.role === role && change.resource === resource && change.action === action && change.possession === 'any',
              );
              if (old.any && now.any && attributes === undefined) {
                // No change reported: the engines show the same attributes (or, for declared ones, the same declared attributes).
                if (!first.declares || !second.declares) expect(now.anyAttributes).toEqual(old.anyAttributes);
              }
              if (attributes !== undefined) {
                expect([attributes.before, attributes.after]).toEqual([old.anyAttributes, now.anyAttributes]);
                expect(old.anyAttributes).not.toEqual(now.anyAttributes);
              }
              const owned = diff.ownership.find((change) => change.role === role && change.resource === resource && change.action === action);
              expect(owned !== undefined).toBe(old.own && now.own && JSON.stringify(old.ownership) !== JSON.stringify(now.ownership));
              if (owned !== undefined) expect([owned.before, owned.after]).toEqual([old.ownership, now.ownership]);
              changes += Number(now.any !== old.any) + Number(now.own !== old.own);
            }
        expect(diff.summary.cellsGained + diff.summary.cellsLost).toBe(changes);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('finds no difference between a policy and itself, and the same diff twice', () => {
    fc.assert(
      fc.property(policyArb, (policy) => {
        const tables = tablesOf(policy);
        fc.pre(tables !== undefined);
        if (tables === undefined) return;
        const diff = diffPolicies(tables, tables, { before: 'a', after: 'a' });
        expect(diff.summary.changed).toBe(false);
        expect([diff.cells, diff.attributes, diff.ownership]).toEqual([[], [], []]);
        expect(JSON.stringify(diffPolicies(tables, tablesOf(policy) as GrantTables, { before: 'a', after: 'a' }))).toBe(JSON.stringify(diff));
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
