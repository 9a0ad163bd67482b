/**
 * What the benchmark report says was measured: the commit, and how many tracked files had uncommitted changes —
 * not counting the bench's own outputs, which every run rewrites (a run recorded after another one would otherwise
 * say its code was changed).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { changedCodeFiles } from '../../bench/harness/machine.js';

let repo = '';

function git(...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=bench test', '-c', 'user.email=bench@test.invalid', ...args], { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'typed-permissions-bench-machine-'));
  mkdirSync(join(repo, 'bench'));
  for (const file of ['BENCHMARKS.md', 'bench/results.json', 'bench/run.ts']) writeFileSync(join(repo, file), 'first\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
});

afterAll(() => {
  if (repo !== '') rmSync(repo, { recursive: true, force: true });
});

describe('changedCodeFiles', () => {
  it('is 0 on a clean checkout, and after a run rewrote BENCHMARKS.md and bench/results.json', () => {
    expect(changedCodeFiles(repo)).toBe(0);
    writeFileSync(join(repo, 'BENCHMARKS.md'), 'second\n');
    writeFileSync(join(repo, 'bench/results.json'), 'second\n');
    expect(changedCodeFiles(repo)).toBe(0);
  });

  it('counts every other tracked file changed, and no untracked one', () => {
    writeFileSync(join(repo, 'bench/run.ts'), 'second\n');
    writeFileSync(join(repo, 'bench/new.ts'), 'untracked\n');
    expect(changedCodeFiles(repo)).toBe(1);
  });
});
