/**
 * Ownership without isOwner: ownership decided on the example's real data layer — kysely
 * over an embedded PGlite made by `createSeededDatabase` (the context's seededDatabase), plus extra documents — through the
 * hand-written `DocumentOwnershipService` of test/fixtures/example-hooks (the hook methods the example had before its
 * ownership became rules: this benchmark measures the hook machinery), for EMPLOYEE 1 reading documents.
 *
 * - "before": the definitions as they were before ownedAmong (`isOwner: 'isCreator'` on EMPLOYEE,
 *   `'isCreatorOrManagerOfCreator'` on EMPLOYEE_MANAGER) and no ownedAmong executor, so filterPick
 *   asks isOwner once per document (at most 32 in flight);
 * - "after": the current definitions with `ownedAmong: { document: 'ownedDocumentsAmong' }`, so
 *   filterPick decides every document with one statement.
 *
 * For each: the SQL statements of one `grantPermit` + `filterPick` (counted by a kysely plugin; the
 * documents are fetched beforehand, one statement counted apart), its wall-clock time, and
 * `isOwn` of one document on a fresh permit. Both variants must give identical results. Targets: with ownedAmong, at
 * most 2 SQL statements (the fetch included) and at least 20× faster than with isOwner per document.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { AppUser } from '../../examples/documents/app-user.js';
import { closeDatabase } from '../../examples/documents/database.js';
import type { DocumentRow, ExampleDatabase } from '../../examples/documents/example-database.js';
import { Permissions, type PermissionDefinition, type PermissionDefinitionJson } from '../../runtime/permissions/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { addDocuments, ObservedOwnershipService } from '../harness/example-database.js';
import { readExampleDefinitions, readExampleOwnedAmong } from '../harness/example-definitions.js';
import { formatMs, formatNs, formatRatio, table } from '../harness/format.js';
import type { TargetVerdict } from '../harness/report.js';
import { StatementCounter } from '../harness/statement-counter.js';
import { median } from '../harness/statistics.js';
import { medianNs, wallClockMs } from '../harness/timing.js';

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

const VARIANTS: readonly OwnershipVariant[] = ['before', 'after'];
const USER: AppUser = { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] };

/** The example's data layer, observed: the counted database, the observed ownership service, both variants' engines. */
interface ObservedExample {
  readonly db: Kysely<ExampleDatabase>;
  readonly counter: StatementCounter;
  readonly ownership: ObservedOwnershipService;
  readonly permissions: ReadonlyMap<OwnershipVariant, Permissions<AppUser>>;
}

/** One grantPermit + filterPick of every document per variant: its statements and hook calls, then its time. */
async function timeFilterPick(
  example: ObservedExample,
  documents: readonly DocumentRow[],
  { settings, log }: BenchContext,
): Promise<{ rows: OwnershipFilterPickRow[]; outputs: object[][] }> {
  const { counter, ownership } = example;
  const rows: OwnershipFilterPickRow[] = [];
  const outputs: object[][] = [];
  for (const variant of VARIANTS) {
    const permits = example.permissions.get(variant) as Permissions<AppUser>;
    const readAll = async (): Promise<object[]> => (await permits.grantPermit({ user: USER, resource: 'document', action: 'read' })).filterPick(documents);
    counter.reset();
    ownership.resetObservations();
    outputs.push(await readAll());
    const statements = counter.count;
    const hookCalls = Object.fromEntries(ownership.calls);
    const peakHookCallsInFlight = ownership.peakInFlight;
    const runsMs = await wallClockMs(readAll, settings.ownership.runs[variant]);
    const medianMs = median(runsMs);
    log(`  filterPick of ${documents.length} documents, ${variant}: ${statements} statements, median ${medianMs.toFixed(1)} ms`);
    rows.push({ variant, label: OWNERSHIP_VARIANTS[variant], statements, hookCalls, peakHookCallsInFlight, runsMs, medianMs });
  }
  return { rows, outputs };
}

/** isOwn of one document on a fresh permit, per variant: its answers for `ids`, its statements, then its time. */
async function timeIsOwn(
  example: ObservedExample,
  ids: readonly number[],
  { settings, log }: BenchContext,
): Promise<{ rows: OwnershipIsOwnRow[]; answers: boolean[][] }> {
  const rows: OwnershipIsOwnRow[] = [];
  const answers: boolean[][] = [];
  for (const variant of VARIANTS) {
    const permits = example.permissions.get(variant) as Permissions<AppUser>;
    const check = (id: number): Promise<boolean> => permits.grantPermitSync({ user: USER, resource: 'document', action: 'read' }).isOwn(id);
    const variantAnswers: boolean[] = [];
    for (const id of ids) variantAnswers.push(await check(id));
    answers.push(variantAnswers);
    example.counter.reset();
    await check(ids[0] as number);
    const statementsPerCheck = example.counter.count;
    let next = 0;
    const ns = await medianNs(() => check(ids[next++ % ids.length] as number), settings);
    log(`  isOwn of one document, ${variant}: ${statementsPerCheck} statement(s), median ${(ns / 1000).toFixed(1)} µs`);
    rows.push({ variant, label: OWNERSHIP_VARIANTS[variant], statementsPerCheck, medianNs: ns });
  }
  return { rows, answers };
}

/** Both measurements on the seeded database, the documents fetched once beforehand (their statement counted apart). */
async function measure(example: ObservedExample, context: BenchContext): Promise<OwnershipResult> {
  example.counter.reset();
  const documents = await example.db.selectFrom('documents').selectAll().orderBy('documents.id').execute();
  const fetchStatements = example.counter.count;
  const expected = expectedOutput(documents, USER.id);
  const filterPick = await timeFilterPick(example, documents, context);
  // isOwn of one document on a fresh permit: a few owned and a few not, cycled through.
  const owned = documents.filter((document) => document.creatorId === USER.id).slice(0, 8);
  const others = documents.filter((document) => document.creatorId !== USER.id).slice(0, 8);
  const ids = [...owned, ...others].map((document) => document.id);
  const isOwn = await timeIsOwn(example, ids, context);
  const [beforeRow, afterRow] = filterPick.rows as [OwnershipFilterPickRow, OwnershipFilterPickRow];
  const { outputs } = filterPick;
  const { answers } = isOwn;
  return {
    database: 'PGlite (embedded PostgreSQL, WASM) through kysely, the example app’s createSeededDatabase + extra documents',
    documents: documents.length,
    user: USER,
    fetchStatements,
    kept: outputs[1]?.length ?? 0,
    identical: isDeepStrictEqual(outputs[0], outputs[1]),
    asExpected: outputs.every((output) => isDeepStrictEqual(output, expected)),
    filterPick: filterPick.rows,
    speedup: beforeRow.medianMs / afterRow.medianMs,
    isOwn: isOwn.rows,
    isOwnIdsChecked: ids.length,
    isOwnIdentical: isDeepStrictEqual(answers[0], answers[1]),
    isOwnAsExpected: answers.every((variantAnswers) => isDeepStrictEqual(variantAnswers, [...owned.map(() => true), ...others.map(() => false)])),
  };
}

/** Runs on a fresh PGlite, closed at the end. */
async function run(context: BenchContext): Promise<OwnershipResult> {
  const database = await context.seededDatabase();
  try {
    await addDocuments(database, context.settings.ownership.documents);
    const counter = new StatementCounter();
    const db = database.withPlugin(counter);
    const ownership = new ObservedOwnershipService(db);
    const permissions = new Map(VARIANTS.map((variant) => [variant, buildVariant(variant, ownership)]));
    return await measure({ db, counter, ownership, permissions }, context);
  } finally {
    await closeDatabase(database);
  }
}

/**
 * The ownership sections: the filterPick table and what it kept, the isOwn table and its answers
 * (none for results recorded before this benchmark existed).
 */
function sections(ownership: OwnershipResult | undefined): string[] {
  if (ownership === undefined) return [];
  const filterPickRows = ownership.filterPick.map((row) => [
    row.label,
    String(row.statements),
    String(row.statements + ownership.fetchStatements),
    JSON.stringify(row.hookCalls),
    String(row.peakHookCallsInFlight),
    formatMs(row.medianMs),
    `${row.runsMs.length}`,
  ]);
  return [
    `Ownership on the example's data layer — ${ownership.database}; EMPLOYEE ${ownership.user.id} reads all ` +
      `${ownership.documents} documents with one grantPermit + filterPick (documents fetched beforehand, ${ownership.fetchStatements} statement):\n\n${table(
        ['variant', 'SQL statements', 'with the fetch', 'ownership-service calls', 'most calls in flight', 'median', 'timed runs'],
        filterPickRows,
      )}`,
    `${ownership.kept} documents kept; the two variants' results are ${ownership.identical ? 'identical' : 'DIFFERENT'} and ` +
      `${ownership.asExpected ? 'equal' : 'NOT equal'} to user ${ownership.user.id}'s documents without \`confidential\`. ` +
      `Time before ÷ time after: ${formatRatio(ownership.speedup)}.`,
    `isOwn of one document on a fresh permit (grantPermitSync without resourceId, then isOwn; ` +
      `${ownership.isOwnIdsChecked} ids cycled, half owned) — median per call:\n\n${table(
        ['variant', 'SQL statements per check', 'median'],
        ownership.isOwn.map((row) => [row.label, String(row.statementsPerCheck), formatNs(row.medianNs)]),
      )}`,
    `isOwn answers: ${ownership.isOwnIdentical ? 'identical' : 'DIFFERENT'} in both variants, ` +
      `${ownership.isOwnAsExpected ? 'and as the data says' : 'NOT as the data says'}.`,
  ];
}

/**
 * The ownership targets: filterPick with ownedAmong in at most 2 SQL statements (the fetch included),
 * and at least 20× faster than with isOwner per document, with identical, expected results.
 */
function targets(ownership: OwnershipResult | undefined): TargetVerdict[] {
  if (ownership === undefined) return [];
  const before = ownership.filterPick.find((row) => row.variant === 'before');
  const after = ownership.filterPick.find((row) => row.variant === 'after');
  const subject = `filterPick of ${ownership.documents} example documents for EMPLOYEE 1 on PGlite`;
  const afterTotal = after === undefined ? Number.NaN : after.statements + ownership.fetchStatements;
  const correct = ownership.identical && ownership.asExpected;
  return [
    {
      target: `${subject} with ownedAmong: at most 2 SQL statements, fetching the documents included`,
      measured:
        `${afterTotal} (${after?.statements ?? '—'} for grantPermit + filterPick, ${ownership.fetchStatements} to fetch the documents); ` +
        `before, isOwner per document: ${before === undefined ? '—' : before.statements + ownership.fetchStatements}`,
      met: afterTotal <= 2,
    },
    {
      target: `${subject} with ownedAmong at least 20× faster than with isOwner per document`,
      measured:
        `${formatRatio(ownership.speedup)} (${after === undefined ? '—' : formatMs(after.medianMs)} ` +
        `vs ${before === undefined ? '—' : formatMs(before.medianMs)}, ` +
        `medians of ${after?.runsMs.length ?? 0} and ${before?.runsMs.length ?? 0} runs); ` +
        `${correct ? 'results identical and as expected' : `RESULTS DIFFER (identical: ${ownership.identical}, as expected: ${ownership.asExpected})`}`,
      met: ownership.speedup >= 20 && correct,
    },
  ];
}

/** Ownership on PGlite: isOwner per document against ownedAmong. */
export const ownershipBenchmark: Benchmark<OwnershipResult> = { title: 'ownership on PGlite', run, sections, targets };
