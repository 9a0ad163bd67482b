/**
 * Deciding ownership through a resource's ownedAmong executor must answer exactly
 * like deciding it through isOwner. Two engines share one seeded database and one real
 * DocumentOwnershipService (every hook is a SQL query):
 *
 * - A, "via isOwner": the example definitions with the isOwner each limitOwned hook had before
 *   ownedAmong executors existed (`isCreator`, `isCreatorOrManagerOfCreator`), and no ownedAmong executor;
 * - B, "via ownedAmong": the hook-based example definitions of test/fixtures/example-hooks as they are, with
 *   `ownedAmong: { document: 'ownedDocumentsAmong' }`.
 *
 * For random users (existing or not, any mix of known and unknown roles), actions and item lists
 * (seeded documents in any order, duplicated, and documents that do not exist) they must agree on
 * every grant, every isOwn, every pick and every filterPick, and neither may reveal more than the
 * rules allow. Runs on PGlite always, and on the PostgreSQL server of CI when TEST_DATABASE_URL
 * names one (its example tables are truncated and re-seeded: point it at a throwaway database).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { Permissions, parseDefinitionsJson, type PermissionDefinition } from '../../runtime/permissions/index.js';
import type { ExampleHookUser } from '../fixtures/example-hooks/document-ownership.service.js';
import { closeDatabase, createSeededDatabase } from '../../examples/documents/database.js';
import type { DocumentFilter } from '../../examples/documents/document-filter.js';
import { DocumentsRepository } from '../../examples/documents/documents.repository.js';
import { exampleDocuments, type ExampleDocument } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { DocumentOwnershipService } from '../fixtures/example-hooks/document-ownership.service.js';
import { limitOwnReduce } from '../fixtures/example-hooks/limit-own-reduce.js';
import { seededTestDatabase } from './test-databases.js';

/** Each case makes a few dozen real queries per engine; this keeps the file near 10 s on PGlite. */
const NUM_RUNS = 1000;

const ROLES = ['EMPLOYEE', 'EMPLOYEE_MANAGER', 'COMPANY_ADMIN', 'SUPER_ADMIN', 'QA_MANAGER', 'UNKNOWN'] as const;
/** The actions the definitions grant, and one no definition names. */
const ACTIONS = ['read', 'list', 'review', 'delete', 'update', 'create', 'archive'] as const;
const SEEDED_IDS = exampleDocuments.map((document) => document.id);
/** Ids no seeded document has (0 included: a valid id that must not be treated as "no id"). */
const MISSING_IDS = [0, 9, 11, 1000] as const;

// ---------------------------------------------------------------------------------------------
// The two sets of definitions
// ---------------------------------------------------------------------------------------------

const definitionsSource = 'test/fixtures/example-hooks/definitions/document.permissions.json';
const exampleDefinitions = parseDefinitionsJson(
  readFileSync(new URL('../fixtures/example-hooks/definitions/document.permissions.json', import.meta.url), 'utf8'),
  {
    source: definitionsSource,
  },
);

/** A parsed definition's fields, to read and copy (parseDefinitionsJson checked only that it is JSON). */
const fieldsOf = (definition: unknown): Readonly<Record<string, unknown>> => definition as Readonly<Record<string, unknown>>;

/** The point query that runs the same condition as each limitOwned hook, restricted to one document. */
const ISOWNER_OF_LIMIT: Readonly<Record<string, string>> = {
  limitToCreator: 'isCreator',
  limitToCreatorOrManagedCreators: 'isCreatorOrManagerOfCreator',
};

/** The example definitions as they were before ownedAmong executors: every limitOwned definition names its isOwner. */
const viaIsOwnerDefinitions: readonly unknown[] = exampleDefinitions.map((definition) => {
  const { limitOwned, isOwner: declared } = fieldsOf(definition);
  if (typeof limitOwned !== 'string' || declared !== undefined) return definition;
  const isOwner = ISOWNER_OF_LIMIT[limitOwned];
  if (isOwner === undefined) throw new Error(`No isOwner is known for limitOwned ${limitOwned}; extend ISOWNER_OF_LIMIT.`);
  return { ...fieldsOf(definition), isOwner };
});

type Via = 'isOwner' | 'ownedAmong';
const silentLogger = { warn: () => undefined };

function buildEngine(ownership: DocumentOwnershipService, via: Via): Permissions<ExampleHookUser, DocumentFilter> {
  const permissions = new Permissions<ExampleHookUser, DocumentFilter>({
    ownership,
    limitOwnReduce,
    logger: silentLogger,
    ownedAmong: via === 'ownedAmong' ? { document: 'ownedDocumentsAmong' } : undefined,
  });
  const definitions = (via === 'ownedAmong' ? exampleDefinitions : viaIsOwnerDefinitions) as readonly PermissionDefinition[];
  permissions.addPermissions(definitions, { source: via === 'ownedAmong' ? definitionsSource : `${definitionsSource} with isOwner restored` });
  return permissions.build();
}

// ---------------------------------------------------------------------------------------------
// Generators: the seeded example documents and their users, not the abstract vocabulary of
// test/core/arbitraries.ts, so they stay here.
// ---------------------------------------------------------------------------------------------

const seededItemArb = fc.constantFrom(...exampleDocuments);
/** A well-formed document whose id no seeded document has, "created" by a real user: nobody owns it. */
const missingItemArb = fc
  .record({ id: fc.constantFrom(...MISSING_IDS), creatorId: fc.integer({ min: 1, max: 8 }) })
  .map(({ id, creatorId }): ExampleDocument => ({
    id,
    title: `Document Title ${id}`,
    date: '2024-01-01',
    status: 'draft',
    personal: `Personal note of user ${creatorId} on document ${id}`,
    confidential: `Confidential figures of document ${id}`,
    creatorId,
  }));

/** The documents `userId` created (any document for an id without documents): drawn often, so that many items are owned. */
const createdByArb = (userId: number): fc.Arbitrary<ExampleDocument> => {
  const created = exampleDocuments.filter((document) => document.creatorId === userId);
  return created.length === 0 ? seededItemArb : fc.constantFrom(...created);
};

const caseArb = fc
  .record({
    user: fc.record({ id: fc.integer({ min: 0, max: 9 }), roles: fc.uniqueArray(fc.constantFrom<string>(...ROLES), { maxLength: 3 }) }),
    action: fc.constantFrom<string>(...ACTIONS),
  })
  .chain(({ user, action }) =>
    fc.record({
      user: fc.constant(user),
      action: fc.constant(action),
      resourceIds: fc.uniqueArray(fc.constantFrom<number>(...SEEDED_IDS, ...MISSING_IDS), { minLength: 1, maxLength: 3 }),
      // Drawn with replacement: lists come in any order and often hold one document twice.
      items: fc.array(
        fc.oneof({ weight: 3, arbitrary: seededItemArb }, { weight: 2, arbitrary: createdByArb(user.id) }, { weight: 1, arbitrary: missingItemArb }),
        { maxLength: 10 },
      ),
    }),
  );
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const documentOf = (id: number): ExampleDocument => exampleDocuments.find((document) => document.id === id) as ExampleDocument;

/** Always run first: one ownership group, then two at once, over owned, foreign, repeated and missing documents. */
const examples: [Case][] = [
  [{ user: { id: 1, roles: ['EMPLOYEE'] }, action: 'read', resourceIds: [10, 2, 9], items: [100, 2, 1, 100, 20].map(documentOf) }],
  [
    {
      user: { id: 7, roles: ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN'] },
      action: 'read',
      resourceIds: [50, 1, 4],
      items: [...[7, 50, 60, 1, 4, 40, 8, 50].map(documentOf), { ...documentOf(7), id: 9 }],
    },
  ],
  [{ user: { id: 2, roles: ['EMPLOYEE_MANAGER', 'EMPLOYEE'] }, action: 'list', resourceIds: [1, 3], items: [1, 3, 2, 4, 40, 30].map(documentOf) }],
];

// ---------------------------------------------------------------------------------------------
// What one engine answers for one case
// ---------------------------------------------------------------------------------------------

interface Transcript {
  grants: { resourceId: number | null; granted: boolean; anyGranted: boolean; ownGranted: boolean; anyAttributes: readonly string[] }[];
  isOwn: [id: number, owned: boolean][];
  picks: Partial<ExampleDocument>[];
  filterPick: Partial<ExampleDocument>[];
}

/** Each operation gets a fresh permit, so that none is answered from answers another one memoised. */
async function transcriptOf(permissions: Permissions<ExampleHookUser, DocumentFilter>, { user, action, resourceIds, items }: Case): Promise<Transcript> {
  const query = { user, resource: 'document', action };
  const grants: Transcript['grants'] = [];
  for (const resourceId of [null, ...resourceIds]) {
    const permit = await permissions.grantPermit<number>({ ...query, resourceId });
    const { granted, anyGranted, ownGranted, anyAttributes } = permit;
    grants.push({ resourceId, granted, anyGranted, ownGranted, anyAttributes });
  }

  const ownPermit = await permissions.grantPermit<number>(query);
  const isOwn: Transcript['isOwn'] = [];
  for (const id of new Set([...items.map((item) => item.id), ...resourceIds])) isOwn.push([id, await ownPermit.isOwn(id)]);

  // Concurrently, as a handler mapping over a list would: duplicates ask while the first is in flight.
  const pickPermit = await permissions.grantPermit<number>(query);
  const picks = await Promise.all(items.map((item) => pickPermit.pick(item)));

  const filterPermit = await permissions.grantPermit<number>(query);
  const filterPick = await filterPermit.filterPick(items);
  return { grants, isOwn, picks, filterPick };
}

/** How often the cases reached the situations the invariants are about (so the property cannot pass vacuously). */
interface Coverage {
  ownedWithoutAny: number;
  dropped: number;
  partialPicks: number;
}

/** "Picking never reveals more", checked on one engine's transcript. */
function expectNothingRevealed({ items }: Case, transcript: Transcript, coverage: Coverage): void {
  const anyGranted = transcript.grants[0]?.anyGranted;
  const owned = new Map(transcript.isOwn);
  const visible = items.map((item) => anyGranted === true || owned.get(item.id) === true);
  items.forEach((item, i) => {
    const picked = transcript.picks[i] as Partial<ExampleDocument>;
    expect(picked).not.toBe(item);
    for (const key of Object.keys(picked)) expect(Object.keys(item)).toContain(key);
    if (!visible[i]) expect(picked).toStrictEqual({});
    if (Object.keys(picked).length < Object.keys(item).length) coverage.partialPicks++;
    if (anyGranted !== true && owned.get(item.id) === true) coverage.ownedWithoutAny++;
  });
  // filterPick keeps exactly the visible items, in order, each reduced as pick reduces it.
  expect(transcript.filterPick).toStrictEqual(transcript.picks.filter((_, i) => visible[i]));
  coverage.dropped += visible.filter((shown) => !shown).length;
}

// ---------------------------------------------------------------------------------------------
// The tests, per database
// ---------------------------------------------------------------------------------------------

/** Embedded PGlite always; a PostgreSQL server as well when TEST_DATABASE_URL names one. */
const targets: { name: string; databaseUrl: string | undefined }[] = [
  { name: 'embedded PGlite', databaseUrl: undefined },
  ...(process.env['TEST_DATABASE_URL'] ? [{ name: 'a PostgreSQL server (TEST_DATABASE_URL)', databaseUrl: process.env['TEST_DATABASE_URL'] }] : []),
];

describe.each(targets)('ownership via isOwner ≡ via ownedAmong, on $name', ({ databaseUrl }) => {
  let db: Kysely<ExampleDatabase>;
  let ownership: DocumentOwnershipService;

  beforeAll(async () => {
    // The embedded database starts from the run's seeded dump (migrate and seed are database.test.ts's subject, not this file's).
    db = databaseUrl === undefined ? await seededTestDatabase() : await createSeededDatabase({ databaseUrl });
    ownership = new DocumentOwnershipService(db);
    // The generators draw from example-data.ts; the database must hold exactly that.
    expect(await new DocumentsRepository(db).findAll()).toEqual([...exampleDocuments].sort((a, b) => a.id - b.id));
  }, 30_000);

  afterAll(async () => {
    await closeDatabase(db);
  });

  it('the two engines differ only in how EMPLOYEE and EMPLOYEE_MANAGER decide one record', () => {
    const changed = viaIsOwnerDefinitions.filter((definition, i) => definition !== exampleDefinitions[i]);
    expect(changed.map(fieldsOf).map(({ roles, limitOwned, isOwner }) => [roles, limitOwned, isOwner])).toEqual([
      [['EMPLOYEE'], 'limitToCreator', 'isCreator'],
      [['EMPLOYEE_MANAGER'], 'limitToCreatorOrManagedCreators', 'isCreatorOrManagerOfCreator'],
    ]);
    expect(viaIsOwnerDefinitions).toHaveLength(4);
  });

  it(`random users, roles, actions and items get equal grants, isOwn, pick and filterPick; picking never reveals more (${NUM_RUNS} runs)`, async () => {
    const viaIsOwner = buildEngine(ownership, 'isOwner');
    const viaOwnedAmong = buildEngine(ownership, 'ownedAmong');
    const coverage: Coverage = { ownedWithoutAny: 0, dropped: 0, partialPicks: 0 };
    await fc.assert(
      fc.asyncProperty(caseArb, async (testCase) => {
        const a = await transcriptOf(viaIsOwner, testCase);
        const b = await transcriptOf(viaOwnedAmong, testCase);
        expect(b).toStrictEqual(a);
        expectNothingRevealed(testCase, a, coverage);
      }),
      { numRuns: NUM_RUNS, examples },
    );
    // The fixed examples alone guarantee each of these; random cases add more.
    expect(coverage.ownedWithoutAny).toBeGreaterThan(0);
    expect(coverage.dropped).toBeGreaterThan(0);
    expect(coverage.partialPicks).toBeGreaterThan(0);
  }, 120_000);

  it('EMPLOYEE 1 filterPicks all documents with one ownedDocumentsAmong and no isCreator, or one isCreator per distinct id; same result', async () => {
    // Spied before build(): the engines bind the service's methods when they are built.
    const service = new DocumentOwnershipService(db);
    const isCreator = jest.spyOn(service, 'isCreator');
    const ownedDocumentsAmong = jest.spyOn(service, 'ownedDocumentsAmong');
    const viaIsOwner = buildEngine(service, 'isOwner');
    const viaOwnedAmong = buildEngine(service, 'ownedAmong');
    // Every seeded document, highest id first, then 1 and 10 again: 26 items, 24 distinct ids.
    const items = [...[...exampleDocuments].sort((x, y) => y.id - x.id), documentOf(1), documentOf(10)];
    const user: ExampleHookUser = { id: 1, roles: ['EMPLOYEE'] };
    const withoutConfidential = (id: number): Partial<ExampleDocument> => {
      const { confidential, ...rest } = documentOf(id);
      void confidential;
      return rest;
    };

    const viaOwnedAmongResult = await (await viaOwnedAmong.grantPermit<number>({ user, resource: 'document', action: 'read' })).filterPick(items);
    expect(ownedDocumentsAmong).toHaveBeenCalledTimes(1);
    expect([...(ownedDocumentsAmong.mock.calls[0]?.[0].resourceIds ?? [])].sort((x, y) => x - y)).toEqual([...SEEDED_IDS].sort((x, y) => x - y));
    expect(isCreator).not.toHaveBeenCalled();

    ownedDocumentsAmong.mockClear();
    const viaIsOwnerResult = await (await viaIsOwner.grantPermit<number>({ user, resource: 'document', action: 'read' })).filterPick(items);
    expect(isCreator).toHaveBeenCalledTimes(SEEDED_IDS.length);
    expect(new Set(isCreator.mock.calls.map(([args]) => args.resourceId))).toEqual(new Set(SEEDED_IDS));
    expect(ownedDocumentsAmong).not.toHaveBeenCalled();

    expect(viaIsOwnerResult).toStrictEqual(viaOwnedAmongResult);
    expect(viaOwnedAmongResult).toStrictEqual([100, 10, 1, 1, 10].map(withoutConfidential));
  });
});
