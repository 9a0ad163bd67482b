/**
 * Every ownership adapter selects exactly the records the in-memory predicate holds for: for random rules, tables
 * and users ('everything' and 'nothing' are adapter-statements.test.ts's), the rows each adapter's filter returns,
 * its `ownedAmong` of random ids (some of no record) and its `listOwned` are the ids `ownershipPredicate` selects —
 * for SQL text, kysely and Drizzle, on PGlite and on the PostgreSQL server when TEST_DATABASE_URL names one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { drizzleOwnership } from '../../runtime/drizzle/index.js';
import { kyselyOwnership } from '../../runtime/kysely/index.js';
import { ownershipPredicate, sqlOwnership } from '../../runtime/ownership/index.js';
import { documentRowsArb, RULE_CONTEXT, ruleArb, ruleUserArb, userRowsArb } from '../core/ownership-rule-arbitraries.js';
import { ADAPTER_TARGETS, documentsTable, usersTable, type AdapterDatabase } from './adapter-databases.js';

/** Each case is 13 statements (two tables filled, three per adapter): about 40 ms on PGlite. */
const NUM_RUNS = 50;
const TABLES = { document: 'documents', user: 'users' };

/** Ids to ask about: documents have ids 1 to 12 at most; 13 to 15 name no record. */
const askedArb = fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 8 });

const sorted = (ids: readonly unknown[]) => [...ids].map(Number).sort((a, b) => a - b);

describe.each(ADAPTER_TARGETS)('ownership adapters agree with the in-memory predicate on $name', (target) => {
  let db: AdapterDatabase;

  beforeAll(async () => {
    db = await target.open();
  }, 60_000);
  afterAll(async () => {
    await db.close();
  }, 30_000);

  it(`filter, ownedAmong and listOwned select what ownershipPredicate holds for (${NUM_RUNS} random cases)`, async () => {
    const sources = {
      sql: sqlOwnership({ tables: TABLES, query: db.query }),
      kysely: kyselyOwnership(db.kysely, { tables: TABLES }),
      drizzle: drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable } }),
    };
    // Cases whose answer is neither every document nor none: the property says little without many of them.
    let mixed = 0;
    await fc.assert(
      fc.asyncProperty(ruleArb, userRowsArb, documentRowsArb, ruleUserArb, askedArb, async (scope, users, documents, user, asked) => {
        await db.fill('users', users);
        await db.fill('documents', documents);
        const byId = new Map(users.map((row) => [row.id, row]));
        const expected = documents.filter(ownershipPredicate(scope, RULE_CONTEXT, user, (_resource, id) => byId.get(id as number))).map((row) => row.id);
        const expectedAmong = expected.filter((id) => asked.includes(id));
        const question = { scope, context: RULE_CONTEXT, user };

        const sqlFilter = sources.sql.filter(question);
        const viaFilter = {
          sql: (await db.query(`SELECT "id" FROM "documents" WHERE ${sqlFilter.text}`, sqlFilter.values)).map((row) => (row as { id: number }).id),
          kysely: (await db.kysely.selectFrom('documents').select('id').where(sources.kysely.filter(question)).execute()).map((row) => row['id']),
          drizzle: (await db.drizzle.select({ id: documentsTable.id }).from(documentsTable).where(sources.drizzle.filter(question))).map((row) => row.id),
        };
        for (const [name, source] of Object.entries(sources)) {
          expect({ name, filter: sorted(viaFilter[name as keyof typeof viaFilter]) }).toEqual({ name, filter: expected });
          expect({ name, ownedAmong: sorted(await source.ownedAmong(question, asked)) }).toEqual({ name, ownedAmong: expectedAmong });
          expect({ name, listOwned: sorted(await source.listOwned(question)) }).toEqual({ name, listOwned: expected });
        }
        if (expected.length > 0 && expected.length < documents.length) mixed += 1;
      }),
      { numRuns: NUM_RUNS },
    );
    // About a third of the cases are mixed: fewer than a tenth would say the generators drifted.
    // About 30% of the generated cases own some documents and not all (4,000 sampled): 50 cases hold at most one
    // such about once in five million runs, five or fewer once in about 2,000 (the bar this test had).
    expect(mixed).toBeGreaterThan(1);
  }, 120_000);
});
