/**
 * The three evaluators of an ownership rule select exactly the same records: for random rules, tables and users,
 * the in-memory predicate over the rows, the parameterised SQL text run on PGlite, and the kysely expression run
 * through kysely on the same PGlite return the same ids. Every random rule is also a valid `*.resource.json` rule:
 * the metadata schema and the name checks accept it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { validateResourceMetadata } from '../../runtime/core/definition/resource-metadata-schema.js';
import { ownershipPredicate } from '../../runtime/core/ownership-rules/in-memory-ownership.js';
import { kyselyOwnershipCondition } from '../../runtime/kysely/kysely-ownership-condition.js';
import { ownershipDeclarationProblems } from '../../runtime/core/ownership-rules/ownership-rule-checks.js';
import { sqlOwnershipCondition } from '../../runtime/core/ownership-rules/sql-ownership.js';
import { DOCUMENT_ATTRIBUTES, documentRowsArb, RULE_CONTEXT, ruleArb, ruleUserArb, USER_ATTRIBUTES, userRowsArb } from './ownership-rule-arbitraries.js';
import { emptyTestPGlite } from '../example/test-databases.js';

/** Each case is four statements on PGlite: about 10 ms. */
const NUM_RUNS = 300;
const TABLES = { tables: { document: 'documents', user: 'users' } };

type Row = Readonly<Record<string, unknown>>;

describe('ownership rule evaluators agree (in memory, SQL text, kysely) on PGlite', () => {
  let pglite: PGlite | undefined;
  let db: Kysely<Record<string, Record<string, unknown>>> | undefined;

  beforeAll(async () => {
    pglite = await emptyTestPGlite();
    db = new Kysely({ dialect: new PGliteDialect(pglite) });
    await pglite.exec(`
      CREATE TABLE users ("id" integer PRIMARY KEY, "companyId" integer, "managerId" integer, "team" text, "flag" boolean);
      CREATE TABLE documents ("id" integer PRIMARY KEY, "creatorId" integer, "status" text, "personal" boolean);
    `);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  }, 30_000);

  /** Replaces a table's rows, every value a parameter. */
  async function fill(table: string, rows: readonly Row[], columns: readonly string[]): Promise<void> {
    const engine = pglite as PGlite;
    await engine.query(`DELETE FROM ${table}`);
    const tuples = rows.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    await engine.query(
      `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
      rows.flatMap((row) => columns.map((column) => row[column])),
    );
  }

  it('every random rule is accepted by the metadata schema and the name checks', () => {
    fc.assert(
      fc.property(ruleArb, (rule) => {
        const document = {
          resource: 'document',
          idType: 'number',
          attributes: Object.keys(DOCUMENT_ATTRIBUTES),
          relations: { creator: { resource: 'user', on: 'creatorId' } },
          userAttributes: RULE_CONTEXT.userAttributes,
          ownership: { rule },
        };
        const user = {
          resource: 'user',
          idType: 'number',
          attributes: Object.keys(USER_ATTRIBUTES),
          relations: { manager: { resource: 'user', on: 'managerId' } },
        };
        const checked = validateResourceMetadata(document);
        expect(checked.ok ? [] : checked.problems).toEqual([]);
        const all = new Map([
          ['document', { file: 'document.resource.json', ...document }],
          ['user', { file: 'user.resource.json', ...user }],
        ]);
        expect(ownershipDeclarationProblems('document', all)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('select the same documents for random rules, tables and users', async () => {
    // Cases whose answer is neither every document nor none: the property says little without many of them.
    let mixed = 0;
    await fc.assert(
      fc.asyncProperty(ruleArb, userRowsArb, documentRowsArb, ruleUserArb, async (rule, users, documents, user) => {
        await fill('users', users, Object.keys(USER_ATTRIBUTES));
        await fill('documents', documents, Object.keys(DOCUMENT_ATTRIBUTES));
        const byId = new Map(users.map((row) => [row.id, row]));
        const inMemory = documents.filter(ownershipPredicate(rule, RULE_CONTEXT, user, (_resource, id) => byId.get(id as number))).map((row) => row.id);

        const condition = sqlOwnershipCondition(rule, RULE_CONTEXT, user, TABLES);
        const sqlRows = await (pglite as PGlite).query<{ id: number }>(`SELECT "id" FROM "documents" WHERE ${condition.text} ORDER BY "id"`, [
          ...condition.values,
        ]);
        const kyselyRows = await (db as Kysely<Record<string, Record<string, unknown>>>)
          .selectFrom('documents')
          .select('documents.id')
          .where((eb) => kyselyOwnershipCondition(eb, rule, RULE_CONTEXT, user, TABLES))
          .orderBy('documents.id')
          .execute();

        expect(sqlRows.rows.map((row) => row.id)).toEqual(inMemory);
        expect(kyselyRows.map((row) => row['id'])).toEqual(inMemory);
        if (inMemory.length > 0 && inMemory.length < documents.length) mixed += 1;
      }),
      { numRuns: NUM_RUNS },
    );
    // About 30% of the generated cases own some documents and not all (4,000 sampled): 300 cases hold 45 or fewer
    // such about once in a hundred million runs, 60 or fewer once in about 4,000 (the bar this test had).
    expect(mixed).toBeGreaterThan(45);
  }, 120_000);

  it('select every document for "everything" and none for "nothing"', async () => {
    await fill('documents', [{ id: 1, creatorId: null, status: null, personal: null }], Object.keys(DOCUMENT_ATTRIBUTES));
    for (const [scope, expected] of [
      ['everything', [1]],
      ['nothing', []],
    ] as const) {
      const condition = sqlOwnershipCondition(scope, RULE_CONTEXT, {}, TABLES);
      expect(
        (await (pglite as PGlite).query<{ id: number }>(`SELECT "id" FROM "documents" WHERE ${condition.text}`, [...condition.values])).rows.map(
          (row) => row.id,
        ),
      ).toEqual(expected);
      const rows = await (db as Kysely<Record<string, Record<string, unknown>>>)
        .selectFrom('documents')
        .select('id')
        .where((eb) => kyselyOwnershipCondition(eb, scope, RULE_CONTEXT, {}, TABLES))
        .execute();
      expect(rows.map((row) => row['id'])).toEqual(expected);
      expect([{ id: 1 }].filter(ownershipPredicate(scope, RULE_CONTEXT, {}, () => undefined)).map((row) => row.id)).toEqual(expected);
    }
  }, 30_000);
});
