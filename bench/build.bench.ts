/**
 * Benchmark 3: start-up and tooling. `build()` at 1× and 10× (and loading precomputed tables, what
 * the generated `createPermissions` does); the compiler end to end (`compile()` in process, each run
 * into a fresh folder, and the CLI in a fresh process); `tsc --noEmit` of the 10× generated output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '../compiler/index.js';
import { writeDefinitionsFolder } from './definitions-folder.js';
import { median, medianNs, wallClockMs, type BenchSettings } from './measure.js';
import { buildPermissions, loadTypedPermissions } from './peers/typed-permissions.js';
import type { Scale } from './scenario.js';
import type { BenchSubjects } from './subjects.js';

/** The repository root (this file is in bench/). */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface BuildTimes {
  readonly scale: Scale;
  readonly definitions: number;
  readonly cells: number;
  /** `new Permissions` + `addPermissions` + `build()`, median ms. */
  readonly buildMs: number;
  /** `permissionsFromTables(tables, options).typed<BenchSchema>()`: precompiled tables loaded, no rebuild; median ms. */
  readonly loadTablesMs: number;
}

export interface CompileTimes {
  readonly scale: Scale;
  readonly inputFiles: number;
  /** Every in-process run, ms; the first pays for loading prettier and ts-morph. */
  readonly runsMs: readonly number[];
  readonly medianWarmMs: number | undefined;
  /** `node --import tsx compiler/bin.ts compile …` in a fresh process, ms (full run only). */
  readonly cliColdMs: number | undefined;
  readonly outputBytes: Readonly<Record<string, number>>;
}

export interface TscResult {
  readonly scale: Scale;
  readonly command: string;
  readonly ms: number;
  readonly exitCode: number | null;
  /** The first lines of tsc's output when it failed. */
  readonly output: string;
}

export interface BuildResult {
  readonly build: readonly BuildTimes[];
  readonly compile: readonly CompileTimes[];
  readonly tsc: TscResult | { readonly skipped: string };
}

/**
 * A fresh folder under bench/.tmp for this run (removed by the caller).
 *
 * @example
 * ```ts
 * const dir = makeRunDir('build'); // bench/.tmp/build-<pid>-<time>
 * rmSync(dir, { recursive: true, force: true });
 * ```
 */
export function makeRunDir(label: string): string {
  const dir = join(REPO_ROOT, 'bench', '.tmp', `${label}-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function outputSizes(dir: string): Record<string, number> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, statSync(join(dir, name)).size]),
  );
}

async function timeCompile(
  subjects: BenchSubjects,
  runs: number,
  runDir: string,
  spawnCli: boolean,
  log: (line: string) => void,
): Promise<{ readonly times: CompileTimes; readonly outDir: string }> {
  const { scale } = subjects.scenario;
  const definitionsDir = join(runDir, `definitions-${scale}x`);
  const inputFiles = writeDefinitionsFolder(subjects.scenario, definitionsDir);
  let outDir = '';
  const runsMs = await wallClockMs(async (run) => {
    outDir = join(runDir, `generated-${scale}x-${run}`);
    const result = await compile({ definitionsDir, outDir });
    if (!result.ok) throw new Error(`compile of the ${scale}x scenario failed: ${JSON.stringify(result.problems.slice(0, 3))}`);
  }, runs);
  log(`  compile ${scale}x in process: ${runsMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  let cliColdMs: number | undefined;
  if (spawnCli) {
    const cliOut = join(runDir, `generated-${scale}x-cli`);
    const start = performance.now();
    const cli = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'compiler/bin.ts', 'compile', relative(REPO_ROOT, definitionsDir), '--out', relative(REPO_ROOT, cliOut)],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    cliColdMs = performance.now() - start;
    if (cli.status !== 0) throw new Error(`compiler CLI failed (${cli.status}): ${cli.stderr.slice(0, 2000)}`);
    log(`  compile ${scale}x CLI (fresh process): ${cliColdMs.toFixed(0)} ms`);
  }
  const warm = runsMs.slice(1);
  const times = { scale, inputFiles, runsMs, medianWarmMs: warm.length > 0 ? median(warm) : undefined, cliColdMs, outputBytes: outputSizes(outDir) };
  return { times, outDir };
}

function runTsc(outDir: string, scale: Scale, runDir: string, log: (line: string) => void): TscResult {
  const tsconfig = join(runDir, `tsconfig.generated-${scale}x.json`);
  const config = {
    extends: relative(runDir, join(REPO_ROOT, 'tsconfig.json')),
    compilerOptions: { noEmit: true, rootDir: relative(runDir, REPO_ROOT) },
    include: [relative(runDir, outDir)],
  };
  writeFileSync(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
  const args = ['tsc', '--noEmit', '-p', relative(REPO_ROOT, tsconfig)];
  const start = performance.now();
  const tsc = spawnSync('npx', args, { cwd: REPO_ROOT, encoding: 'utf8' });
  const ms = performance.now() - start;
  log(`  tsc --noEmit ${scale}x generated: ${ms.toFixed(0)} ms (exit ${tsc.status})`);
  return {
    scale,
    command: `npx ${args.join(' ')}`,
    ms,
    exitCode: tsc.status,
    output: tsc.status === 0 ? '' : `${tsc.stdout}${tsc.stderr}`.split('\n').slice(0, 20).join('\n'),
  };
}

/**
 * Runs benchmark 3. Compiler output goes to a fresh folder under bench/.tmp, removed at the end.
 *
 * @example
 * ```ts
 * const result = await runBuildBench([subjects1x, subjects10x], benchSettings('full'));
 * ```
 */
export async function runBuildBench(
  subjectsPerScale: readonly BenchSubjects[],
  settings: BenchSettings,
  log: (line: string) => void = () => undefined,
): Promise<BuildResult> {
  const build: BuildTimes[] = [];
  for (const subjects of subjectsPerScale) {
    const { scenario, ownership, permissions } = subjects;
    const buildMs = (await medianNs(() => buildPermissions(scenario, ownership), settings)) / 1e6;
    const loadTablesMs = (await medianNs(() => loadTypedPermissions(permissions.tables, ownership), settings)) / 1e6;
    log(`  build() ${scenario.scale}x: ${buildMs.toFixed(2)} ms; load tables: ${loadTablesMs.toFixed(2)} ms`);
    build.push({ scale: scenario.scale, definitions: scenario.definitions.length, cells: permissions.tables.cells.length, buildMs, loadTablesMs });
  }

  const runDir = makeRunDir('build');
  try {
    const compiled: { readonly times: CompileTimes; readonly outDir: string }[] = [];
    for (const subjects of subjectsPerScale) {
      const runs = settings.compileRuns[subjects.scenario.scale];
      if (runs > 0) compiled.push(await timeCompile(subjects, runs, runDir, settings.spawnProcesses, log));
    }
    const tenfold = compiled.find(({ times }) => times.scale === 10);
    const tsc = !settings.spawnProcesses
      ? { skipped: 'smoke run: no processes are spawned' }
      : tenfold === undefined
        ? { skipped: 'the 10x scenario was not compiled' }
        : runTsc(tenfold.outDir, 10, runDir, log);
    return { build, compile: compiled.map(({ times }) => times), tsc };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}
