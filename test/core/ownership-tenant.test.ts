/**
 * Ownership rules that compare the tenant's id, `{ "attribute": "companyId", "equals": { "tenant": "id" } }`: which
 * tenant ids a number column can hold (canonical integers only), and each evaluator — in memory, SQL text, kysely,
 * and the walk other adapters write with — answering tenant A, tenant B, no tenant (nothing: fail closed) and ids
 * that only look like numbers, with the tenant id always a parameter and never in the text.
 */
import { describe, expect, it } from '@jest/globals';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Expression, type SqlBool } from 'kysely';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { describeRule } from '../../runtime/core/ownership-rules/describe-rule.js';
import { kyselyOwnershipCondition } from '../../runtime/kysely/kysely-ownership-condition.js';
import {
  memoryOwnership,
  ownershipPredicate,
  sqlOwnershipCondition,
  tenantIdValue,
  writeOwnershipRule,
  type OwnershipCondition,
  type OwnershipContext,
  type OwnershipQuestion,
} from '../../runtime/ownership/index.js';

const STRING_CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { id: 'number' },
};
const NUMBER_CONTEXT: OwnershipContext = { ...STRING_CONTEXT, tenantIdType: 'number' };
const TABLES = { tables: { document: 'documents', user: 'users' } };

/** The records of the tenant asked in. */
const OF_TENANT: OwnershipCondition = { attribute: 'companyId', equals: { tenant: 'id' } };
/** The records of the tenant asked in that the user created. */
const OWN_IN_TENANT: OwnershipCondition = { all: [OF_TENANT, { attribute: 'creatorId', equals: { user: 'id' } }] };
/** The records whose creator works for the tenant asked in. */
const CREATOR_IN_TENANT: OwnershipCondition = { attribute: 'creator.companyId', equals: { tenant: 'id' } };

const USER = { id: 1, roles: ['MEMBER'] };
/** Documents of companies 1, 2 and 12, one without a company; as text ids ("acme") in `companyKey`. */
const DOCUMENTS = [
  { id: 1, companyId: 1, companyKey: 'acme', creatorId: 1 },
  { id: 2, companyId: 1, companyKey: 'acme', creatorId: 2 },
  { id: 3, companyId: 2, companyKey: 'globex', creatorId: 1 },
  { id: 4, companyId: 12, companyKey: '12', creatorId: 1 },
  { id: 5, companyId: null, companyKey: null, creatorId: 1 },
];
const USERS = [
  { id: 1, companyId: 1 },
  { id: 2, companyId: 2 },
];

const selected = (condition: OwnershipCondition, context: OwnershipContext, tenant: string | undefined, records = DOCUMENTS) =>
  records.filter(ownershipPredicate(condition, context, USER, (_resource, id) => USERS.find((user) => user.id === id), tenant)).map((record) => record.id);

/** kysely that compiles PostgreSQL without a connection. */
const compiler = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('the tenant id a record is compared with', () => {
  it('is the id itself for a string column, and null without a tenant', () => {
    expect(tenantIdValue('acme', 'string')).toBe('acme');
    expect(tenantIdValue('012', undefined)).toBe('012');
    expect(tenantIdValue(undefined, 'string')).toBeNull();
    expect(tenantIdValue(undefined, 'number')).toBeNull();
  });

  it.each([
    ['12', 12],
    ['0', 0],
    ['-3', -3],
    ['9007199254740991', 9007199254740991],
  ])('reads the canonical integer %j as %j for a number column', (id, value) => {
    expect(tenantIdValue(id, 'number')).toBe(value);
  });

  it.each(['012', '1e1', ' 12', '12 ', '12.0', '+12', '-0', '0x1', '1_000', 'acme', 'Infinity', 'NaN', '9007199254740992', ''])(
    'reads %j as no number: it selects no record of a number column',
    (id) => {
      expect(tenantIdValue(id, 'number')).toBeNull();
    },
  );

  it('refuses a tenant that is not a string (a question built by hand) with a typed error', () => {
    expect(() => tenantIdValue(12, 'number')).toThrow(
      new PermissionsUsageError('The tenant of an ownership question must be a string or left out, got number.'),
    );
    const question = { scope: OF_TENANT, context: NUMBER_CONTEXT, user: USER, tenant: 12 } as unknown as OwnershipQuestion;
    expect(() => memoryOwnership({ document: DOCUMENTS }).filter(question)).toThrow(
      new PermissionsUsageError('The tenant of an ownership question must be a string or left out, got number.'),
    );
  });

  it('reads in words', () => {
    expect(describeRule(OWN_IN_TENANT)).toBe("companyId is the tenant's id and creatorId is the user's id");
  });
});

describe('in memory', () => {
  it('selects the records of tenant A, of tenant B, and none without a tenant', () => {
    expect(selected(OF_TENANT, NUMBER_CONTEXT, '1')).toEqual([1, 2]);
    expect(selected(OF_TENANT, NUMBER_CONTEXT, '2')).toEqual([3]);
    expect(selected(OF_TENANT, NUMBER_CONTEXT, undefined)).toEqual([]);
    expect(selected({ attribute: 'companyKey', equals: { tenant: 'id' } }, STRING_CONTEXT, 'acme')).toEqual([1, 2]);
    expect(selected({ attribute: 'companyKey', equals: { tenant: 'id' } }, STRING_CONTEXT, 'globex')).toEqual([3]);
    expect(selected({ attribute: 'companyKey', equals: { tenant: 'id' } }, STRING_CONTEXT, undefined)).toEqual([]);
  });

  it('compares a number column with the id read as a number, a string column with the id as it is', () => {
    expect(selected(OF_TENANT, NUMBER_CONTEXT, '12')).toEqual([4]);
    expect(selected(OF_TENANT, STRING_CONTEXT, '12')).toEqual([]);
    expect(selected({ attribute: 'companyKey', equals: { tenant: 'id' } }, STRING_CONTEXT, '12')).toEqual([4]);
    expect(selected({ attribute: 'companyKey', equals: { tenant: 'id' } }, NUMBER_CONTEXT, '12')).toEqual([]);
  });

  it.each(['012', '1e1', ' 12', '12.0', '-0', '01'])('selects nothing of a number column for the id %j', (id) => {
    expect(selected(OF_TENANT, NUMBER_CONTEXT, id)).toEqual([]);
  });

  it('combines the tenant with the user, and reads it through a relation', () => {
    expect(selected(OWN_IN_TENANT, NUMBER_CONTEXT, '1')).toEqual([1]);
    expect(selected(OWN_IN_TENANT, NUMBER_CONTEXT, undefined)).toEqual([]);
    expect(selected(CREATOR_IN_TENANT, NUMBER_CONTEXT, '1')).toEqual([1, 3, 4, 5]);
    expect(selected(CREATOR_IN_TENANT, NUMBER_CONTEXT, '2')).toEqual([2]);
    expect(selected({ any: [CREATOR_IN_TENANT, { attribute: 'creatorId', equals: { user: 'id' } }] }, NUMBER_CONTEXT, undefined)).toEqual([1, 3, 4, 5]);
  });

  it('memoryOwnership answers with the tenant of each question', async () => {
    const rules = memoryOwnership({ document: DOCUMENTS, user: USERS });
    const question = (tenant?: string): OwnershipQuestion =>
      tenant === undefined ? { scope: OF_TENANT, context: NUMBER_CONTEXT, user: USER } : { scope: OF_TENANT, context: NUMBER_CONTEXT, user: USER, tenant };
    expect(await rules.listOwned(question('1'))).toEqual([1, 2]);
    expect(await rules.listOwned(question('2'))).toEqual([3]);
    expect(await rules.listOwned(question())).toEqual([]);
    expect(await rules.ownedAmong(question('2'), [1, 3])).toEqual([3]);
    expect(DOCUMENTS.filter(rules.filter(question('012')))).toEqual([]);
  });
});

describe('SQL text', () => {
  it('writes the tenant id as a parameter: the same text for tenant A, tenant B and no tenant (NULL, which equals nothing)', () => {
    const text = '"documents"."companyId" = $1';
    expect(sqlOwnershipCondition(OF_TENANT, NUMBER_CONTEXT, USER, TABLES, '1')).toEqual({ text, values: [1] });
    expect(sqlOwnershipCondition(OF_TENANT, NUMBER_CONTEXT, USER, TABLES, '2')).toEqual({ text, values: [2] });
    expect(sqlOwnershipCondition(OF_TENANT, NUMBER_CONTEXT, USER, TABLES)).toEqual({ text, values: [null] });
    expect(sqlOwnershipCondition(OF_TENANT, NUMBER_CONTEXT, USER, TABLES, '012')).toEqual({ text, values: [null] });
    expect(sqlOwnershipCondition(OF_TENANT, STRING_CONTEXT, USER, TABLES, "acme' OR 1=1 --")).toEqual({ text, values: ["acme' OR 1=1 --"] });
  });

  it('writes the tenant beside the user and through a relation', () => {
    expect(sqlOwnershipCondition(OWN_IN_TENANT, NUMBER_CONTEXT, USER, TABLES, '1')).toEqual({
      text: '("documents"."companyId" = $1 AND "documents"."creatorId" = $2)',
      values: [1, 1],
    });
    expect(sqlOwnershipCondition(CREATOR_IN_TENANT, STRING_CONTEXT, USER, TABLES, 'acme')).toEqual({
      text: 'EXISTS (SELECT 1 FROM "users" AS "ownership_1" WHERE "ownership_1"."id" = "documents"."creatorId" AND "ownership_1"."companyId" = $1)',
      values: ['acme'],
    });
  });
});

describe('kysely', () => {
  const compiled = (tenant: string | undefined) =>
    compiler
      .selectFrom('documents')
      .select('documents.id')
      .where((eb): Expression<SqlBool> => kyselyOwnershipCondition(eb, OWN_IN_TENANT, NUMBER_CONTEXT, USER, TABLES, tenant))
      .compile();

  it('binds the tenant id as a parameter: tenant A, tenant B, no tenant and an odd id', () => {
    const sql = 'select "documents"."id" from "documents" where ("documents"."companyId" = $1 and "documents"."creatorId" = $2)';
    expect([compiled('1').sql, compiled('1').parameters]).toEqual([sql, [1, 1]]);
    expect([compiled('2').sql, compiled('2').parameters]).toEqual([sql, [2, 1]]);
    expect([compiled(undefined).sql, compiled(undefined).parameters]).toEqual([sql, [null, 1]]);
    expect([compiled('1e0').sql, compiled('1e0').parameters]).toEqual([sql, [null, 1]]);
  });
});

describe('the walk adapters write with', () => {
  const written = (tenant: string | undefined) =>
    writeOwnershipRule(
      OWN_IN_TENANT,
      NUMBER_CONTEXT,
      USER,
      {
        everything: () => 'true',
        nothing: () => 'false',
        all: (parts) => `(${parts.join(' and ')})`,
        any: (parts) => `(${parts.join(' or ')})`,
        equals: (path, value) => `${path.attribute} = ${JSON.stringify(value)}`,
        inLiterals: (path, literals) => `${path.attribute} in ${JSON.stringify(literals)}`,
        inUserList: (path, values) => `${path.attribute} in ${JSON.stringify(values)}`,
      },
      tenant,
    );

  it('hands the writer the tenant id as a number, or null without a tenant or for an odd id', () => {
    expect(written('12')).toBe('(companyId = 12 and creatorId = 1)');
    expect(written(undefined)).toBe('(companyId = null and creatorId = 1)');
    expect(written(' 12')).toBe('(companyId = null and creatorId = 1)');
  });
});
