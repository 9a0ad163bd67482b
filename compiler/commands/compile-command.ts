/**
 * `typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]`: definitions in, typed code,
 * the policy bundle and the permission matrix out; on a terminal, the phases of a compile longer than a second.
 */
import { watch } from 'node:fs';
import { compile } from '../compile.js';
import { compileProgress } from './compile-progress.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command, type CommandOutput } from './command-line.js';
import { problemReport, problemsFound } from '../problems/problem-cap.js';

/** What one compile did, for the exit code and for `--watch`. */
interface CompileRun {
  readonly code: number;
  readonly unsafeOutput: boolean;
}

function reportProblems(
  result: Extract<Awaited<ReturnType<typeof compile>>, { ok: false }>,
  definitionsDir: string,
  outDir: string,
  io: CommandOutput,
): CompileRun {
  for (const line of problemReport(result, definitionsDir)) io.error(line);
  const outputProblems = result.problems.filter((problem) => problem.origin === 'output').length;
  const definitionProblems = problemsFound(result) - outputProblems;
  if (outputProblems === 0) io.error(`typed-permissions: ${plural(definitionProblems, 'problem')} in ${definitionsDir}; ${outDir} was not changed.`);
  else {
    const alsoDefinitions = definitionProblems > 0 ? `, and ${plural(definitionProblems, 'problem')} in ${definitionsDir}` : '';
    io.error(`typed-permissions: ${outDir} is not safe to replace (${plural(outputProblems, 'problem')})${alsoDefinitions}; nothing was changed.`);
  }
  return { code: 1, unsafeOutput: outputProblems > 0 };
}

async function runOnce(definitionsDir: string, outDir: string, check: boolean, io: CommandOutput): Promise<CompileRun> {
  const started = performance.now();
  const progress = io.progress === undefined ? undefined : compileProgress(io.progress.stream, io.progress.afterMs);
  const result = await compile({ definitionsDir, outDir, check, progress });
  if (!result.ok) return reportProblems(result, definitionsDir, outDir, io);
  for (const warning of result.model.warnings) io.error(`typed-permissions: warning: ${warning}`);
  const { tables } = result.model;
  const summary = [
    plural(tables.roles.length, 'role'),
    plural(tables.resources.length, 'resource'),
    plural(tables.actions.length, 'action'),
    plural(tables.cells.length, 'grant'),
  ].join(', ');
  if (check) {
    if (result.stale.length === 0) {
      io.log(`typed-permissions: ${outDir} is up to date (${summary}).`);
      return { code: 0, unsafeOutput: false };
    }
    io.error(
      `typed-permissions: ${outDir} is stale (${result.stale.join(', ')}). ` +
        `Run \`npx typed-permissions compile ${definitionsDir} --out ${outDir}\` and commit the result.`,
    );
    return { code: 1, unsafeOutput: false };
  }
  const whatChanged = result.written ? `wrote ${plural(result.stale.length, 'file')} to` : 'no change in';
  io.log(`typed-permissions: ${whatChanged} ${outDir} (${summary}) in ${Math.round(performance.now() - started)} ms.`);
  return { code: 0, unsafeOutput: false };
}

/** Compiles again after every burst of changes of the definitions folder, until SIGINT or SIGTERM. */
async function watchAndCompile(definitionsDir: string, outDir: string, io: CommandOutput): Promise<void> {
  io.log(`typed-permissions: watching ${definitionsDir} (Ctrl-C to stop).`);
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const watcher = watch(definitionsDir, () => {
    clearTimeout(timer);
    // Editors write a file in several steps; one compile after the burst is enough.
    timer = setTimeout(() => {
      running = running.then(async () => {
        await runOnce(definitionsDir, outDir, false, io).catch((error: unknown) => io.error(`typed-permissions: ${(error as Error).message}`));
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
}

/**
 * Runs `compile`.
 *
 * @example
 * ```ts
 * await compileCommand(['definitions', '--out', 'generated', '--check'], io); // 0 when generated/ is up to date
 * ```
 */
export const compileCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, {
    out: { type: 'string' },
    check: { type: 'boolean' },
    watch: { type: 'boolean' },
    roles: { type: 'string' },
    resource: { type: 'string' },
    action: { type: 'string' },
    json: { type: 'boolean' },
  });
  const misplaced = (['roles', 'resource', 'action', 'json'] as const).filter((flag) => values[flag] !== undefined);
  if (misplaced.length > 0) throw new UsageError(`compile does not take --${misplaced.join(', --')}.`);
  if (values.check === true && values.watch === true) throw new UsageError('--check and --watch cannot be combined.');
  const definitionsDir = definitionsFolder('compile', positionals);
  const outDir = values.out ?? 'generated';
  const first = await runOnce(definitionsDir, outDir, values.check === true, io);
  // No edit of the definitions can make an unsafe output folder safe: watching would only repeat the refusal.
  if (values.watch !== true || first.unsafeOutput) return first.code;
  await watchAndCompile(definitionsDir, outDir, io);
  return 0;
};
