/**
 * The decision benchmark in the report: a table per scale (median per call, ratio to the nested
 * object), the agreement check, and its targets — within 2× of the nested object, faster than CASL's
 * `can` — for each of this library's four decision paths.
 */
import { DECISION_BASELINE, type DecisionResult } from './decision.bench.js';
import { formatNs, formatRatio, limitWhenMissed, table, type TargetVerdict } from './report.js';

/** This library's decision paths, as the decision benchmark names its rows. */
const OUR_DECIDERS = ['grantPermitSync', 'typed grantPermitSync', 'grantPermit (await)', 'typed grantPermit (await)'] as const;
const CASL_CAN = 'CASL ability.can';
const LIMIT = 'See "What limits the missed targets" below: decision.';

const scalesOf = (decision: DecisionResult): number[] => [...new Set(decision.cases.map((c) => c.scale))];

/**
 * The decision tables, one per scale, then the agreement line.
 *
 * @example
 * ```ts
 * decisionSections(results.decision)[0]; // 'Decision, 1× scenario — median per call (ratio to the nested object (baseline)): …'
 * ```
 */
export function decisionSections(decision: DecisionResult): string[] {
  const sections: string[] = [];
  for (const scale of scalesOf(decision)) {
    const cases = decision.cases.filter((c) => c.scale === scale);
    const implementations = cases[0]?.rows.map((row) => row.implementation) ?? [];
    const rows = implementations.map((implementation) => [
      implementation,
      ...cases.map((c) => {
        const row = c.rows.find((r) => r.implementation === implementation);
        return row === undefined ? '—' : `${formatNs(row.medianNs)} (${formatRatio(row.ratioToBaseline)})`;
      }),
    ]);
    sections.push(
      `Decision, ${scale}× scenario — median per call (ratio to the ${DECISION_BASELINE}):\n\n${table(['implementation', ...cases.map((c) => c.case)], rows)}`,
    );
  }
  const firstDisagreements = decision.disagreements.length > 0 ? `: ${JSON.stringify(decision.disagreements.slice(0, 5))}` : '';
  sections.push(
    `Agreement: ${decision.checkedQueries} answers checked against the baseline before timing, ` +
      `${decision.disagreements.length} disagreements${firstDisagreements}.`,
  );
  return sections;
}

/**
 * The decision targets: for each of our decision paths and each scale, within 2× of the nested
 * object in every case, and faster than CASL's `can` in every case.
 *
 * @example
 * ```ts
 * decisionTargets(results.decision).filter((verdict) => verdict.met === false);
 * ```
 */
export function decisionTargets(decision: DecisionResult): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  for (const implementation of OUR_DECIDERS) {
    for (const scale of scalesOf(decision)) {
      const cases = decision.cases.filter((c) => c.scale === scale);
      const timeOf = (rows: (typeof cases)[number]['rows'], name: string): number => rows.find((row) => row.implementation === name)?.medianNs ?? Number.NaN;
      const ratios = cases.map((c) => ({ name: c.case, ratio: c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN }));
      const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a));
      const met = ratios.every((r) => r.ratio <= 2);
      verdicts.push({
        target: `Decision within 2× of the nested-object baseline — ${implementation}, ${scale}×`,
        measured: `${ratios.map((r) => `${r.name} ${formatRatio(r.ratio)}`).join('; ')} (worst: ${worst.name})`,
        met,
        ...limitWhenMissed(met, LIMIT),
      });
      const versus = cases.map((c) => ({ name: c.case, speedup: timeOf(c.rows, CASL_CAN) / timeOf(c.rows, implementation) }));
      const fasterThanCasl = versus.every((v) => v.speedup > 1);
      verdicts.push({
        target: `Decision faster than CASL's can — ${implementation}, ${scale}×`,
        measured: `CASL's time ÷ ours: ${versus.map((v) => `${v.name} ${formatRatio(v.speedup)}`).join('; ')}`,
        met: fasterThanCasl,
        ...limitWhenMissed(fasterThanCasl, LIMIT),
      });
    }
  }
  return verdicts;
}
