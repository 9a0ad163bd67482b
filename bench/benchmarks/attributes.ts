/**
 * Attributes: `pickSync` / `pick` of a 10-field record against a hand-written projection, accesscontrol's `filter`
 * and CASL's `permittedFieldsOf` + pick; `filterPick` of 1,000 records (half owned) with a listOwned hook, counting
 * the hook calls (must be exactly one); and the awaited `pick` of an owned example document whose ownership the
 * permit already knows, against CASL's `permittedFieldsOf` + pick with the ownership condition. Every
 * implementation's output must equal the hand-written one.
 */
import { exampleDocuments } from '../../examples/documents/example-data.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { comparisonTable, rowsWithRatios, timeContenders, timeOf, type Contender, type TimedRow } from '../harness/comparison.js';
import { formatCalls, formatNs, formatRatio, table } from '../harness/format.js';
import { accessControl3FilterPicker, accessControlPickers } from '../harness/peers/accesscontrol.js';
import { caslFilterPicker, caslPicker } from '../harness/peers/casl.js';
import { handWrittenFilterPicker, handWrittenPicker } from '../harness/peers/nested-object.js';
import type { BenchUser, FilterPicker, PickCase, Picker } from '../harness/peers/peer.js';
import { typedPermissionsFilterPicker, typedPermissionsPickers } from '../harness/peers/typed-permissions.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import { fillerRecord, halfOwnedRecords, PINNED_PATTERNS, type FillerRecord } from '../harness/scenario.js';
import { subjectsAtScale, type BenchSubjects } from '../harness/subjects.js';

export const PICK_BASELINE = 'hand-written projection (baseline)';
export const FILTER_PICK_BASELINE = 'hand-written (baseline)';

export interface PickCaseResult {
  readonly case: string;
  readonly patterns: readonly string[];
  readonly rows: readonly TimedRow[];
  /** Implementations whose output differed from the hand-written projection. */
  readonly mismatches: readonly string[];
}

export interface FilterPickResult {
  readonly items: number;
  readonly owned: number;
  readonly rows: readonly TimedRow[];
  readonly mismatches: readonly string[];
  /** Hook calls of one grantPermit + filterPick over the filler records (listOwned hook). */
  readonly hookCalls: Readonly<Record<string, number>>;
  /** The same for the example's COMPANY_ADMIN reading 1,000 documents (half in their company). */
  readonly documentHookCalls: Readonly<Record<string, number>>;
  readonly documentItemsKept: number;
}

/** CASL's picker, as its rows are named. */
const CASL_PICK = 'CASL permittedFieldsOf + pick';
/** Our row of the memo-hit pick case. */
export const OWN_PICK_OURS = 'pick (await), ownership known to the permit';
/** CASL's row of the memo-hit pick case (the same picker as the filler cases). */
export const OWN_PICK_CASL = CASL_PICK;

/** One implementation's time in the memo-hit pick case. */
export interface OwnPickRow {
  readonly implementation: string;
  readonly medianNs: number;
  /** medianNs / CASL's medianNs. */
  readonly ratioToCasl: number;
}

/**
 * `await permit.pick(document)` for an own grant that adds attributes beyond any, on a document the user owns, with
 * the ownership answer already known to the permit (its grantPermit with `resourceId` asked the ownedAmong executor
 * once).
 */
export interface OwnPickResult {
  readonly user: BenchUser;
  readonly resource: string;
  readonly action: string;
  readonly documentId: number;
  /** The own grant's patterns (EMPLOYEE `read`, own). */
  readonly patterns: readonly string[];
  readonly rows: readonly OwnPickRow[];
  /** Implementations whose output differed from the hand-written one. */
  readonly mismatches: readonly string[];
  /** Ownership-service calls of the grantPermit that answered ownership. */
  readonly hookCallsToGrant: Readonly<Record<string, number>>;
  /** Ownership-service calls during the timed picks: none when every pick is a memo hit. */
  readonly hookCallsWhileTimed: Readonly<Record<string, number>>;
}

export interface AttributesResult {
  readonly pick: readonly PickCaseResult[];
  readonly filterPick: FilterPickResult;
  /** Absent in results recorded before the memo-hit case existed. */
  readonly ownPick?: OwnPickResult;
}

/** This library's pick paths, as the attribute benchmark names its rows. */
const OUR_PICKERS = ['pickSync', 'pick (await)'] as const;
const PICK_LIMIT = 'See "What limits the missed targets" below: pick.';
const FILTER_PICK_LIMIT = 'A listOwned hook was called more than once per permit: a regression in Permit.filterPick.';

/** The target of the memo-hit pick (the interleaved harness against a three-rule ability has its own). */
export const OWN_PICK_TARGET = 'Async pick of an owned document whose ownership the permit already knows, at most 0.5× CASL’s permittedFieldsOf + pick';

/** The document of the memo-hit case: document 10, created by user 1. */
const OWN_PICK_DOCUMENT_ID = 10;

/** EMPLOYEE's own `read` patterns in the example definitions (the same in definitions/ and in the hook fixture); the hand-written output below mirrors them. */
const EMPLOYEE_OWN_READ = ['*', '!confidential'] as const;

async function runPickCase(
  name: string,
  patterns: readonly string[],
  pickCase: PickCase,
  pickers: readonly Picker[],
  context: BenchContext,
): Promise<PickCaseResult> {
  const baseline = pickers.find((picker) => picker.name === PICK_BASELINE) as Picker;
  const expected = await (await baseline.prepare(pickCase))(fillerRecord(42, 1));
  const contenders = pickers.map((picker): Contender => ({
    name: picker.name,
    prepare: async () => {
      const pick = await picker.prepare(pickCase);
      // Each implementation gets its own record: CASL tags its records with their subject type.
      const item = fillerRecord(42, 1);
      return () => pick(item);
    },
  }));
  const { times, mismatches } = await timeContenders(contenders, expected, context.settings, (picker, ns) =>
    context.log(`  pick ${name.padEnd(24)} ${picker.padEnd(36)} ${ns.toFixed(1)} ns`),
  );
  return { case: name, patterns, rows: rowsWithRatios(times, PICK_BASELINE), mismatches };
}

/** Counts the hook calls of one grantPermit + filterPick by the example's COMPANY_ADMIN over 1,000 documents. */
async function countDocumentHooks(subjects: BenchSubjects, count: number): Promise<{ calls: Record<string, number>; kept: number }> {
  const documents = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    title: `Document Title ${i + 1}`,
    date: '2024-01-01',
    status: 'draft',
    personal: 'personal',
    confidential: 'confidential',
    // User 5 is in COMPANY_ADMIN 4's company, user 1 is not.
    creatorId: (i + 1) % 2 === 0 ? 5 : 1,
  }));
  subjects.ownership.setDocuments(documents);
  subjects.ownership.resetCalls();
  const permit = await subjects.permissions.grantPermit({ user: { id: 4, roles: ['COMPANY_ADMIN'] }, resource: 'document', action: 'read' });
  const kept = (await permit.filterPick(documents)).length;
  return { calls: Object.fromEntries(subjects.ownership.calls), kept };
}

/** The hook calls of one grantPermit + filterPick of ours over `records`. */
async function countFilterPickHooks(
  subjects: BenchSubjects,
  ours: FilterPicker,
  pickCase: PickCase,
  records: readonly FillerRecord[],
): Promise<Record<string, number>> {
  const filterPick = await ours.prepare(pickCase);
  subjects.ownership.resetCalls();
  await filterPick(records);
  return Object.fromEntries(subjects.ownership.calls);
}

async function runFilterPick(subjects: BenchSubjects, context: BenchContext): Promise<FilterPickResult> {
  const { showcase } = subjects.scenario;
  const { filterPickItems } = context.settings;
  const user: BenchUser = { id: 77, roles: [showcase.filterPick.role] };
  const pickCase: PickCase = { user, resource: showcase.filterPick.resource, action: 'read' };
  const records = halfOwnedRecords(filterPickItems, user.id);
  subjects.ownership.setRecords(records);
  const ours = typedPermissionsFilterPicker(subjects.permissions);
  const baseline = handWrittenFilterPicker(subjects.ownership);
  const filterPickers = [ours, accessControl3FilterPicker(subjects.accessControl3, subjects.ownership), caslFilterPicker(subjects.rules), baseline];
  const hookCalls = await countFilterPickHooks(subjects, ours, pickCase, records);
  const expected = await (await baseline.prepare(pickCase))(records);
  const contenders = filterPickers.map((picker): Contender => ({
    name: picker.name,
    prepare: async () => {
      const filterPick = await picker.prepare(pickCase);
      const items = halfOwnedRecords(filterPickItems, user.id);
      return () => filterPick(items);
    },
  }));
  const { times, mismatches } = await timeContenders(contenders, expected, context.settings, (picker, ns) =>
    context.log(`  filterPick ${records.length} items ${picker.padEnd(36)} ${(ns / 1000).toFixed(1)} µs`),
  );
  const documents = await countDocumentHooks(subjects, filterPickItems);
  return {
    items: records.length,
    owned: records.filter((record) => record.ownerId === user.id).length,
    rows: rowsWithRatios(times, FILTER_PICK_BASELINE),
    mismatches,
    hookCalls,
    documentHookCalls: documents.calls,
    documentItemsKept: documents.kept,
  };
}

/** The example document of the memo-hit case, and what EMPLOYEE 1 may read of it. */
function ownPickDocument(userId: number): { source: (typeof exampleDocuments)[number]; expected: object } {
  const source = exampleDocuments.find((document) => document.id === OWN_PICK_DOCUMENT_ID);
  if (source === undefined || source.creatorId !== userId) throw new Error(`attributes bench: document ${OWN_PICK_DOCUMENT_ID} is no longer user 1's`);
  const expected = { id: source.id, title: source.title, date: source.date, status: source.status, personal: source.personal, creatorId: source.creatorId };
  return { source, expected };
}

async function runOwnPick(subjects: BenchSubjects, context: BenchContext): Promise<OwnPickResult> {
  const user: BenchUser = { id: 1, roles: ['EMPLOYEE'] };
  const query = { user, resource: 'document', action: 'read' } as const;
  const { source, expected } = ownPickDocument(user.id);
  subjects.ownership.setDocuments(exampleDocuments);
  subjects.ownership.resetCalls();
  const permit = await subjects.permissions.grantPermit({ ...query, resourceId: source.id });
  if (!permit.granted) throw new Error('attributes bench: EMPLOYEE 1 is not granted read on their own document');
  const hookCallsToGrant = Object.fromEntries(subjects.ownership.calls);
  subjects.ownership.resetCalls();
  // Each implementation gets its own copy: CASL tags its records with their subject type.
  const contenders: Contender[] = [
    {
      name: OWN_PICK_OURS,
      prepare: () => {
        const document = { ...source };
        return Promise.resolve(() => permit.pick(document));
      },
    },
    {
      name: OWN_PICK_CASL,
      prepare: async () => {
        const pick = await caslPicker(subjects.rules).prepare(query);
        const document = { ...source };
        return () => pick(document);
      },
    },
  ];
  const { times, mismatches } = await timeContenders(contenders, expected, context.settings, (implementation, ns) =>
    context.log(`  pick of an owned document, memo hit: ${implementation.padEnd(44)} ${ns.toFixed(1)} ns`),
  );
  // CASL calls no hook: what was counted, was counted while our picks were timed.
  const hookCallsWhileTimed = Object.fromEntries(subjects.ownership.calls);
  const casl = times.get(OWN_PICK_CASL) as number;
  const rows = [...times].map(([implementation, ns]) => ({ implementation, medianNs: ns, ratioToCasl: ns / casl }));
  return { ...query, documentId: source.id, patterns: EMPLOYEE_OWN_READ, rows, mismatches, hookCallsToGrant, hookCallsWhileTimed };
}

/** Runs on the 1× subjects: the two pick cases, the memo-hit pick, then filterPick. */
async function run(context: BenchContext): Promise<AttributesResult> {
  const subjects = subjectsAtScale(context.subjects, 1);
  const { showcase } = subjects.scenario;
  const pickers: Picker[] = [
    ...typedPermissionsPickers(subjects.permissions),
    ...accessControlPickers(subjects.accessControl3, subjects.accessControl2),
    caslPicker(subjects.rules),
    handWrittenPicker(showcase),
  ];
  const exclude: PickCase = { user: { id: 1, roles: [showcase.pickExclude.role] }, resource: showcase.pickExclude.resource, action: 'read' };
  const include: PickCase = { user: { id: 2, roles: [showcase.pickInclude.role] }, resource: showcase.pickInclude.resource, action: 'read' };
  const pick = [
    await runPickCase('8 of 10 fields', PINNED_PATTERNS.exclude, exclude, pickers, context),
    await runPickCase('5 of 10 fields', PINNED_PATTERNS.include, include, pickers, context),
  ];
  const ownPick = await runOwnPick(subjects, context);
  return { pick, filterPick: await runFilterPick(subjects, context), ownPick };
}

const mismatchesText = (mismatches: readonly string[]): string => (mismatches.length === 0 ? 'all' : `mismatches: ${mismatches.join(', ')}`);

function ownPickSections(ownPick: OwnPickResult | undefined): string[] {
  if (ownPick === undefined) return [];
  return [
    `Async pick, own grant beyond any, memo hit: EMPLOYEE ${ownPick.user.id} reads document ${ownPick.documentId}, which they own ` +
      `(own \`${JSON.stringify(ownPick.patterns)}\`, no ${ownPick.action}:any); the permit came from grantPermit with that resourceId — ` +
      `median per call (ratio to CASL):\n\n${table(
        ['implementation', 'median', 'ratio to CASL'],
        ownPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToCasl)]),
      )}`,
    `Outputs equal to the hand-written one: ${mismatchesText(ownPick.mismatches)}. ` +
      `Ownership-service calls of the grantPermit: ${JSON.stringify(ownPick.hookCallsToGrant)}; ` +
      `during the timed picks: ${formatCalls(ownPick.hookCallsWhileTimed)}.`,
  ];
}

function filterPickSections({ filterPick }: AttributesResult): string[] {
  const filterPickTable = table(
    ['implementation', 'median', 'ratio'],
    filterPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToBaseline)]),
  );
  return [
    `filterPick of ${filterPick.items} records (${filterPick.owned} owned; listOwned hook; per request: decision + list) — ` +
      `median per call (ratio to the ${FILTER_PICK_BASELINE}):\n\n${filterPickTable}`,
    `Outputs equal to the hand-written list: ${mismatchesText(filterPick.mismatches)}. Hook calls of one grantPermit + filterPick: ` +
      `${JSON.stringify(filterPick.hookCalls)}; example COMPANY_ADMIN over ${filterPick.items} documents: ` +
      `${JSON.stringify(filterPick.documentHookCalls)}, ${filterPick.documentItemsKept} kept.`,
  ];
}

/** The pick table, filterPick, and the memo-hit pick. */
function sections(attributes: AttributesResult | undefined): string[] {
  if (attributes === undefined) return [];
  const pickHeader = ['implementation', ...attributes.pick.map((c) => `${c.case} \`${JSON.stringify(c.patterns)}\``)];
  const pickOutputs = attributes.pick.every((c) => c.mismatches.length === 0)
    ? 'all'
    : `mismatches: ${attributes.pick.flatMap((c) => c.mismatches.map((m) => `${c.case}: ${m}`)).join(', ')}`;
  return [
    `pick of one 10-field record — median per call (ratio to the ${PICK_BASELINE}):\n\n${comparisonTable(pickHeader, attributes.pick)}`,
    `Outputs equal to the hand-written projection: ${pickOutputs}.`,
    ...filterPickSections(attributes),
    ...ownPickSections(attributes.ownPick),
  ];
}

/** Each pick path within 2× of the hand-written projection, and at least 5× faster than CASL. */
function pickTargets(attributes: AttributesResult): TargetVerdict[] {
  return OUR_PICKERS.flatMap((implementation) => {
    const ratios = attributes.pick.map((c) => c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN);
    const met = ratios.every((ratio) => ratio <= 2);
    const speedups = attributes.pick.map((c) => timeOf(c.rows, CASL_PICK) / timeOf(c.rows, implementation));
    const fast = speedups.every((speedup) => speedup >= 5);
    return [
      {
        target: `pick within 2× of the hand-written projection — ${implementation}`,
        measured: ratios.map((ratio, i) => `${attributes.pick[i]?.case}: ${formatRatio(ratio)}`).join('; '),
        met,
        ...limitWhenMissed(met, PICK_LIMIT),
      },
      {
        target: `pick at least 5× faster than CASL permittedFieldsOf + pick — ${implementation}`,
        measured: `CASL's time ÷ ours: ${speedups.map((speedup, i) => `${attributes.pick[i]?.case} ${formatRatio(speedup)}`).join('; ')}`,
        met: fast,
        ...limitWhenMissed(fast, PICK_LIMIT),
      },
    ];
  });
}

function filterPickTarget({ filterPick }: AttributesResult): TargetVerdict {
  const met =
    filterPick.hookCalls['listOwnedRecords'] === 1 &&
    Object.keys(filterPick.hookCalls).length === 1 &&
    filterPick.documentHookCalls['listCreatedInSameCompany'] === 1 &&
    Object.keys(filterPick.documentHookCalls).length === 1;
  return {
    target: `filterPick of ${filterPick.items} items with a listOwned hook: exactly one hook call`,
    measured:
      `filler: ${JSON.stringify(filterPick.hookCalls)}; example COMPANY_ADMIN over ${filterPick.items} documents: ` +
      `${JSON.stringify(filterPick.documentHookCalls)} (kept ${filterPick.documentItemsKept})`,
    met,
    ...limitWhenMissed(met, FILTER_PICK_LIMIT),
  };
}

function ownPickTarget(ownPick: OwnPickResult): TargetVerdict {
  const ours = timeOf(ownPick.rows, OWN_PICK_OURS);
  const casl = timeOf(ownPick.rows, OWN_PICK_CASL);
  const ratio = ours / casl;
  const outputs = ownPick.mismatches.length === 0 ? 'outputs equal the hand-written one' : `outputs differ: ${ownPick.mismatches.join(', ')}`;
  return {
    target: OWN_PICK_TARGET,
    measured:
      `${formatRatio(ratio)} (ours ${Number.isNaN(ours) ? '—' : formatNs(ours)}, CASL ${Number.isNaN(casl) ? '—' : formatNs(casl)}); ` +
      `hook calls while timed: ${formatCalls(ownPick.hookCallsWhileTimed)}; ${outputs}`,
    met: ratio <= 0.5 && ownPick.mismatches.length === 0,
  };
}

/** The pick targets, filterPick with exactly one listOwned call, and the memo-hit pick at most 0.5× CASL. */
function targets(attributes: AttributesResult | undefined): TargetVerdict[] {
  if (attributes === undefined) return [];
  return [...pickTargets(attributes), filterPickTarget(attributes), ...(attributes.ownPick === undefined ? [] : [ownPickTarget(attributes.ownPick)])];
}

/** The attribute benchmark. */
export const attributesBenchmark: Benchmark<AttributesResult> = { title: 'attributes', run, sections, targets };
