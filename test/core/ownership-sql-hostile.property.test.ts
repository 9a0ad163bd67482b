/**
 * No value changes the shape of an ownership rule's SQL: for hostile user values and literals — quotes, `$1`, `%`,
 * `_`, NUL, backslashes, any unicode, huge and negative numbers, `__proto__` — the SQL text and the kysely SQL of
 * a rule are the same as for plain values, and every value is in the parameters exactly as given.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { kyselyOwnershipCondition } from '../../runtime/kysely/kysely-ownership-condition.js';
import type { OwnershipContext } from '../../runtime/core/ownership-rules/ownership-context.js';
import type { OwnershipCondition } from '../../runtime/core/ownership-rules/ownership-rule.js';
import { sqlOwnershipCondition } from '../../runtime/core/ownership-rules/sql-ownership.js';

const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { name: 'string', score: 'number', names: 'string[]', scores: 'number[]' },
};
const TABLES = { tables: { document: 'documents', user: 'users' } };

/** A rule reading every user attribute, and two literal lists whose values are replaced. */
function ruleWith(literals: readonly string[], numbers: readonly number[]): OwnershipCondition {
  return {
    any: [
      { attribute: 'title', equals: { user: 'name' } },
      { attribute: 'creator.score', equals: { user: 'score' } },
      {
        all: [
          { attribute: 'title', in: { user: 'names' } },
          { attribute: 'creator.score', in: { user: 'scores' } },
        ],
      },
      { attribute: 'status', in: [...literals] },
      { attribute: 'creator.rank', in: [...numbers] },
    ],
  };
}

const HOSTILE_STRINGS = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom("'", '"', "'); DROP TABLE documents; --", '$1', '$2::text', '%', '_', '\\', '\u0000', '\u202e', '__proto__', 'constructor', '😀'),
);
const HOSTILE_NUMBERS = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53 + 1, -0));

const compiler = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function kyselyOf(rule: OwnershipCondition, user: object) {
  return compiler
    .selectFrom('documents')
    .select('id')
    .where((eb) => kyselyOwnershipCondition(eb, rule, CONTEXT, user, TABLES))
    .compile();
}

describe('hostile values in ownership rules', () => {
  const plainRule = ruleWith(['a', 'b'], [1, 2]);
  const plainUser = { name: 'n', score: 1, names: ['x'], scores: [1] };
  const plainSql = sqlOwnershipCondition(plainRule, CONTEXT, plainUser, TABLES);
  const plainKysely = kyselyOf(plainRule, plainUser);

  it('change neither the SQL text nor the kysely SQL, and reach the parameters unchanged', () => {
    fc.assert(
      fc.property(
        fc.tuple(HOSTILE_STRINGS, HOSTILE_STRINGS),
        fc.tuple(HOSTILE_NUMBERS, HOSTILE_NUMBERS),
        fc.record({
          name: fc.option(HOSTILE_STRINGS, { nil: null }),
          score: fc.option(HOSTILE_NUMBERS, { nil: null }),
          names: fc.array(HOSTILE_STRINGS, { maxLength: 5 }),
          scores: fc.array(HOSTILE_NUMBERS, { maxLength: 5 }),
        }),
        (literals, numbers, user) => {
          const rule = ruleWith(literals, numbers);
          const sql = sqlOwnershipCondition(rule, CONTEXT, user, TABLES);
          expect(sql.text).toBe(plainSql.text);
          expect(sql.values).toEqual([user.name, user.score, user.names, user.scores, ...literals, ...numbers]);
          const built = kyselyOf(rule, user);
          expect(built.sql).toBe(plainKysely.sql);
          expect(built.parameters).toEqual([user.name, user.score, user.names, user.scores, ...literals, ...numbers]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('write the text of a rule as its shape alone', () => {
    expect(plainSql.text).toBe(
      '("documents"."title" = $1 OR EXISTS (SELECT 1 FROM "users" AS "ownership_1" WHERE "ownership_1"."id" = "documents"."creatorId" AND ' +
        '"ownership_1"."score" = $2) OR ("documents"."title" = ANY($3) AND EXISTS (SELECT 1 FROM "users" AS "ownership_2" WHERE ' +
        '"ownership_2"."id" = "documents"."creatorId" AND "ownership_2"."score" = ANY($4))) OR "documents"."status" IN ($5, $6) OR ' +
        'EXISTS (SELECT 1 FROM "users" AS "ownership_3" WHERE "ownership_3"."id" = "documents"."creatorId" AND "ownership_3"."rank" IN ($7, $8)))',
    );
  });
});
