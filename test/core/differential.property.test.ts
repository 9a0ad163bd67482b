/**
 * Differential test: the engine (tables built once) must answer every grant query exactly like the
 * naive reference interpreter (which scans the definitions for every question), on random valid
 * definition sets, users, queries and items — and, with random actions declared for some resources,
 * refuse at build exactly the definitions the reference refuses, and refuse exactly the queries it refuses.
 */
import { describe, it } from '@jest/globals';
import fc from 'fast-check';
import type { PermissionDefinition, User } from '../../runtime/core/definition/definition-types.js';
import { PermissionDefinitionError, PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { Permissions } from '../../runtime/permissions/index.js';
import { definitionFieldArbs, grantsOwn, userArb, withOwnProtoKeyArb } from './arbitraries.js';
import {
  UNMENTIONED_ATTRIBUTE,
  listsKeepSomething,
  namesUndeclaredAction,
  patternsKeep,
  referenceGrant,
  referenceRedefinitions,
  refusesQuery,
  type Declared,
  type ReferencePermit,
} from './reference-interpreter.js';

const NUM_RUNS = 4000;
const NUM_RUNS_DECLARED = 1500;

const DEFINITION_ROLES = ['A', 'B', 'C', '__proto__'] as const;
const USER_ROLES = [...DEFINITION_ROLES, 'toString', 'Z'] as const;
const DEFINITION_RESOURCES = ['doc', 'img', '*'] as const;
const QUERY_RESOURCES = ['doc', 'img', 'vid', '*', 'constructor'] as const;
const ACTIONS = ['create', 'read', 'update', 'delete', 'approve', 'list'] as const;
const QUERY_ACTIONS = [...ACTIONS, 'constructor', '*'] as const;
const ATTRIBUTES = ['id', 'title', 'secret', 'status'] as const;
const PATTERNS = ['*', '!*', ...ATTRIBUTES, ...ATTRIBUTES.map((name) => `!${name}`)] as const;
const ITEM_IDS = [0, 1, 2, 3, 4, 5] as const;

// ---------------------------------------------------------------------------------------------
// Ownership: four hook triples over fixed relations; two as functions, two as service method names
// ---------------------------------------------------------------------------------------------

type HookSetName = 'fnList' | 'fnLimit' | 'nameList' | 'nameLimit';
const HOOK_SETS: readonly HookSetName[] = ['fnList', 'fnLimit', 'nameList', 'nameLimit'];

const OWNS: Record<HookSetName, (userId: number, id: number) => boolean> = {
  fnList: (userId, id) => id % 3 === userId % 3,
  fnLimit: (userId, id) => id <= userId,
  nameList: (userId, id) => (id + userId) % 2 === 0,
  nameLimit: (userId, id) => id === 0 || id === 2 * userId,
};

/** Calls of every hook, by `<set>.<hook>`. */
const calls = new Map<string, number>();
const count = (name: string): void => {
  calls.set(name, (calls.get(name) ?? 0) + 1);
};

type OwnerArgs = { user: User<number>; resourceId: number };
type UserArgs = { user: User<number> };
const ownedIds = (set: HookSetName, user: User<number>): number[] => ITEM_IDS.filter((id) => OWNS[set](user.id, id));

const fnListHooks = {
  isOwner: ({ user, resourceId }: OwnerArgs) => (count('fnList.isOwner'), OWNS.fnList(user.id, resourceId)),
  listOwned: ({ user }: UserArgs) => (count('fnList.listOwned'), ownedIds('fnList', user)),
};
const fnLimitHooks = {
  isOwner: ({ user, resourceId }: OwnerArgs) => (count('fnLimit.isOwner'), Promise.resolve(OWNS.fnLimit(user.id, resourceId))),
  limitOwned: ({ user }: UserArgs) => (count('fnLimit.limitOwned'), { filter: 'fnLimit', userId: user.id }),
};
const ownership = {
  nameListIsOwner: ({ user, resourceId }: OwnerArgs) => (count('nameList.isOwner'), OWNS.nameList(user.id, resourceId)),
  nameListListOwned: ({ user }: UserArgs) => (count('nameList.listOwned'), Promise.resolve(ownedIds('nameList', user))),
  nameLimitIsOwner: ({ user, resourceId }: OwnerArgs) => (count('nameLimit.isOwner'), OWNS.nameLimit(user.id, resourceId)),
  nameLimitLimitOwned: ({ user }: UserArgs) => (count('nameLimit.limitOwned'), { filter: 'nameLimit', userId: user.id }),
};
const HOOKS: Record<HookSetName, Record<string, unknown>> = {
  fnList: fnListHooks,
  fnLimit: fnLimitHooks,
  nameList: { isOwner: 'nameListIsOwner', listOwned: 'nameListListOwned' },
  nameLimit: { isOwner: 'nameLimitIsOwner', limitOwned: 'nameLimitLimitOwned' },
};

// ---------------------------------------------------------------------------------------------
// Generators. Definitions are generated as printable specs (hooks by set name) and materialised.
// ---------------------------------------------------------------------------------------------

interface DefinitionSpec {
  roles: string | string[];
  resource: string;
  possession?: 'own' | 'any';
  grant: string[] | Record<string, string[]>;
  hooks?: HookSetName;
}

// The pattern lists are any mix of PATTERNS that keeps something (client-differential builds its lists instead).
const patternsArb = fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }).filter((patterns) => listsKeepSomething([patterns]));

const definitionSpecArb: fc.Arbitrary<DefinitionSpec> = fc
  .record({
    ...definitionFieldArbs({
      roles: DEFINITION_ROLES,
      resources: [...DEFINITION_RESOURCES, 'doc', 'doc'],
      possessions: [undefined, 'own', 'any'],
      actions: [...ACTIONS, '*', '*', 'read', 'read'],
      patterns: patternsArb,
    }),
    hooks: fc.constantFrom(...HOOK_SETS),
    withHooks: fc.boolean(),
  })
  .map(({ possession, hooks, withHooks, ...rest }) => {
    const spec: DefinitionSpec = possession === undefined ? { ...rest } : { ...rest, possession };
    if (withHooks || grantsOwn(spec)) spec.hooks = hooks;
    return spec;
  });

function materialise(spec: DefinitionSpec, index: number): PermissionDefinition {
  const { hooks, ...rest } = spec;
  return { descr: `definition ${index}`, ...rest, ...(hooks === undefined ? {} : HOOKS[hooks]) };
}

const queryUserArb = userArb([1, 2, 3], [...USER_ROLES, 'A', 'A', 'A', 'B', 'B', 'C'], { minLength: 1, maxLength: 3 });

const itemArb = withOwnProtoKeyArb(
  fc.record(
    {
      id: fc.constantFrom(...ITEM_IDS),
      title: fc.constant('a title'),
      secret: fc.constant('a secret'),
      status: fc.constantFrom('draft', 'approved'),
      note: fc.constant('not named by any pattern'),
    },
    { requiredKeys: ['id'] },
  ),
);

const queryArb = fc.record({
  user: queryUserArb,
  resource: fc.constantFrom<string>(...QUERY_RESOURCES, 'doc', 'doc', 'doc', 'doc', 'doc', 'img', 'img'),
  action: fc.constantFrom<string>(...QUERY_ACTIONS, 'read', 'read', 'read', 'read', 'list', 'list', 'approve'),
  resourceId: fc.constantFrom<number | null | undefined>(undefined, null, ...ITEM_IDS),
  items: fc.array(itemArb, { maxLength: 5 }),
});
type QueryCase = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

function describeObject(value: object): string {
  const fields = JSON.stringify(Object.fromEntries(Reflect.ownKeys(value).map((key) => [String(key), (value as Record<PropertyKey, unknown>)[key]])));
  const prototype = Object.getPrototypeOf(value) === Object.prototype ? 'Object.prototype' : String(Object.getPrototypeOf(value));
  return `${fields} (prototype ${prototype})`;
}

function samePick(actual: unknown, expected: Record<string, unknown>, input: object | undefined): string | undefined {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `not an object: ${String(actual)}`;
  if (actual === input) return 'returned the input object itself';
  const proto: unknown = Object.getPrototypeOf(actual);
  if (proto !== Object.prototype && proto !== null) return 'result has an unexpected prototype';
  const actualKeys = Reflect.ownKeys(actual).map(String).sort();
  const expectedKeys = Object.keys(expected).sort();
  const values = actual as Record<string, unknown>;
  if (actualKeys.join('|') !== expectedKeys.join('|') || expectedKeys.some((key) => values[key] !== expected[key])) {
    return `expected ${describeObject(expected)}, got ${describeObject(actual)}`;
  }
  return undefined;
}

interface EnginePermit {
  granted: boolean;
  anyGranted: boolean;
  ownGranted: boolean;
  anyAttributes: readonly string[];
  isOwn(id: unknown): Promise<boolean>;
  pick(item: object): Promise<unknown>;
  filterPick(items: readonly object[]): Promise<unknown[]>;
  listOwn(): Promise<readonly unknown[]>;
  limitOwn(): unknown;
}

async function compareQuery(permissions: Permissions, definitions: readonly PermissionDefinition[], query: QueryCase, declared: Declared = {}): Promise<void> {
  const { items, resourceId, ...rest } = query;
  const grantQuery = resourceId === undefined ? rest : { ...rest, resourceId };
  const failures: string[] = [];
  const check = (what: string, actual: unknown, expected: unknown): void => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) failures.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };

  const refused = await permissions.grantPermit(grantQuery).then(
    () => false,
    (error: unknown) => {
      if (!(error instanceof PermissionsUsageError)) throw error;
      return true;
    },
  );
  if (refused !== refusesQuery(definitions, declared, grantQuery.resource, grantQuery.action))
    throw new Error(`the engine ${refused ? 'refused' : 'answered'} ${JSON.stringify(grantQuery)}, the reference ${refused ? 'answers' : 'refuses'} it`);
  if (refused) return;
  const expected: ReferencePermit = await referenceGrant(definitions, ownership, grantQuery, declared);
  const permit = (await permissions.grantPermit(grantQuery)) as unknown as EnginePermit;

  check('granted', permit.granted, expected.granted);
  check('anyGranted', permit.anyGranted, expected.anyGranted);
  check('ownGranted', permit.ownGranted, expected.ownGranted);
  check('anyAttributes', permit.anyAttributes, expected.anyAttributes);
  for (const name of [...ATTRIBUTES, 'note', '__proto__', UNMENTIONED_ATTRIBUTE]) {
    check(`anyAttributes keeps ${JSON.stringify(name)}`, patternsKeep(permit.anyAttributes, name), expected.keepsAsAny(name));
  }
  for (const id of ITEM_IDS) check(`isOwn(${id})`, await permit.isOwn(id), await expected.isOwn(id));
  for (const [i, item] of items.entries()) {
    const problem = samePick(await permit.pick(item), await expected.pick(item), item);
    if (problem !== undefined) failures.push(`pick(items[${i}]): ${problem}`);
  }

  // filterPick on a fresh permit, counting hook calls: listOwned at most once per group, no isOwner for list groups.
  const fresh = (await permissions.grantPermit(grantQuery)) as unknown as EnginePermit;
  const expectedFiltered = await expected.filterPick(items);
  calls.clear();
  const filtered = await fresh.filterPick(items);
  if (!Array.isArray(filtered) || filtered.length !== expectedFiltered.length) {
    failures.push(`filterPick: expected ${expectedFiltered.length} items, got ${Array.isArray(filtered) ? filtered.length : String(filtered)}`);
  } else {
    expectedFiltered.forEach((wanted, i) => {
      const problem = samePick(filtered[i], wanted, undefined);
      if (problem !== undefined) failures.push(`filterPick()[${i}]: ${problem}`);
    });
  }
  for (const set of ['fnList', 'nameList'] as const) {
    if ((calls.get(`${set}.listOwned`) ?? 0) > 1) failures.push(`filterPick called ${set}.listOwned ${calls.get(`${set}.listOwned`)} times`);
    if ((calls.get(`${set}.isOwner`) ?? 0) > 0) failures.push(`filterPick called ${set}.isOwner although the group has listOwned`);
  }

  const wantedList = await expected.listOwn();
  let gotList: readonly unknown[] | 'usage-error';
  try {
    gotList = await fresh.listOwn();
  } catch (error) {
    if (!(error instanceof PermissionsUsageError)) throw error;
    gotList = 'usage-error';
  }
  if (wantedList.error) check('listOwn()', gotList, 'usage-error');
  else check('listOwn() (as a sorted set)', gotList === 'usage-error' ? gotList : [...gotList].sort(), [...wantedList.ids].sort());

  const wantedLimit = expected.limitOwn();
  if (wantedLimit !== undefined) {
    let gotLimit: unknown;
    try {
      gotLimit = fresh.limitOwn();
    } catch (error) {
      if (!(error instanceof PermissionsUsageError)) throw error;
      gotLimit = 'usage-error';
    }
    check('limitOwn()', gotLimit, wantedLimit.error ? 'usage-error' : wantedLimit.filter);
  }

  if (failures.length > 0) throw new Error(`engine disagrees with the reference for ${JSON.stringify(grantQuery)}:\n  ${failures.join('\n  ')}`);
}

const ATTRIBUTE_NAMES: readonly string[] = ATTRIBUTES;
const silentLogger = { warn() {} };

describe('engine ≡ naive reference interpreter', () => {
  it(`agrees on grants, attributes, ownership, pick and filterPick (${NUM_RUNS} random definition sets)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(definitionSpecArb, { minLength: 1, maxLength: 6 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        async (specs, queries) => {
          const definitions = specs.map(materialise);
          const redefinitions = referenceRedefinitions(definitions, ATTRIBUTE_NAMES);
          const permissions = new Permissions({ ownership, logger: silentLogger });
          permissions.addPermissions(definitions);
          let buildError: PermissionDefinitionError | undefined;
          try {
            permissions.build();
          } catch (error) {
            if (!(error instanceof PermissionDefinitionError)) throw error;
            buildError = error;
          }
          if (buildError !== undefined) {
            const codes = buildError.problems.map((problem) => problem.code);
            if (codes.some((code) => code !== 'conflicting-redefinition') || !redefinitions.overlap) {
              throw new Error(`build() rejected definitions the reference finds valid: ${buildError.message}`);
            }
            if (!redefinitions.conflict) throw new Error(`build() reports a conflict for identical attributes: ${buildError.message}`);
            return;
          }
          if (redefinitions.conflict) throw new Error('build() accepted two explicit redefinitions with different attributes');
          for (const query of queries) await compareQuery(permissions, definitions, query);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 60_000);

  it(`with actions declared for some resources: refuses the same definitions and queries, answers the rest alike (${NUM_RUNS_DECLARED} sets)`, async () => {
    // Lists that often hold what the definitions grant, so that most sets build; each may also hold an action nobody grants.
    const declaredArb: fc.Arbitrary<Declared> = fc.record(
      {
        doc: fc.uniqueArray(fc.constantFrom(...ACTIONS, 'constructor'), { minLength: 3, maxLength: 7 }),
        img: fc.uniqueArray(fc.constantFrom(...ACTIONS), { minLength: 2, maxLength: 6 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(definitionSpecArb, { minLength: 1, maxLength: 6 }),
        declaredArb,
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        async (specs, declared, queries) => {
          const definitions = specs.map(materialise);
          const permissions = new Permissions({ ownership, resourceActions: declared, logger: silentLogger });
          permissions.addPermissions(definitions);
          let codes: string[] = [];
          try {
            permissions.build();
          } catch (error) {
            if (!(error instanceof PermissionDefinitionError)) throw error;
            codes = error.problems.map((problem) => problem.code);
          }
          const undeclared = namesUndeclaredAction(definitions, declared);
          if (codes.includes('unknown-action') !== undeclared)
            throw new Error(`the reference ${undeclared ? 'refuses' : 'accepts'} the grants, build() reports ${JSON.stringify(codes)}`);
          if (codes.some((code) => code !== 'unknown-action' && code !== 'conflicting-redefinition'))
            throw new Error(`build() rejected definitions the reference finds valid: ${JSON.stringify(codes)}`);
          // Conflicts among valid grants are the first property's business: only sets that build are compared here.
          if (codes.length > 0) return;
          for (const query of queries) await compareQuery(permissions, definitions, query, declared);
        },
      ),
      { numRuns: NUM_RUNS_DECLARED },
    );
  }, 60_000);

  it('rejects with bad-attribute exactly the grants whose patterns keep nothing', () => {
    const anyPatternsArb = fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(definitionSpecArb, { maxLength: 3 }), fc.constantFrom<string>(...ACTIONS, '*'), anyPatternsArb, (specs, action, patterns) => {
        const definitions = [...specs, { roles: 'A', resource: 'doc', grant: { [`${action}:any`]: patterns } }].map(materialise);
        const permissions = new Permissions({ ownership, logger: silentLogger });
        permissions.addPermissions(definitions);
        let codes: string[] = [];
        try {
          permissions.build();
        } catch (error) {
          if (!(error instanceof PermissionDefinitionError)) throw error;
          codes = error.problems.map((problem) => problem.code);
        }
        const keepsNothing = !listsKeepSomething([patterns]);
        if (codes.includes('bad-attribute') !== keepsNothing) {
          throw new Error(
            `patterns ${JSON.stringify(patterns)} keep ${keepsNothing ? 'nothing' : 'something'}, but build() problems are ${JSON.stringify(codes)}`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
