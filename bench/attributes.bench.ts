/**
 * Benchmark 2: attributes. `pickSync` / `pick` of a 10-field record against a hand-written
 * projection, accesscontrol's `filter` and CASL's `permittedFieldsOf` + pick; `filterPick` of 1,000
 * records (half owned) with a listOwned hook, counting the hook calls (must be exactly one); and
 * the awaited `pick` of an owned example document whose ownership the permit already knows, against
 * CASL's `permittedFieldsOf` + pick with the ownership condition.
 * Every implementation's output must equal the hand-written one.
 */
import { isDeepStrictEqual } from 'node:util';
import { accessControl3FilterPicker, accessControlPickers } from './peers/accesscontrol.js';
import { caslFilterPicker, caslPicker } from './peers/casl.js';
import { handWrittenFilterPicker, handWrittenPicker } from './peers/nested-object.js';
import type { BenchUser, FilterPicker, PickCase, Picker } from './peers/peer.js';
import { typedPermissionsFilterPicker, typedPermissionsPickers } from './peers/typed-permissions.js';
import { exampleDocuments } from '../examples/documents/example-data.js';
import { medianNs, type BenchSettings } from './measure.js';
import { fillerRecord, halfOwnedRecords, PINNED_PATTERNS } from './scenario.js';
import type { BenchSubjects } from './subjects.js';

export const PICK_BASELINE = 'hand-written projection (baseline)';
export const FILTER_PICK_BASELINE = 'hand-written (baseline)';

export interface AttributeRow {
  readonly implementation: string;
  readonly medianNs: number;
  /** medianNs / the hand-written baseline's medianNs. */
  readonly ratioToBaseline: number;
}

export interface PickCaseResult {
  readonly case: string;
  readonly patterns: readonly string[];
  readonly rows: readonly AttributeRow[];
  /** Implementations whose output differed from the hand-written projection. */
  readonly mismatches: readonly string[];
}

export interface FilterPickResult {
  readonly items: number;
  readonly owned: number;
  readonly rows: readonly AttributeRow[];
  readonly mismatches: readonly string[];
  /** Hook calls of one grantPermit + filterPick over the filler records (listOwned hook). */
  readonly hookCalls: Readonly<Record<string, number>>;
  /** The same for the example's COMPANY_ADMIN reading 1,000 documents (half in their company). */
  readonly documentHookCalls: Readonly<Record<string, number>>;
  readonly documentItemsKept: number;
}

/** Our row of the memo-hit pick case. */
export const OWN_PICK_OURS = 'pick (await), ownership known to the permit';
/** CASL's row of the memo-hit pick case (the same picker as the filler cases). */
export const OWN_PICK_CASL = 'CASL permittedFieldsOf + pick';

/** One implementation's time in the memo-hit pick case. */
export interface OwnPickRow {
  readonly implementation: string;
  readonly medianNs: number;
  /** medianNs / CASL's medianNs. */
  readonly ratioToCasl: number;
}

/**
 * `await permit.pick(document)` for an own grant that adds attributes beyond any, on a
 * document the user owns, with the ownership answer already known to the permit (its grantPermit
 * with `resourceId` asked the ownedAmong executor once).
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

function withRatios(times: ReadonlyMap<string, number>, baseline: string): AttributeRow[] {
  const base = times.get(baseline) as number;
  return [...times].map(([implementation, ns]) => ({ implementation, medianNs: ns, ratioToBaseline: ns / base }));
}

async function runPickCase(
  name: string,
  patterns: readonly string[],
  pickCase: PickCase,
  pickers: readonly Picker[],
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<PickCaseResult> {
  const expected = await (await (pickers.find((picker) => picker.name === PICK_BASELINE) as Picker).prepare(pickCase))(fillerRecord(42, 1));
  const mismatches: string[] = [];
  const times = new Map<string, number>();
  for (const picker of pickers) {
    const pick = await picker.prepare(pickCase);
    // Each implementation gets its own record: CASL tags its records with their subject type.
    const item = fillerRecord(42, 1);
    if (!isDeepStrictEqual(await pick(item), expected)) mismatches.push(picker.name);
    const ns = await medianNs(() => pick(item), settings);
    times.set(picker.name, ns);
    log(`  pick ${name.padEnd(24)} ${picker.name.padEnd(36)} ${ns.toFixed(1)} ns`);
  }
  return { case: name, patterns, rows: withRatios(times, PICK_BASELINE), mismatches };
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

async function runFilterPick(subjects: BenchSubjects, settings: BenchSettings, log: (line: string) => void): Promise<FilterPickResult> {
  const { showcase } = subjects.scenario;
  const user: BenchUser = { id: 77, roles: [showcase.filterPick.role] };
  const pickCase: PickCase = { user, resource: showcase.filterPick.resource, action: 'read' };
  const records = halfOwnedRecords(settings.filterPickItems, user.id);
  subjects.ownership.setRecords(records);
  const filterPickers: FilterPicker[] = [
    typedPermissionsFilterPicker(subjects.permissions),
    accessControl3FilterPicker(subjects.accessControl3, subjects.ownership),
    caslFilterPicker(subjects.rules),
    handWrittenFilterPicker(subjects.ownership),
  ];

  const ours = await (filterPickers[0] as FilterPicker).prepare(pickCase);
  subjects.ownership.resetCalls();
  await ours(records);
  const hookCalls = Object.fromEntries(subjects.ownership.calls);

  const expected = await (await (filterPickers.find((picker) => picker.name === FILTER_PICK_BASELINE) as FilterPicker).prepare(pickCase))(records);
  const mismatches: string[] = [];
  const times = new Map<string, number>();
  for (const picker of filterPickers) {
    const filterPick = await picker.prepare(pickCase);
    const items = halfOwnedRecords(settings.filterPickItems, user.id);
    if (!isDeepStrictEqual(await filterPick(items), expected)) mismatches.push(picker.name);
    const ns = await medianNs(() => filterPick(items), settings);
    times.set(picker.name, ns);
    log(`  filterPick ${records.length} items ${picker.name.padEnd(36)} ${(ns / 1000).toFixed(1)} µs`);
  }
  const documents = await countDocumentHooks(subjects, settings.filterPickItems);
  return {
    items: records.length,
    owned: records.filter((record) => record.ownerId === user.id).length,
    rows: withRatios(times, FILTER_PICK_BASELINE),
    mismatches,
    hookCalls,
    documentHookCalls: documents.calls,
    documentItemsKept: documents.kept,
  };
}

/** The document of the memo-hit case: document 10, created by user 1. */
const OWN_PICK_DOCUMENT_ID = 10;

/** EMPLOYEE's own `read` patterns in definitions/document.permissions.json; the hand-written output below mirrors them. */
const EMPLOYEE_OWN_READ = ['*', '!confidential'] as const;

async function runOwnPick(subjects: BenchSubjects, settings: BenchSettings, log: (line: string) => void): Promise<OwnPickResult> {
  const user: BenchUser = { id: 1, roles: ['EMPLOYEE'] };
  const query = { user, resource: 'document', action: 'read' } as const;
  const source = exampleDocuments.find((document) => document.id === OWN_PICK_DOCUMENT_ID);
  if (source === undefined || source.creatorId !== user.id) throw new Error(`attributes bench: document ${OWN_PICK_DOCUMENT_ID} is no longer user 1's`);
  const expected = { id: source.id, title: source.title, date: source.date, status: source.status, personal: source.personal, creatorId: source.creatorId };
  subjects.ownership.setDocuments(exampleDocuments);

  subjects.ownership.resetCalls();
  const permit = await subjects.permissions.grantPermit({ ...query, resourceId: source.id });
  if (!permit.granted) throw new Error('attributes bench: EMPLOYEE 1 is not granted read on their own document');
  const hookCallsToGrant = Object.fromEntries(subjects.ownership.calls);

  const mismatches: string[] = [];
  const times = new Map<string, number>();
  // Each implementation gets its own copy: CASL tags its records with their subject type.
  const ours = { ...source };
  subjects.ownership.resetCalls();
  if (!isDeepStrictEqual(await permit.pick(ours), expected)) mismatches.push(OWN_PICK_OURS);
  times.set(OWN_PICK_OURS, await medianNs(() => permit.pick(ours), settings));
  const hookCallsWhileTimed = Object.fromEntries(subjects.ownership.calls);

  const caslPick = await caslPicker(subjects.rules).prepare(query);
  const theirs = { ...source };
  if (!isDeepStrictEqual(await caslPick(theirs), expected)) mismatches.push(OWN_PICK_CASL);
  times.set(OWN_PICK_CASL, await medianNs(() => caslPick(theirs), settings));

  const casl = times.get(OWN_PICK_CASL) as number;
  const rows = [...times].map(([implementation, ns]) => ({ implementation, medianNs: ns, ratioToCasl: ns / casl }));
  for (const row of rows) log(`  pick of an owned document, memo hit: ${row.implementation.padEnd(44)} ${row.medianNs.toFixed(1)} ns`);
  return {
    user,
    resource: query.resource,
    action: query.action,
    documentId: source.id,
    patterns: EMPLOYEE_OWN_READ,
    rows,
    mismatches,
    hookCallsToGrant,
    hookCallsWhileTimed,
  };
}

/**
 * Runs benchmark 2 on the 1× subjects.
 *
 * @example
 * ```ts
 * const result = await runAttributesBench(createSubjects(createScenario(1)), benchSettings('smoke'));
 * result.filterPick.hookCalls; // { listOwnedRecords: 1 }
 * ```
 */
export async function runAttributesBench(
  subjects: BenchSubjects,
  settings: BenchSettings,
  log: (line: string) => void = () => undefined,
): Promise<AttributesResult> {
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
    await runPickCase('8 of 10 fields', PINNED_PATTERNS.exclude, exclude, pickers, settings, log),
    await runPickCase('5 of 10 fields', PINNED_PATTERNS.include, include, pickers, settings, log),
  ];
  const ownPick = await runOwnPick(subjects, settings, log);
  return { pick, filterPick: await runFilterPick(subjects, settings, log), ownPick };
}
