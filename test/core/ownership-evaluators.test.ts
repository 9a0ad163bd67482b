/**
 * The three evaluators of an ownership rule — in memory, SQL text, kysely — on fixed rules: the exact SQL each
 * writes (quoted identifiers, `$n` placeholders, one EXISTS per relation, TRUE/FALSE for everything/nothing), the
 * in-memory answers with SQL's null semantics, and the typed errors for a user or record attribute that is
 * missing or of the wrong type, and for a malformed rule built by hand. The example's three rules answer exactly as
 * its hand-written ownership service.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type SqlBool, type Expression } from 'kysely';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { ownershipPredicate } from '../../runtime/core/ownership-rules/in-memory-ownership.js';
import { kyselyOwnershipCondition } from '../../runtime/kysely/kysely-ownership-condition.js';
import type { OwnershipContext } from '../../runtime/core/ownership-rules/ownership-context.js';
import { OWNERSHIP_LIMITS, type OwnershipCondition, type OwnershipScope } from '../../runtime/core/ownership-rules/ownership-rule.js';
import { MALFORMED_RULE_FIX } from '../../runtime/core/ownership-rules/ownership-scope-check.js';
import { sqlOwnershipCondition } from '../../runtime/core/ownership-rules/sql-ownership.js';
import { writeOwnershipRule } from '../../runtime/core/ownership-rules/ownership-rule-fold.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import { describeRule } from '../../runtime/core/ownership-rules/describe-rule.js';
import { closeDatabase } from '../../examples/documents/database.js';
import { DocumentOwnershipService } from '../fixtures/example-hooks/document-ownership.service.js';
import { exampleCompanies, exampleDocuments, exampleManagers, exampleUsers } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { seededTestDatabase } from '../example/test-databases.js';

const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([
    ['document', { creator: { resource: 'user', on: 'creatorId' } }],
    ['user', { manager: { resource: 'user', on: 'managerId' } }],
  ]),
  userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]', team: 'string', teams: 'string[]' },
};
const TABLES = { tables: { document: 'documents', user: 'users' } };

const CREATOR: OwnershipCondition = { attribute: 'creatorId', equals: { user: 'id' } };
const CREATOR_OR_MANAGED: OwnershipCondition = { any: [CREATOR, { attribute: 'creatorId', in: { user: 'managedUserIds' } }] };
const SAME_COMPANY: OwnershipCondition = { attribute: 'creator.companyId', equals: { user: 'companyId' } };

const USER_3 = { id: 3, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [2, 5], team: 'a' };

/** kysely that compiles PostgreSQL without a connection. */
const compiler = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function kyselySql(scope: OwnershipScope, user: object): { sql: string; parameters: readonly unknown[] } {
  const { sql, parameters } = compiler
    .selectFrom('documents')
    .select('documents.id')
    .where((eb): Expression<SqlBool> => kyselyOwnershipCondition(eb, scope, CONTEXT, user, TABLES))
    .compile();
  return { sql, parameters };
}

describe('SQL text of a rule', () => {
  it('writes each form with quoted identifiers and one parameter per value', () => {
    expect(sqlOwnershipCondition(CREATOR, CONTEXT, USER_3, TABLES)).toEqual({ text: '"documents"."creatorId" = $1', values: [3] });
    expect(sqlOwnershipCondition(CREATOR_OR_MANAGED, CONTEXT, USER_3, TABLES)).toEqual({
      text: '("documents"."creatorId" = $1 OR "documents"."creatorId" = ANY($2))',
      values: [3, [2, 5]],
    });
    expect(sqlOwnershipCondition(SAME_COMPANY, CONTEXT, USER_3, TABLES)).toEqual({
      text: 'EXISTS (SELECT 1 FROM "users" AS "ownership_1" WHERE "ownership_1"."id" = "documents"."creatorId" AND "ownership_1"."companyId" = $1)',
      values: [1],
    });
    expect(
      sqlOwnershipCondition(
        {
          all: [
            { attribute: 'status', in: ['draft', 'review'] },
            { attribute: 'creator.manager.team', equals: { user: 'team' } },
          ],
        },
        CONTEXT,
        USER_3,
        TABLES,
      ),
    ).toEqual({
      text:
        '("documents"."status" IN ($1, $2) AND EXISTS (SELECT 1 FROM "users" AS "ownership_1" WHERE "ownership_1"."id" = "documents"."creatorId" AND ' +
        'EXISTS (SELECT 1 FROM "users" AS "ownership_2" WHERE "ownership_2"."id" = "ownership_1"."managerId" AND "ownership_2"."team" = $3)))',
      values: ['draft', 'review', 'a'],
    });
  });

  it('answers TRUE for everything, FALSE for nothing and for an empty list of literals', () => {
    expect(sqlOwnershipCondition('everything', CONTEXT, USER_3, TABLES)).toEqual({ text: 'TRUE', values: [] });
    expect(sqlOwnershipCondition('nothing', CONTEXT, USER_3, TABLES)).toEqual({ text: 'FALSE', values: [] });
    expect(sqlOwnershipCondition({ attribute: 'status', in: [] }, CONTEXT, USER_3, TABLES)).toEqual({ text: 'FALSE', values: [] });
  });

  it("numbers placeholders after the application's own, maps columns, and doubles quotes inside identifiers", () => {
    expect(
      sqlOwnershipCondition(SAME_COMPANY, CONTEXT, USER_3, {
        tables: { document: 'my "docs"', user: 'people' },
        column: (resource, attribute) => `${resource}_${attribute.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`,
        firstPlaceholder: 4,
      }),
    ).toEqual({
      text:
        'EXISTS (SELECT 1 FROM "people" AS "ownership_1" WHERE "ownership_1"."user_id" = "my ""docs"""."document_creator_id" AND ' +
        '"ownership_1"."user_company_id" = $4)',
      values: [1],
    });
  });

  it('refuses a resource without a table, a table name with NUL, and a first placeholder that is not a positive integer', () => {
    expect(() => sqlOwnershipCondition(SAME_COMPANY, CONTEXT, USER_3, { tables: { document: 'documents' } })).toThrow(
      new PermissionsUsageError('No table is given for resource "user": add it to "tables".'),
    );
    expect(() => sqlOwnershipCondition(CREATOR, CONTEXT, USER_3, { tables: { document: 'docs\u0000' } })).toThrow(
      new PermissionsUsageError('SQL identifier "docs\\u0000" is empty or holds NUL; name tables and columns with other text.'),
    );
    expect(() => sqlOwnershipCondition(CREATOR, CONTEXT, USER_3, { ...TABLES, firstPlaceholder: 0 })).toThrow(
      new PermissionsUsageError('Option "firstPlaceholder" must be a positive integer, got 0.'),
    );
  });
});

describe('kysely expression of a rule', () => {
  it('builds each form with the query builder, every value a parameter', () => {
    expect(kyselySql(CREATOR_OR_MANAGED, USER_3)).toEqual({
      sql: 'select "documents"."id" from "documents" where ("documents"."creatorId" = $1 or "documents"."creatorId" = any($2))',
      parameters: [3, [2, 5]],
    });
    expect(kyselySql(SAME_COMPANY, USER_3)).toEqual({
      sql:
        'select "documents"."id" from "documents" where exists (select 1 as "found" from "users" as "ownership_1" where ' +
        '("ownership_1"."id" = "documents"."creatorId" and "ownership_1"."companyId" = $1))',
      parameters: [1],
    });
    expect(kyselySql({ attribute: 'status', in: ['draft', 'review'] }, USER_3)).toEqual({
      sql: 'select "documents"."id" from "documents" where "documents"."status" in ($1, $2)',
      parameters: ['draft', 'review'],
    });
  });

  it('keeps a null user value a parameter (never "is null"), and answers true, false and false for everything, nothing and []', () => {
    expect(kyselySql(CREATOR, { ...USER_3, id: null })).toEqual({
      sql: 'select "documents"."id" from "documents" where "documents"."creatorId" = $1',
      parameters: [null],
    });
    expect(kyselySql('everything', USER_3)).toEqual({ sql: 'select "documents"."id" from "documents" where true', parameters: [] });
    expect(kyselySql('nothing', USER_3)).toEqual({ sql: 'select "documents"."id" from "documents" where false', parameters: [] });
    expect(kyselySql({ attribute: 'status', in: [] }, USER_3)).toEqual({ sql: 'select "documents"."id" from "documents" where false', parameters: [] });
  });
});

describe('in-memory predicate of a rule', () => {
  const users = new Map([
    [1, { id: 1, companyId: 1, managerId: 3, team: 'a' }],
    [2, { id: 2, companyId: null, managerId: null, team: 'b' }],
  ]);
  const related = (resource: string, id: unknown) => (resource === 'user' ? users.get(id as number) : undefined);
  const documents = [
    { id: 10, creatorId: 1, status: 'draft' },
    { id: 20, creatorId: 2, status: 'review' },
    { id: 30, creatorId: null, status: 'approved' },
    { id: 40, creatorId: 99, status: 'draft' },
  ];
  const ids = (scope: OwnershipScope, user: object) => documents.filter(ownershipPredicate(scope, CONTEXT, user, related)).map((document) => document.id);

  it('selects with null equal to nothing, through relations, and everything or nothing', () => {
    expect(ids(CREATOR, { ...USER_3, id: 1 })).toEqual([10]);
    expect(ids(CREATOR, { ...USER_3, id: null })).toEqual([]);
    expect(ids(CREATOR_OR_MANAGED, { ...USER_3, id: 1, managedUserIds: [2, 99] })).toEqual([10, 20, 40]);
    expect(ids(CREATOR_OR_MANAGED, { ...USER_3, id: 5, managedUserIds: null })).toEqual([]);
    // User 2 has no company: its document is owned by nobody's company, not even by a user without one.
    expect(ids(SAME_COMPANY, { ...USER_3, companyId: 1 })).toEqual([10]);
    expect(ids(SAME_COMPANY, { ...USER_3, companyId: null })).toEqual([]);
    expect(ids({ attribute: 'creator.manager.team', equals: { user: 'team' } }, USER_3)).toEqual([]);
    expect(ids({ attribute: 'status', in: ['draft'] }, USER_3)).toEqual([10, 40]);
    expect(ids({ attribute: 'status', in: [] }, USER_3)).toEqual([]);
    expect(ids('everything', USER_3)).toEqual([10, 20, 30, 40]);
    expect(ids('nothing', USER_3)).toEqual([]);
  });

  it.each([
    [
      { id: 3, roles: [] },
      CREATOR_OR_MANAGED,
      'The user has no attribute "managedUserIds", which an ownership rule reads. Give the user object "managedUserIds" (null when it has no value).',
    ],
    [
      { ...USER_3, id: undefined },
      CREATOR,
      'The user has no attribute "id", which an ownership rule reads. Give the user object "id" (null when it has no value).',
    ],
    [{ ...USER_3, id: '3' }, CREATOR, 'User attribute "id" must be a finite number or null, got "3".'],
    [{ ...USER_3, id: Number.NaN }, CREATOR, 'User attribute "id" must be a finite number or null, got number.'],
    [{ ...USER_3, managedUserIds: 5 }, CREATOR_OR_MANAGED, 'User attribute "managedUserIds" must be a list of numbers or null, got number.'],
    [{ ...USER_3, managedUserIds: [1, null] }, CREATOR_OR_MANAGED, 'User attribute "managedUserIds" must hold only finite numbers, got null at entry 1.'],
    // A hole of a sparse list is an entry like any other (adapters read it as undefined, Prisma refused it untyped).
    // eslint-disable-next-line no-sparse-arrays
    [{ ...USER_3, managedUserIds: [1, , 3] }, CREATOR_OR_MANAGED, 'User attribute "managedUserIds" must hold only finite numbers, got undefined at entry 1.'],
    [
      { ...USER_3, managedUserIds: Array.from({ length: OWNERSHIP_LIMITS.maxUserListLength + 1 }, (_, i) => i) },
      CREATOR_OR_MANAGED,
      'User attribute "managedUserIds" holds 10001 values; an ownership rule reads at most 10000.',
    ],
    [
      { ...USER_3, unknown: 1 },
      { attribute: 'creatorId', equals: { user: 'unknown' } },
      'Ownership rule reads user attribute "unknown", which is not declared in "userAttributes".',
    ],
    // A database receives a lone surrogate as U+FFFD: "ops\uD800" would select the records of team "ops\uFFFD".
    [
      { ...USER_3, team: 'ops\uD800' },
      { attribute: 'status', equals: { user: 'team' } },
      'User attribute "team" holds a lone surrogate (U+D800): a database reads it as U+FFFD, another text. Give it whole characters.',
    ],
    [
      { ...USER_3, teams: ['ops \u{1F600}', 'ops\uDFFF'] },
      { attribute: 'status', in: { user: 'teams' } },
      'User attribute "teams", entry 1, holds a lone surrogate (U+DFFF): a database reads it as U+FFFD, another text. Give it whole characters.',
    ],
  ])('refuses a user whose attributes do not fit the rule, in every evaluator (%#)', (user, rule, message) => {
    const error = new PermissionsUsageError(message);
    expect(() => ownershipPredicate(rule, CONTEXT, user, related)).toThrow(error);
    expect(() => sqlOwnershipCondition(rule, CONTEXT, user, TABLES)).toThrow(error);
    expect(() => kyselySql(rule, user)).toThrow(error);
  });

  it('refuses a tenant with a lone surrogate in every evaluator; a whole pair is text like any other', () => {
    const rule: OwnershipCondition = { attribute: 'companyId', equals: { tenant: 'id' } };
    const context: OwnershipContext = { ...CONTEXT, tenantIdType: 'string' };
    const error = new PermissionsUsageError(
      'The tenant of an ownership question holds a lone surrogate (U+D83D): a database reads it as U+FFFD, another text. Give it whole characters.',
    );
    expect(() => ownershipPredicate(rule, context, USER_3, related, 'acme\uD83D')).toThrow(error);
    expect(() => sqlOwnershipCondition(rule, context, USER_3, TABLES, 'acme\uD83D')).toThrow(error);
    expect(sqlOwnershipCondition(rule, context, USER_3, TABLES, 'acme \u{1F600}')).toEqual({
      text: '"documents"."companyId" = $1',
      values: ['acme \u{1F600}'],
    });
  });

  it(`reads a list user attribute of ${OWNERSHIP_LIMITS.maxUserListLength} values`, () => {
    const managedUserIds = Array.from({ length: OWNERSHIP_LIMITS.maxUserListLength }, (_, i) => i + 2);
    expect(ids(CREATOR_OR_MANAGED, { ...USER_3, managedUserIds })).toEqual([20, 40]);
    expect(sqlOwnershipCondition(CREATOR_OR_MANAGED, CONTEXT, { ...USER_3, managedUserIds }, TABLES).values).toEqual([3, managedUserIds]);
  });

  it('refuses a record without the attribute a rule reads, and reads no inherited property', () => {
    const test = ownershipPredicate(SAME_COMPANY, CONTEXT, USER_3, () => Object.create({ companyId: 1 }) as object);
    expect(() => test({ id: 1 })).toThrow(
      new PermissionsUsageError(
        'A document record has no attribute "creatorId", which an ownership rule reads. Load it with the record (null when it has no value).',
      ),
    );
    expect(() => test({ id: 1, creatorId: 1 })).toThrow(
      new PermissionsUsageError(
        'A user record has no attribute "companyId", which an ownership rule reads. Load it with the record (null when it has no value).',
      ),
    );
  });
});

describe('a malformed rule built by hand', () => {
  /** Every evaluator, and the writer every other adapter (Drizzle, Prisma) goes through. */
  const evaluators: Record<string, (scope: OwnershipScope) => unknown> = {
    memory: (scope) => ownershipPredicate(scope, CONTEXT, USER_3, () => undefined),
    'SQL text': (scope) => sqlOwnershipCondition(scope, CONTEXT, USER_3, TABLES),
    kysely: (scope) => kyselySql(scope, USER_3),
    writeOwnershipRule: (scope) =>
      writeOwnershipRule(scope, CONTEXT, USER_3, {
        everything: () => 'true',
        nothing: () => 'false',
        all: (parts) => parts.join(' and '),
        any: (parts) => parts.join(' or '),
        equals: (path) => path.attribute,
        inLiterals: (path) => path.attribute,
        inUserList: (path) => path.attribute,
      }),
  };
  const NOT_A_LIST = 'is not a list of conditions';
  const NOT_A_COMPARISON = 'is not a comparison of an attribute with a user attribute, the tenant id or literals';

  // An empty "all" selected every record in memory, kysely and Prisma, none in Drizzle, and was a syntax error in SQL text.
  it.each<[string, unknown, string]>([
    ['an empty "all"', { all: [] }, `$.all ${NOT_A_LIST}`],
    ['an empty "any" inside an "all"', { all: [CREATOR, { any: [] }] }, `$.all[1].any ${NOT_A_LIST}`],
    ['an empty "all" among the rules of an "any"', { any: [CREATOR, { all: [] }] }, `$.any[1].all ${NOT_A_LIST}`],
    ['a node with neither "equals" nor "in"', { attribute: 'creatorId' }, `$ ${NOT_A_COMPARISON}`],
  ])('%s is the same typed error in every evaluator, naming where it is', async (_name, scope, where) => {
    const error = new PermissionsUsageError(`The ownership rule of resource "document" is malformed: ${where} ($ is the rule). ${MALFORMED_RULE_FIX}`);
    for (const evaluate of Object.values(evaluators)) expect(() => evaluate(scope as OwnershipScope)).toThrow(error);
    // Asked twice: a malformed rule is never remembered as checked.
    expect(() => evaluators['memory']?.(scope as OwnershipScope)).toThrow(error);
    const memory = memoryOwnership({ document: [{ id: 1, creatorId: 3, status: 'draft' }] });
    // Whether it throws or rejects, nothing is listed.
    await expect(Promise.resolve().then(() => memory.listOwned({ scope: scope as OwnershipScope, context: CONTEXT, user: USER_3 }))).rejects.toThrow(error);
  });

  it("takes an 'any' of rules each within the limits of one rule, as the engine asks for a user of several roles, though together they pass them", () => {
    // 8 levels deep, 9 nodes: within one rule's limits; ten of them are 90 nodes and 9 levels.
    const deep = Array.from({ length: OWNERSHIP_LIMITS.maxDepth }).reduce<OwnershipCondition>((inner) => ({ all: [inner] }), CREATOR);
    const rules = Array.from({ length: 10 }, () => deep);
    const users = new Map([[1, { id: 1, companyId: 1 }]]);
    const owns = ownershipPredicate({ any: rules }, CONTEXT, USER_3, (_resource, id) => users.get(id as number));
    expect([{ creatorId: 3 }, { creatorId: 1 }].map(owns)).toEqual([true, false]);
    expect(sqlOwnershipCondition({ any: rules }, CONTEXT, USER_3, TABLES).values).toEqual(Array.from({ length: 10 }, () => 3));
  });
});

describe("the example's three rules", () => {
  let db: Kysely<ExampleDatabase> | undefined;
  beforeAll(async () => {
    db = await seededTestDatabase();
  }, 60_000);
  afterAll(async () => {
    if (db !== undefined) await closeDatabase(db);
  }, 30_000);

  it('own exactly the documents the hand-written ownership service says, for every user and document', async () => {
    const service = new DocumentOwnershipService(db as Kysely<ExampleDatabase>);
    const companyOf = (id: number) => exampleCompanies.find((membership) => membership.userId === id)?.companyId ?? null;
    const userRecords = new Map(exampleUsers.map((user) => [user.id, { id: user.id, companyId: companyOf(user.id) }]));
    const related = (resource: string, id: unknown) => (resource === 'user' ? userRecords.get(id as number) : undefined);
    // One company per user at most, so a to-one "companyId" says what the memberships say.
    expect(new Set(exampleCompanies.map((membership) => membership.userId)).size).toBe(exampleCompanies.length);
    const differences: string[] = [];
    const owned = [0, 0, 0];
    for (const { id, roles } of [...exampleUsers, { id: 0, roles: ['ANONYMOUS'] as const }]) {
      const user = { id, roles, companyId: companyOf(id), managedUserIds: exampleManagers.filter((row) => row.managerId === id).map((row) => row.managedId) };
      const rules = [
        [CREATOR, (resourceId: number) => service.isCreator({ user, resourceId })],
        [CREATOR_OR_MANAGED, (resourceId: number) => service.isCreatorOrManagerOfCreator({ user, resourceId })],
        [SAME_COMPANY, (resourceId: number) => service.isCreatedInSameCompany({ user, resourceId })],
      ] as const;
      for (const [index, [rule, handWritten]] of rules.entries()) {
        const owns = ownershipPredicate(rule, CONTEXT, user, related);
        for (const document of exampleDocuments) {
          const expected = await handWritten(document.id);
          if (expected) owned[index] = (owned[index] as number) + 1;
          if (owns(document) !== expected) differences.push(`user ${id}, document ${document.id}, ${JSON.stringify(rule)}: hand-written ${expected}`);
        }
      }
    }
    expect(differences).toEqual([]);
    // Creators: 8 users × 3 documents; plus 6 managed users' 18 documents; companies: 4 users × 12 documents and 4 × 9
    // (user 9 of company 2, who created none, included).
    expect(owned).toEqual([24, 24 + 18, 48 + 36]);
  }, 60_000);
});

describe('a rule in words', () => {
  it('says each condition as written, nesting in parentheses, literals quoted as JSON', () => {
    expect(describeRule(CREATOR_OR_MANAGED)).toBe("creatorId is the user's id or creatorId is one of the user's managedUserIds");
    expect(describeRule(SAME_COMPANY)).toBe("creator.companyId is the user's companyId");
    expect(
      describeRule({
        all: [{ attribute: 'status', in: ['draft', 'a "quoted" | piped', 3, true] }, { any: [CREATOR, SAME_COMPANY] }, { attribute: 'x', in: [] }],
      }),
    ).toBe(
      'status is one of "draft", "a \\"quoted\\" | piped", 3, true and ' +
        "(creatorId is the user's id or creator.companyId is the user's companyId) and x is one of nothing",
    );
  });
});
