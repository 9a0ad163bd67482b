/**
 * Where the bench finds the repository's files, and where it writes what a run makes: a fresh folder under
 * bench/.tmp per run, removed afterwards, so that runs never see each other's output.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is in bench/harness/). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a run of the bench writes, from the repository's root: its results as data, and the report made from them. */
export const RESULTS_PATH = 'bench/results.json';
export const REPORT_PATH = 'BENCHMARKS.md';

/**
 * Calls `work` with a fresh folder under bench/.tmp, and removes the folder when it is done, failed or not.
 *
 * @example
 * ```ts
 * const sizes = await withRunFolder('package', async (dir) => bundleSizes(dir)); // bench/.tmp/package-<pid>-<time>
 * ```
 */
export async function withRunFolder<T>(label: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(REPO_ROOT, 'bench', '.tmp', `${label}-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  try {
    return await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
