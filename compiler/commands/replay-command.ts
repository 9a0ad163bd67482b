/**
 * `typed-permissions replay --candidate <definitionsDir|policy.json> --decisions <file.jsonl|postgres://…>
 * [--table <name>] [--column <name>] [--tenant-roles <folder>] [--format text|markdown|json] [--examples <n>]`:
 * how many of the logged decisions a candidate policy would answer otherwise. Exit 0 when none would change, 1
 * when some would, 2 on error (as `diff`), so that CI can ask for a review.
 */
import { statSync } from 'node:fs';
import {
  connectionStringForMessages,
  parseBundleText,
  PermissionsUsageError,
  policyBundleProblem,
  type GrantTables,
  type PolicyBundle,
} from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { decisionsOfJsonLines, decisionsOfTable } from '../review/decision-log-sources.js';
import { DEFAULT_REPLAY_EXAMPLES, replayDecisions } from '../review/decision-replay.js';
import { replayJson, replayMarkdown, replayText } from '../review/replay-report.js';
import { existingFolder, parseCommandLine, UsageError, type Command, type CommandOutput } from './command-line.js';
import { commandFileText } from './tenant-roles-file.js';
import { problemReport } from '../problems/problem-cap.js';

/** The most examples a group may show. */
const MAX_EXAMPLES = 100;
const FORMATS = ['text', 'markdown', 'json'] as const;

/** The candidate's tables: a definitions folder compiled in memory (nothing written), or a bundle `compile` wrote. */
async function candidateTables(path: string, io: CommandOutput): Promise<GrantTables | undefined> {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    throw new PermissionsUsageError(`the candidate ${path} does not exist: give a definitions folder or a policy.json that compile wrote.`);
  }
  if (folder) {
    const model = compileModel(path);
    if (model.ok) return model.model.tables;
    for (const line of problemReport(model, path)) io.error(line);
    return undefined;
  }
  const bundle: unknown = parseBundleText(await commandFileText(path, 'the candidate policy', 64 * 1024 * 1024), `file ${path}`);
  // What is no bundle at all is said here; the replay's engine checks the tables' shape whole when it loads them.
  const problem = policyBundleProblem(bundle);
  if (problem !== undefined)
    throw new PermissionsUsageError(`the candidate file ${path} ${problem}: give a definitions folder or a policy.json that compile wrote.`);
  return (bundle as PolicyBundle).tables as GrantTables;
}

/**
 * Runs `replay`.
 *
 * @example
 * ```ts
 * await replayCommand(['--candidate', 'definitions', '--decisions', 'decisions.jsonl'], io); // 1: some answers would change
 * ```
 */
export const replayCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, {
    candidate: { type: 'string' },
    decisions: { type: 'string' },
    table: { type: 'string' },
    column: { type: 'string' },
    'tenant-roles': { type: 'string' },
    format: { type: 'string' },
    examples: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`replay takes no positional arguments, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}.`);
  if (values.candidate === undefined || values.decisions === undefined) throw new UsageError('replay needs --candidate <policy> and --decisions <source>.');
  const format = values.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`replay --format is text, markdown or json, got ${JSON.stringify(format)}.`);
  const examples = values.examples === undefined ? DEFAULT_REPLAY_EXAMPLES : Number(values.examples);
  if (!Number.isInteger(examples) || examples < 0 || examples > MAX_EXAMPLES)
    throw new UsageError(`replay --examples is a whole number from 0 to ${MAX_EXAMPLES}, got ${JSON.stringify(values.examples)}.`);
  const tenantRoles = values['tenant-roles'] === undefined ? undefined : existingFolder('replay', '--tenant-roles', values['tenant-roles']);
  const fromDatabase = /^postgres(ql)?:\/\//.test(values.decisions);
  if (!fromDatabase && (values.table !== undefined || values.column !== undefined))
    throw new UsageError('replay --table and --column name where a PostgreSQL decision log is: --decisions must then be a postgres:// URL.');
  try {
    const candidate = await candidateTables(values.candidate, io);
    if (candidate === undefined) return 2;
    const log = fromDatabase
      ? decisionsOfTable({ connectionString: values.decisions, table: values.table ?? 'decision_log', column: values.column ?? 'event' })
      : decisionsOfJsonLines(values.decisions);
    const report = await replayDecisions(log, { candidate, label: values.candidate, tenantRoles, examples });
    io.log(format === 'json' ? replayJson(report) : format === 'markdown' ? replayMarkdown(report) : replayText(report));
    // A log of which no line is a decision was not read at all: passing a CI gate on it would be passing on nothing.
    if (report.decisions === 0 && report.unreadable > 0) {
      const source = fromDatabase ? connectionStringForMessages(values.decisions) : values.decisions;
      io.error(
        `typed-permissions: replay: no line of ${source} is a logged decision (${report.unreadable} unreadable): ` +
          'give a JSON Lines log of decision events, uncompressed.',
      );
      return 2;
    }
    return report.grantedToRefused + report.refusedToGranted > 0 ? 1 : 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof PermissionsUsageError || code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES' || isDatabaseError(error)) {
      io.error(`typed-permissions: replay: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
};

/** An error of the PostgreSQL server or of reaching it (a refused connection, a missing table or column). */
function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT');
}
