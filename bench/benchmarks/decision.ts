/**
 * The decision without a resource id — one role and three roles, granted and denied — for this library (sync,
 * async, typed wrapper), the peers and the nested-object baseline. Before timing, every implementation answers the
 * same sampled queries and must agree with the baseline. Targets: within 2× of the nested object, and faster than
 * CASL's `can`, for each of this library's four decision paths.
 */
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { comparisonTable, rowsWithRatios, timeOf, type TimedRow } from '../harness/comparison.js';
import { grantedInTable, isCrudAction, sampleDecisionQueries, sampleMixedQueries } from '../harness/decision-queries.js';
import { formatRatio } from '../harness/format.js';
import { accessControl2Decider, accessControl3Decider } from '../harness/peers/accesscontrol.js';
import { casbinDecider } from '../harness/peers/casbin.js';
import { caslDecider } from '../harness/peers/casl.js';
import { nestedObjectDecider } from '../harness/peers/nested-object.js';
import type { Decider, DecisionQuery } from '../harness/peers/peer.js';
import { typedPermissionsDeciders } from '../harness/peers/typed-permissions.js';
import { Random } from '../harness/random.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import type { Scale } from '../harness/scenario.js';
import type { BenchSubjects } from '../harness/subjects.js';
import { medianNs } from '../harness/timing.js';

/** The four timed cases. Their queries use CRUD actions, so that accesscontrol 2 answers the same ones. */
export const DECISION_CASES = [
  { name: '1 role, granted', roles: 1, granted: true },
  { name: '1 role, denied', roles: 1, granted: false },
  { name: '3 roles, granted', roles: 3, granted: true },
  { name: '3 roles, denied', roles: 3, granted: false },
] as const;

export type DecisionCaseName = (typeof DECISION_CASES)[number]['name'];

/** The baseline's name, for ratios. */
export const DECISION_BASELINE = 'nested object (baseline)';

export interface DecisionCaseResult {
  readonly scale: Scale;
  readonly case: DecisionCaseName;
  readonly rows: readonly TimedRow[];
}

/** An implementation that answered a query differently from the baseline. */
export interface Disagreement {
  readonly scale: Scale;
  readonly implementation: string;
  readonly query: { readonly roles: readonly string[]; readonly resource: string; readonly action: string };
  readonly expected: boolean;
  readonly got: boolean;
}

export interface DecisionResult {
  readonly cases: readonly DecisionCaseResult[];
  /** Queries every implementation answered before timing (custom actions included except for CRUD-only peers). */
  readonly checkedQueries: number;
  readonly disagreements: readonly Disagreement[];
}

/** This library's decision paths, as the decision benchmark names its rows. */
const OUR_DECIDERS = ['grantPermitSync', 'typed grantPermitSync', 'grantPermit (await)', 'typed grantPermit (await)'] as const;
const CASL_CAN = 'CASL ability.can';
const LIMIT = 'See "What limits the missed targets" below: decision.';

/**
 * Every decider of a scenario, baseline last.
 *
 * @example
 * ```ts
 * decidersOf(subjects).map((decider) => decider.name); // ['grantPermitSync', …, 'nested object (baseline)']
 * ```
 */
export function decidersOf(subjects: BenchSubjects): Decider[] {
  return [
    ...typedPermissionsDeciders(subjects.permissions, subjects.typed),
    accessControl3Decider(subjects.accessControl3),
    accessControl2Decider(subjects.accessControl2),
    caslDecider(subjects.rules),
    casbinDecider(subjects.rules),
    nestedObjectDecider(subjects.table),
  ];
}

/** Every answer of every decider to `queries` that differs from the nested table's. */
async function disagreementsOf(subjects: BenchSubjects, decider: Decider, queries: readonly DecisionQuery[]): Promise<Disagreement[]> {
  const usable = decider.crudOnly ? queries.filter((query) => isCrudAction(query.action)) : queries;
  const check = await decider.prepare(usable);
  const disagreements: Disagreement[] = [];
  for (const [i, { user, resource, action }] of usable.entries()) {
    const expected = grantedInTable(subjects.table, user.roles, resource, action);
    const got = await check(i);
    if (got !== expected)
      disagreements.push({ scale: subjects.scenario.scale, implementation: decider.name, query: { roles: user.roles, resource, action }, expected, got });
  }
  return disagreements;
}

async function checkAgreement(
  subjects: BenchSubjects,
  deciders: readonly Decider[],
  querySets: readonly (readonly DecisionQuery[])[],
): Promise<{ checked: number; disagreements: Disagreement[] }> {
  const disagreements: Disagreement[] = [];
  let checked = 0;
  for (const queries of querySets) {
    for (const decider of deciders) {
      disagreements.push(...(await disagreementsOf(subjects, decider, queries)));
      checked += decider.crudOnly ? queries.filter((query) => isCrudAction(query.action)).length : queries.length;
    }
  }
  return { checked, disagreements };
}

/** Times every decider over the case's queries, cycling through them. */
async function timeCase(
  subjects: BenchSubjects,
  deciders: readonly Decider[],
  decisionCase: (typeof DECISION_CASES)[number],
  queries: readonly DecisionQuery[],
  { settings, log }: BenchContext,
): Promise<DecisionCaseResult> {
  const mask = queries.length - 1;
  const times = new Map<string, number>();
  for (const decider of deciders) {
    const check = await decider.prepare(queries);
    let i = 0;
    const ns = await medianNs(() => check(i++ & mask), settings);
    times.set(decider.name, ns);
    log(`  decision ${subjects.scenario.scale}x ${decisionCase.name.padEnd(17)} ${decider.name.padEnd(30)} ${ns.toFixed(1)} ns`);
  }
  return { scale: subjects.scenario.scale, case: decisionCase.name, rows: rowsWithRatios(times, DECISION_BASELINE) };
}

async function measureScale(subjects: BenchSubjects, context: BenchContext): Promise<DecisionResult> {
  const { settings } = context;
  const random = new Random(7 * subjects.scenario.scale);
  const deciders = decidersOf(subjects);
  const querySets = DECISION_CASES.map((decisionCase, c) =>
    sampleDecisionQueries(subjects, random, settings.queriesPerCase, decisionCase.roles, decisionCase.granted, 1000 * (c + 1)),
  );
  const mixed = sampleMixedQueries(subjects, random, settings.smoke ? 200 : 500, 100_000);
  const agreement = await checkAgreement(subjects, deciders, [...querySets, mixed]);
  const cases: DecisionCaseResult[] = [];
  for (const [c, decisionCase] of DECISION_CASES.entries())
    cases.push(await timeCase(subjects, deciders, decisionCase, querySets[c] as DecisionQuery[], context));
  return { cases, checkedQueries: agreement.checked, disagreements: agreement.disagreements };
}

/** Runs at the scales the settings name. */
async function run(context: BenchContext): Promise<DecisionResult> {
  const results: DecisionResult[] = [];
  for (const subjects of context.subjects.filter((s) => context.settings.decisionScales.includes(s.scenario.scale)))
    results.push(await measureScale(subjects, context));
  return {
    cases: results.flatMap((result) => result.cases),
    checkedQueries: results.reduce((sum, result) => sum + result.checkedQueries, 0),
    disagreements: results.flatMap((result) => result.disagreements),
  };
}

const scalesOf = (decision: DecisionResult): number[] => [...new Set(decision.cases.map((c) => c.scale))];

/** The decision tables, one per scale (median per call, ratio to the nested object), then the agreement line. */
function sections(decision: DecisionResult | undefined): string[] {
  if (decision === undefined) return [];
  const tables = scalesOf(decision).map((scale) => {
    const cases = decision.cases.filter((c) => c.scale === scale);
    const header = ['implementation', ...cases.map((c) => c.case)];
    return `Decision, ${scale}× scenario — median per call (ratio to the ${DECISION_BASELINE}):\n\n${comparisonTable(header, cases)}`;
  });
  const firstDisagreements = decision.disagreements.length > 0 ? `: ${JSON.stringify(decision.disagreements.slice(0, 5))}` : '';
  return [
    ...tables,
    `Agreement: ${decision.checkedQueries} answers checked against the baseline before timing, ` +
      `${decision.disagreements.length} disagreements${firstDisagreements}.`,
  ];
}

/** Within 2× of the nested object in every case of one scale. */
function baselineTarget(implementation: string, scale: number, cases: readonly DecisionCaseResult[]): TargetVerdict {
  const ratios = cases.map((c) => ({ name: c.case, ratio: c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN }));
  const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const met = ratios.every((r) => r.ratio <= 2);
  return {
    target: `Decision within 2× of the nested-object baseline — ${implementation}, ${scale}×`,
    measured: `${ratios.map((r) => `${r.name} ${formatRatio(r.ratio)}`).join('; ')} (worst: ${worst.name})`,
    met,
    ...limitWhenMissed(met, LIMIT),
  };
}

/** Faster than CASL's `can` in every case of one scale. */
function caslTarget(implementation: string, scale: number, cases: readonly DecisionCaseResult[]): TargetVerdict {
  const versus = cases.map((c) => ({ name: c.case, speedup: timeOf(c.rows, CASL_CAN) / timeOf(c.rows, implementation) }));
  const met = versus.every((v) => v.speedup > 1);
  return {
    target: `Decision faster than CASL's can — ${implementation}, ${scale}×`,
    measured: `CASL's time ÷ ours: ${versus.map((v) => `${v.name} ${formatRatio(v.speedup)}`).join('; ')}`,
    met,
    ...limitWhenMissed(met, LIMIT),
  };
}

function targets(decision: DecisionResult | undefined): TargetVerdict[] {
  if (decision === undefined) return [];
  return OUR_DECIDERS.flatMap((implementation) =>
    scalesOf(decision).flatMap((scale) => {
      const cases = decision.cases.filter((c) => c.scale === scale);
      return [baselineTarget(implementation, scale, cases), caslTarget(implementation, scale, cases)];
    }),
  );
}

/** The decision benchmark. */
export const decisionBenchmark: Benchmark<DecisionResult> = { title: 'decision', run, sections, targets };
