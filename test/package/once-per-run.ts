/**
 * Work done once per jest run for every test file that needs it, whichever of the two workers asks first: packing
 * the tarballs, installing the documentation's project. The first caller takes a lock in the run's folder and does
 * the work; the others wait for its result (or its failure), within a stated bound.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The result of `make`, made once per jest run: the first caller (the one whose `mkdir` of `<name>.lock` in `folder`
 * succeeds) runs `make` and writes its result to `<name>.json` (or its error to `<name>.failed.txt`); every other
 * caller waits at most `waitMs` for one of them and returns the same result (or throws the same error's message).
 * The result must survive JSON.
 *
 * @example
 * ```ts
 * const packed = await oncePerRun(folder, 'npm-pack', () => packWorkspaces(folder), 300_000);
 * ```
 */
export async function oncePerRun<T>(folder: string, name: string, make: () => T | Promise<T>, waitMs: number): Promise<T> {
  const done = join(folder, `${name}.json`);
  const failed = join(folder, `${name}.failed.txt`);
  if (takeLock(join(folder, `${name}.lock`))) {
    try {
      const result = await make();
      // Written whole, then renamed: a waiting test file never reads half of it.
      writeFileSync(`${done}.partial`, JSON.stringify(result));
      renameSync(`${done}.partial`, done);
      return result;
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  for (const deadline = Date.now() + waitMs; !existsSync(done); await sleep(250)) {
    if (existsSync(failed)) throw new Error(`${name} failed in another test file:\n${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`${name} did not finish within ${waitMs / 1000} s in another test file (${folder})`);
  }
  return JSON.parse(readFileSync(done, 'utf8')) as T;
}

/** Whether this call created `lock` (mkdir is atomic: exactly one caller wins). */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
