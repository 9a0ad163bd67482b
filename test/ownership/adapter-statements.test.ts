/**
 * The ownership adapters (SQL text, kysely, Drizzle) on a database: the exact statement each runs for the example's
 * three rules (creator, creatorOrManaged, sameCompany) — one statement per `ownedAmong` and per `listOwned`, none
 * for no ids or for 'nothing' — and the records each selects; 'everything' and 'nothing'; `where(permit)` ANDed
 * with the application's own condition; and the typed errors for ids past the limit, ids of the wrong type, rows
 * of the wrong shape and names the adapter cannot map. On PGlite, and on the PostgreSQL server when
 * TEST_DATABASE_URL names one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzleOwnership } from '../../runtime/drizzle/index.js';
import { kyselyOwnership, type KyselyOwnershipFilter } from '../../runtime/kysely/index.js';
import {
  OWNERSHIP_SOURCE_LIMITS,
  sqlOwnership,
  type OwnershipCondition,
  type OwnershipContext,
  type OwnershipQuestion,
  type OwnershipRuleSource,
  type OwnershipScope,
} from '../../runtime/ownership/index.js';
import { MALFORMED_RULE_FIX } from '../../runtime/core/ownership-rules/ownership-scope-check.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { ADAPTER_TARGETS, documentsTable, usersTable, type AdapterDatabase } from './adapter-databases.js';

const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]' },
};
const CREATOR: OwnershipCondition = { attribute: 'creatorId', equals: { user: 'id' } };
const CREATOR_OR_MANAGED: OwnershipCondition = { any: [CREATOR, { attribute: 'creatorId', in: { user: 'managedUserIds' } }] };
const SAME_COMPANY: OwnershipCondition = { attribute: 'creator.companyId', equals: { user: 'companyId' } };
const USER_3 = { id: 3, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [2, 5] };

const USERS = [
  { id: 1, companyId: 1 },
  { id: 2, companyId: 1, managerId: 3 },
  { id: 3, companyId: 1 },
  { id: 4, companyId: 2 },
  { id: 5, companyId: null, managerId: 3 },
];
/** Document 6 has no creator, document 7 a creator that is no user. */
const DOCUMENTS = [
  { id: 1, creatorId: 1, status: 'draft' },
  { id: 2, creatorId: 2, status: 'review' },
  { id: 3, creatorId: 3, status: 'draft' },
  { id: 4, creatorId: 4, status: 'draft' },
  { id: 5, creatorId: 5, status: 'draft' },
  { id: 6, creatorId: null, status: 'draft' },
  { id: 7, creatorId: 9, status: 'draft' },
];

/** What a malformed rule built by hand is told: an empty "all" / "any", and a node none of the forms. */
const NOT_A_LIST = 'is not a list of conditions';
const NOT_A_COMPARISON = 'is not a comparison of an attribute with a user attribute, the tenant id or literals';

const question = (scope: OwnershipScope, user: object = USER_3): OwnershipQuestion => ({ scope, context: CONTEXT, user });
const TABLES = { document: 'documents', user: 'users' };
const sorted = (ids: readonly unknown[]) => [...ids].sort((a, b) => Number(a) - Number(b));

type AdapterName = 'sql' | 'kysely' | 'drizzle';
function sourcesOf(db: AdapterDatabase): Record<AdapterName, OwnershipRuleSource> {
  return {
    sql: sqlOwnership({ tables: TABLES, query: db.query }),
    kysely: kyselyOwnership(db.kysely, { tables: TABLES }),
    drizzle: drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable } }),
  };
}

/** The statements each adapter runs for ownedAmong(ids [1, 2]) then listOwned, per rule. */
const STATEMENTS: Record<AdapterName, Record<'creator' | 'creatorOrManaged' | 'sameCompany', readonly [string, string]>> = {
  sql: {
    creator: [
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE "documents"."id" = ANY($1) AND ("documents"."creatorId" = $2)',
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE "documents"."creatorId" = $1',
    ],
    creatorOrManaged: [
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE "documents"."id" = ANY($1) AND ' +
        '(("documents"."creatorId" = $2 OR "documents"."creatorId" = ANY($3)))',
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE ("documents"."creatorId" = $1 OR "documents"."creatorId" = ANY($2))',
    ],
    sameCompany: [
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE "documents"."id" = ANY($1) AND (EXISTS (SELECT 1 FROM ' +
        '"users" AS "ownership_1" WHERE "ownership_1"."id" = "documents"."creatorId" AND "ownership_1"."companyId" = ' +
        '$2))',
      'SELECT "documents"."id" AS "id" FROM "documents" WHERE EXISTS (SELECT 1 FROM "users" AS "ownership_1" WHERE ' +
        '"ownership_1"."id" = "documents"."creatorId" AND "ownership_1"."companyId" = $1)',
    ],
  },
  kysely: {
    creator: [
      'select "documents"."id" as "id" from "documents" where ("documents"."id" = any($1) and "documents"."creatorId" = $2)',
      'select "documents"."id" as "id" from "documents" where "documents"."creatorId" = $1',
    ],
    creatorOrManaged: [
      'select "documents"."id" as "id" from "documents" where ("documents"."id" = any($1) and ' +
        '("documents"."creatorId" = $2 or "documents"."creatorId" = any($3)))',
      'select "documents"."id" as "id" from "documents" where ("documents"."creatorId" = $1 or "documents"."creatorId" = any($2))',
    ],
    sameCompany: [
      'select "documents"."id" as "id" from "documents" where ("documents"."id" = any($1) and exists (select 1 as ' +
        '"found" from "users" as "ownership_1" where ("ownership_1"."id" = "documents"."creatorId" and ' +
        '"ownership_1"."companyId" = $2)))',
      'select "documents"."id" as "id" from "documents" where exists (select 1 as "found" from "users" as ' +
        '"ownership_1" where ("ownership_1"."id" = "documents"."creatorId" and "ownership_1"."companyId" = $1))',
    ],
  },
  drizzle: {
    creator: [
      'select "id" from "documents" where ("documents"."id" = ANY($1) and "documents"."creatorId" = $2)',
      'select "id" from "documents" where "documents"."creatorId" = $1',
    ],
    creatorOrManaged: [
      'select "id" from "documents" where ("documents"."id" = ANY($1) and ("documents"."creatorId" = $2 or "documents"."creatorId" = ANY($3)))',
      'select "id" from "documents" where ("documents"."creatorId" = $1 or "documents"."creatorId" = ANY($2))',
    ],
    sameCompany: [
      'select "id" from "documents" where ("documents"."id" = ANY($1) and exists (select 1 from "users" ' +
        '"ownership_1" where ("ownership_1"."id" = "documents"."creatorId" and "ownership_1"."companyId" = $2)))',
      'select "id" from "documents" where exists (select 1 from "users" "ownership_1" where ("ownership_1"."id" = ' +
        '"documents"."creatorId" and "ownership_1"."companyId" = $1))',
    ],
  },
};

const RULES = [
  { name: 'creator', rule: CREATOR, values: [[3], [3]], owned: [3], ownedOf12: [] },
  {
    name: 'creatorOrManaged',
    rule: CREATOR_OR_MANAGED,
    values: [
      [3, [2, 5]],
      [3, [2, 5]],
    ],
    owned: [2, 3, 5],
    ownedOf12: [2],
  },
  { name: 'sameCompany', rule: SAME_COMPANY, values: [[1], [1]], owned: [1, 2, 3], ownedOf12: [1, 2] },
] as const;

/** The documents table as an application may name its properties: the attribute `creatorId` is the property `author`. */
const renamedDocuments = pgTable('documents', { id: integer('id').primaryKey(), author: integer('creatorId'), status: text('status') });

describe.each(ADAPTER_TARGETS)('ownership adapters on $name', (target) => {
  let db: AdapterDatabase;
  let sources: Record<AdapterName, OwnershipRuleSource>;

  beforeAll(async () => {
    db = await target.open();
    await db.fill('users', USERS);
    await db.fill('documents', DOCUMENTS);
    sources = sourcesOf(db);
  }, 60_000);
  afterAll(async () => {
    await db.close();
  }, 30_000);

  describe.each(['sql', 'kysely', 'drizzle'] as const)('%s', (adapter) => {
    it.each(RULES)('$name: one statement for ownedAmong and one for listOwned, exactly these, selecting the owned documents', async (row) => {
      db.statements.length = 0;
      expect(sorted(await sources[adapter].ownedAmong(question(row.rule), [1, 2]))).toEqual(row.ownedOf12);
      expect(sorted(await sources[adapter].listOwned(question(row.rule)))).toEqual(row.owned);
      const [among, list] = STATEMENTS[adapter][row.name];
      expect(db.statements).toEqual([
        { text: among, values: [[1, 2], ...row.values[0]] },
        { text: list, values: row.values[1] },
      ]);
    });

    it("'everything' selects every document and 'nothing' none, without a statement", async () => {
      db.statements.length = 0;
      expect(sorted(await sources[adapter].listOwned(question('everything')))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(sorted(await sources[adapter].ownedAmong(question('everything'), [2, 7, 8]))).toEqual([2, 7]);
      expect(db.statements).toHaveLength(2);
      db.statements.length = 0;
      expect(await sources[adapter].listOwned(question('nothing'))).toEqual([]);
      expect(await sources[adapter].ownedAmong(question('nothing'), [1, 2])).toEqual([]);
      expect(await sources[adapter].ownedAmong(question(CREATOR), [])).toEqual([]);
      expect(db.statements).toEqual([]);
    });

    it('a null user value selects nothing (null equals nothing), an empty list likewise', async () => {
      const noCompany = { ...USER_3, companyId: null, managedUserIds: [] };
      expect(await sources[adapter].listOwned(question(SAME_COMPANY, noCompany))).toEqual([]);
      expect(sorted(await sources[adapter].listOwned(question(CREATOR_OR_MANAGED, noCompany)))).toEqual([3]);
      expect(await sources[adapter].listOwned(question(CREATOR, { ...USER_3, id: null }))).toEqual([]);
    });

    it(`asks about at most ${OWNERSHIP_SOURCE_LIMITS.maxIds} ids in one statement, and refuses more or ids of another type before any statement`, async () => {
      const ids = Array.from({ length: OWNERSHIP_SOURCE_LIMITS.maxIds }, (_, i) => i + 1);
      db.statements.length = 0;
      expect(sorted(await sources[adapter].ownedAmong(question(CREATOR_OR_MANAGED), ids))).toEqual([2, 3, 5]);
      expect(db.statements).toHaveLength(1);
      db.statements.length = 0;
      await expect(sources[adapter].ownedAmong(question(CREATOR), [...ids, 10_001])).rejects.toEqual(
        new PermissionsUsageError('Ownership of 10001 ids was asked in one call; at most 10000 are checked at once. Ask in several calls.'),
      );
      await expect(sources[adapter].ownedAmong(question(CREATOR), [1, { id: 2 }])).rejects.toEqual(
        new PermissionsUsageError('Record id at index 1 must be a string, a finite number or a bigint, got object.'),
      );
      await expect(sources[adapter].ownedAmong(question(CREATOR), [Number.NaN])).rejects.toEqual(
        new PermissionsUsageError('Record id at index 0 must be a string, a finite number or a bigint, got NaN.'),
      );
      // eslint-disable-next-line no-sparse-arrays
      await expect(sources[adapter].ownedAmong(question(CREATOR), [1, , 3])).rejects.toEqual(
        new PermissionsUsageError('Record id at index 1 must be a string, a finite number or a bigint, got undefined.'),
      );
      expect(db.statements).toEqual([]);
    });

    it('a user attribute the rule reads but the user lacks is a typed error, before any statement', async () => {
      db.statements.length = 0;
      const error = new PermissionsUsageError(
        'The user has no attribute "companyId", which an ownership rule reads. Give the user object "companyId" (null when it has no value).',
      );
      await expect(sources[adapter].listOwned(question(SAME_COMPANY, { id: 3 }))).rejects.toEqual(error);
      // kysely's filter is a function of the query's builder: the rule is read when the query applies it.
      const filterOf = (scope: OwnershipQuestion) =>
        adapter === 'kysely'
          ? db.kysely
              .selectFrom('documents')
              .where(sources.kysely.filter(scope) as KyselyOwnershipFilter)
              .compile()
          : sources[adapter].filter(scope);
      expect(() => filterOf(question(SAME_COMPANY, { id: 3 }))).toThrow(error);
      expect(db.statements).toEqual([]);
    });

    // An empty "all" selected every document with kysely, none with Drizzle, and was a syntax error in SQL text.
    it.each<[unknown, string]>([
      [{ all: [] }, `$.all ${NOT_A_LIST}`],
      [{ all: [CREATOR, { any: [] }] }, `$.all[1].any ${NOT_A_LIST}`],
      [{ attribute: 'creatorId' }, `$ ${NOT_A_COMPARISON}`],
    ])('a malformed rule built by hand (%j) is a typed error naming where, before any statement', async (scope, where) => {
      db.statements.length = 0;
      const malformed = question(scope as OwnershipScope);
      const error = new PermissionsUsageError(`The ownership rule of resource "document" is malformed: ${where} ($ is the rule). ${MALFORMED_RULE_FIX}`);
      await expect(Promise.resolve().then(() => sources[adapter].listOwned(malformed))).rejects.toEqual(error);
      await expect(Promise.resolve().then(() => sources[adapter].ownedAmong(malformed, [1, 2]))).rejects.toEqual(error);
      expect(db.statements).toEqual([]);
    });
  });

  const permit = { ownershipScope: () => question(CREATOR_OR_MANAGED) };

  it("where(permit) ANDs with the application's own condition: SQL text after the application's parameters", async () => {
    const ownership = sqlOwnership({ tables: TABLES, query: db.query });
    const owned = ownership.where(permit, 2);
    expect(owned).toEqual({ text: '("documents"."creatorId" = $2 OR "documents"."creatorId" = ANY($3))', values: [3, [2, 5]] });
    const rows = await db.query(`SELECT "id" FROM "documents" WHERE "status" = $1 AND ${owned.text} ORDER BY "id"`, ['draft', ...owned.values]);
    expect(rows).toEqual([{ id: 3 }, { id: 5 }]);
  });

  it("where(permit) ANDs with the application's own condition: kysely", async () => {
    const ownership = kyselyOwnership(db.kysely, { tables: TABLES });
    const query = db.kysely.selectFrom('documents').select('documents.id').where('status', '=', 'draft').where(ownership.where(permit)).orderBy('id');
    expect(query.compile().sql).toBe(
      'select "documents"."id" from "documents" where "status" = $1 and ("documents"."creatorId" = $2 or "documents"."creatorId" = any($3)) order by "id"',
    );
    expect(await query.execute()).toEqual([{ id: 3 }, { id: 5 }]);
  });

  it("where(permit) ANDs with the application's own condition: Drizzle", async () => {
    const ownership = drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable } });
    const query = db.drizzle
      .select({ id: documentsTable.id })
      .from(documentsTable)
      .where(and(eq(documentsTable.status, 'draft'), ownership.where(permit)))
      .orderBy(documentsTable.id);
    expect(query.toSQL()).toEqual({
      sql:
        'select "id" from "documents" where ("documents"."status" = $1 and ("documents"."creatorId" = $2 or ' +
        '"documents"."creatorId" = ANY($3))) order by "documents"."id"',
      params: ['draft', 3, [2, 5]],
    });
    expect(await query).toEqual([{ id: 3 }, { id: 5 }]);
  });

  it('Drizzle reads an attribute from the property "column" maps it to', async () => {
    const ownership = drizzleOwnership(db.drizzle, {
      tables: { document: renamedDocuments, user: usersTable },
      column: (resource, attribute) => (resource === 'document' && attribute === 'creatorId' ? 'author' : attribute),
    });
    expect(sorted(await ownership.listOwned(question(CREATOR_OR_MANAGED)))).toEqual([2, 3, 5]);
    expect(sorted(await ownership.listOwned(question(SAME_COMPANY)))).toEqual([1, 2, 3]);
  });

  it('a query function that resolves to something else than rows is a typed error naming what it got', async () => {
    const wrong = sqlOwnership({ tables: TABLES, query: async (text, values) => ({ rows: await db.query(text, values) }) as unknown as readonly object[] });
    await expect(wrong.listOwned(question(CREATOR))).rejects.toEqual(
      new PermissionsUsageError('The query must resolve to the statement\'s rows (an array of objects with "id"), got object.'),
    );
    const noId = sqlOwnership({ tables: TABLES, query: () => Promise.resolve([{ identifier: 1 }]) });
    await expect(noId.listOwned(question(CREATOR))).rejects.toEqual(new PermissionsUsageError('Row 0 of the statement\'s rows holds no "id", got object.'));
  });

  it('a Drizzle "table" that is no Drizzle table (null, a plain object, a table name as kysely takes it) is a typed error naming it', () => {
    for (const [table, got] of [
      [null, 'null'],
      [{}, 'object'],
      ['documents', 'string'],
    ] as const) {
      const tables = { document: documentsTable, user: table } as unknown as { document: typeof documentsTable };
      expect(() => drizzleOwnership(db.drizzle, { tables }).filter(question(SAME_COMPANY))).toThrow(
        new PermissionsUsageError(`The table of resource "user" (in "tables") must be a Drizzle table made with pgTable(), got ${got}.`),
      );
    }
  });

  it('a resource without a table, or an attribute without a column, is a typed error naming it', () => {
    const error = new PermissionsUsageError('No table is given for resource "user": add it to "tables".');
    expect(() => sqlOwnership({ tables: { document: 'documents' }, query: db.query }).filter(question(SAME_COMPANY))).toThrow(error);
    expect(() =>
      db.kysely
        .selectFrom('documents')
        .where(kyselyOwnership(db.kysely, { tables: { document: 'documents' } }).filter(question(SAME_COMPANY)))
        .compile(),
    ).toThrow(error);
    expect(() => drizzleOwnership(db.drizzle, { tables: { document: documentsTable } }).filter(question(SAME_COMPANY))).toThrow(error);
    expect(() =>
      drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable }, column: (_resource, attribute) => `${attribute}_` }).filter(
        question(CREATOR),
      ),
    ).toThrow(
      new PermissionsUsageError(
        'The table of resource "document" has no column "creatorId_" for attribute "creatorId": add it to the table, ' +
          'or map the attribute to its property with "column".',
      ),
    );
  });

  it('a table or column name that is no string is a typed error naming where it came from (JavaScript callers)', () => {
    const withTables = (tables: Record<string, unknown>) => sqlOwnership({ tables: tables as Record<string, string>, query: db.query });
    expect(() => withTables({ document: 5, user: 'users' }).filter(question(CREATOR))).toThrow(
      new PermissionsUsageError('The SQL name of the table of resource "document" (in "tables") must be a string, got number.'),
    );
    expect(() => withTables({ document: 'documents', user: null }).filter(question(SAME_COMPANY))).toThrow(
      new PermissionsUsageError('The SQL name of the table of resource "user" (in "tables") must be a string, got null.'),
    );
    expect(() => sqlOwnership({ tables: TABLES, query: db.query, column: () => 5 as unknown as string }).filter(question(CREATOR))).toThrow(
      new PermissionsUsageError('The SQL name of the column of attribute "creatorId" of resource "document" must be a string, got number.'),
    );
  });
});
