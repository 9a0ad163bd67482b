#!/usr/bin/env node
/**
 * The `typed-permissions` command line.
 *   typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]
 * Exit codes: 0 success, 1 invalid definitions (or stale output with --check), 2 usage errors.
 */
import { watch } from 'node:fs';
import { parseArgs } from 'node:util';
import { explainGrant, formatExplanation, printableText } from 'typed-permissions/internal';
import { compileModel } from './compile-model.js';
import { formatCompileProblem } from './compile-problem.js';
import { compile } from './compile.js';

/** Each line of `text` with control and format characters shown as escapes; the line breaks themselves stay. */
function printableLines(text: string): string {
  return text.split('\n').map(printableText).join('\n');
}

const USAGE = `Usage:
  typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]
  typed-permissions explain [definitionsDir] --roles <A,B> --resource <name> --action <name> [--json]

  definitionsDir   folder of *.permissions.json, *.permissions.ts and *.resource.json (default: definitions)
  --out <dir>      output folder (default: generated)
  --check          do not write; exit 1 and list the files that are stale
  --watch          recompile on every change; keeps running after an invalid edit
  explain          say which definitions grant (or would grant) the action to those roles, and with which attributes`;

class UsageError extends Error {}

type ParsedCommand =
  | { readonly command: 'help' }
  | { readonly command: 'compile'; readonly definitionsDir: string; readonly outDir: string; readonly check: boolean; readonly watch: boolean }
  | {
      readonly command: 'explain';
      readonly definitionsDir: string;
      readonly roles: readonly string[];
      readonly resource: string;
      readonly action: string;
      readonly json: boolean;
    };

function parse(argv: readonly string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        check: { type: 'boolean' },
        watch: { type: 'boolean' },
        roles: { type: 'string' },
        resource: { type: 'string' },
        action: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help === true) return { command: 'help' };
  if (command !== 'compile' && command !== 'explain')
    throw new UsageError(command === undefined ? 'No command given.' : `Unknown command ${JSON.stringify(command)}.`);
  if (rest.length > 1) throw new UsageError(`${command} takes one definitions folder, got ${rest.length}.`);
  const { values } = parsed;
  if (command === 'explain') {
    const misplaced = (['out', 'check', 'watch'] as const).filter((flag) => values[flag] !== undefined);
    if (misplaced.length > 0) throw new UsageError(`explain does not take --${misplaced.join(', --')}.`);
    if (values.roles === undefined || values.resource === undefined || values.action === undefined)
      throw new UsageError('explain needs --roles, --resource and --action.');
    const roles = values.roles
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role.length > 0);
    return { command, definitionsDir: rest[0] ?? 'definitions', roles, resource: values.resource, action: values.action, json: values.json === true };
  }
  const misplaced = (['roles', 'resource', 'action', 'json'] as const).filter((flag) => values[flag] !== undefined);
  if (misplaced.length > 0) throw new UsageError(`compile does not take --${misplaced.join(', --')}.`);
  if (parsed.values.check === true && parsed.values.watch === true) throw new UsageError('--check and --watch cannot be combined.');
  return {
    command: 'compile',
    definitionsDir: rest[0] ?? 'definitions',
    outDir: parsed.values.out ?? 'generated',
    check: parsed.values.check === true,
    watch: parsed.values.watch === true,
  };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

async function runOnce(
  definitionsDir: string,
  outDir: string,
  check: boolean,
  log: (line: string) => void,
  error: (line: string) => void,
): Promise<{ code: number; inputs: readonly string[]; unsafeOutput: boolean }> {
  const started = performance.now();
  const result = await compile({ definitionsDir, outDir, check });
  if (!result.ok) {
    for (const problem of result.problems) error(formatCompileProblem(problem, definitionsDir));
    const outputProblems = result.problems.filter((problem) => problem.origin === 'output').length;
    const definitionProblems = result.problems.length - outputProblems;
    if (outputProblems === 0) error(`typed-permissions: ${plural(definitionProblems, 'problem')} in ${definitionsDir}; ${outDir} was not changed.`);
    else {
      const alsoDefinitions = definitionProblems > 0 ? `, and ${plural(definitionProblems, 'problem')} in ${definitionsDir}` : '';
      error(`typed-permissions: ${outDir} is not safe to replace (${plural(outputProblems, 'problem')})${alsoDefinitions}; nothing was changed.`);
    }
    return { code: 1, inputs: result.inputs, unsafeOutput: outputProblems > 0 };
  }
  for (const warning of result.model.warnings) error(`typed-permissions: warning: ${warning}`);
  const { tables } = result.model;
  const summary = `${tables.roles.length} roles, ${tables.resources.length} resources, ${tables.actions.length} actions, ${tables.cells.length} grants`;
  if (check) {
    if (result.stale.length > 0) {
      error(
        `typed-permissions: ${outDir} is stale (${result.stale.join(', ')}). ` +
          `Run \`npx typed-permissions compile ${definitionsDir} --out ${outDir}\` and commit the result.`,
      );
      return { code: 1, inputs: result.inputs, unsafeOutput: false };
    }
    log(`typed-permissions: ${outDir} is up to date (${summary}).`);
    return { code: 0, inputs: result.inputs, unsafeOutput: false };
  }
  const whatChanged = result.written ? `wrote ${result.stale.length} file${result.stale.length === 1 ? '' : 's'} to` : 'no change in';
  log(`typed-permissions: ${whatChanged} ${outDir} (${summary}) in ${Math.round(performance.now() - started)} ms.`);
  return { code: 0, inputs: result.inputs, unsafeOutput: false };
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
  output = { log: (line: string) => console.log(line), error: (line: string) => console.error(line) },
): Promise<number> {
  // Every line may carry input (folder names, definitions, roles): no control character reaches the terminal.
  const io = { log: (text: string) => output.log(printableLines(text)), error: (text: string) => output.error(printableLines(text)) };
  let options;
  try {
    options = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.error(`typed-permissions: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.command === 'help') {
    io.log(USAGE);
    return 0;
  }
  if (options.command === 'explain') {
    const model = compileModel(options.definitionsDir);
    if (!model.ok) {
      for (const problem of model.problems) io.error(formatCompileProblem(problem, options.definitionsDir));
      return 1;
    }
    const explanation = explainGrant(model.model.tables, options.roles, options.resource, options.action);
    io.log(options.json ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation));
    return 0;
  }
  const { definitionsDir, outDir, check } = options;
  const first = await runOnce(definitionsDir, outDir, check, io.log, io.error);
  // No edit of the definitions can make an unsafe output folder safe: watching would only repeat the refusal.
  if (!options.watch || first.unsafeOutput) return first.code;

  io.log(`typed-permissions: watching ${definitionsDir} (Ctrl-C to stop).`);
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const watcher = watch(definitionsDir, () => {
    clearTimeout(timer);
    // Editors write a file in several steps; one compile after the burst is enough.
    timer = setTimeout(() => {
      running = running.then(async () => {
        await runOnce(definitionsDir, outDir, false, io.log, io.error).catch((error: unknown) => io.error(`typed-permissions: ${(error as Error).message}`));
      });
    }, 100);
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      // Remove both listeners: one left behind would swallow that signal for the rest of the process.
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      watcher.close();
      clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running;
  return 0;
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
