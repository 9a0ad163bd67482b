/**
 * The kysely source builds each rule's condition once and only puts each query's user values into it: the nodes
 * that do not hold a value are the same objects from one query to the next, every value is still a parameter of the
 * statement (whatever the user holds), plugins still apply to the reused nodes, `where(permit)` is an expression
 * (kysely makes no builder for it), the tables are read when the source is made, and at most
 * KYSELY_OWNERSHIP_LIMITS.maxTemplates templates are kept. Compiled only: no database is needed to read a statement.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type AndNode,
  type ParensNode,
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type BinaryOperationNode,
  type Expression,
  type KyselyPlugin,
  type OperationNode,
  type SqlBool,
  type WhereNode,
} from 'kysely';
import { KYSELY_OWNERSHIP_LIMITS, kyselyOwnership } from '../../runtime/kysely/index.js';
import type { OwnershipCondition, OwnershipContext, OwnershipQuestion, OwnershipScope } from '../../runtime/ownership/index.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';

type Tables = Record<string, Record<string, unknown>>;

/** A kysely instance that only compiles (its driver runs nothing). */
const compilingDb = (plugins: KyselyPlugin[] = []): Kysely<Tables> =>
  new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins,
  });

const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]' },
};
const CREATOR: OwnershipCondition = { attribute: 'creatorId', equals: { user: 'id' } };
const MANAGED: OwnershipCondition = { attribute: 'creatorId', in: { user: 'managedUserIds' } };
const SAME_COMPANY: OwnershipCondition = { attribute: 'creator.companyId', equals: { user: 'companyId' } };
const TABLES = { document: 'documents', user: 'users' };

/** The same rules over string attributes, for values that look like SQL. */
const STRING_CONTEXT: OwnershipContext = { ...CONTEXT, userAttributes: { id: 'string', managedUserIds: 'string[]' } };

const question = (scope: OwnershipScope, user: object, context: OwnershipContext): OwnershipQuestion => ({ scope, context, user });
const permitOf = (scope: OwnershipScope, user: object, context = CONTEXT) => ({ ownershipScope: () => question(scope, user, context) });
const page = (db: Kysely<Tables>, condition: Expression<SqlBool>) =>
  db.selectFrom('documents').select('documents.id').where(condition).orderBy('documents.id').limit(50).compile();
/** The node of a condition as the query holds it. */
const nodeOf = (db: Kysely<Tables>, condition: Expression<SqlBool>): OperationNode =>
  (db.selectFrom('documents').selectAll().where(condition).toOperationNode().where as WhereNode).where;

describe('kyselyOwnership builds each rule once', () => {
  it('two users of one rule: the same column nodes, each user its own values, the same statement text', () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    const first = nodeOf(db, ownership.where(permitOf(CREATOR, { id: 3 }))) as BinaryOperationNode;
    const second = nodeOf(db, ownership.where(permitOf(CREATOR, { id: 8 }))) as BinaryOperationNode;
    expect(second).not.toBe(first);
    expect(second.leftOperand).toBe(first.leftOperand);
    expect(second.operator).toBe(first.operator);
    expect(first.rightOperand).toEqual({ kind: 'ValueNode', value: 3 });
    expect(second.rightOperand).toEqual({ kind: 'ValueNode', value: 8 });
    const text = 'select "documents"."id" from "documents" where "documents"."creatorId" = $1 order by "documents"."id" limit $2';
    expect(page(db, ownership.where(permitOf(CREATOR, { id: 3 })))).toMatchObject({ sql: text, parameters: [3, 50] });
    expect(page(db, ownership.where(permitOf(CREATOR, { id: 8 })))).toMatchObject({ sql: text, parameters: [8, 50] });
  });

  it('two tenants of one rule: one template, each query its own tenant id as a parameter, never the one before', () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    const context: OwnershipContext = { ...CONTEXT, tenantIdType: 'number' };
    const rule: OwnershipCondition = { all: [{ attribute: 'companyId', equals: { tenant: 'id' } }, CREATOR] };
    const inTenant = (tenant: string | undefined) => ({
      ownershipScope: (): OwnershipQuestion =>
        tenant === undefined ? { scope: rule, context, user: { id: 3 } } : { scope: rule, context, user: { id: 3 }, tenant },
    });
    const tenantComparison = (node: OperationNode) => ((node as ParensNode).node as AndNode).left as BinaryOperationNode;
    const first = tenantComparison(nodeOf(db, ownership.where(inTenant('1'))));
    const second = tenantComparison(nodeOf(db, ownership.where(inTenant('2'))));
    // The same column node: the second query reused the template the first built, and only its value differs.
    expect(second.leftOperand).toBe(first.leftOperand);
    expect(first.rightOperand).toEqual({ kind: 'ValueNode', value: 1 });
    expect(second.rightOperand).toEqual({ kind: 'ValueNode', value: 2 });
    const text =
      'select "documents"."id" from "documents" where ("documents"."companyId" = $1 and "documents"."creatorId" = $2) order by "documents"."id" limit $3';
    expect(page(db, ownership.where(inTenant('1')))).toMatchObject({ sql: text, parameters: [1, 3, 50] });
    expect(page(db, ownership.where(inTenant('2')))).toMatchObject({ sql: text, parameters: [2, 3, 50] });
    // No tenant after a tenant: null (nothing), not the id of the question before.
    expect(page(db, ownership.where(inTenant(undefined)))).toMatchObject({ sql: text, parameters: [null, 3, 50] });
    expect(page(db, ownership.where(inTenant('1')))).toMatchObject({ sql: text, parameters: [1, 3, 50] });
    expect(page(db, ownership.where(inTenant('01')))).toMatchObject({ sql: text, parameters: [null, 3, 50] });
  });

  it("an any of rules made anew for each permit (as the engine makes one for a user's roles) reuses the template of its rules", () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    const user = { id: 3, companyId: 1, managedUserIds: [2, 5] };
    const first = nodeOf(db, ownership.where(permitOf({ any: [CREATOR, SAME_COMPANY] }, user)));
    const second = nodeOf(db, ownership.where(permitOf({ any: [CREATOR, SAME_COMPANY] }, { ...user, id: 4, companyId: 2 })));
    // The exists sub-query holds a value, so it is copied; its from clause holds none, so it is shared.
    const existsFrom = (node: OperationNode) => (node as unknown as { node: { right: { operand: { from: unknown } } } }).node.right.operand.from;
    expect(existsFrom(second)).toBe(existsFrom(first));
    expect(page(db, ownership.where(permitOf({ any: [CREATOR, SAME_COMPANY] }, { ...user, id: 4, companyId: 2 })))).toMatchObject({
      sql:
        'select "documents"."id" from "documents" where ("documents"."creatorId" = $1 or exists (select 1 as "found" from "users" as "ownership_1" ' +
        'where ("ownership_1"."id" = "documents"."creatorId" and "ownership_1"."companyId" = $2))) order by "documents"."id" limit $3',
      parameters: [4, 2, 50],
    });
    // An any of one rule is not the rule itself: its own template, the same text.
    expect(page(db, ownership.where(permitOf({ any: [CREATOR] }, user))).sql).toBe(page(db, ownership.where(permitOf(CREATOR, user))).sql);
  });

  it('plugins apply to the reused nodes when each query is compiled (CamelCasePlugin)', () => {
    const db = compilingDb([new CamelCasePlugin()]);
    const ownership = kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
    const text =
      'select "documents"."id" from "documents" where ("documents"."creator_id" = $1 or "documents"."creator_id" = any($2)) ' +
      'order by "documents"."id" limit $3';
    for (const user of [
      { id: 3, managedUserIds: [2, 5] },
      { id: 9, managedUserIds: [] },
    ])
      expect(page(db, ownership.where(permitOf({ any: [CREATOR, MANAGED] }, user)))).toMatchObject({
        sql: text,
        parameters: [user.id, user.managedUserIds, 50],
      });
  });

  it('hostile user values stay parameters and change nothing of the text; a list is copied, never handed over', () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    const scope = { any: [CREATOR, MANAGED] };
    const text = page(db, ownership.where(permitOf(scope, { id: 'a', managedUserIds: ['b'] }, STRING_CONTEXT))).sql;
    const hostile = ['1); drop table documents; --', '" or 1=1 --', 'x'.repeat(10_000), '$1'];
    const managedUserIds = [...hostile];
    const compiled = page(db, ownership.where(permitOf(scope, { id: "' or ''='", managedUserIds }, STRING_CONTEXT)));
    expect(compiled).toMatchObject({ sql: text, parameters: ["' or ''='", hostile, 50] });
    expect(compiled.parameters[1]).not.toBe(managedUserIds);
    // An object that kysely would take for an expression never reaches it: the user attribute is refused.
    expect(() => ownership.where(permitOf(CREATOR, { id: { expressionType: undefined, toOperationNode: () => ({ kind: 'RawNode' }) } }))).toThrow(
      PermissionsUsageError,
    );
  });

  it('where(permit) is an expression, not a function: the rule is read (a missing attribute refused) when it is called', () => {
    const ownership = kyselyOwnership(compilingDb(), { tables: TABLES });
    expect(typeof ownership.where(permitOf(CREATOR, { id: 1 }))).toBe('object');
    expect(() => ownership.where(permitOf(SAME_COMPANY, { id: 3 }))).toThrow(
      new PermissionsUsageError(
        'The user has no attribute "companyId", which an ownership rule reads. Give the user object "companyId" (null when it has no value).',
      ),
    );
  });

  it('reads the tables when the source is made: a later change to the options object changes no statement', () => {
    const db = compilingDb();
    const tables: Record<string, string> = { document: 'documents', user: 'users' };
    const ownership = kyselyOwnership(db, { tables });
    tables['document'] = 'other_documents';
    delete tables['user'];
    expect(page(db, ownership.where(permitOf(SAME_COMPANY, { companyId: 7 })))).toMatchObject({
      sql:
        'select "documents"."id" from "documents" where exists (select 1 as "found" from "users" as "ownership_1" where ' +
        '("ownership_1"."id" = "documents"."creatorId" and "ownership_1"."companyId" = $1)) order by "documents"."id" limit $2',
      parameters: [7, 50],
    });
  });

  it('a rule changed in place to read another number of values is built again, not filled wrongly', () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    const rule: { any: OwnershipCondition[] } = { any: [CREATOR] };
    const scope = { all: [rule] } as OwnershipCondition;
    expect(page(db, ownership.where(permitOf(scope, { id: 1, managedUserIds: [4] }))).parameters).toEqual([1, 50]);
    rule.any.push(MANAGED);
    expect(page(db, ownership.where(permitOf(scope, { id: 1, managedUserIds: [4] })))).toMatchObject({
      sql:
        'select "documents"."id" from "documents" where ("documents"."creatorId" = $1 or "documents"."creatorId" = any($2)) ' +
        'order by "documents"."id" limit $3',
      parameters: [1, [4], 50],
    });
  });

  it(`keeps at most ${KYSELY_OWNERSHIP_LIMITS.maxTemplates} templates; the one past them starts anew, with the same text and values`, () => {
    const db = compilingDb();
    const ownership = kyselyOwnership(db, { tables: TABLES });
    // Distinct rule objects, kept alive by this array: each is a template of its own (as after many policy swaps).
    const rules = Array.from({ length: KYSELY_OWNERSHIP_LIMITS.maxTemplates + 1 }, (): OwnershipCondition => ({
      attribute: 'creatorId',
      equals: { user: 'id' },
    }));
    const left = (rule: OwnershipCondition, id: number) => (nodeOf(db, ownership.where(permitOf(rule, { id }))) as BinaryOperationNode).leftOperand;
    const first = rules[0] as OwnershipCondition;
    const firstColumn = left(first, 1);
    for (const rule of rules.slice(1, -1)) left(rule, 1);
    const last = rules[KYSELY_OWNERSHIP_LIMITS.maxTemplates - 1] as OwnershipCondition;
    expect(left(last, 2)).toBe(left(last, 3));
    expect(left(first, 2)).toBe(firstColumn);
    const past = rules[KYSELY_OWNERSHIP_LIMITS.maxTemplates] as OwnershipCondition;
    const pastColumn = left(past, 2);
    expect(left(past, 3)).toBe(pastColumn);
    // Started anew: the first rule's template was dropped and is built again.
    expect(left(first, 2)).not.toBe(firstColumn);
    expect(page(db, ownership.where(permitOf(past, { id: 5 })))).toMatchObject({
      sql: 'select "documents"."id" from "documents" where "documents"."creatorId" = $1 order by "documents"."id" limit $2',
      parameters: [5, 50],
    });
  });
});
