/**
 * Rules that compare the tenant's id: every adapter selects exactly the records the in-memory predicate holds for,
 * for random rules of both tenant id types (a text column compared with the id as it is, an integer column with
 * the id read as a canonical integer), random tables and users, and a random tenant — none, a number's canonical
 * text, text that only looks like a number ("012", "1e0", " 1", "-0"), or another string. The same source answers
 * every case, so a tenant kept from one question (in kysely's templates) would answer another's wrongly.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { drizzleOwnership } from '../../runtime/drizzle/index.js';
import { kyselyOwnership } from '../../runtime/kysely/index.js';
import { ownershipPredicate, sqlOwnership, type OwnershipQuestion, type TenantIdType } from '../../runtime/ownership/index.js';
import { documentRowsArb, ruleUserArb, TENANT_RULE_CONTEXTS, tenantArb, tenantRuleArbs, userRowsArb } from '../core/ownership-rule-arbitraries.js';
import { ADAPTER_TARGETS, documentsTable, usersTable, type AdapterDatabase } from './adapter-databases.js';

/** Each case is 13 statements (two tables filled, three per adapter): about 40 ms on PGlite. */
const NUM_RUNS = 40;
const TABLES = { document: 'documents', user: 'users' };
const askedArb = fc.uniqueArray(fc.integer({ min: 1, max: 15 }), { maxLength: 8 });
const sorted = (ids: readonly unknown[]) => [...ids].map(Number).sort((a, b) => a - b);

describe.each(ADAPTER_TARGETS)('ownership adapters agree with the in-memory predicate on tenant rules on $name', (target) => {
  let db: AdapterDatabase;

  beforeAll(async () => {
    db = await target.open();
  }, 60_000);
  afterAll(async () => {
    await db.close();
  }, 30_000);

  it.each<TenantIdType>(['number', 'string'])(
    `filter, ownedAmong and listOwned select what ownershipPredicate holds for, tenant id type %s (${NUM_RUNS} random cases)`,
    async (tenantIdType) => {
      const context = TENANT_RULE_CONTEXTS[tenantIdType];
      const sources = {
        sql: sqlOwnership({ tables: TABLES, query: db.query }),
        kysely: kyselyOwnership(db.kysely, { tables: TABLES }),
        drizzle: drizzleOwnership(db.drizzle, { tables: { document: documentsTable, user: usersTable } }),
      };
      let mixed = 0;
      await fc.assert(
        fc.asyncProperty(
          tenantRuleArbs[tenantIdType],
          userRowsArb,
          documentRowsArb,
          ruleUserArb,
          tenantArb,
          askedArb,
          async (scope, users, documents, user, tenant, asked) => {
            await db.fill('users', users);
            await db.fill('documents', documents);
            const byId = new Map(users.map((row) => [row.id, row]));
            const owns = ownershipPredicate(scope, context, user, (_resource, id) => byId.get(id as number), tenant);
            const expected = documents.filter(owns).map((row) => row.id);
            const expectedAmong = expected.filter((id) => asked.includes(id));
            const question: OwnershipQuestion = tenant === undefined ? { scope, context, user } : { scope, context, user, tenant };

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
          },
        ),
        { numRuns: NUM_RUNS },
      );
      // About 30% of the generated cases own some documents and not all (4,000 sampled): 40 cases hold none such
      // about once in a million runs, and four or fewer once in about 300 (the bar this test had).
      expect(mixed).toBeGreaterThan(0);
    },
    120_000,
  );
});
