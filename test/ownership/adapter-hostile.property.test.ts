/**
 * No value changes the text of an adapter's statements: for hostile user values, rule literals and ids — quotes,
 * `$1`, `%`, `_`, NUL, backslashes, any unicode, huge and negative numbers, `__proto__` — the statements SQL text,
 * kysely and Drizzle send for `ownedAmong` and `listOwned` (and the filter each writes) have the same text as for
 * plain values, and every value is in the parameters exactly as given. A value the database cannot hold (NUL in a
 * text, a number out of an integer's range) is the database's refusal of that parameter, never another statement.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { drizzleOwnership } from '../../runtime/drizzle/index.js';
import { kyselyOwnership } from '../../runtime/kysely/index.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { sqlOwnership, type OwnershipCondition, type OwnershipContext, type OwnershipRuleSource } from '../../runtime/ownership/index.js';
import { ADAPTER_TARGETS, documentsTable, usersTable, type AdapterDatabase, type RanStatement } from './adapter-databases.js';

const NUM_RUNS = 40;
const CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
  userAttributes: { team: 'string', companyId: 'number', teams: 'string[]', ids: 'number[]' },
};

/** A rule reading every user attribute, and two literal lists whose values are replaced. */
function ruleWith(strings: readonly string[], numbers: readonly number[]): OwnershipCondition {
  return {
    any: [
      { attribute: 'status', equals: { user: 'team' } },
      { attribute: 'creator.companyId', equals: { user: 'companyId' } },
      {
        all: [
          { attribute: 'status', in: { user: 'teams' } },
          { attribute: 'creator.companyId', in: { user: 'ids' } },
        ],
      },
      { attribute: 'status', in: [...strings] },
      { attribute: 'creator.managerId', in: [...numbers] },
    ],
  };
}

const HOSTILE_STRINGS = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom("'", '"', "'); DROP TABLE documents; --", '$1', '$2::text', '%', '_', '\\', '\u0000', '\u202e', '__proto__', 'constructor', '😀'),
);
const HOSTILE_NUMBERS = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53 + 1, -0));
const HOSTILE_IDS = fc.array(fc.oneof(HOSTILE_STRINGS, HOSTILE_NUMBERS), { minLength: 1, maxLength: 4 });

const hostileCase = fc.record({
  strings: fc.array(HOSTILE_STRINGS, { minLength: 2, maxLength: 2 }),
  numbers: fc.array(HOSTILE_NUMBERS, { minLength: 2, maxLength: 2 }),
  user: fc.record({
    team: HOSTILE_STRINGS,
    companyId: HOSTILE_NUMBERS,
    teams: fc.array(HOSTILE_STRINGS, { maxLength: 5 }),
    ids: fc.array(HOSTILE_NUMBERS, { maxLength: 5 }),
  }),
  ids: HOSTILE_IDS,
});
const PLAIN: HostileCase = { strings: ['a', 'b'], numbers: [1, 2], user: { team: 'a', companyId: 1, teams: ['a'], ids: [1] }, ids: [1] };

type HostileCase = typeof hostileCase extends fc.Arbitrary<infer T> ? T : never;

describe.each(ADAPTER_TARGETS)('hostile values never change an adapter statement, on $name', (target) => {
  let db: AdapterDatabase;

  beforeAll(async () => {
    db = await target.open();
  }, 60_000);
  afterAll(async () => {
    await db.close();
  }, 30_000);

  /** The statements ownedAmong then listOwned send for `testCase`; a refusal by the database is allowed, a usage error or a crash is not. */
  async function statementsOf(source: OwnershipRuleSource, testCase: HostileCase): Promise<readonly RanStatement[]> {
    db.statements.length = 0;
    const question = { scope: ruleWith(testCase.strings, testCase.numbers), context: CONTEXT, user: testCase.user };
    for (const call of [() => source.ownedAmong(question, testCase.ids), () => source.listOwned(question)]) {
      try {
        await call();
      } catch (error) {
        // The database refuses a parameter it cannot hold (NUL, an integer out of range, text for an integer id).
        expect(error).not.toBeInstanceOf(PermissionsUsageError);
        expect(error).not.toBeInstanceOf(TypeError);
      }
    }
    return [...db.statements];
  }

  it(`every adapter sends the same text for hostile values as for plain ones, with the values as parameters (${NUM_RUNS} cases)`, async () => {
    const sources = {
      sql: sqlOwnership({ tables: { document: 'documents', user: 'users' }, query: db.query }),
      kysely: kyselyOwnership(db.kysely, { tables: { document: 'documents', user: 'users' } }),
      drizzle: drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable } }),
    };
    const plain: Record<string, readonly RanStatement[]> = {};
    // One adapter at a time: the statements are recorded in one list.
    for (const [name, source] of Object.entries(sources)) plain[name] = await statementsOf(source, PLAIN);
    for (const name of Object.keys(sources)) expect({ name, statements: (plain[name] as readonly RanStatement[]).length }).toEqual({ name, statements: 2 });
    await fc.assert(
      fc.asyncProperty(hostileCase, async (testCase) => {
        for (const [name, source] of Object.entries(sources)) {
          const ran = await statementsOf(source, testCase);
          expect({ name, texts: ran.map((statement) => statement.text) }).toEqual({
            name,
            texts: (plain[name] as readonly RanStatement[]).map((statement) => statement.text),
          });
          const [among, list] = ran as [RanStatement, RanStatement];
          const { user, strings, numbers, ids } = testCase;
          // Parameters in the order the rule reads them (the asked ids first, in ownedAmong); kysely and Drizzle pass lists as given.
          const ruleValues = [user.team, user.companyId, user.teams, user.ids, ...strings, ...numbers];
          expect({ name, among: among.values }).toEqual({ name, among: [ids, ...ruleValues] });
          expect({ name, list: list.values }).toEqual({ name, list: ruleValues });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
