/**
 * The machine the numbers come from and the code they measure: absolute times only mean something
 * next to the CPU, the Node version and the commit, so BENCHMARKS.md opens with them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { REPO_ROOT } from './repository.js';

/** The machine the numbers come from. */
export interface Machine {
  readonly node: string;
  readonly nproc: number;
  readonly cpuModel: string;
  readonly totalMemoryGiB: number;
  readonly platform: string;
  /** The commit measured, and whether the working tree had uncommitted changes. */
  readonly revision: string;
}

/**
 * Describes this machine: `node -v`, `nproc`, the CPU model from /proc/cpuinfo, total memory.
 *
 * @example
 * ```ts
 * describeMachine(); // { node: 'v20.20.2', nproc: 2, cpuModel: 'Intel(R) Xeon(R) Processor', totalMemoryGiB: 23.5, revision: '5495fe2', … }
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
  const changed = (spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
  return {
    node: process.version,
    nproc,
    cpuModel,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    revision: changed === 0 ? commit : `${commit} + uncommitted changes in ${changed} tracked file${changed === 1 ? '' : 's'}`,
  };
}
