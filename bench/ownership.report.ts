/**
 * The ownership benchmark on PGlite in the report: filterPick of every document and isOwn of one,
 * with isOwner per document ("before") and with ownedAmong ("after"); and the targets on the SQL
 * statements and on the speed-up.
 */
import type { OwnershipResult } from './ownership.bench.js';
import { formatMs, formatNs, formatRatio, table, type TargetVerdict } from './report.js';

/**
 * The ownership sections: the filterPick table and what it kept, the isOwn table and its answers
 * (none for results recorded before this benchmark existed).
 *
 * @example
 * ```ts
 * ownershipSections(results.ownership)[0]; // "Ownership on the example's data layer — PGlite …"
 * ```
 */
export function ownershipSections(ownership: OwnershipResult | undefined): string[] {
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
 *
 * @example
 * ```ts
 * ownershipTargets(results.ownership)[0]?.met; // true: 1 statement + 1 to fetch
 * ```
 */
export function ownershipTargets(ownership: OwnershipResult | undefined): TargetVerdict[] {
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
