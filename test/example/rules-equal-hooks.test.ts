/**
 * Ownership rules answer exactly as the hand-written ownership methods they replace. Two engines share one seeded
 * example database: one with the example definitions as they are (its DocumentOwnershipService's SQL), one with the
 * same grants naming the three rules (creator; creator or a managed user; the creator's company) through
 * kyselyOwnership. For every example user and action they must agree on every document's decision and pick, and on
 * filterPick of all documents. Runs on PGlite.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { compileModel } from '../../compiler/model/compile-model.js';
import { grantTables } from '../../generated/index.js';
import { closeDatabase } from '../../examples/documents/database.js';
import { DocumentOwnershipService } from '../../examples/documents/document-ownership.service.js';
import { exampleAnonymousUser, exampleCompanies, exampleDocuments, exampleManagers, exampleUsers } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { limitOwnReduce } from '../../examples/documents/limit-own-reduce.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { kyselyOwnership } from '../../runtime/kysely/index.js';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { makeTempDir, removeTempDir, repoRoot } from '../compiler/helpers.js';
import { seededTestDatabase } from './seeded-database.js';

const ACTIONS = ['read', 'list', 'review', 'delete', 'update', 'create'] as const;

const RULES = {
  relations: { creator: { resource: 'user', on: 'creatorId' } },
  userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]' },
  ownership: {
    creator: { attribute: 'creatorId', equals: { user: 'id' } },
    creatorOrManaged: {
      any: [
        { attribute: 'creatorId', equals: { user: 'id' } },
        { attribute: 'creatorId', in: { user: 'managedUserIds' } },
      ],
    },
    sameCompany: { attribute: 'creator.companyId', equals: { user: 'companyId' } },
  },
};
/** The rule each definition's ownership methods become. */
const RULE_OF: Readonly<Record<string, string>> = {
  limitToCreator: 'creator',
  limitToCreatorOrManagedCreators: 'creatorOrManaged',
  isCreatedInSameCompany: 'sameCompany',
};

/** The example definitions, their ownership methods replaced by the rules, compiled. */
function rulesTables(folder: string): GrantTables {
  cpSync(join(repoRoot, 'definitions'), folder, { recursive: true });
  // Its policy tests simulate the methods: the rules are compared with the methods themselves here.
  rmSync(join(folder, 'documents.permissions.test.json'));
  const metadataPath = join(folder, 'document.resource.json');
  const metadata = JSON.parse(readFileSync(metadataPath, 'utf8')) as Record<string, unknown>;
  delete metadata['ownedAmong'];
  writeFileSync(metadataPath, JSON.stringify({ ...metadata, ...RULES }));
  writeFileSync(join(folder, 'user.resource.json'), JSON.stringify({ resource: 'user', idType: 'number', attributes: ['id', 'companyId'] }));
  const definitionsPath = join(folder, 'document.permissions.json');
  const file = JSON.parse(readFileSync(definitionsPath, 'utf8')) as { definitions: Record<string, unknown>[] };
  file.definitions = file.definitions.map(({ isOwner, listOwned, limitOwned, ...definition }) => {
    const method = (limitOwned ?? isOwner ?? listOwned) as string | undefined;
    return method === undefined ? definition : { ...definition, owner: RULE_OF[method] };
  });
  writeFileSync(definitionsPath, JSON.stringify(file));
  const compiled = compileModel(folder);
  if (!compiled.ok) throw new Error(`the example definitions with rules do not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.model.tables;
}

/** A user with the attributes the rules read, from the example's memberships and management. */
const withAttributes = ({ id, roles }: { id: number; roles: readonly string[] }) => ({
  id,
  roles,
  companyId: exampleCompanies.find((membership) => membership.userId === id)?.companyId ?? null,
  managedUserIds: exampleManagers.filter((row) => row.managerId === id).map((row) => row.managedId),
});

describe('ownership rules against the example ownership methods they replace', () => {
  let folder: string | undefined;
  let db: Kysely<ExampleDatabase>;
  let tables: GrantTables;

  beforeAll(async () => {
    folder = makeTempDir('rules-equal-hooks');
    tables = rulesTables(folder);
    db = await seededTestDatabase();
    // The rules read the creator's company from the user's row: one company per user at most (asserted below).
    await sql`ALTER TABLE users ADD COLUMN company_id integer`.execute(db);
    for (const { userId, companyId } of exampleCompanies)
      await db
        .updateTable('users')
        .set({ companyId } as never)
        .where('id', '=', userId)
        .execute();
  }, 60_000);

  afterAll(async () => {
    await closeDatabase(db);
    removeTempDir(folder);
  });

  it('every user and action: the same decision and pick for every document, the same filterPick of all of them', async () => {
    expect(new Set(exampleCompanies.map((membership) => membership.userId)).size).toBe(exampleCompanies.length);
    const byHooks = permissionsFromTables(
      { format: 1, version: 'hooks', tables: grantTables },
      { ownership: new DocumentOwnershipService(db), limitOwnReduce },
    );
    const byRules = permissionsFromTables(
      { format: 1, version: 'rules', tables },
      { ownershipRules: kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } }) },
    );
    const documents = exampleDocuments.map((document) => ({ ...document }));
    let granted = 0;
    for (const user of [...exampleUsers, exampleAnonymousUser].map(withAttributes)) {
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
