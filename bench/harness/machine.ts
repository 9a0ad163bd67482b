/**
 * The machine the numbers come from and the code they measure: absolute times only mean something
 * next to the CPU, the Node version and the commit, so BENCHMARKS.md opens with them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { REPO_ROOT, REPORT_PATH, RESULTS_PATH } from './repository.js';

/** The machine the numbers come from. */
export interface Machine {
  readonly node: string;
  readonly nproc: number;
  readonly cpuModel: string;
  readonly totalMemoryGiB: number;
  readonly platform: string;
  /** The commit measured, and whether the working tree had uncommitted changes. */
  readonly revision: string;
  /**
   * What writing to fresh memory costs, per 4 KiB page: the first write (the page fault that maps it) and a second
   * one (already mapped), in microseconds. Loading and garbage collection pay the first for every page they touch.
   */
  readonly pageTouchUs: { readonly first: number; readonly again: number };
}

/** Pages written by {@link measurePageTouch}: 64 MiB, enough to leave the processor's caches. */
const TOUCHED_PAGES = 16_384;

/**
 * The cost of a first and a second write to each of 16,384 fresh 4 KiB pages, measured in a child process (so that
 * the benchmark's own heap is not grown by it). A virtual machine that hands memory back to its host (a balloon,
 * free page reporting) makes the first write cost tens of microseconds instead of a fraction of one.
 *
 * @example
 * ```ts
 * measurePageTouch(); // { first: 16.2, again: 0.04 }
 * ```
 */
function measurePageTouch(): { first: number; again: number } {
  const script = `
    const pages = ${TOUCHED_PAGES};
    const memory = new Uint8Array(pages * 4096);
    let start = performance.now();
    for (let at = 0; at < memory.length; at += 4096) memory[at] = 1;
    const first = ((performance.now() - start) * 1000) / pages;
    start = performance.now();
    for (let at = 0; at < memory.length; at += 4096) memory[at] = 2;
    console.log(JSON.stringify({ first, again: ((performance.now() - start) * 1000) / pages }));
  `;
  const child = spawnSync(process.execPath, ['--eval', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`measuring page writes failed: ${child.stderr.slice(0, 500)}`);
  const { first, again } = JSON.parse(child.stdout) as { first: number; again: number };
  return { first: Math.round(first * 100) / 100, again: Math.round(again * 100) / 100 };
}

/**
 * How many tracked files of the repository at `root` have uncommitted changes, leaving out the bench's own outputs
 * (BENCHMARKS.md and bench/results.json): every run rewrites them, and they are not code that was measured.
 *
 * @example
 * ```ts
 * changedCodeFiles(REPO_ROOT); // 0 on a clean checkout, and after a run that only rewrote its outputs
 * ```
 */
export function changedCodeFiles(root: string): number {
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', `:!${RESULTS_PATH}`, `:!${REPORT_PATH}`], {
    cwd: root,
    encoding: 'utf8',
  });
  return (status.stdout ?? '').split('\n').filter((line) => line.trim() !== '').length;
}

/**
 * Describes this machine: `node -v`, `nproc`, the CPU model from /proc/cpuinfo, total memory, and what a write to a
 * fresh page of memory costs.
 *
 * @example
 * ```ts
 * describeMachine(); // { node: 'v20.20.2', nproc: 2, cpuModel: 'AMD EPYC', revision: '5495fe2', pageTouchUs: { first: 16.2, again: 0.04 }, … }
 * ```
 */
export function describeMachine(): Machine {
  const nproc = Number(spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim()) || availableParallelism();
  let cpuModel = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // Not Linux: leave it unknown.
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout?.trim() || 'unknown';
  const changed = changedCodeFiles(REPO_ROOT);
  return {
    node: process.version,
    nproc,
    cpuModel,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    revision: changed === 0 ? commit : `${commit} + uncommitted changes in ${changed} tracked file${changed === 1 ? '' : 's'}`,
    pageTouchUs: measurePageTouch(),
  };
}
