/**
 * The example app as the HTTP benchmarks run it: `node dist/examples/documents/main.js` (built by `npm run build`)
 * on a free loopback port, in its own process, with what it printed kept for the report of a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './build.bench.js';

/** Where `npm run build` puts the example app's entry. */
export const EXAMPLE_MAIN = join(REPO_ROOT, 'dist', 'examples', 'documents', 'main.js');

/** A running example app. */
export interface RunningExampleApp {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The last 8,000 characters it printed. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilServing(base: string, app: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the example app exited with ${app.exitCode}: ${output()}`);
    try {
      await fetch(`${base}/documents/1`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`the example app did not answer within 60 s: ${output()}`);
}

async function stop(app: ChildProcess): Promise<void> {
  if (app.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => app.once('exit', () => resolve()));
  app.kill('SIGTERM');
  const timer = setTimeout(() => app.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the built example app with `env` added to this process's environment, and waits (at most 60 s) until it answers.
 * `main` is the entry to run: `npm run build`'s by default; the multi-instance tests pass their own transpiled copy.
 *
 * @example
 * ```ts
 * const app = await startExampleApp({ POLICY_FILE: '/tmp/policy.json' });
 * await fetch(`${app.base}/documents/1`);
 * await app.stop();
 * ```
 */
export async function startExampleApp(env: Readonly<Record<string, string>> = {}, main = EXAMPLE_MAIN): Promise<RunningExampleApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let printed = '';
  const app = spawn(process.execPath, [main], {
    cwd: REPO_ROOT,
    // NODE_OPTIONS is emptied so that jest's --experimental-vm-modules does not reach the app.
    env: { ...process.env, NODE_OPTIONS: '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer): void => {
    printed = (printed + chunk.toString()).slice(-8000);
  };
  app.stdout?.on('data', append);
  app.stderr?.on('data', append);
  const running: RunningExampleApp = { base, output: () => printed, stop: () => stop(app) };
  try {
    await waitUntilServing(base, app, () => printed.slice(-2000));
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
