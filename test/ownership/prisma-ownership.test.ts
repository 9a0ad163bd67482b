/**
 * The Prisma adapter on a client generated for the test tables (Prisma 7, on a driver adapter): the exact `where`
 * input for the example's three rules, 'everything' and 'nothing', and a null user value (never `{ field: null }`,
 * which Prisma reads as IS NULL); one query per `ownedAmong` and `listOwned`, none for no ids or 'nothing'; a
 * property test that for random rules, tables and users the filter, `ownedAmong` and `listOwned` select exactly what
 * `ownershipPredicate` holds for; hostile values only ever in value positions; the typed errors, a malformed rule's
 * too. On PGlite (pglite-prisma-adapter), and on the PostgreSQL server (@prisma/adapter-pg) when TEST_DATABASE_URL
 * names one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  ownershipPredicate,
  type OwnershipCondition,
  type OwnershipContext,
  type OwnershipQuestion,
  type OwnershipScope,
  type TenantIdType,
} from '../../runtime/ownership/index.js';
import { MALFORMED_RULE_FIX } from '../../runtime/core/ownership-rules/ownership-scope-check.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { prismaOwnership, type PrismaOwnershipSource } from '../../runtime/prisma/index.js';
import {
  documentRowsArb,
  RULE_CONTEXT,
  ruleArb,
  ruleUserArb,
  TENANT_RULE_CONTEXTS,
  tenantArb,
  tenantRuleArbs,
  userRowsArb,
} from '../core/ownership-rule-arbitraries.js';
import { ADAPTER_TARGETS, type AdapterDatabase } from './adapter-databases.js';
import { generatePrismaClient, removePrismaClient, type PrismaQuery, type TestPrismaClient } from './prisma-client.js';

const NUM_RUNS = 50;
const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]', team: 'string', teams: 'string[]' },
};
const CREATOR: OwnershipCondition = { attribute: 'creatorId', equals: { user: 'id' } };
const CREATOR_OR_MANAGED: OwnershipCondition = { any: [CREATOR, { attribute: 'creatorId', in: { user: 'managedUserIds' } }] };
const SAME_COMPANY: OwnershipCondition = { attribute: 'creator.companyId', equals: { user: 'companyId' } };
const USER_3 = { id: 3, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [2, 5], team: 'a', teams: [] };
const MODELS = { models: { document: 'document', user: 'user' } };

const USERS = [
  { id: 1, companyId: 1 },
  { id: 2, companyId: 1, managerId: 3 },
  { id: 3, companyId: 1 },
  { id: 4, companyId: 2 },
  { id: 5, companyId: null, managerId: 3 },
];
/** Document 6 has no creator, document 7 a creator that is no user. */
const DOCUMENTS = [1, 2, 3, 4, 5, null, 9].map((creatorId, i) => ({ id: i + 1, creatorId, status: i === 1 ? 'review' : 'draft' }));

/** What a malformed rule built by hand is told: an empty "all" / "any", and a node none of the forms. */
const NOT_A_LIST = 'is not a list of conditions';
const NOT_A_COMPARISON = 'is not a comparison of an attribute with a user attribute, the tenant id or literals';

/** The refusal of a condition of `values` values, past PRISMA_MAX_CONDITION_VALUES. */
const valueCapRefusal = (values: number) =>
  new PermissionsUsageError(
    `The ownership condition on resource "document" sends ${values} values through Prisma, more than the 30000 it may (Prisma ` +
      "sends each as a parameter and binds at most 32,766 in one PostgreSQL statement; the rest is left to the application's own " +
      'conditions): shorten the lists of user attributes the rules read, or ask about fewer ids at once.',
  );
/** Lists of 1 to `length`, built once: the rules at Prisma's value cap read three lists of 10,000. */
const ONE_TO_10_000 = Array.from({ length: 10_000 }, (_, i) => i + 1);
const ONE_TO_9_999 = ONE_TO_10_000.slice(0, 9_999);

const question = (scope: OwnershipScope, user: object = USER_3, context: OwnershipContext = CONTEXT): OwnershipQuestion => ({ scope, context, user });
const sorted = (ids: readonly unknown[]) => [...ids].map(Number).sort((a, b) => a - b);

let generated: Awaited<ReturnType<typeof generatePrismaClient>> | undefined;
beforeAll(async () => {
  generated = await generatePrismaClient();
}, 180_000);
afterAll(() => {
  if (generated !== undefined) removePrismaClient(generated.folder);
});

describe('the Prisma where input of a rule', () => {
  const ownership = prismaOwnership({ document: { findMany: () => Promise.resolve([]) } }, MODELS);

  it("writes the example's three rules as equality, in, OR and a relation filter", () => {
    expect(ownership.filter(question(CREATOR))).toEqual({ creatorId: { equals: 3 } });
    expect(ownership.filter(question(CREATOR_OR_MANAGED))).toEqual({ OR: [{ creatorId: { equals: 3 } }, { creatorId: { in: [2, 5] } }] });
    expect(ownership.filter(question(SAME_COMPANY))).toEqual({ creator: { is: { companyId: { equals: 1 } } } });
  });

  it("selects nothing for a null user value, an empty list and 'nothing' (id in []), everything for 'everything' (id not in [])", () => {
    expect(ownership.filter(question(SAME_COMPANY, { ...USER_3, companyId: null }))).toEqual({ id: { in: [] } });
    expect(ownership.filter(question({ all: [CREATOR, { attribute: 'status', in: [] }] }))).toEqual({
      AND: [{ creatorId: { equals: 3 } }, { id: { in: [] } }],
    });
    expect(ownership.filter(question({ attribute: 'creator.flag', in: [true, false] }, USER_3, { ...CONTEXT, userAttributes: {} }))).toEqual({
      creator: { is: { OR: [{ flag: { equals: true } }, { flag: { equals: false } }] } },
    });
    expect(ownership.filter(question('nothing'))).toEqual({ id: { in: [] } });
    expect(ownership.filter(question('everything'))).toEqual({ id: { notIn: [] } });
    expect(ownership.where({ ownershipScope: () => question(CREATOR) })).toEqual({ creatorId: { equals: 3 } });
  });

  it('maps attributes and relations to Prisma fields, each mapped name an own property', () => {
    const mapped = prismaOwnership(
      { document: { findMany: () => Promise.resolve([]) } },
      { ...MODELS, field: (resource, attribute) => `${resource}_${attribute}`, relation: (_resource, relation) => `${relation}Rel` },
    );
    expect(mapped.filter(question(SAME_COMPANY))).toEqual({ creatorRel: { is: { user_companyId: { equals: 1 } } } });
    const proto = prismaOwnership({ document: { findMany: () => Promise.resolve([]) } }, { ...MODELS, field: () => '__proto__' });
    const where = proto.filter(question(CREATOR));
    expect(Object.keys(where)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(where)).toBe(Object.prototype);
  });

  it('hostile values stay values: the where input is the same shape with the values as given (property)', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom("'", '$1', '%', '_', '\u0000', '__proto__', 'constructor', 'equals', 'OR', 'in', 'is'),
    );
    fc.assert(
      fc.property(hostile, fc.array(hostile, { maxLength: 4 }), fc.double({ noNaN: true, noDefaultInfinity: true }), (team, teams, id) => {
        const rule: OwnershipCondition = {
          any: [
            { attribute: 'creatorId', equals: { user: 'id' } },
            { attribute: 'creator.team', equals: { user: 'team' } },
            { attribute: 'status', in: { user: 'teams' } },
            { attribute: 'status', in: [team] },
          ],
        };
        const context: OwnershipContext = { ...CONTEXT, userAttributes: { id: 'number', team: 'string', teams: 'string[]' } };
        expect(ownership.filter(question(rule, { id, team, teams }, context))).toEqual({
          OR: [{ creatorId: { equals: id } }, { creator: { is: { team: { equals: team } } } }, { status: { in: teams } }, { status: { in: [team] } }],
        });
      }),
      { numRuns: 200 },
    );
  });

  it("compares the tenant's id: tenant A, tenant B; no tenant or an id that is no number of a number column is the filter of no record", () => {
    const rule: OwnershipCondition = { all: [{ attribute: 'creator.companyId', equals: { tenant: 'id' } }, CREATOR] };
    const numbers: OwnershipContext = { ...CONTEXT, tenantIdType: 'number' };
    const inTenant = (tenant: string | undefined, context = numbers): OwnershipQuestion =>
      tenant === undefined ? { scope: rule, context, user: USER_3 } : { scope: rule, context, user: USER_3, tenant };
    expect(ownership.filter(inTenant('1'))).toEqual({ AND: [{ creator: { is: { companyId: { equals: 1 } } } }, { creatorId: { equals: 3 } }] });
    expect(ownership.filter(inTenant('2'))).toEqual({ AND: [{ creator: { is: { companyId: { equals: 2 } } } }, { creatorId: { equals: 3 } }] });
    expect(ownership.filter(inTenant(undefined))).toEqual({ AND: [{ id: { in: [] } }, { creatorId: { equals: 3 } }] });
    expect(ownership.filter(inTenant('01'))).toEqual({ AND: [{ id: { in: [] } }, { creatorId: { equals: 3 } }] });
    expect(ownership.filter(inTenant('01', CONTEXT))).toEqual({ AND: [{ creator: { is: { companyId: { equals: '01' } } } }, { creatorId: { equals: 3 } }] });
  });

  it('refuses a condition that would send more values than one statement takes, before any query; takes one at the limit', async () => {
    // Several roles' rules OR-ed together, each reading the user's list of 9,500 managed users.
    const managed = { attribute: 'creatorId', in: { user: 'managedUserIds' } } as const;
    const user = { ...USER_3, managedUserIds: Array.from({ length: 9500 }, (_, i) => i + 1) };
    const anyOf = (count: number): OwnershipCondition => ({ any: Array.from({ length: count }, () => managed) });
    let queries = 0;
    const findMany = () => {
      queries += 1;
      return Promise.resolve([]);
    };
    const counting = prismaOwnership({ document: { findMany } }, MODELS);
    expect(() => counting.filter(question(anyOf(4), user))).toThrow(valueCapRefusal(38_000));
    await expect(counting.listOwned(question(anyOf(4), user))).rejects.toThrow(valueCapRefusal(38_000));
    expect((counting.filter(question(anyOf(3), user)) as { OR: unknown[] }).OR).toHaveLength(3);
    const ids = Array.from({ length: 1501 }, (_, i) => i + 1);
    await expect(counting.ownedAmong(question(anyOf(3), user), ids)).rejects.toThrow(valueCapRefusal(30_001));
    expect(queries).toBe(0);
    await counting.ownedAmong(question(anyOf(3), user), ids.slice(0, 1500));
    expect(queries).toBe(1);
  });

  it('answers each id once, even when the client answers one twice (as Prisma does when it splits a query)', async () => {
    const twice = prismaOwnership({ document: { findMany: () => Promise.resolve([{ id: 1 }, { id: 2 }, { id: 1 }, { id: 2 }]) } }, MODELS);
    expect(await twice.listOwned(question(CREATOR))).toEqual([1, 2]);
    expect(await twice.ownedAmong(question(CREATOR), [1, 2])).toEqual([1, 2]);
  });

  it('a resource without a model, a client without it, or a missing user attribute is a typed error', async () => {
    await expect(prismaOwnership({}, { models: { user: 'user' } }).listOwned(question(CREATOR))).rejects.toEqual(
      new PermissionsUsageError('No model is given for resource "document": add it to "models".'),
    );
    await expect(prismaOwnership({ documents: {} }, MODELS).listOwned(question(CREATOR))).rejects.toEqual(
      new PermissionsUsageError('The Prisma client has no model "document" (prisma.document.findMany) for resource "document".'),
    );
    expect(() => ownership.filter(question(SAME_COMPANY, { id: 3 }))).toThrow(
      new PermissionsUsageError(
        'The user has no attribute "companyId", which an ownership rule reads. Give the user object "companyId" (null when it has no value).',
      ),
    );
    expect(() => prismaOwnership({}, { models: null } as never)).toThrow(
      new PermissionsUsageError('prismaOwnership() needs options { models }: the model delegate name of each resource the rules reach.'),
    );
  });
});

describe.each(ADAPTER_TARGETS)('the Prisma adapter on $name', (target) => {
  let db: AdapterDatabase;
  let prisma: TestPrismaClient;
  let ownership: PrismaOwnershipSource;
  const queries: PrismaQuery[] = [];

  beforeAll(async () => {
    db = await target.open();
    const { PrismaClient } = generated as NonNullable<typeof generated>;
    prisma = new PrismaClient({ adapter: db.prismaAdapter, log: [{ emit: 'event', level: 'query' }] });
    prisma.$on('query', (event) => void queries.push(event));
    ownership = prismaOwnership(prisma, MODELS);
  }, 60_000);
  afterAll(async () => {
    await prisma.$disconnect();
    await db.close();
  }, 30_000);

  it("the example's three rules: one query for ownedAmong and one for listOwned, selecting the owned documents", async () => {
    await db.fill('users', USERS);
    await db.fill('documents', DOCUMENTS);
    for (const [rule, owned, ownedOf12] of [
      [CREATOR, [3], []],
      [CREATOR_OR_MANAGED, [2, 3, 5], [2]],
      [SAME_COMPANY, [1, 2, 3], [1, 2]],
    ] as const) {
      queries.length = 0;
      expect(sorted(await ownership.ownedAmong(question(rule), [1, 2]))).toEqual(ownedOf12);
      expect(sorted(await ownership.listOwned(question(rule)))).toEqual(owned);
      expect(queries).toHaveLength(2);
    }
    queries.length = 0;
    expect(sorted(await ownership.listOwned(question('everything')))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await ownership.listOwned(question('nothing'))).toEqual([]);
    expect(await ownership.ownedAmong(question('nothing'), [1])).toEqual([]);
    expect(await ownership.ownedAmong(question(CREATOR), [])).toEqual([]);
    expect(await ownership.listOwned(question(SAME_COMPANY, { ...USER_3, companyId: null }))).toEqual([]);
    expect(queries).toHaveLength(2);
    const drafts = await prisma.document.findMany({
      where: { AND: [{ status: 'draft' }, ownership.where({ ownershipScope: () => question(CREATOR_OR_MANAGED) })] },
    });
    expect(sorted(drafts.map((row) => row.id))).toEqual([3, 5]);
    // Nested in the application's own AND / OR, 'nothing' still selects nothing and 'everything' everything.
    const nested = async (scope: OwnershipScope) =>
      sorted(
        (
          await prisma.document.findMany({
            where: { OR: [{ id: 1 }, { AND: [{ status: 'draft' }, ownership.where({ ownershipScope: () => question(scope) })] }] },
          })
        ).map((row) => row.id),
      );
    expect(await nested('nothing')).toEqual([1]);
    expect(await nested(SAME_COMPANY)).toEqual([1, 3]);
    expect(await nested('everything')).toEqual([1, 3, 4, 5, 6, 7]);
  }, 60_000);

  // Prisma binds at most 32,766 values in one statement: past it, it split listOwned into two SELECTs answering each
  // id twice, and refused the application's own page query (`take` is one more parameter).
  it('at 30,000 values (the cap) one statement answers each id once; one value past it is refused before any query', async () => {
    await db.fill('users', USERS);
    await db.fill('documents', DOCUMENTS);
    const context: OwnershipContext = { ...CONTEXT, userAttributes: { id: 'number', a: 'number[]', b: 'number[]', c: 'number[]' } };
    const lists: OwnershipCondition = { any: ['a', 'b', 'c'].map((user) => ({ attribute: 'creatorId', in: { user } })) };
    const withCreator: OwnershipCondition = { any: [...(lists as { any: OwnershipCondition[] }).any, CREATOR] };
    const user = { id: 3, roles: [], a: ONE_TO_10_000, b: ONE_TO_10_000, c: ONE_TO_10_000 };
    const atLimit = question(lists, user, context);
    queries.length = 0;
    expect(await ownership.listOwned(atLimit)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(queries).toHaveLength(1);
    queries.length = 0;
    expect(await ownership.ownedAmong(question(lists, { ...user, c: ONE_TO_9_999 }, context), [1])).toEqual([1]);
    expect(queries).toHaveLength(1);
    const page = await prisma.document.findMany({ where: ownership.filter(atLimit), orderBy: { id: 'asc' }, take: 1 });
    expect(page.map((row) => row.id)).toEqual([1]);
    queries.length = 0;
    await expect(ownership.listOwned(question(withCreator, user, context))).rejects.toEqual(valueCapRefusal(30_001));
    await expect(ownership.ownedAmong(atLimit, [1])).rejects.toEqual(valueCapRefusal(30_001));
    expect(() => ownership.filter(question(withCreator, user, context))).toThrow(valueCapRefusal(30_001));
    expect(queries).toEqual([]);
  }, 60_000);

  // Prisma drops an empty OR nested in AND: `{ all: [{ any: [] }] }` listed every document, as did `{ all: [] }`.
  it.each<[unknown, string]>([
    [{ all: [] }, `$.all ${NOT_A_LIST}`],
    [{ all: [CREATOR, { any: [] }] }, `$.all[1].any ${NOT_A_LIST}`],
    [{ attribute: 'creatorId' }, `$ ${NOT_A_COMPARISON}`],
  ])('a malformed rule built by hand (%j) is a typed error naming where, before any query', async (scope, where) => {
    await db.fill('users', USERS);
    await db.fill('documents', DOCUMENTS);
    queries.length = 0;
    const malformed = question(scope as OwnershipScope);
    const error = new PermissionsUsageError(`The ownership rule of resource "document" is malformed: ${where} ($ is the rule). ${MALFORMED_RULE_FIX}`);
    await expect(ownership.listOwned(malformed)).rejects.toEqual(error);
    await expect(ownership.ownedAmong(malformed, [1, 2])).rejects.toEqual(error);
    expect(() => ownership.filter(malformed)).toThrow(error);
    expect(queries).toEqual([]);
  });

  it(`filter, ownedAmong and listOwned select what ownershipPredicate holds for (${NUM_RUNS} random cases)`, async () => {
    let mixed = 0;
    await fc.assert(
      fc.asyncProperty(
        ruleArb,
        userRowsArb,
        documentRowsArb,
        ruleUserArb,
        fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 8 }),
        async (scope, users, documents, user, asked) => {
          await db.fill('users', users);
          await db.fill('documents', documents);
          const byId = new Map(users.map((row) => [row.id, row]));
          const expected = documents.filter(ownershipPredicate(scope, RULE_CONTEXT, user, (_resource, id) => byId.get(id as number))).map((row) => row.id);
          const q = question(scope, user, RULE_CONTEXT);
          const viaFilter = await prisma.document.findMany({ where: ownership.filter(q), select: { id: true } });
          expect(sorted(viaFilter.map((row) => row.id))).toEqual(expected);
          expect(sorted(await ownership.ownedAmong(q, asked))).toEqual(expected.filter((id) => asked.includes(id)));
          expect(sorted(await ownership.listOwned(q))).toEqual(expected);
          if (expected.length > 0 && expected.length < documents.length) mixed += 1;
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // About a third of the cases are mixed: fewer than a tenth would say the generators drifted.
    // About 30% of the generated cases own some documents and not all (4,000 sampled): 50 cases hold at most one
    // such about once in five million runs, five or fewer once in about 2,000 (the bar this test had).
    expect(mixed).toBeGreaterThan(1);
  }, 180_000);

  it.each<TenantIdType>(['number', 'string'])(
    `rules comparing the tenant's id (tenant id type %s): filter, ownedAmong and listOwned select what ownershipPredicate holds for (${NUM_RUNS} random cases)`,
    async (tenantIdType) => {
      const context = TENANT_RULE_CONTEXTS[tenantIdType];
      await fc.assert(
        fc.asyncProperty(
          tenantRuleArbs[tenantIdType],
          userRowsArb,
          documentRowsArb,
          ruleUserArb,
          tenantArb,
          fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 8 }),
          async (scope, users, documents, user, tenant, asked) => {
            await db.fill('users', users);
            await db.fill('documents', documents);
            const byId = new Map(users.map((row) => [row.id, row]));
            const expected = documents.filter(ownershipPredicate(scope, context, user, (_resource, id) => byId.get(id as number), tenant)).map((row) => row.id);
            const q: OwnershipQuestion = tenant === undefined ? { scope, context, user } : { scope, context, user, tenant };
            const viaFilter = await prisma.document.findMany({ where: ownership.filter(q), select: { id: true } });
            expect(sorted(viaFilter.map((row) => row.id))).toEqual(expected);
            expect(sorted(await ownership.ownedAmong(q, asked))).toEqual(expected.filter((id) => asked.includes(id)));
            expect(sorted(await ownership.listOwned(q))).toEqual(expected);
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    180_000,
  );
});
