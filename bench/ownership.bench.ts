/**
 * Benchmark 7, ownership without isOwner: ownership decided on the example's real data layer — kysely
 * over an embedded PGlite made by `createSeededDatabase`, plus extra documents — through the real
 * `DocumentOwnershipService`, for EMPLOYEE 1 reading documents.
 *
 * - "before": the definitions as they were before ownedAmong (`isOwner: 'isCreator'` on EMPLOYEE,
 *   `'isCreatorOrManagerOfCreator'` on EMPLOYEE_MANAGER) and no ownedAmong executor, so filterPick
 *   asks isOwner once per document (at most 32 in flight);
 * - "after": the current definitions with `ownedAmong: { document: 'ownedDocumentsAmong' }`, so
 *   filterPick decides every document with one statement.
 *
 * For each: the SQL statements of one `grantPermit` + `filterPick` (counted by a kysely plugin; the
 * documents are fetched beforehand, one statement counted apart), its wall-clock time, and
 * `isOwn` of one document on a fresh permit. Both variants must give identical results.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { Permissions, type PermissionDefinition, type PermissionDefinitionJson } from '../runtime/permissions/index.js';
import type { AppUser } from '../examples/documents/app-user.js';
import { closeDatabase, createSeededDatabase } from '../examples/documents/database.js';
import type { DocumentFilter } from '../examples/documents/document-filter.js';
import { DocumentOwnershipService } from '../examples/documents/document-ownership.service.js';
import { exampleDocuments } from '../examples/documents/example-data.js';
import type { DocumentRow, ExampleDatabase } from '../examples/documents/example-database.js';
import { median, medianNs, wallClockMs, type BenchSettings } from './measure.js';
import { readExampleDefinitions, readExampleOwnedAmong } from './scenario.js';
import { StatementCounter } from './statement-counter.js';

/** The two ways of deciding ownership that the benchmark compares. */
export type OwnershipVariant = 'before' | 'after';

/** What each variant is, in the report. */
export const OWNERSHIP_VARIANTS: Readonly<Record<OwnershipVariant, string>> = {
  before: 'before: isOwner per document (isCreator), no ownedAmong',
  after: 'after: ownedAmong (ownedDocumentsAmong), no isOwner',
};

/** One variant's grantPermit + filterPick over every document. */
export interface OwnershipFilterPickRow {
  readonly variant: OwnershipVariant;
  readonly label: string;
  /** SQL statements of one grantPermit + filterPick (the documents already fetched). */
  readonly statements: number;
  /** Ownership-service calls of that one grantPermit + filterPick, per method. */
  readonly hookCalls: Readonly<Record<string, number>>;
  /** The most ownership-service calls in flight at once during it. */
  readonly peakHookCallsInFlight: number;
  /** Wall-clock time of each timed grantPermit + filterPick (after one untimed, counted run), ms. */
  readonly runsMs: readonly number[];
  readonly medianMs: number;
}

/** One variant's isOwn of one document, on a fresh permit each time. */
export interface OwnershipIsOwnRow {
  readonly variant: OwnershipVariant;
  readonly label: string;
  /** SQL statements of one such check. */
  readonly statementsPerCheck: number;
  readonly medianNs: number;
}

export interface OwnershipResult {
  readonly database: string;
  /** Documents in the database, all given to filterPick. */
  readonly documents: number;
  readonly user: AppUser;
  /** Statements that fetching the documents took (not part of the filterPick counts). */
  readonly fetchStatements: number;
  /** Documents filterPick kept (the ones user 1 created). */
  readonly kept: number;
  /** Both variants' filterPick outputs are deep-equal. */
  readonly identical: boolean;
  /** Both equal the expected list: the user's documents, without `confidential`. */
  readonly asExpected: boolean;
  readonly filterPick: readonly OwnershipFilterPickRow[];
  /** `before` median ÷ `after` median. */
  readonly speedup: number;
  readonly isOwn: readonly OwnershipIsOwnRow[];
  /** Ids whose isOwn both variants answered (half of them user 1's). */
  readonly isOwnIdsChecked: number;
  /** Both variants gave the same isOwn answers… */
  readonly isOwnIdentical: boolean;
  /** …and they are what the data says (true exactly for user 1's documents). */
  readonly isOwnAsExpected: boolean;
}

/** The isOwner hooks of the definitions before ownedAmong, by the limitOwned hook of the same meaning. */
const IS_OWNER_BEFORE: Readonly<Record<string, string>> = {
  limitToCreator: 'isCreator',
  limitToCreatorOrManagedCreators: 'isCreatorOrManagerOfCreator',
};

/**
 * The example definitions as they were before ownedAmong: the current ones with the isOwner hooks
 * that EMPLOYEE and EMPLOYEE_MANAGER had put back. Throws when a limitOwned-only definition has no
 * known isOwner (the example changed, and "before" would not mean what it says).
 *
 * @example
 * ```ts
 * definitionsBeforeOwnedAmong(readExampleDefinitions())[0]?.isOwner; // 'isCreator'
 * ```
 */
export function definitionsBeforeOwnedAmong(definitions: readonly PermissionDefinitionJson[]): PermissionDefinitionJson[] {
  return definitions.map((definition) => {
    if (definition.limitOwned === undefined || definition.isOwner !== undefined) return definition;
    const isOwner = IS_OWNER_BEFORE[definition.limitOwned];
    if (isOwner === undefined) throw new Error(`ownership bench: no earlier isOwner for limitOwned hook ${definition.limitOwned}`);
    return { ...definition, isOwner };
  });
}

/**
 * The real ownership service, observed: calls per method and the most calls in flight at once.
 * Everything else is the example's code, unchanged.
 */
class ObservedOwnershipService extends DocumentOwnershipService {
  readonly calls = new Map<string, number>();
  private inFlight = 0;
  private peak = 0;

  get peakInFlight(): number {
    return this.peak;
  }

  resetObservations(): void {
    this.calls.clear();
    this.peak = 0;
  }

  private async observe<T>(method: string, call: () => Promise<T>): Promise<T> {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    this.peak = Math.max(this.peak, ++this.inFlight);
    try {
      return await call();
    } finally {
      this.inFlight--;
    }
  }

  override isCreator(args: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.observe('isCreator', () => super.isCreator(args));
  }

  override isCreatorOrManagerOfCreator(args: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.observe('isCreatorOrManagerOfCreator', () => super.isCreatorOrManagerOfCreator(args));
  }

  override ownedDocumentsAmong(args: { user: AppUser; filter: DocumentFilter; resourceIds: readonly number[] }): Promise<readonly number[]> {
    return this.observe('ownedDocumentsAmong', () => super.ownedDocumentsAmong(args));
  }
}

/** First id of the documents the benchmark adds (the seeded ones go up to 800). */
const FIRST_EXTRA_ID = 1001;
/** Rows per insert: 7 parameters a row stays far below PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000;
const STATUSES = ['draft', 'review', 'approved'] as const;

/** Adds documents until there are `total`: creators cycle through users 1…8, so one in eight is user 1's. */
async function addDocuments(db: Kysely<ExampleDatabase>, total: number): Promise<void> {
  const extra = Math.max(0, total - exampleDocuments.length);
  for (let start = 0; start < extra; start += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, extra - start) }, (_, i) => {
      const k = start + i;
      const id = FIRST_EXTRA_ID + k;
      return {
        id,
        title: `Document Title ${id}`,
        date: `2024-${String((k % 12) + 1).padStart(2, '0')}-${String((k % 28) + 1).padStart(2, '0')}`,
        status: STATUSES[k % STATUSES.length] as (typeof STATUSES)[number],
        personal: `Personal note on document ${id}`,
        confidential: `Confidential figures of document ${id}`,
        creatorId: (k % 8) + 1,
      };
    });
    await db.insertInto('documents').values(rows).execute();
  }
}

const silentLogger = { warn: (): void => undefined };

function buildVariant(variant: OwnershipVariant, ownership: ObservedOwnershipService): Permissions<AppUser> {
  const current = readExampleDefinitions();
  const definitions = (variant === 'before' ? definitionsBeforeOwnedAmong(current) : current) as unknown as readonly PermissionDefinition[];
  const ownedAmong = variant === 'before' ? undefined : readExampleOwnedAmong();
  return new Permissions<AppUser>({ ownership, ownedAmong, logger: silentLogger })
    .addPermissions(definitions, { source: `example definitions, ${variant}` })
    .build();
}

/** What user 1 may read of their own documents: everything but `confidential`. */
function expectedOutput(documents: readonly DocumentRow[], userId: number): object[] {
  return documents
    .filter((document) => document.creatorId === userId)
    .map((document) => Object.fromEntries(Object.entries(document).filter(([key]) => key !== 'confidential')));
}

/**
 * Runs benchmark 7 on a fresh PGlite, closed at the end.
 *
 * @example
 * ```ts
 * const result = await runOwnershipBench(benchSettings('smoke'));
 * result.filterPick.map((row) => row.statements); // [200, 1]
 * ```
 */
export async function runOwnershipBench(settings: BenchSettings, log: (line: string) => void = () => undefined): Promise<OwnershipResult> {
  const user: AppUser = { id: 1, roles: ['EMPLOYEE'] };
  const database = await createSeededDatabase();
  try {
    await addDocuments(database, settings.ownership.documents);
    const counter = new StatementCounter();
    const db = database.withPlugin(counter);
    const ownership = new ObservedOwnershipService(db);
    const variants: readonly OwnershipVariant[] = ['before', 'after'];
    const permissions = new Map(variants.map((variant) => [variant, buildVariant(variant, ownership)]));

    counter.reset();
    const documents = await db.selectFrom('documents').selectAll().orderBy('documents.id').execute();
    const fetchStatements = counter.count;
    const expected = expectedOutput(documents, user.id);

    const filterPick: OwnershipFilterPickRow[] = [];
    const outputs: object[][] = [];
    for (const variant of variants) {
      const permits = permissions.get(variant) as Permissions<AppUser>;
      const readAll = async (): Promise<object[]> => (await permits.grantPermit({ user, resource: 'document', action: 'read' })).filterPick(documents);
      counter.reset();
      ownership.resetObservations();
      outputs.push(await readAll());
      const statements = counter.count;
      const hookCalls = Object.fromEntries(ownership.calls);
      const peakHookCallsInFlight = ownership.peakInFlight;
      const runsMs = await wallClockMs(readAll, settings.ownership.runs[variant]);
      const medianMs = median(runsMs);
      log(`  filterPick of ${documents.length} documents, ${variant}: ${statements} statements, median ${medianMs.toFixed(1)} ms`);
      filterPick.push({ variant, label: OWNERSHIP_VARIANTS[variant], statements, hookCalls, peakHookCallsInFlight, runsMs, medianMs });
    }

    // isOwn of one document on a fresh permit: a few owned and a few not, cycled through.
    const owned = documents.filter((document) => document.creatorId === user.id).slice(0, 8);
    const others = documents.filter((document) => document.creatorId !== user.id).slice(0, 8);
    const ids = [...owned, ...others].map((document) => document.id);
    const isOwn: OwnershipIsOwnRow[] = [];
    const answers: boolean[][] = [];
    for (const variant of variants) {
      const permits = permissions.get(variant) as Permissions<AppUser>;
      const check = (id: number): Promise<boolean> => permits.grantPermitSync({ user, resource: 'document', action: 'read' }).isOwn(id);
      const variantAnswers: boolean[] = [];
      for (const id of ids) variantAnswers.push(await check(id));
      answers.push(variantAnswers);
      counter.reset();
      await check(ids[0] as number);
      const statementsPerCheck = counter.count;
      let next = 0;
      const ns = await medianNs(() => check(ids[next++ % ids.length] as number), settings);
      log(`  isOwn of one document, ${variant}: ${statementsPerCheck} statement(s), median ${(ns / 1000).toFixed(1)} µs`);
      isOwn.push({ variant, label: OWNERSHIP_VARIANTS[variant], statementsPerCheck, medianNs: ns });
    }

    const [beforeRow, afterRow] = filterPick as [OwnershipFilterPickRow, OwnershipFilterPickRow];
    return {
      database: 'PGlite (embedded PostgreSQL, WASM) through kysely, the example app’s createSeededDatabase + extra documents',
      documents: documents.length,
      user,
      fetchStatements,
      kept: outputs[1]?.length ?? 0,
      identical: isDeepStrictEqual(outputs[0], outputs[1]),
      asExpected: outputs.every((output) => isDeepStrictEqual(output, expected)),
      filterPick,
      speedup: beforeRow.medianMs / afterRow.medianMs,
      isOwn,
      isOwnIdsChecked: ids.length,
      isOwnIdentical: isDeepStrictEqual(answers[0], answers[1]),
      isOwnAsExpected: answers.every((variantAnswers) => isDeepStrictEqual(variantAnswers, [...owned.map(() => true), ...others.map(() => false)])),
    };
  } finally {
    await closeDatabase(database);
  }
}
