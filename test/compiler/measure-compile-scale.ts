/**
 * Measures `typed-permissions compile` on company-sized policies: writes each deterministic definitions folder,
 * runs the compiler's command line in a fresh process under `/usr/bin/time -v`, and prints its wall time, peak
 * resident memory, outcome and output sizes. Not a test (each compile takes seconds to tens of seconds).
 *
 *   node --import tsx test/compiler/measure-compile-scale.ts [name…]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeScaleDefinitions, writeTenantDefinitions } from './scale-definitions.js';

const POLICIES: Record<string, (dir: string) => void> = {
  'company-5%': (dir) => writeScaleDefinitions(dir, { roles: 500, resources: 1000, actions: 10, share: 0.025 }),
  'company-15%': (dir) => writeScaleDefinitions(dir, { roles: 500, resources: 1000, actions: 10, share: 0.08 }),
  'tenants-5000x50': (dir) => writeTenantDefinitions(dir, { tenants: 5000, resources: 50, perTenant: 11 }),
  'past-the-limit': (dir) => writeScaleDefinitions(dir, { roles: 2000, resources: 2000, actions: 10, share: 0.1 }),
};

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(POLICIES);
for (const name of names) {
  const write = POLICIES[name];
  if (write === undefined) throw new Error(`unknown policy ${name}; known: ${Object.keys(POLICIES).join(', ')}`);
  const temp = mkdtempSync(join(tmpdir(), 'measure-compile-'));
  try {
    write(join(temp, 'definitions'));
    const bin = new URL('../../compiler/bin.ts', import.meta.url).pathname;
    const run = spawnSync(
      '/usr/bin/time',
      ['-v', process.execPath, '--import', 'tsx', bin, 'compile', join(temp, 'definitions'), '--out', join(temp, 'generated')],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)/.exec(run.stderr)?.[1];
    const rssKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1]);
    const said = [...run.stdout.split('\n'), ...run.stderr.split('\n')].filter((line) => line.startsWith('typed-permissions') || line.includes('[too-large]'));
    let sizes = '';
    try {
      sizes = readdirSync(join(temp, 'generated'))
        .map((file) => `${file} ${(statSync(join(temp, 'generated', file)).size / 1048576).toFixed(1)} MiB`)
        .join(', ');
    } catch {
      sizes = 'no output';
    }
    console.log(`${name}: exit ${run.status}, wall ${wall}, peak RSS ${Math.round(rssKiB / 1024)} MiB\n  ${said.join('\n  ').slice(0, 1500)}\n  ${sizes}`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
