/**
 * `typed-permissions diff <before> <after> [--format text|markdown|json]`: the exact difference between two
 * policies — every cell gained or lost, every attribute set widened or narrowed, every ownership change. Exit 0
 * when nothing changes, 1 when something does, 2 when a side cannot be read (so that CI can tell a change from
 * a failure).
 */
import { formatDiffMarkdown } from '../review/diff-markdown.js';
import { formatDiffText } from '../review/diff-text.js';
import { diffPolicies } from '../review/policy-diff.js';
import { parseCommandLine, UsageError, type Command } from './command-line.js';
import { DiffSideError, SIDE_STORE_OPTIONS, sideStoresOf, sideTables } from './diff-sides.js';

const FORMATS = ['text', 'markdown', 'json'] as const;

/**
 * Runs `diff`.
 *
 * @example
 * ```ts
 * await diffCommand(['main-definitions', 'definitions', '--format', 'markdown'], io); // 1: the policy changes
 * ```
 */
export const diffCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, { format: { type: 'string' }, ...SIDE_STORE_OPTIONS });
  if (positionals.length !== 2)
    throw new UsageError(
      `diff takes two sides, got ${positionals.length}: each a definitions folder, a policy.json bundle, store:<sequence>, store:active or tenant:<id>.`,
    );
  const format = values.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`diff --format takes text, markdown or json, got ${JSON.stringify(format)}.`);
  const stores = sideStoresOf('diff', values);
  const [before, after] = positionals as [string, string];
  let diff;
  try {
    diff = diffPolicies(await sideTables(before, stores), await sideTables(after, stores), { before, after });
  } catch (error) {
    if (!(error instanceof DiffSideError)) throw error;
    for (const line of error.lines) io.error(line);
    return 2;
  }
  if (format === 'json') io.log(JSON.stringify(diff, null, 2));
  else if (format === 'markdown') io.log(formatDiffMarkdown(diff).trimEnd());
  else io.log(formatDiffText(diff));
  return diff.summary.changed ? 1 : 0;
};
