/**
 * Ownership rules answer exactly as the hand-written ownership methods they replaced. Two engines share one seeded
 * example database: one with the example definitions as they are (the rules creator; creator or a managed user; the
 * creator's company, through kyselyOwnership), one with the hook-based definitions of test/fixtures/example-hooks (the
 * same grants naming hand-written SQL methods). For every example user and action they must agree on every document's
 * decision and pick, and on filterPick of all documents. Runs on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Kysely } from 'kysely';
import { compileModel } from '../../compiler/model/compile-model.js';
import { grantTables } from '../../generated/index.js';
import { closeDatabase } from '../../examples/documents/database.js';
import { documentOwnershipRules } from '../../examples/documents/document-ownership-rules.js';
import { exampleAnonymousUser, exampleDocuments, exampleUsers } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { DocumentOwnershipService } from '../fixtures/example-hooks/document-ownership.service.js';
import { limitOwnReduce } from '../fixtures/example-hooks/limit-own-reduce.js';
import { seededTestDatabase } from './test-databases.js';

const ACTIONS = ['read', 'list', 'review', 'delete', 'update', 'create'] as const;

/** The hook-based definitions the example had before its rules, compiled. */
function hookTables(): GrantTables {
  const compiled = compileModel(new URL('../fixtures/example-hooks/definitions', import.meta.url).pathname);
  if (!compiled.ok) throw new Error(`the hook-based example definitions do not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.model.tables;
}

describe('ownership rules against the example ownership methods they replace', () => {
  let db: Kysely<ExampleDatabase>;
  let tables: GrantTables;

  beforeAll(async () => {
    tables = hookTables();
    db = await seededTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await closeDatabase(db);
  });

  it('every user and action: the same decision and pick for every document, the same filterPick of all of them', async () => {
    const byHooks = permissionsFromTables({ format: 1, version: 'hooks', tables }, { ownership: new DocumentOwnershipService(db), limitOwnReduce });
    const byRules = permissionsFromTables({ format: 1, version: 'rules', tables: grantTables }, { ownershipRules: documentOwnershipRules(db) });
    const documents = exampleDocuments.map((document) => ({ ...document }));
    let granted = 0;
    for (const user of [...exampleUsers, exampleAnonymousUser]) {
      for (const action of ACTIONS) {
        const [hooks, rules] = await Promise.all([byHooks, byRules].map((engine) => engine.grantPermit({ user, resource: 'document', action })));
        expect({ user: user.id, action, picks: await rules!.filterPick(documents) }).toEqual({
          user: user.id,
          action,
          picks: await hooks!.filterPick(documents),
        });
        for (const document of documents) {
          const one = await Promise.all(
            [byHooks, byRules].map((engine) => engine.grantPermit({ user, resource: 'document', action, resourceId: document.id })),
          );
          const [viaHooks, viaRules] = await Promise.all(one.map(async (permit) => [permit.granted, await permit.pick(document)] as const));
          expect({ user: user.id, action, document: document.id, answer: viaRules }).toEqual({
            user: user.id,
            action,
            document: document.id,
            answer: viaHooks,
          });
          if (viaRules![0]) granted += 1;
        }
      }
    }
    // Not a comparison of two refusals: many documents are granted, through every rule.
    expect(granted).toBeGreaterThan(100);
  }, 120_000);
});
