/**
 * The processes benchmarks start — the example app, the decision service, policy followers — all alike: a `node`
 * script run from the repository root with NODE_OPTIONS emptied (so that jest's --experimental-vm-modules or a
 * caller's flags do not reach it), what it printed kept for the message of a failure, and a stop that cannot hang.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './repository.js';

/** How much of a process's output is kept: enough for the end of a stack trace. */
const KEPT_OUTPUT = 8000;
/** How long a process has to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5000;

/** A started `node` process. */
export interface NodeProcess {
  readonly child: ChildProcess;
  /** The last 8,000 characters it printed, stdout and stderr. */
  output(): string;
  /** Stops it: SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` in the repository root, with `env` added to this process's environment; `onLine` is given
 * every line it prints on stdout.
 *
 * @example
 * ```ts
 * const follower = startNode(['--import', 'tsx', 'test/live/fixtures/policy-follower.ts', url], { onLine: (line) => console.log(line) });
 * await follower.stop();
 * ```
 */
export function startNode(
  args: readonly string[],
  options: { readonly env?: Readonly<Record<string, string>>; readonly onLine?: (line: string) => void } = {},
): NodeProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const keep = (chunk: Buffer): void => {
    printed = (printed + chunk.toString()).slice(-KEPT_OUTPUT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  if (options.onLine !== undefined) createInterface({ input: child.stdout }).on('line', options.onLine);
  return { child, output: () => printed, stop: () => stopProcess(child) };
}

/**
 * Stops `child` (SIGTERM, then SIGKILL after 5 s) and waits until it has exited.
 *
 * @example
 * ```ts
 * await stopProcess(child); // child.exitCode or child.signalCode is set now
 * ```
 */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Waits until `condition` holds, checking every `pollMs`; throws once `timeoutMs` has passed, or as soon as
 * `condition` throws (a process that exited will never be ready).
 *
 * @example
 * ```ts
 * await waitUntil('the followers ready', () => followers.every((follower) => follower.ready), 60_000);
 * ```
 */
export async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number, pollMs = 2): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * Throws when `process` has exited: for the conditions of {@link waitUntil}, which would otherwise wait out their
 * timeout for a process that will never be ready.
 *
 * @example
 * ```ts
 * await waitUntil('the service listening', () => (failIfExited(service, 'the service'), address !== undefined), 60_000);
 * ```
 */
export function failIfExited(process: NodeProcess, name: string): void {
  if (process.child.exitCode !== null) throw new Error(`${name} exited with ${process.child.exitCode}`);
}
