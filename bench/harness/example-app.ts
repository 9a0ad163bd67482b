/**
 * The example app as the HTTP benchmarks run it: `node dist/examples/documents/main.js` (built by `npm run build`)
 * on a free loopback port, in its own process, with what it printed kept for the report of a failure.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { failIfExited, startNode, waitUntil } from './processes.js';
import { REPO_ROOT } from './repository.js';

/** Where `npm run build` puts the example app's entry. */
export const EXAMPLE_MAIN = join(REPO_ROOT, 'dist', 'examples', 'documents', 'main.js');

/** How long the app may take to answer its first request. */
const START_TIMEOUT_MS = 120_000;

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

/**
 * Starts the built example app with `env` added to this process's environment, and waits (at most 120 s: seeding the
 * embedded database takes 45 s on a loaded 2-core machine) until it answers.
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
  const app = startNode([main], { env: { ...env, PORT: String(port) } });
  const answers = async (): Promise<boolean> => {
    failIfExited(app, 'the example app');
    return fetch(`${base}/documents/1`).then(
      () => true,
      () => false,
    );
  };
  try {
    await waitUntil('the example app to answer', answers, START_TIMEOUT_MS, 200);
  } catch (error) {
    await app.stop();
    throw new Error(`${(error as Error).message}; it printed: ${app.output().slice(-2000)}`, { cause: error });
  }
  return { base, output: () => app.output(), stop: () => app.stop() };
}
