/**
 * The projects under `examples/` as a user gets them: each is copied out of the repository into a throwaway
 * folder, its dependencies on our two packages pointed at this run's packed tarballs, installed with npm, and
 * started as its README says; the test then asks it over HTTP. One mechanism for every example.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../compiler/helpers.js';
import { NPM, ok, run, sharedPackedWorkspaces, tarballPath } from '../package/throwaway-project.js';

/** What is never copied out of an example: what installing, compiling and building make. */
const MADE_BY_BUILD = new Set(['node_modules', 'dist', 'generated', 'package-lock.json']);

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * Copies `examples/<name>` into a new folder outside the repository, points its `typed-permissions` and
 * `typed-permissions-cli` dependencies at the packed tarballs, and runs `npm install` there (from npm's cache
 * where it can, as every install of these tests). Returns the folder; remove it with {@link removeExample}.
 *
 * @example
 * ```ts
 * const dir = await installExample('express');
 * ok(run(NPM, ['run', 'build'], dir), 'npm run build');
 * ```
 */
export async function installExample(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `typed-permissions-example-${name}-`));
  cpSync(join(repoRoot, 'examples', name), dir, {
    recursive: true,
    filter: (source) => !MADE_BY_BUILD.has(source.split('/').at(-1) ?? ''),
  });
  const { folder, packed } = await sharedPackedWorkspaces();
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJson;
  for (const dependencies of [manifest.dependencies, manifest.devDependencies]) {
    for (const pack of ['typed-permissions', 'typed-permissions-cli']) {
      if (dependencies?.[pack] !== undefined) dependencies[pack] = `file:${tarballPath(packed, folder, pack)}`;
    }
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  ok(run(NPM, ['install'], dir), `npm install in the ${name} example`);
  return dir;
}

/**
 * Removes a folder {@link installExample} made.
 *
 * @example
 * ```ts
 * afterAll(() => removeExample(dir));
 * ```
 */
export function removeExample(dir: string | undefined): void {
  if (dir !== undefined && dir !== '') rmSync(dir, { recursive: true, force: true });
}

/** A started example: what it printed so far, and how to stop it. */
export interface RunningExample {
  readonly child: ChildProcess;
  /** Every line it printed, stdout and stderr, in order. */
  readonly lines: string[];
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits until it has exited and all it printed is in `lines`. */
  stop(): Promise<void>;
}

/**
 * Starts `command` in an installed example and waits, at most `timeoutMs`, until it prints a line matching
 * `ready` (a server saying where it listens); rejects with everything it printed when it exits first or the
 * time runs out.
 *
 * @example
 * ```ts
 * const app = await startExample(dir, [NPM, 'start'], { ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/, env: { PORT: '0' } });
 * ```
 */
export function startExample(
  dir: string,
  [command, ...args]: readonly [string, ...string[]],
  options: { readonly ready: RegExp; readonly env?: Readonly<Record<string, string>>; readonly timeoutMs?: number },
): Promise<RunningExample & { readonly match: RegExpMatchArray }> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '', ...options.env };
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: string[] = [];
  // 'close' comes after 'exit', once the output pipes are closed: every line printed has been read by then.
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    child.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (isClosed) return;
    // The whole process group: `npm start` runs node as a child of its own.
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid as number), name);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 5_000);
    await closed;
    clearTimeout(killer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() =>
        reject(new Error(`the example in ${dir} did not print ${options.ready} within ${options.timeoutMs ?? 60_000} ms:\n${lines.join('\n')}`)),
      );
    }, options.timeoutMs ?? 60_000);
    const onLine = (line: string) => {
      lines.push(line);
      const match = options.ready.exec(line);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ child, lines, stop, match });
    };
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', onLine);
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', onLine);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the example in ${dir} exited (${signal ?? code}) before it was ready:\n${lines.join('\n')}`));
    });
  });
}
