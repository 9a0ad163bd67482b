/**
 * The awaited pick of one document whose ownership the permit already knows, against
 * CASL's `permittedFieldsOf` + copy with the smallest ability that means the same — three rules —
 * timed in interleaved rounds (see `interleavedRounds` for why).
 *
 * - typed-permissions: an EMPLOYEE whose own grant reads `['*', '!confidential']` (a listOwned hook
 *   decides ownership) and whose any grant reads `['title', 'date']`; one permit, granted once; one
 *   `await permit.isOwn(id)` per document before timing, so every timed `await permit.pick(document)`
 *   answers from the permit's memo without calling a hook.
 * - CASL 7: `read` of `title` and `date` of any document, `read` of own documents (`creatorId`), and
 *   an inverted `read` of `confidential` on own documents; timed: `permittedFieldsOf(ability, 'read',
 *   subject('document', document), { fieldsFrom })`, then those fields copied into a new object.
 *
 * Both run for an owned and for a not-owned document, and must return the same objects. The target, on the owned
 * document: ours at most 0.5× CASL's median, with equal outputs and no hook call while timed.
 * Alone: `node --expose-gc --import tsx bench/run.ts --only awaitedPick [--smoke] [--rounds N] [--iterations N]`.
 */
import { createMongoAbility, subject, type MongoAbility } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
import { isDeepStrictEqual } from 'node:util';
import { Permissions, type PermissionDefinition, type Permit } from '../../runtime/permissions/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { formatCalls, formatNs, formatRatio, roundTimesCells, table } from '../harness/format.js';
import type { BenchUser } from '../harness/peers/peer.js';
import type { TargetVerdict } from '../harness/report.js';
import type { InterleavedSettings } from '../harness/settings.js';
import { interleavedRounds, roundRatios, type RoundRatios, type RoundTimes, type TimedSide } from '../harness/timing.js';

/** A document shaped like the example app's rows. */
export interface AwaitedPickDocument {
  readonly id: number;
  readonly title: string;
  readonly date: string;
  readonly status: string;
  readonly personal: string;
  readonly confidential: string;
  readonly creatorId: number;
}

/** The two cases: the reader owns the document, or does not. */
export type AwaitedPickCaseName = 'owned' | 'not owned';

/** The reader: an EMPLOYEE. */
export const AWAITED_PICK_USER: BenchUser = { id: 1, roles: ['EMPLOYEE'] };

/** The own grant's and the any grant's `read` patterns (the example's EMPLOYEE, with an any grant added). */
export const AWAITED_PICK_GRANTS = { own: ['*', '!confidential'], any: ['title', 'date'] } as const;

const DOCUMENTS: Readonly<Record<AwaitedPickCaseName, AwaitedPickDocument>> = {
  owned: { id: 10, title: 'Own report', date: '2024-03-01', status: 'draft', personal: 'personal', confidential: 'confidential', creatorId: 1 },
  'not owned': { id: 2, title: 'Colleague report', date: '2024-02-01', status: 'final', personal: 'personal', confidential: 'confidential', creatorId: 2 },
};

/** What each case must return, written out: what the two sides are checked against before timing. */
const EXPECTED: Readonly<Record<AwaitedPickCaseName, object>> = {
  owned: { id: 10, title: 'Own report', date: '2024-03-01', status: 'draft', personal: 'personal', creatorId: 1 },
  'not owned': { title: 'Colleague report', date: '2024-02-01' },
};

const DEFINITIONS: readonly PermissionDefinition[] = [
  {
    roles: ['EMPLOYEE'],
    resource: 'document',
    possession: 'own',
    grant: { read: [...AWAITED_PICK_GRANTS.own], 'read:any': [...AWAITED_PICK_GRANTS.any] },
    listOwned: 'listOwnedDocuments',
  },
];

/** The ownership service: lists the reader's documents and counts its calls (none may happen while timed). */
class DocumentOwnership {
  readonly calls = new Map<string, number>();

  listOwnedDocuments({ user }: { user: BenchUser }): readonly number[] {
    this.calls.set('listOwnedDocuments', (this.calls.get('listOwnedDocuments') ?? 0) + 1);
    return Object.values(DOCUMENTS)
      .filter((document) => document.creatorId === user.id)
      .map((document) => document.id);
  }
}

/** Every field of a document: what a CASL rule without `fields` covers. */
const ALL_FIELDS: string[] = Object.keys(DOCUMENTS.owned);
const fieldsFrom = (rule: { fields?: string[] | undefined }): string[] => rule.fields ?? ALL_FIELDS;

/**
 * The three-rule ability of `user`. CASL lets later rules override earlier ones, so the inverted
 * `confidential` rule comes after the own rule it narrows.
 *
 * @example
 * ```ts
 * threeRuleAbility(AWAITED_PICK_USER).can('read', subject('document', { ...document, creatorId: 1 }), 'confidential'); // false
 * ```
 */
export function threeRuleAbility(user: BenchUser): MongoAbility {
  return createMongoAbility([
    { action: 'read', subject: 'document', fields: [...AWAITED_PICK_GRANTS.any] },
    { action: 'read', subject: 'document', conditions: { creatorId: user.id } },
    { action: 'read', subject: 'document', fields: ['confidential'], inverted: true, conditions: { creatorId: user.id } },
  ]);
}

/**
 * CASL's side of the timed operation: the permitted fields of `document`, copied into a new object.
 *
 * @example
 * ```ts
 * caslPermittedCopy(threeRuleAbility(AWAITED_PICK_USER), { ...document }); // every field but confidential, when user 1 created it
 * ```
 */
export function caslPermittedCopy(ability: MongoAbility, document: AwaitedPickDocument): Partial<AwaitedPickDocument> {
  const fields = permittedFieldsOf(ability, 'read', subject('document', document), { fieldsFrom });
  const source = document as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(source, field)) out[field] = source[field];
  return out;
}

/** One case: both sides' per-call times over the interleaved rounds. */
export interface AwaitedPickCase {
  readonly case: AwaitedPickCaseName;
  readonly documentId: number;
  /** The fields both sides returned, sorted (the order of keys is no part of the comparison). */
  readonly fields: readonly string[];
  readonly ours: RoundTimes;
  readonly casl: RoundTimes;
  /** ours.medianNs / casl.medianNs. */
  readonly ratio: number;
  /** ours ÷ CASL round by round: how much the ratio moved within the run. */
  readonly roundRatios: RoundRatios;
  /** The sides whose output differed from the expected object. */
  readonly mismatches: readonly string[];
}

export interface AwaitedPickResult {
  readonly user: BenchUser;
  readonly grants: { readonly own: readonly string[]; readonly any: readonly string[] };
  readonly caslRules: number;
  readonly settings: InterleavedSettings;
  readonly cases: readonly AwaitedPickCase[];
  /** Ownership-service calls before timing (the one permit and its isOwn questions). */
  readonly hookCallsBeforeTiming: Readonly<Record<string, number>>;
  /** Ownership-service calls while timed: none when every pick answers from the permit's memo. */
  readonly hookCallsWhileTimed: Readonly<Record<string, number>>;
}

/** Keeps results alive so that no call is optimised away. */
const sink: unknown[] = [undefined];

/** The two timed sides: our awaited pick from the permit's memo, and CASL's permitted fields copied. */
function sidesOf(permit: Permit<BenchUser>, ourDocument: AwaitedPickDocument, ability: MongoAbility, caslDocument: AwaitedPickDocument): TimedSide[] {
  return [
    {
      name: 'typed-permissions',
      run: async (iterations) => {
        for (let i = 0; i < iterations; i++) sink[0] = await permit.pick(ourDocument);
      },
    },
    {
      name: 'CASL',
      run: (iterations) => {
        for (let i = 0; i < iterations; i++) sink[0] = caslPermittedCopy(ability, caslDocument);
      },
    },
  ];
}

async function runCase(
  name: AwaitedPickCaseName,
  permit: Permit<BenchUser>,
  ability: MongoAbility,
  settings: InterleavedSettings,
  gc: () => void,
): Promise<AwaitedPickCase> {
  // Each side gets its own copy: CASL's subject() tags the object it is given with its type.
  const ourDocument = { ...DOCUMENTS[name] };
  const caslDocument = { ...DOCUMENTS[name] };
  const picked = await permit.pick(ourDocument);
  const mismatches = [
    ...(isDeepStrictEqual(picked, EXPECTED[name]) ? [] : ['typed-permissions']),
    ...(isDeepStrictEqual(caslPermittedCopy(ability, caslDocument), EXPECTED[name]) ? [] : ['CASL']),
  ];
  const [ours, casl] = (await interleavedRounds(sidesOf(permit, ourDocument, ability, caslDocument), settings, gc)) as [RoundTimes, RoundTimes];
  return {
    case: name,
    documentId: DOCUMENTS[name].id,
    fields: Object.keys(picked).sort(),
    ours,
    casl,
    ratio: ours.medianNs / casl.medianNs,
    roundRatios: roundRatios(ours, casl),
    mismatches,
  };
}

/** The owned case, then the not-owned case, each in interleaved rounds, from one permit that knows both ownerships. */
async function run({ settings, log, gc }: BenchContext): Promise<AwaitedPickResult> {
  const ownership = new DocumentOwnership();
  const permissions = new Permissions<BenchUser>({ ownership }).addPermissions(DEFINITIONS, { source: 'awaited pick bench' }).build();
  const permit = await permissions.grantPermit({ user: AWAITED_PICK_USER, resource: 'document', action: 'read' });
  // Ownership known before timing: one listOwned call answers both documents.
  if (!(await permit.isOwn(DOCUMENTS.owned.id)) || (await permit.isOwn(DOCUMENTS['not owned'].id)))
    throw new Error('awaited pick bench: isOwn does not match the documents’ creators');
  const hookCallsBeforeTiming = Object.fromEntries(ownership.calls);
  ownership.calls.clear();
  const ability = threeRuleAbility(AWAITED_PICK_USER);
  const cases: AwaitedPickCase[] = [];
  for (const name of ['owned', 'not owned'] as const) {
    const result = await runCase(name, permit, ability, settings.awaitedPick, gc);
    log(
      `  awaited pick, ${name.padEnd(9)} ours ${result.ours.medianNs.toFixed(1)} ns, CASL ${result.casl.medianNs.toFixed(1)} ns, ` +
        `ratio ${result.ratio.toFixed(2)} (per round ${result.roundRatios.min.toFixed(2)}–${result.roundRatios.max.toFixed(2)})`,
    );
    cases.push(result);
  }
  return {
    user: AWAITED_PICK_USER,
    grants: AWAITED_PICK_GRANTS,
    caslRules: ability.rules.length,
    settings: settings.awaitedPick,
    cases,
    hookCallsBeforeTiming,
    hookCallsWhileTimed: Object.fromEntries(ownership.calls),
  };
}

/** The target: the awaited pick of an owned document whose ownership the permit knows, at most half CASL's time. */
export const AWAITED_PICK_TARGET = 'Awaited pick with known ownership ≤ 0.5× CASL (interleaved, three-rule ability)';

const rowsOf = (c: AwaitedPickCase): string[][] => [
  [c.case, `typed-permissions: await permit.pick(document)`, ...roundTimesCells(c.ours), formatRatio(c.ratio)],
  [c.case, 'CASL: permittedFieldsOf + copy', ...roundTimesCells(c.casl), formatRatio(1)],
];

const spreadOf = (c: AwaitedPickCase): string =>
  `${c.case}: ${formatRatio(c.roundRatios.median)} (${formatRatio(c.roundRatios.min)}–${formatRatio(c.roundRatios.max)})`;

/**
 * The awaited-pick sections: the table of both cases, then the per-round ratios, the outputs and the
 * hook calls (none for results recorded before this benchmark existed).
 */
function sections(result: AwaitedPickResult | undefined): string[] {
  if (result === undefined) return [];
  const { settings, grants } = result;
  const warmup = `${settings.warmupRounds} warm-up round${settings.warmupRounds === 1 ? '' : 's'}`;
  const mismatches = result.cases.flatMap((c) => c.mismatches.map((side) => `${c.case}: ${side}`));
  return [
    `Awaited pick, ownership known, interleaved against a ${result.caslRules}-rule CASL ability: EMPLOYEE ${result.user.id} ` +
      `(own \`${JSON.stringify(grants.own)}\` by a listOwned hook, any \`${JSON.stringify(grants.any)}\`), one permit, ` +
      `ownership asked with isOwn before timing; ${settings.rounds} rounds of ${settings.iterationsPerRound} calls per side ` +
      `in alternation after ${warmup} — per call, median / p95 / p99 of the round means:\n\n${table(
        ['document', 'implementation', 'median', 'p95', 'p99', 'ratio to CASL (medians)'],
        result.cases.flatMap(rowsOf),
      )}`,
    `Ours ÷ CASL round by round, median (range): ${result.cases.map(spreadOf).join('; ')}. ` +
      `Outputs equal on both sides and to the expected objects: ${mismatches.length === 0 ? 'all' : `mismatches: ${mismatches.join(', ')}`}. ` +
      `Ownership-service calls before timing: ${formatCalls(result.hookCallsBeforeTiming)}; ` +
      `while timed: ${formatCalls(result.hookCallsWhileTimed)}.`,
  ];
}

/**
 * The awaited-pick target, on the owned document: ours at most 0.5× CASL's median, with equal outputs
 * and no hook call while timed.
 */
function targets(result: AwaitedPickResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const owned = result.cases.find((c) => c.case === 'owned');
  const notOwned = result.cases.find((c) => c.case === 'not owned');
  if (owned === undefined) return [{ target: AWAITED_PICK_TARGET, measured: 'not measured', met: undefined }];
  const noHooks = Object.keys(result.hookCallsWhileTimed).length === 0;
  const outputs = result.cases.every((c) => c.mismatches.length === 0);
  return [
    {
      target: AWAITED_PICK_TARGET,
      measured:
        `${formatRatio(owned.ratio)} (ours ${formatNs(owned.ours.medianNs)}, CASL ${formatNs(owned.casl.medianNs)}; ` +
        `per round ${formatRatio(owned.roundRatios.min)}–${formatRatio(owned.roundRatios.max)}); ` +
        `not owned: ${notOwned === undefined ? '—' : formatRatio(notOwned.ratio)}; ` +
        `hook calls while timed: ${formatCalls(result.hookCallsWhileTimed)}; ${outputs ? 'outputs equal' : 'OUTPUTS DIFFER'}`,
      met: owned.ratio <= 0.5 && noHooks && outputs,
    },
  ];
}

/** The awaited pick, interleaved against a three-rule CASL ability. */
export const awaitedPickBenchmark: Benchmark<AwaitedPickResult> = {
  title: 'awaited pick, interleaved against a three-rule CASL ability',
  run,
  sections,
  targets,
};
