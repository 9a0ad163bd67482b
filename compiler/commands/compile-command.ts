/**
 * `typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]`: definitions in, typed code,
 * the policy bundle and the permission matrix out; on a terminal, the phases of a compile longer than a second.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { watchFile } from 'typed-permissions/internal';
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

/** How often a watch of the definitions folder that failed is started again, in ms. */
const WATCH_RETRY_MS = 1000;

/**
 * What tells one folder from another at the same path: a folder renamed onto it has another inode; one removed and
 * copied back often gets the same inode again at once, but not the same birth time.
 */
function folderIdentity(path: string): string | undefined {
  try {
    const info = statSync(path);
    return info.isDirectory() ? `${info.dev}:${info.ino}:${info.birthtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/** Tells a failure of the watch once, until another failure; a folder that does not exist is told by the compile instead. */
function failureReporter(definitionsDir: string, io: CommandOutput): (error: unknown) => void {
  let last: string | undefined;
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || message === last) return;
    last = message;
    io.error(`typed-permissions: the watch of ${definitionsDir} failed (${message}); it is started again within a second.`);
  };
}

/**
 * Watches the definitions folder at its path, not only the folder found there at the start: a watch follows its
 * folder's inode, and would go silent for good once the folder is replaced (removed and copied back, or another
 * renamed onto the path). The path is followed by `watchFile` (a watch of the parent and a poll of the folder's
 * identity); the files by a watch of the folder, opened again on the folder now at the path. Calls `changed` after
 * every change of a file, and when the folder is replaced, removed or appears. Returns the function that stops.
 */
function watchDefinitionsFolder(definitionsDir: string, changed: () => void, io: CommandOutput): () => void {
  const failed = failureReporter(definitionsDir, io);
  let files: FSWatcher | undefined;
  let followed = folderIdentity(definitionsDir);
  let stopped = false;
  const open = (): void => {
    try {
      const watcher = watch(definitionsDir, () => changed());
      watcher.on('error', (error) => {
        failed(error);
        watcher.close();
        if (files === watcher) files = undefined;
      });
      files = watcher;
    } catch (error) {
      failed(error);
    }
  };
  const follow = (): void => {
    const identity = folderIdentity(definitionsDir);
    if (stopped || (identity === followed && (files !== undefined || identity === undefined))) return;
    files?.close();
    files = undefined;
    followed = identity;
    if (identity !== undefined) open();
    // Events were lost while no watch was open on this folder: compile what is there now.
    changed();
  };
  if (followed !== undefined) open();
  const stopFollowing = watchFile(definitionsDir, { pollIntervalMs: WATCH_RETRY_MS, changed: follow, failed });
  // Starts a watch that failed again; and keeps the process running while nothing else is open (no folder, no parent).
  const retry = setInterval(() => {
    if (files === undefined) follow();
  }, WATCH_RETRY_MS);
  return () => {
    stopped = true;
    clearInterval(retry);
    stopFollowing();
    files?.close();
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      // Remove both listeners: one left behind would swallow that signal for the rest of the process.
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * Compiles, then again after every burst of changes of the definitions folder, until SIGINT or SIGTERM. The watch
 * starts before the first compile, so that an edit saved during it is compiled after it.
 */
async function watchAndCompile(definitionsDir: string, outDir: string, io: CommandOutput): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const compileSoon = (): void => {
    clearTimeout(timer);
    // Editors write a file in several steps; one compile after the burst is enough.
    timer = setTimeout(() => {
      running = running.then(async () => {
        if (stopped) return;
        await runOnce(definitionsDir, outDir, false, io).catch((error: unknown) => io.error(`typed-permissions: ${(error as Error).message}`));
      });
    }, 100);
  };
  const stopWatching = watchDefinitionsFolder(definitionsDir, compileSoon, io);
  // Started after the watch: the first compile reads the files before its first await.
  const first = runOnce(definitionsDir, outDir, false, io);
  running = first.catch(() => undefined);
  const stop = async (): Promise<void> => {
    stopped = true;
    stopWatching();
    clearTimeout(timer);
    await running;
  };
  let firstRun: CompileRun;
  try {
    firstRun = await first;
  } catch (error) {
    await stop();
    throw error;
  }
  // No edit of the definitions can make an unsafe output folder safe: watching would only repeat the refusal.
  if (firstRun.unsafeOutput) {
    await stop();
    return firstRun.code;
  }
  io.log(`typed-permissions: watching ${definitionsDir} (Ctrl-C to stop).`);
  await stopSignal();
  await stop();
  return 0;
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
  if (values.watch === true) return watchAndCompile(definitionsDir, outDir, io);
  return (await runOnce(definitionsDir, outDir, values.check === true, io)).code;
};
