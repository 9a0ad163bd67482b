/**
 * Running commands in a throwaway project outside this repository, as a user would: npm and node with a clean
 * environment (no jest NODE_OPTIONS, no npm_package_* of this repository, no npm noise), and the packed tarballs.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';
import { oncePerRun } from './once-per-run.js';

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment a user's shell would give a command: this process's, without jest's NODE_OPTIONS, without this
 * repository's npm_package_* and npm_lifecycle_* variables, and with npm's progress noise, funding and audit
 * messages and update notices off. npm prefers its cache: a package the run's `npm ci` or an earlier install
 * already fetched is not asked of the registry again (it halves the time of every install here; what is installed
 * is the same, and a package missing from the cache is still fetched).
 *
 * @example
 * ```ts
 * userEnvironment().NODE_OPTIONS; // ''
 * ```
 */
export function userEnvironment(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_OPTIONS: '',
    npm_config_loglevel: 'error',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
  };
  for (const key of Object.keys(env)) if (key.startsWith('npm_package_') || key.startsWith('npm_lifecycle_')) delete env[key];
  return env;
}

/**
 * Runs `command` in `cwd` (with `input` on its stdin) in the {@link userEnvironment}, changed by `changes` (a variable
 * set to undefined is removed), bounded to 5 minutes.
 *
 * @example
 * ```ts
 * const result = run(NPM, ['init', '-y'], project);
 * const quiet = run('bash', ['-c', 'echo "$GREETING"'], project, undefined, { GREETING: 'hi' });
 * ```
 */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  input?: string,
  changes: Readonly<Record<string, string | undefined>> = {},
): SpawnSyncReturns<string> {
  const env = { ...userEnvironment(), ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete env[key];
  return spawnSync(command, [...args], { cwd, env, encoding: 'utf8', timeout: 300_000, ...(input === undefined ? {} : { input }) });
}

/**
 * The stdout of a command that must succeed; else an error with its exit code and output.
 *
 * @example
 * ```ts
 * ok(run(NPM, ['install', tarball], project), 'npm install');
 * ```
 */
export function ok(result: SpawnSyncReturns<string>, what = 'command'): string {
  if (result.status !== 0) throw new Error(`${what}: exit ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** One packed tarball, as `npm pack --json` describes it. */
export interface Packed {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/**
 * Packs both packages of this repository into `destination` (`prepack` builds them).
 *
 * @example
 * ```ts
 * const packed = packWorkspaces(packs); // [{ name: 'typed-permissions', filename: 'typed-permissions-0.1.0.tgz', … }, …]
 * ```
 */
function packWorkspaces(destination: string): Packed[] {
  return JSON.parse(ok(run(NPM, ['pack', '--workspaces', '--json', '--pack-destination', destination], repoRoot), 'npm pack')) as Packed[];
}

/** The environment variable naming the folder of this jest run's tarballs (set by test/global-setup.mjs). */
export const PACKS_FOLDER_VARIABLE = 'TYPED_PERMISSIONS_TEST_PACKS';
/** How long a test file waits for another one's `npm pack` at most. */
const PACK_WAIT_MS = 300_000;

/**
 * The packed tarballs of this jest run, packed once for every test file that asks ({@link oncePerRun}): packing
 * rebuilds both packages' `dist` folders, so two test files packing at once (two jest workers) would delete each
 * other's builds. Without the jest run's folder (a test run outside this configuration), packs into a new one.
 *
 * @example
 * ```ts
 * const { folder, packed } = await sharedPackedWorkspaces();
 * const runtime = tarballPath(packed, folder, 'typed-permissions');
 * ```
 */
export async function sharedPackedWorkspaces(): Promise<{ readonly folder: string; readonly packed: Packed[] }> {
  const folder = process.env[PACKS_FOLDER_VARIABLE] ?? mkdtempSync(join(tmpdir(), 'typed-permissions-packs-'));
  return { folder, packed: await oncePerRun(folder, 'npm-pack', () => packWorkspaces(folder), PACK_WAIT_MS) };
}

/** The path of `name`'s tarball among `packed`, in `destination`. */
export function tarballPath(packed: readonly Packed[], destination: string, name: string): string {
  const pack = packed.find((candidate) => candidate.name === name);
  if (pack === undefined) throw new Error(`no tarball of ${name}`);
  return join(destination, pack.filename);
}
