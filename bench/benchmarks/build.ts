/**
 * Start-up and tooling. `build()` at 1× and 10× (and loading precomputed tables, what
 * the generated `createPermissions` does); the compiler end to end (`compile()` in process, each run
 * into a fresh folder, and the CLI in a fresh process); `tsc --noEmit` of the 10× generated output. Targets: the 10×
 * build() under 50 ms, the 10× compile under 10 s.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compile } from '../../compiler/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { writeDefinitionsFolder } from '../harness/definitions-folder.js';
import { formatBytes, formatMs, table } from '../harness/format.js';
import { buildPermissions, loadTypedPermissions } from '../harness/peers/typed-permissions.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import { REPO_ROOT, withRunFolder } from '../harness/repository.js';
import type { Scale } from '../harness/scenario.js';
import { median } from '../harness/statistics.js';
import type { BenchSubjects } from '../harness/subjects.js';
import { medianNs, wallClockMs } from '../harness/timing.js';

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

/** `build()` and loading the precompiled tables, per scale. */
async function timeBuilds({ subjects, settings, log }: BenchContext): Promise<BuildTimes[]> {
  const build: BuildTimes[] = [];
  for (const { scenario, ownership, permissions } of subjects) {
    const buildMs = (await medianNs(() => buildPermissions(scenario, ownership), settings)) / 1e6;
    const loadTablesMs = (await medianNs(() => loadTypedPermissions(permissions.tables, ownership), settings)) / 1e6;
    log(`  build() ${scenario.scale}x: ${buildMs.toFixed(2)} ms; load tables: ${loadTablesMs.toFixed(2)} ms`);
    build.push({ scale: scenario.scale, definitions: scenario.definitions.length, cells: permissions.tables.cells.length, buildMs, loadTablesMs });
  }
  return build;
}

/** The compiler at every scale it runs at, then tsc over the 10× output; what they write goes to a fresh folder, removed at the end. */
function timeTooling({ subjects, settings, log }: BenchContext): Promise<Pick<BuildResult, 'compile' | 'tsc'>> {
  return withRunFolder('build', async (runDir) => {
    const compiled: { readonly times: CompileTimes; readonly outDir: string }[] = [];
    for (const scaleSubjects of subjects) {
      const runs = settings.compileRuns[scaleSubjects.scenario.scale];
      if (runs > 0) compiled.push(await timeCompile(scaleSubjects, runs, runDir, settings.spawnProcesses, log));
    }
    const tenfold = compiled.find(({ times }) => times.scale === 10);
    const tsc = !settings.spawnProcesses
      ? { skipped: 'smoke run: no processes are spawned' }
      : tenfold === undefined
        ? { skipped: 'the 10x scenario was not compiled' }
        : runTsc(tenfold.outDir, 10, runDir, log);
    return { compile: compiled.map(({ times }) => times), tsc };
  });
}

async function run(context: BenchContext): Promise<BuildResult> {
  const build = await timeBuilds(context);
  return { build, ...(await timeTooling(context)) };
}

function compileSection(build: BuildResult): string[] {
  if (build.compile.length === 0) return [];
  const rows = build.compile.map((c) => {
    const largest = Object.entries(c.outputBytes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, bytes]) => `${name} ${formatBytes(bytes)}`)
      .join(', ');
    return [
      `${c.scale}×`,
      String(c.inputFiles),
      c.runsMs.map(formatMs).join(', '),
      c.medianWarmMs === undefined ? '—' : formatMs(c.medianWarmMs),
      c.cliColdMs === undefined ? '—' : formatMs(c.cliColdMs),
      largest,
    ];
  });
  return [
    `Compiler end to end (definitions folder → generated/, formatted and written):\n\n${table(
      ['scale', 'input files', 'compile() in process, each run', 'median of warm runs', 'CLI, fresh process', 'largest outputs'],
      rows,
    )}`,
  ];
}

/** The build sections: build() and loading tables per scale, the compiler, and tsc over the 10× output. */
function sections(build: BuildResult | undefined): string[] {
  if (build === undefined) return [];
  const { tsc } = build;
  return [
    `build — median:\n\n${table(
      ['scale', 'definitions', 'cells', 'new Permissions + addPermissions + build()', 'permissionsFromTables (load precompiled tables)'],
      build.build.map((b) => [`${b.scale}×`, String(b.definitions), String(b.cells), formatMs(b.buildMs), formatMs(b.loadTablesMs)]),
    )}`,
    ...compileSection(build),
    'skipped' in tsc
      ? `tsc --noEmit of the 10× output: skipped (${tsc.skipped}).`
      : `tsc --noEmit of the 10× generated output (plus the runtime core it imports): ${formatMs(tsc.ms)}, ` +
        `exit code ${tsc.exitCode} — \`${tsc.command}\`${tsc.output === '' ? '' : `\n\n\`\`\`\n${tsc.output}\n\`\`\``}`,
  ];
}

/** The build targets: 10× build() under 50 ms and a 10× compile under 10 s (not measured in a smoke run). */
function targets(build: BuildResult | undefined): TargetVerdict[] {
  if (build === undefined) return [];
  const build10 = build.build.find((b) => b.scale === 10);
  const buildMet = build10 === undefined ? undefined : build10.buildMs < 50;
  const compile10 = build.compile.find((c) => c.scale === 10);
  const compileMet = compile10?.cliColdMs === undefined ? undefined : compile10.cliColdMs < 10_000 && (compile10.medianWarmMs ?? 0) < 10_000;
  return [
    {
      target: '10× build() under 50 ms',
      measured:
        build10 === undefined
          ? 'not measured (smoke run)'
          : `${formatMs(build10.buildMs)} (loading the precomputed tables instead: ${formatMs(build10.loadTablesMs)})`,
      met: buildMet,
      ...limitWhenMissed(buildMet, 'See "What limits the missed targets" below: build().'),
    },
    {
      target: '10× compile under 10 s',
      measured:
        compile10 === undefined
          ? 'not measured (smoke run)'
          : `CLI in a fresh process ${compile10.cliColdMs === undefined ? '—' : formatMs(compile10.cliColdMs)}; ` +
            `in process ${compile10.runsMs.map(formatMs).join(', ')}`,
      met: compileMet,
      ...limitWhenMissed(compileMet, 'See "What limits the missed targets" below: compiler.'),
    },
  ];
}

/** Start-up and tooling: build(), loading tables, the compiler, tsc. */
export const buildBenchmark: Benchmark<BuildResult> = { title: 'build and compile', run, sections, targets };
