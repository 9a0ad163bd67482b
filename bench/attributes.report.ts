/**
 * The attribute benchmark in the report: pick of one record against the hand-written projection and
 * the peers, filterPick of a list with its hook calls, the memo-hit pick of an owned example document
 * against CASL; and their targets.
 */
import { FILTER_PICK_BASELINE, OWN_PICK_CASL, OWN_PICK_OURS, PICK_BASELINE, type AttributesResult, type OwnPickResult } from './attributes.bench.js';
import { formatCalls, formatNs, formatRatio, limitWhenMissed, table, type TargetVerdict } from './report.js';

/** This library's pick paths, as the attribute benchmark names its rows. */
const OUR_PICKERS = ['pickSync', 'pick (await)'] as const;
const CASL_PICK = 'CASL permittedFieldsOf + pick';
const PICK_LIMIT = 'See "What limits the missed targets" below: pick.';
const FILTER_PICK_LIMIT = 'A listOwned hook was called more than once per permit: a regression in Permit.filterPick.';

/** The target of the memo-hit pick (the interleaved harness against a three-rule ability has its own). */
export const OWN_PICK_TARGET = 'Async pick of an owned document whose ownership the permit already knows, at most 0.5× CASL’s permittedFieldsOf + pick';

const timeOf = (rows: readonly { readonly implementation: string; readonly medianNs: number }[], implementation: string): number =>
  rows.find((row) => row.implementation === implementation)?.medianNs ?? Number.NaN;

function ownPickSections(ownPick: OwnPickResult | undefined): string[] {
  if (ownPick === undefined) return [];
  return [
    `Async pick, own grant beyond any, memo hit: EMPLOYEE ${ownPick.user.id} reads document ${ownPick.documentId}, which they own ` +
      `(own \`${JSON.stringify(ownPick.patterns)}\`, no ${ownPick.action}:any); the permit came from grantPermit with that resourceId — ` +
      `median per call (ratio to CASL):\n\n${table(
        ['implementation', 'median', 'ratio to CASL'],
        ownPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToCasl)]),
      )}`,
    `Outputs equal to the hand-written one: ${ownPick.mismatches.length === 0 ? 'all' : `mismatches: ${ownPick.mismatches.join(', ')}`}. ` +
      `Ownership-service calls of the grantPermit: ${JSON.stringify(ownPick.hookCallsToGrant)}; ` +
      `during the timed picks: ${formatCalls(ownPick.hookCallsWhileTimed)}.`,
  ];
}

/**
 * The attribute sections: the pick table, filterPick, and the memo-hit pick.
 *
 * @example
 * ```ts
 * attributeSections(results.attributes)[0]; // 'pick of one 10-field record — median per call (ratio to the hand-written projection (baseline)): …'
 * ```
 */
export function attributeSections(attributes: AttributesResult): string[] {
  const implementations = attributes.pick[0]?.rows.map((row) => row.implementation) ?? [];
  const pickRows = implementations.map((implementation) => [
    implementation,
    ...attributes.pick.map((c) => {
      const row = c.rows.find((r) => r.implementation === implementation);
      return row === undefined ? '—' : `${formatNs(row.medianNs)} (${formatRatio(row.ratioToBaseline)})`;
    }),
  ]);
  const pickHeader = ['implementation', ...attributes.pick.map((c) => `${c.case} \`${JSON.stringify(c.patterns)}\``)];
  const pickOutputs = attributes.pick.every((c) => c.mismatches.length === 0)
    ? 'all'
    : `mismatches: ${attributes.pick.flatMap((c) => c.mismatches.map((m) => `${c.case}: ${m}`)).join(', ')}`;
  const { filterPick } = attributes;
  const filterPickTable = table(
    ['implementation', 'median', 'ratio'],
    filterPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToBaseline)]),
  );
  const filterPickOutputs = filterPick.mismatches.length === 0 ? 'all' : `mismatches: ${filterPick.mismatches.join(', ')}`;
  return [
    `pick of one 10-field record — median per call (ratio to the ${PICK_BASELINE}):\n\n${table(pickHeader, pickRows)}`,
    `Outputs equal to the hand-written projection: ${pickOutputs}.`,
    `filterPick of ${filterPick.items} records (${filterPick.owned} owned; listOwned hook; per request: decision + list) — ` +
      `median per call (ratio to the ${FILTER_PICK_BASELINE}):\n\n${filterPickTable}`,
    `Outputs equal to the hand-written list: ${filterPickOutputs}. Hook calls of one grantPermit + filterPick: ` +
      `${JSON.stringify(filterPick.hookCalls)}; example COMPANY_ADMIN over ${filterPick.items} documents: ` +
      `${JSON.stringify(filterPick.documentHookCalls)}, ${filterPick.documentItemsKept} kept.`,
    ...ownPickSections(attributes.ownPick),
  ];
}

function pickTargets(attributes: AttributesResult): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  for (const implementation of OUR_PICKERS) {
    const ratios = attributes.pick.map((c) => c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN);
    const met = ratios.every((ratio) => ratio <= 2);
    verdicts.push({
      target: `pick within 2× of the hand-written projection — ${implementation}`,
      measured: ratios.map((ratio, i) => `${attributes.pick[i]?.case}: ${formatRatio(ratio)}`).join('; '),
      met,
      ...limitWhenMissed(met, PICK_LIMIT),
    });
    const speedups = attributes.pick.map((c) => timeOf(c.rows, CASL_PICK) / timeOf(c.rows, implementation));
    const fast = speedups.every((speedup) => speedup >= 5);
    verdicts.push({
      target: `pick at least 5× faster than CASL permittedFieldsOf + pick — ${implementation}`,
      measured: `CASL's time ÷ ours: ${speedups.map((speedup, i) => `${attributes.pick[i]?.case} ${formatRatio(speedup)}`).join('; ')}`,
      met: fast,
      ...limitWhenMissed(fast, PICK_LIMIT),
    });
  }
  return verdicts;
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

/**
 * The attribute targets: pick within 2× of the hand-written projection and at least 5× faster than
 * CASL (each pick path), filterPick with exactly one listOwned call, and the memo-hit pick at most
 * 0.5× CASL.
 *
 * @example
 * ```ts
 * attributeTargets(results.attributes).find((verdict) => verdict.target.startsWith('filterPick'))?.met; // true
 * ```
 */
export function attributeTargets(attributes: AttributesResult): TargetVerdict[] {
  return [...pickTargets(attributes), filterPickTarget(attributes), ...(attributes.ownPick === undefined ? [] : [ownPickTarget(attributes.ownPick)])];
}
