/**
 * The browser client answers like the server. On random definitions (roles, resources,
 * actions, attribute patterns with nested paths and negations, own and any grants, every kind of
 * ownership group) with in-process hooks answering from a random ownership relation, random users
 * (0–3 roles, unknown ones too) and random items, the client made from `sliceFor(user)` (through JSON)
 * must agree with the server's Permit:
 * - `can(a, r)` equals `grantPermit` without an id; `canAny`, `canOwn` and `attributes` equal its
 *   `anyGranted`, `ownGranted` and `anyAttributes`;
 * - for a record, `can(a, r, { owned: groups })` equals `grantPermit` with that id, and
 *   `pick(a, r, item, { owned: groups })` deep-equals `permit.pick(item)`, where `groups` is what
 *   `permit.owningGroups([id])` answers;
 * - `owned: true` / `owned: false` answer like a server whose hooks all say yes / all say no.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createClient, type PermissionSlice, type PermissionsClient } from '../../runtime/client/index.js';
import { PermissionDefinitionError, Permissions, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { definitionFieldArbs, grantsOwn, userArb, withOwnProtoKeyArb } from '../core/arbitraries.js';

const NUM_RUNS = 500;

const DEFINITION_ROLES = ['A', 'B', 'C'] as const;
const USER_ROLES = [...DEFINITION_ROLES, 'Z'] as const;
const RESOURCES = ['doc', 'img'] as const;
const QUERY_RESOURCES = [...RESOURCES, 'vid'] as const;
const ACTIONS = ['read', 'update', 'list', 'constructor'] as const;
const QUERY_ACTIONS = [...ACTIONS, 'approve'] as const;
const ITEM_IDS = [1, 2, 3, 4, 5] as const;
const USER_IDS = [1, 2] as const;

const KEEPING = ['id', 'title', 'secret', 'meta', 'meta.a', 'meta.b'] as const;
const DROPPING = ['!id', '!title', '!secret', '!meta', '!meta.a', '!meta.b'] as const;

// ---------------------------------------------------------------------------------------------
// Ownership: four kinds of group, every hook answering from one relation
// ---------------------------------------------------------------------------------------------

/** The ownership groups a definition may use: `list` has isOwner and listOwned, `listOnly` listOwned,
 * `among` limitOwned run by the resource's ownedAmong (only `doc` has one), `limitIs` isOwner and limitOwned. */
type GroupName = 'list' | 'listOnly' | 'among' | 'limitIs';
const GROUPS: readonly GroupName[] = ['list', 'listOnly', 'among', 'limitIs'];

/** Who owns what: per group and user id, the owned item ids. */
type Relation = (group: GroupName, userId: unknown, id: unknown) => boolean;

interface LimitFilter {
  readonly group: GroupName;
  readonly userId: unknown;
}

type UserArgs = { user: User<unknown> };
type IdArgs = { user: User<unknown>; resourceId: unknown };

/** One world of hooks over a relation: functions shared by every definition of a group, so groups stay groups. */
function hooksOver(owns: Relation): {
  hooks: Record<GroupName, object>;
  ownedAmong: (args: UserArgs & { filter: LimitFilter; resourceIds: readonly unknown[] }) => unknown[];
} {
  const listed = (group: GroupName, user: User<unknown>): number[] => ITEM_IDS.filter((id) => owns(group, user.id, id));
  const isOwner =
    (group: GroupName) =>
    ({ user, resourceId }: IdArgs) =>
      owns(group, user.id, resourceId);
  const listOwned =
    (group: GroupName) =>
    ({ user }: UserArgs) =>
      listed(group, user);
  const limitOwned =
    (group: GroupName) =>
    ({ user }: UserArgs): LimitFilter => ({ group, userId: user.id });
  return {
    hooks: {
      list: { isOwner: isOwner('list'), listOwned: listOwned('list') },
      listOnly: { listOwned: listOwned('listOnly') },
      among: { limitOwned: limitOwned('among') },
      limitIs: { isOwner: isOwner('limitIs'), limitOwned: limitOwned('limitIs') },
    },
    ownedAmong: ({ filter, resourceIds }) => resourceIds.filter((id) => owns(filter.group, filter.userId, id)),
  };
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

interface DefinitionSpec {
  readonly roles: string | readonly string[];
  readonly resource: string;
  readonly possession?: 'own' | 'any';
  readonly grant: readonly string[] | Readonly<Record<string, readonly string[]>>;
  readonly group?: GroupName;
}

// Every list keeps something (a grant that keeps nothing is a build error, not what is tested here): either '*' and
// some exclusions, or anything followed by an inclusion — built so, with nested paths, unlike the filtered lists of
// test/core/differential.property.test.ts.
const patternsArb = fc.oneof(
  fc.array(fc.constantFrom<string>(...DROPPING), { maxLength: 2 }).map((dropped) => ['*', ...dropped]),
  fc
    .tuple(fc.array(fc.constantFrom<string>('*', '!*', ...KEEPING, ...DROPPING), { maxLength: 2 }), fc.constantFrom<string>(...KEEPING))
    .map(([before, kept]) => [...before, kept]),
);

const definitionSpecArb: fc.Arbitrary<DefinitionSpec> = fc
  .record({
    ...definitionFieldArbs({
      roles: DEFINITION_ROLES,
      resources: [...RESOURCES, 'doc', '*'],
      possessions: [undefined, 'own', 'own', 'any'],
      actions: [...ACTIONS, '*', 'read'],
      patterns: patternsArb,
    }),
    group: fc.constantFrom(...GROUPS),
    withGroup: fc.boolean(),
  })
  .map(({ possession, group, withGroup, ...rest }) => {
    const base: DefinitionSpec = possession === undefined ? rest : { ...rest, possession };
    if (!withGroup && !grantsOwn(base)) return base;
    // Only doc has an ownedAmong executor: elsewhere limitOwned needs isOwner beside it.
    return { ...base, group: group === 'among' && base.resource !== 'doc' ? 'limitIs' : group };
  });

function materialise(specs: readonly DefinitionSpec[], hooks: Record<GroupName, object>): PermissionDefinition[] {
  return specs.map(({ group, ...rest }) => ({ ...rest, ...(group === undefined ? {} : hooks[group]) }) as PermissionDefinition);
}

/** The relation: for each group and user, the owned ids. */
const relationArb = fc
  .array(fc.subarray([...ITEM_IDS]), { minLength: GROUPS.length * USER_IDS.length, maxLength: GROUPS.length * USER_IDS.length })
  .map((sets): Relation => {
    const owned = sets.map((ids) => new Set<unknown>(ids));
    return (group, userId, id) => owned[GROUPS.indexOf(group) * USER_IDS.length + USER_IDS.indexOf(userId as 1 | 2)]?.has(id) === true;
  });

const sliceUserArb = userArb(USER_IDS, [...USER_ROLES, 'A', 'B'], { maxLength: 3 });

const metaArb = fc.oneof(
  fc.constant<unknown>({ a: 'meta a', b: 'meta b', c: 'meta c' }),
  fc.constant<unknown>([{ a: 'first a', b: 'first b' }, 7, { a: 'second a' }]),
  fc.constant<unknown>('meta as text'),
);

const itemArb = withOwnProtoKeyArb(
  fc.record(
    {
      id: fc.constantFrom<number | null>(...ITEM_IDS, null),
      title: fc.constant('a title'),
      secret: fc.constant('a secret'),
      meta: metaArb,
      other: fc.constant('named by no pattern'),
    },
    { requiredKeys: ['title'] },
  ),
);

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

const silentLogger = { warn() {} };

/** Builds the definitions with one world of hooks; undefined when they conflict (two explicit redefinitions). */
function build(specs: readonly DefinitionSpec[], owns: Relation): Permissions | undefined {
  const { hooks, ownedAmong } = hooksOver(owns);
  const permissions = new Permissions({ logger: silentLogger, ownedAmong: { doc: ownedAmong } });
  permissions.addPermissions(materialise(specs, hooks));
  try {
    return permissions.build();
  } catch (error) {
    if (error instanceof PermissionDefinitionError && error.problems.every((problem) => problem.code === 'conflicting-redefinition')) return undefined;
    throw error;
  }
}

function show(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const fields = Object.fromEntries(Reflect.ownKeys(value).map((key) => [String(key), (value as Record<PropertyKey, unknown>)[key]]));
  return `${JSON.stringify(fields)}${Object.getPrototypeOf(value) === Object.prototype ? '' : ' (not a plain object)'}`;
}

interface Worlds {
  readonly server: Permissions;
  readonly allYes: Permissions;
  readonly allNo: Permissions;
}

async function compareUser(worlds: Worlds, user: User<unknown>, items: readonly Record<string, unknown>[]): Promise<string[]> {
  const failures: string[] = [];
  const check = (what: string, client: unknown, server: unknown): void => {
    if (!isDeepStrictEqual(client, server)) failures.push(`${what}: client ${show(client)}, server ${show(server)}`);
  };
  const slice = JSON.parse(JSON.stringify(worlds.server.sliceFor(user))) as PermissionSlice;
  const client: PermissionsClient = createClient(slice);
  for (const resource of QUERY_RESOURCES) {
    for (const action of QUERY_ACTIONS) {
      const at = `${action} on ${resource}`;
      const permit = await worlds.server.grantPermit({ user, resource, action });
      check(`can(${at})`, client.can(action, resource), permit.granted);
      check(`canAny(${at})`, client.canAny(action, resource), permit.anyGranted);
      check(`canOwn(${at})`, client.canOwn(action, resource), permit.ownGranted);
      check(`attributes(${at})`, client.attributes(action, resource), [...permit.anyAttributes]);
      for (const item of items) {
        const id = item['id'];
        const known = id !== undefined && id !== null;
        const groups = known ? ((await permit.owningGroups([id]))[0] ?? []) : [];
        const record = `${at}, item ${show(item)}, groups ${JSON.stringify(groups)}`;
        check(`pick(${record})`, client.pick(action, resource, item, { owned: groups }), await permit.pick(item));
        if (!known) continue;
        const decided = await worlds.server.grantPermit({ user, resource, action, resourceId: id });
        check(`can(${record})`, client.can(action, resource, { owned: groups }), decided.granted);
        for (const [owned, world] of [
          [true, worlds.allYes],
          [false, worlds.allNo],
        ] as const) {
          const answer = await world.grantPermit({ user, resource, action, resourceId: id });
          check(`can(${at}, owned: ${owned}) on ${JSON.stringify(id)}`, client.can(action, resource, { owned }), answer.granted);
          check(`pick(${at}, owned: ${owned}) of ${show(item)}`, client.pick(action, resource, item, { owned }), await answer.pick(item));
        }
      }
    }
  }
  return failures;
}

describe('client ≡ server', () => {
  it(`the client from sliceFor(user) answers can, canAny, canOwn, attributes, pick like the server (${NUM_RUNS} random definition sets)`, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(definitionSpecArb, { minLength: 1, maxLength: 5 }),
        relationArb,
        fc.array(sliceUserArb, { minLength: 1, maxLength: 2 }),
        fc.array(itemArb, { maxLength: 3 }),
        async (specs, owns, users, items) => {
          const server = build(specs, owns);
          const allYes = build(specs, () => true);
          const allNo = build(specs, () => false);
          if (server === undefined || allYes === undefined || allNo === undefined) return;
          compared++;
          for (const user of users) {
            const failures = await compareUser({ server, allYes, allNo }, user, items);
            if (failures.length > 0) throw new Error(`client and server disagree for user ${JSON.stringify(user)}:\n  ${failures.join('\n  ')}`);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // Conflicting redefinitions are skipped; most runs must still compare something.
    expect(compared).toBeGreaterThan(NUM_RUNS / 2);
  }, 120_000);
});
