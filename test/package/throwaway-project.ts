/**
 * Running commands in a throwaway project outside this repository, as a user would: npm and node with a clean
 * environment (no jest NODE_OPTIONS, no npm_package_* of this repository, no npm noise), and the packed tarballs.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Runs `command` in `cwd` (with `input` on its stdin), bounded to 5 minutes.
 *
 * @example
 * ```ts
 * const result = run(NPM, ['init', '-y'], project);
 * ```
 */
export function run(command: string, args: readonly string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_OPTIONS: '',
    npm_config_loglevel: 'error',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  for (const key of Object.keys(env)) if (key.startsWith('npm_package_') || key.startsWith('npm_lifecycle_')) delete env[key];
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
export function packWorkspaces(destination: string): Packed[] {
  return JSON.parse(ok(run(NPM, ['pack', '--workspaces', '--json', '--pack-destination', destination], repoRoot), 'npm pack')) as Packed[];
}

/** The path of `name`'s tarball among `packed`, in `destination`. */
export function tarballPath(packed: readonly Packed[], destination: string, name: string): string {
  const pack = packed.find((candidate) => candidate.name === name);
  if (pack === undefined) throw new Error(`no tarball of ${name}`);
  return join(destination, pack.filename);
}
