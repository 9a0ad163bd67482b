/**
 * The interleaved awaited pick in the report: per-call median, p95 and p99 of the round means for
 * both sides and both documents, the ratio to CASL, and the target on the owned document.
 */
import type { AwaitedPickCase, AwaitedPickResult } from './awaited-pick.bench.js';
import { formatCalls, formatNs, formatRatio, table, type TargetVerdict } from './report.js';

/** The target: the awaited pick of an owned document whose ownership the permit knows, at most half CASL's time. */
export const AWAITED_PICK_TARGET = 'Awaited pick with known ownership ≤ 0.5× CASL (interleaved, three-rule ability)';

const rowsOf = (c: AwaitedPickCase): string[][] => [
  [c.case, `typed-permissions: await permit.pick(document)`, formatNs(c.ours.medianNs), formatNs(c.ours.p95Ns), formatNs(c.ours.p99Ns), formatRatio(c.ratio)],
  [c.case, 'CASL: permittedFieldsOf + copy', formatNs(c.casl.medianNs), formatNs(c.casl.p95Ns), formatNs(c.casl.p99Ns), formatRatio(1)],
];

const spreadOf = (c: AwaitedPickCase): string =>
  `${c.case}: ${formatRatio(c.roundRatios.median)} (${formatRatio(c.roundRatios.min)}–${formatRatio(c.roundRatios.max)})`;

/**
 * The awaited-pick sections: the table of both cases, then the per-round ratios, the outputs and the
 * hook calls (none for results recorded before this benchmark existed).
 *
 * @example
 * ```ts
 * awaitedPickSections(results.awaitedPick)[0]; // 'Awaited pick, ownership known, interleaved against a three-rule CASL ability: …'
 * ```
 */
export function awaitedPickSections(result: AwaitedPickResult | undefined): string[] {
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
 *
 * @example
 * ```ts
 * awaitedPickTargets(results.awaitedPick)[0]?.measured; // '0.58× (ours 150 ns, CASL 259 ns, …)'
 * ```
 */
export function awaitedPickTargets(result: AwaitedPickResult | undefined): TargetVerdict[] {
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
