/**
 * A replay's report as text for a terminal, Markdown for a pull request's comment, or JSON for a program.
 * Every name in it comes from a log or a policy: each is printable (a line break or a control character shows as an
 * escape, so a logged name adds no line), and Markdown escapes what would change a table, inject markup or make a link.
 */
import { printableText } from 'typed-permissions/internal';
import type { ReplayExample, ReplayGroup, ReplayReport } from './decision-replay.js';
import { markdownText } from './diff-markdown.js';

/** Groups a text or Markdown report lists; the JSON report lists every group the replay kept. */
export const MAX_LISTED_GROUPS = 50;

const number = (n: number): string => n.toLocaleString('en-US');

const changedCount = (report: ReplayReport): number => report.grantedToRefused + report.refusedToGranted;

/** Two lines: what was replayed against what, and what would change. */
function summary(report: ReplayReport): [string, string] {
  const changed = changedCount(report);
  return [
    `Replayed ${number(report.decisions)} logged decisions against ${report.candidate.label} (policy ${report.candidate.version}).`,
    `${number(changed)} would change (${number(report.grantedToRefused)} granted → refused, ${number(report.refusedToGranted)} refused → granted); ` +
      `${number(report.unchanged)} unchanged; ${number(report.undecided)} undecided (the log holds no answer about the record's ownership)` +
      (report.unreadable > 0 ? `; ${number(report.unreadable)} unreadable lines` : '') +
      '.',
  ];
}

function exampleText(example: ReplayExample): string {
  const parts = [`line ${example.line}`, `user ${JSON.stringify(example.userId) ?? 'undefined'}`];
  if (example.tenant !== undefined) parts.push(`tenant ${JSON.stringify(example.tenant)}`);
  if (example.resourceId !== undefined) parts.push(`record ${JSON.stringify(example.resourceId)}`);
  if (example.callId !== undefined) parts.push(`call ${printableText(example.callId)}`);
  return parts.join(', ');
}

const rolesText = (group: ReplayGroup): string => (group.roles.length === 0 ? '(no roles)' : group.roles.map(printableText).join(' + '));

/** Notes that qualify the numbers: tenants without custom roles, unreadable lines, groups left out. */
function notes(report: ReplayReport, listed: number): string[] {
  const lines: string[] = [];
  if (report.inTenantsWithoutCustomRoles > 0)
    lines.push(
      `${number(report.inTenantsWithoutCustomRoles)} decisions were asked in a tenant and decided with the policy's roles alone: ` +
        "give --tenant-roles <folder> to use the tenants' custom roles.",
    );
  for (const line of report.unreadableExamples) lines.push(`unreadable line ${line.line}: ${printableText(line.problem)}`);
  const left = report.groups.length - listed;
  if (left > 0 || report.decisionsInGroupsLeftOut > 0)
    lines.push(
      `${number(left)} more groups not listed` +
        (report.decisionsInGroupsLeftOut > 0 ? `, and ${number(report.decisionsInGroupsLeftOut)} decisions of groups past the replay's limit` : '') +
        ' (--format json lists every group kept).',
    );
  return lines;
}

/**
 * The report for a terminal.
 *
 * @example
 * ```ts
 * console.log(replayText(report));
 * ```
 */
export function replayText(report: ReplayReport): string {
  const listed = report.groups.slice(0, MAX_LISTED_GROUPS);
  const lines: string[] = summary(report);
  if (listed.length > 0) lines.push('', 'By roles, resource and action:');
  for (const group of listed) {
    lines.push(`  ${rolesText(group)} · ${printableText(group.resource)} · ${printableText(group.action)}: ${number(group.count)} ${group.change}`);
    for (const example of group.examples) lines.push(`    e.g. ${exampleText(example)}`);
  }
  const extra = notes(report, listed.length);
  if (extra.length > 0) lines.push('', ...extra);
  return lines.join('\n');
}

/** Text for a Markdown table cell or list item: no markup, no link, no line break, no column break. */
const cell = (text: string): string => markdownText(printableText(text));

/**
 * The report as Markdown, fit for a pull request's comment.
 *
 * @example
 * ```ts
 * await writeFile('replay.md', replayMarkdown(report));
 * ```
 */
export function replayMarkdown(report: ReplayReport): string {
  const listed = report.groups.slice(0, MAX_LISTED_GROUPS);
  const lines = ['### Replay of logged decisions', '', ...summary(report).map(cell).join(' ').split('\n')];
  if (listed.length > 0) {
    lines.push('', '| roles | resource | action | change | decisions | for example |', '| --- | --- | --- | --- | ---: | --- |');
    for (const group of listed)
      lines.push(
        `| ${cell(rolesText(group))} | ${cell(group.resource)} | ${cell(group.action)} | ${group.change} | ${number(group.count)} | ${cell(
          group.examples.map(exampleText).join('; '),
        )} |`,
      );
  }
  const extra = notes(report, listed.length);
  if (extra.length > 0) lines.push('', ...extra.map((line) => `- ${cell(line)}`));
  return lines.join('\n');
}

/**
 * The report as JSON (two-space indented): the replay's report object, every group kept.
 *
 * @example
 * ```ts
 * JSON.parse(replayJson(report)).grantedToRefused; // 12
 * ```
 */
export function replayJson(report: ReplayReport): string {
  return JSON.stringify(report, null, 2);
}
