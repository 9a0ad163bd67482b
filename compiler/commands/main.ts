/**
 * The `typed-permissions` command line: one module per command (this folder), dispatched here.
 * Exit codes: 0 success, 1 invalid input or failed checks, 2 usage errors.
 */
import { packageVersion, PermissionsUsageError } from 'typed-permissions/internal';
import { createInterface } from 'node:readline/promises';
import { printableLines, UsageError, type Command, type CommandOutput } from './command-line.js';

const USAGE = `Usage:
  typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]
  typed-permissions explain [definitionsDir] --roles <A,B> | --role <name>... --resource <name> --action <name> [--tenant <id> [--tenant-roles <file>]] [--json]
  typed-permissions test [definitionsDir] [--coverage] [--reporter junit <file>]
  typed-permissions diff <before> <after> [--format text|markdown|json] [--database-url <url>] [--store <folder> --policy <policy.json>]
  typed-permissions render [definitionsDir] --out <folder> [--before <definitionsDir|policy.json|store:<n>|store:active|tenant:<id>>] [--database-url <url>]
  typed-permissions policy publish [definitionsDir] [--database-url <url>] [--note <text>] [--published-by <name>] [--yes] [--force]
  typed-permissions policy list [--database-url <url>]
  typed-permissions policy rollback <sequence> [--database-url <url>] [--note <text>] [--published-by <name>] [--force]
  typed-permissions policy followers [--database-url <url>]
  typed-permissions tenant publish <tenant> <file> [--database-url <url> | --store <folder>] [--policy <policy.json>] [--note <text>] [--published-by <name>]
  typed-permissions tenant list [--database-url <url> | --store <folder>] [--after <tenant>] [--limit <n>]
  typed-permissions tenant show <tenant> [--database-url <url> | --store <folder>]
  typed-permissions tenant rollback <tenant> <sequence> [--database-url <url> | --store <folder>] [--policy <policy.json>]
  typed-permissions replay --candidate <definitionsDir|policy.json> --decisions <file.jsonl|postgres://…> [--table <name>] [--column <name>]
                           [--tenant-roles <folder>] [--format text|markdown|json] [--examples <n>]
  typed-permissions serve (--policy <file> | --policy-url <url> | --database-url <url>) [--token <t>]…
  typed-permissions --version | --help

  definitionsDir   folder of *.permissions.json, *.permissions.ts, *.resource.json and *.permissions.test.json (default: definitions)
  --out <dir>      output folder (default: generated)
  --check          do not write; exit 1 and list the files that are stale
  --watch          recompile on every change; keeps running after an invalid edit
  explain          say which definitions grant (or would grant) the action to those roles, and with which attributes
  test             run the policy tests (*.permissions.test.json) against the compiled tables; exit 1 when one fails
  --coverage       with test: also list the grants (role, resource, action:possession) that no test exercised
  --reporter junit <file>
                   with test: also write the results to <file> as a JUnit XML report
  diff             the exact difference between two policies: cells gained or lost, attributes widened or narrowed,
                   ownership changed; each side a definitions folder, a policy.json bundle, store:<sequence> or
                   store:active (the policy store), or tenant:<id> (the policy with that tenant's custom roles, from
                   --store or the database); exit 0 when nothing changes, 1 when something does, 2 on an error
  render           write the review page: a static site (index.html, a page per role and per resource) showing
                   who may do what, in tables and sentences, readable offline without JavaScript; --out must be
                   missing, empty or an earlier render; --before highlights what changed since that version
  policy           the PostgreSQL policy store applications follow (--database-url, else DATABASE_URL;
                   --schema and --channel when the store is not typed_permissions / typed_permissions_policy);
                   publish runs the policy tests first and publishes nothing when one fails, then prints the diff
                   against the active version and asks before publishing (--yes does not ask; without a terminal
                   and without --yes it publishes nothing, exit 2); list shows who published and what changed
                   publish and rollback change nothing when a running follower would reject the version (--force does)
                   followers lists the applications following the store, what they run and their last rejection
  tenant           tenants' custom roles ({ "definitions": [ … ] }), versioned per tenant, in the PostgreSQL store
                   (--database-url, else DATABASE_URL; checked against its active policy unless --policy) or in a
                   folder (--store, checked against --policy, a bundle that compile wrote); a file with problems
                   prints them at file:line:column and publishes nothing
  replay           decide the logged decisions again under a candidate policy and report the answers that would
                   change, by roles, resource and action (a JSON Lines export of the decision log, or its PostgreSQL
                   table: --table, default decision_log, and --column holding each event, default event); the
                   ownership of a record is the answer the log holds; exit 0 when no answer changes, 1 when some do, 2 on error
  serve            the decision service over HTTP (in the typed-permissions package; typed-permissions serve --help)`;

/**
 * Each command, imported when it runs: a command loads only what it uses (the emitter, TypeScript and prettier
 * for `compile`; the PostgreSQL client for the store's commands), so that `test`, `diff` or `--help` start fast.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  compile: async () => (await import('./compile-command.js')).compileCommand,
  explain: async () => (await import('./explain-command.js')).explainCommand,
  test: async () => (await import('./test-command.js')).testCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
  render: async () => (await import('./render-command.js')).renderCommand,
  policy: async () => (await import('./policy-command.js')).policyCommand,
  tenant: async () => (await import('./tenant-command.js')).tenantCommand,
  replay: async () => (await import('./replay-command.js')).replayCommand,
};

/** Asks on the process's terminal (standard error, so that standard output stays the command's result). */
async function askOnTerminal(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

/**
 * Runs the command line with `argv` (without node and script) and returns the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(['compile', 'definitions', '--check']);
 * ```
 */
export async function main(
  argv: readonly string[],
  output: CommandOutput = {
    log: (line: string) => console.log(line),
    error: (line: string) => console.error(line),
    progress: { stream: process.stderr },
    ask: process.stdin.isTTY ? askOnTerminal : undefined,
  },
): Promise<number> {
  // Every line may carry input (folder names, definitions, roles): no control character reaches the terminal.
  const io: CommandOutput = {
    log: (text: string) => output.log(printableLines(text)),
    error: (text: string) => output.error(printableLines(text)),
    progress: output.progress,
    ask: output.ask,
  };
  const [name, ...rest] = argv;
  if (argv.includes('--help') || argv.includes('-h')) {
    io.log(USAGE);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.log(`typed-permissions-cli ${packageVersion(import.meta.url, 'typed-permissions-cli') ?? '(version unknown)'}`);
    return 0;
  }
  if (name === undefined || name.startsWith('-')) {
    io.error(`typed-permissions: No command given.\n\n${USAGE}`);
    return 2;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) {
    io.error(`typed-permissions: Unknown command ${JSON.stringify(name)}.\n\n${USAGE}`);
    return 2;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.error(`typed-permissions: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    // A refusal the library explains (a missing peer such as pg, a bundle it cannot publish): its message, exit 1.
    if (error instanceof PermissionsUsageError) {
      io.error(`typed-permissions: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/**
 * Runs {@link main} for a process and sets its exit code; an unexpected error is reported as an
 * internal error (exit 2) with its stack, for a bug report.
 *
 * @example
 * ```ts
 * await runMain(process.argv.slice(2)); // in a bin script
 * ```
 */
export async function runMain(argv: readonly string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    console.error(`typed-permissions: internal error: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 2;
  }
}
