/**
 * Policies of growing size, each with the example's `*:any` super role: the compiler in a child process (time and
 * peak memory), the generated files' sizes, `tsc --noEmit` over a small consumer, importing the generated code and
 * `createPermissions` in a fresh process, and — beside CASL's `can` and `permittedFieldsOf`, in the same run — the
 * four decision kinds and a 15-attribute pick. Targets: decisions at 500 × 1,000 within 1.3× of 10 × 20, at most
 * 0.7× CASL at every size, a refusal no dearer than a grant; import + createPermissions at most 20 ms at 500 × 1,000.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { packGrantTables } from '../../runtime/core/tables/packed-tables.js';
import { Permissions, unpackGrantTables } from '../../runtime/permissions/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { sampleDecisionQueries } from '../harness/decision-queries.js';
import { writeDefinitionsFolder } from '../harness/definitions-folder.js';
import { formatBytes, formatMs, formatNs, formatRatio, table } from '../harness/format.js';
import { caslDecider, caslPicker } from '../harness/peers/casl.js';
import { CountingOwnership } from '../harness/peers/counting-ownership.js';
import { nestedTable } from '../harness/peers/nested-object.js';
import type { BenchUser } from '../harness/peers/peer.js';
import { flattenRules, universeOf } from '../harness/peers/rules.js';
import { buildPermissions } from '../harness/peers/typed-permissions.js';
import { Random } from '../harness/random.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import { REPO_ROOT, withRunFolder } from '../harness/repository.js';
import { createSizedScenario, fillerRecord, policySize, type Scenario } from '../harness/scenario.js';
import { median } from '../harness/statistics.js';
import type { BenchSubjects } from '../harness/subjects.js';
import { medianNs } from '../harness/timing.js';

/** One policy size: filler roles × filler resources, each role on about `share` of the resources. */
export interface ScaleSize {
  readonly name: string;
  readonly roles: number;
  readonly resources: number;
  readonly share: number;
}

/**
 * The sizes, smallest first (the smoke run takes the first only). The fourth is the largest step the compiler accepts
 * at 5% per role: 1,000 × 2,000 expands to about 320,000 grants, while 2,000 × 5,000 expands to 1.59 million, past
 * its limit of 1,000,000. Raise it here when that limit is.
 */
export const SCALE_SIZES: readonly ScaleSize[] = [
  { name: '10 × 20', roles: 10, resources: 20, share: 0.05 },
  { name: '100 × 200', roles: 100, resources: 200, share: 0.05 },
  { name: '500 × 1,000', roles: 500, resources: 1000, share: 0.05 },
  { name: '1,000 × 2,000', roles: 1000, resources: 2000, share: 0.05 },
  { name: '5,000 tenant roles × 50', roles: 5000, resources: 50, share: 0.05 },
];

/**
 * The step past the compiler's limits: 2,000 × 5,000 writes 500,000 definitions in about 200 MB of files, past the
 * 64 MiB a definitions folder may hold. Only its refusal is measured: it must come within seconds.
 */
export const REFUSED_SIZE: ScaleSize = { name: '2,000 × 5,000', roles: 2000, resources: 5000, share: 0.05 };

/** The most a refusal may take, from the compile's start in its process, to count as "within seconds". */
const REFUSAL_TARGET_MS = 10_000;

/** A compile's outcome for the report: its time and peak memory, or its refusal. */
function compileCell(compile: ScaleRow['compile']): string {
  if ('refused' in compile) {
    const took = compile.ms === undefined ? '' : ` in ${formatMs(compile.ms)}`;
    return `refused${took}${compile.peakBytes === undefined ? '' : `, ${formatBytes(compile.peakBytes)}`}: ${compile.refused}`;
  }
  return 'ms' in compile ? `${formatMs(compile.ms)}, ${formatBytes(compile.peakBytes)}` : 'not run (smoke)';
}

/** The decision kinds, as the decision benchmark names them. */
const KINDS = [
  { name: '1 role, granted', roles: 1, granted: true },
  { name: '1 role, denied', roles: 1, granted: false },
  { name: '3 roles, granted', roles: 3, granted: true },
  { name: '3 roles, denied', roles: 3, granted: false },
] as const;

/** Fresh processes that import the generated code; the median is reported. */
const LOAD_RUNS = 7;

export interface ScaleDecision {
  readonly kind: string;
  readonly oursNs: number;
  readonly caslNs: number;
}

export interface ScaleRow {
  readonly size: ScaleSize;
  readonly definitions: number;
  readonly cells: number;
  /** The compiler in a child process: wall time and peak resident memory; or why it did not run or refused. */
  readonly compile: { readonly ms: number; readonly peakBytes: number } | Refusal | { readonly skipped: string };
  readonly outputBytes: Readonly<Record<string, number>>;
  readonly tscMs: number | undefined;
  /** Importing the generated code and createPermissions in a fresh process (median), and the heap after. */
  readonly load: { readonly ms: number; readonly heapBytes: number } | undefined;
  readonly decisions: readonly ScaleDecision[];
  readonly pick: { readonly oursNs: number; readonly caslNs: number };
}

/** A compile that refused (its first problem), how long it took and its peak memory; no time when the process failed. */
export interface Refusal {
  readonly refused: string;
  readonly ms?: number;
  readonly peakBytes?: number;
}

export interface ScaleResult {
  readonly rows: readonly ScaleRow[];
  /** The size past the limits: its definitions, the bytes of its files and the compiler's refusal (not in a smoke run). */
  readonly refusal?: { readonly size: ScaleSize; readonly definitions: number; readonly folderBytes: number; readonly compile: ScaleRow['compile'] };
}

/** The compiler of `definitionsDir` in a child process: its time and peak memory, or its refusal. */
function compileInChild(definitionsDir: string, outDir: string): ScaleRow['compile'] {
  const script = `
    const { compile } = await import(${JSON.stringify(join(REPO_ROOT, 'compiler/index.ts'))});
    const start = performance.now();
    const result = await compile({ definitionsDir: ${JSON.stringify(definitionsDir)}, outDir: ${JSON.stringify(outDir)} });
    const ms = performance.now() - start;
    const problem = result.ok ? undefined : result.problems[0]?.message;
    console.log(JSON.stringify({ ok: result.ok, ms, peakBytes: process.resourceUsage().maxRSS * 1024, problem }));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) return { refused: `the compiler exited with ${child.status}: ${child.stderr.slice(0, 500)}` };
  const outcome = JSON.parse(line) as { ok: boolean; ms: number; peakBytes: number; problem?: string };
  return outcome.ok
    ? { ms: outcome.ms, peakBytes: outcome.peakBytes }
    : { refused: outcome.problem ?? 'refused', ms: outcome.ms, peakBytes: outcome.peakBytes };
}

/** `tsc --noEmit` over a consumer of the generated code that decides once. */
function tscOverConsumer(outDir: string, runDir: string, name: string): number {
  writeFileSync(
    join(outDir, 'consumer.ts'),
    `import { createPermissions } from './index.js';\n` +
      `const permissions = createPermissions({ ownership: {} as never });\n` +
      `export const granted: boolean = permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read' }).granted;\n`,
  );
  const tsconfig = join(runDir, `tsconfig.${name}.json`);
  const config = {
    extends: relative(runDir, join(REPO_ROOT, 'tsconfig.json')),
    compilerOptions: { noEmit: true, rootDir: relative(runDir, REPO_ROOT) },
    include: [relative(runDir, join(outDir, 'consumer.ts'))],
  };
  writeFileSync(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
  const start = performance.now();
  const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', tsconfig], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (tsc.status !== 0) throw new Error(`tsc over the ${name} consumer failed: ${tsc.stdout.slice(0, 1000)}`);
  return ms;
}

/**
 * The generated code bundled as an application's build would load it — ES modules, each dynamically imported module
 * a chunk of its own (esbuild's code splitting; rollup, Vite and webpack split dynamic imports by default), so the
 * definitions' descriptions are not read until an explanation needs them — then imported by fresh processes.
 *
 * Each process first imports an empty module file, standing for the application's own entry module: Node.js
 * readies its loader for files on the first file it imports (about 4 ms here), which an application pays for its
 * entry whatever it imports, so the clock starts after it — as it would inside an application's module graph.
 */
async function loadInChild(outDir: string, runDir: string, name: string): Promise<{ ms: number; heapBytes: number }> {
  const bundleDir = join(runDir, `bundle-${name}`);
  const bundle = join(bundleDir, 'app.mjs');
  await build({
    entryPoints: { app: join(outDir, 'index.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: bundleDir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
  });
  // An ownership service with every method the policy names (read before the clock starts).
  const { tables } = JSON.parse(readFileSync(join(outDir, 'policy.json'), 'utf8')) as { tables: { hooks: { name: string }[] } };
  const methods = [...new Set(tables.hooks.map((hook) => hook.name))];
  const entry = join(bundleDir, 'entry.mjs');
  writeFileSync(entry, 'export {};\n');
  const script = `
    await import(${JSON.stringify(entry)});
    const ownership = Object.fromEntries(${JSON.stringify(methods)}.map((name) => [name, () => []]));
    const start = performance.now();
    const { createPermissions } = await import(${JSON.stringify(bundle)});
    createPermissions({ ownership });
    const ms = performance.now() - start;
    globalThis.gc?.();
    console.log(JSON.stringify({ ms, heapBytes: process.memoryUsage().heapUsed }));
  `;
  const runs: { ms: number; heapBytes: number }[] = [];
  for (let run = 0; run < LOAD_RUNS; run++) {
    const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '--eval', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`loading the ${name} generated code failed: ${child.stderr.slice(0, 1000)}`);
    runs.push(JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { ms: number; heapBytes: number });
  }
  return { ms: median(runs.map((r) => r.ms)), heapBytes: median(runs.map((r) => r.heapBytes)) };
}

/** A record of 15 attributes: the filler's ten and five more (which the pinned `['*', '!secret', '!notes']` keeps). */
function fifteenAttributes(id: number): object {
  return { ...fillerRecord(id, 3), region: 'north', priority: 2, score: 0.5, archived: false, version: 7 };
}

/** The four decision kinds and the pick, ours through packed tables (as the generated code loads them) and CASL's. */
async function decide(scenario: Scenario, { settings }: BenchContext): Promise<Pick<ScaleRow, 'decisions' | 'pick' | 'cells'>> {
  const ownership = new CountingOwnership();
  const built = buildPermissions(scenario, ownership);
  const packed = packGrantTables(built.tables);
  const permissions = Permissions.fromTables<BenchUser>(unpackGrantTables(packed.header, packed.definitions, packed.cells, packed.descriptions), {
    ownership,
    logger: { warn: () => undefined },
  });
  const rules = flattenRules(scenario.definitions, { expand: false });
  const subjects = { scenario, table: nestedTable(flattenRules(scenario.definitions, { expand: true })), universe: universeOf(scenario.definitions) };
  const random = new Random(7);
  const casl = caslDecider(rules);
  const decisions: ScaleDecision[] = [];
  for (const [k, kind] of KINDS.entries()) {
    const queries = sampleDecisionQueries(subjects as unknown as BenchSubjects, random, settings.queriesPerCase, kind.roles, kind.granted, 1000 * (k + 1));
    const mask = queries.length - 1;
    const check = await casl.prepare(queries);
    let i = 0;
    let j = 0;
    const oursNs = await medianNs(() => permissions.grantPermitSync(queries[i++ & mask] as (typeof queries)[number]).granted, settings);
    const caslNs = await medianNs(() => check(j++ & mask), settings);
    decisions.push({ kind: kind.name, oursNs, caslNs });
  }
  const { role, resource } = scenario.showcase.pickExclude;
  const query = { user: { id: 1, roles: [role] }, resource, action: 'read' };
  const permit = permissions.grantPermitSync(query);
  const caslPick = await caslPicker(rules).prepare(query);
  const record = fifteenAttributes(11);
  const pick = { oursNs: await medianNs(() => permit.pickSync(record), settings), caslNs: await medianNs(() => caslPick(record), settings) };
  return { decisions, pick, cells: built.tables.cells.length };
}

async function measureSize(size: ScaleSize, runDir: string, context: BenchContext): Promise<ScaleRow> {
  const { settings, log } = context;
  const scenario = createSizedScenario(policySize(size.roles, size.resources, size.share), 20240605);
  const name = `${size.roles}x${size.resources}`;
  const definitionsDir = join(runDir, `definitions-${name}`);
  const outDir = join(runDir, `generated-${name}`);
  writeDefinitionsFolder(scenario, definitionsDir);
  let compile: ScaleRow['compile'] = { skipped: 'smoke run: no processes are spawned' };
  let outputBytes: Record<string, number> = {};
  let tscMs: number | undefined;
  let load: ScaleRow['load'];
  if (settings.spawnProcesses) {
    compile = compileInChild(definitionsDir, outDir);
    log(`  scale ${size.name}: compile ${compileCell(compile)}`);
    if (!('refused' in compile) && 'ms' in compile) {
      outputBytes = Object.fromEntries(readdirSync(outDir).map((file) => [file, statSync(join(outDir, file)).size]));
      const loaded = await loadInChild(outDir, runDir, name);
      tscMs = tscOverConsumer(outDir, runDir, name);
      log(`  scale ${size.name}: import + createPermissions ${loaded.ms.toFixed(1)} ms, tsc ${tscMs.toFixed(0)} ms`);
      load = loaded;
    }
  }
  const decided = await decide(scenario, context);
  for (const d of decided.decisions) log(`  scale ${size.name}: ${d.kind} ${d.oursNs.toFixed(0)} ns, CASL ${d.caslNs.toFixed(0)} ns`);
  return { size, definitions: scenario.definitions.length, compile, outputBytes, tscMs, load, ...decided };
}

/** The compiler over the size past its limits, in a child process; the folder is removed right after. */
function measureRefusal(runDir: string, { log }: BenchContext): NonNullable<ScaleResult['refusal']> {
  const size = REFUSED_SIZE;
  const scenario = createSizedScenario(policySize(size.roles, size.resources, size.share), 20240605);
  const definitionsDir = join(runDir, `definitions-${size.roles}x${size.resources}`);
  writeDefinitionsFolder(scenario, definitionsDir);
  const folderBytes = readdirSync(definitionsDir).reduce((sum, file) => sum + statSync(join(definitionsDir, file)).size, 0);
  const compile = compileInChild(definitionsDir, join(runDir, `generated-${size.roles}x${size.resources}`));
  rmSync(definitionsDir, { recursive: true, force: true });
  log(`  scale ${size.name}: ${JSON.stringify(compile)}`);
  return { size, definitions: scenario.definitions.length, folderBytes, compile };
}

async function run(context: BenchContext): Promise<ScaleResult> {
  const sizes = context.settings.smoke ? SCALE_SIZES.slice(0, 1) : SCALE_SIZES;
  return withRunFolder('scale', async (runDir) => {
    const rows: ScaleRow[] = [];
    for (const size of sizes) rows.push(await measureSize(size, runDir, context));
    if (context.settings.smoke || !context.settings.spawnProcesses) return { rows };
    return { rows, refusal: measureRefusal(runDir, context) };
  });
}

/** Ours ÷ CASL, and ours at this size ÷ ours at the smallest. */
function decisionCell(row: ScaleRow, first: ScaleRow, kind: string): string {
  const ours = row.decisions.find((d) => d.kind === kind) as ScaleDecision;
  const base = first.decisions.find((d) => d.kind === kind) as ScaleDecision;
  const versusCasl = formatRatio(ours.oursNs / ours.caslNs);
  return `${formatNs(ours.oursNs)} (CASL ${formatNs(ours.caslNs)}, ${versusCasl}; ${formatRatio(ours.oursNs / base.oursNs)} of the first size)`;
}

function sections(result: ScaleResult | undefined): string[] {
  if (result === undefined || result.rows.length === 0) return [];
  const first = result.rows[0] as ScaleRow;
  const tooling = table(
    [
      'policy (roles × resources)',
      'definitions',
      'cells',
      'compile (child process), peak memory',
      'tables.ts',
      'PERMISSIONS.md',
      'tsc over a consumer',
      'import + createPermissions (fresh process)',
      'heap after',
    ],
    result.rows.map((row) => [
      row.size.name,
      String(row.definitions),
      String(row.cells),
      compileCell(row.compile),
      row.outputBytes['tables.ts'] === undefined ? '—' : formatBytes(row.outputBytes['tables.ts']),
      row.outputBytes['PERMISSIONS.md'] === undefined ? '—' : formatBytes(row.outputBytes['PERMISSIONS.md']),
      row.tscMs === undefined ? '—' : formatMs(row.tscMs),
      row.load === undefined ? '—' : formatMs(row.load.ms),
      row.load === undefined ? '—' : formatBytes(row.load.heapBytes),
    ]),
  );
  const decisions = table(
    ['policy', ...KINDS.map((kind) => kind.name), '15-attribute pick'],
    result.rows.map((row) => [
      row.size.name,
      ...KINDS.map((kind) => decisionCell(row, first, kind.name)),
      `${formatNs(row.pick.oursNs)} (CASL ${formatNs(row.pick.caslNs)}, ${formatRatio(row.pick.oursNs / row.pick.caslNs)})`,
    ]),
  );
  const { refusal } = result;
  const past =
    refusal === undefined
      ? ''
      : `\n\nPast the limits, ${refusal.size.name} (${refusal.definitions} definitions, ${formatBytes(refusal.folderBytes)} of files), ` +
        `compiled in a child process: ${compileCell(refusal.compile)}`;
  return [
    `Scale — every policy has the example's definitions (with the \`*:any\` super role) plus filler, each role on ~5% of the resources:\n\n${tooling}${past}`,
    `Scale — grantPermitSync through packed tables (as the generated code loads them) beside CASL's \`can\`, median per call ` +
      `(ours ÷ CASL; ours ÷ ours at ${first.size.name}):\n\n${decisions}`,
  ];
}

const LIMIT = 'See "What limits the missed targets" below: scale.';

function targets(result: ScaleResult | undefined): TargetVerdict[] {
  if (result === undefined || result.rows.length === 0) return [];
  const first = result.rows[0] as ScaleRow;
  const target = result.rows.find((row) => row.size.roles === 500 && row.size.resources === 1000);
  const verdicts: TargetVerdict[] = [];
  if (target !== undefined) {
    const growth = KINDS.map((kind) => {
      const at = (row: ScaleRow) => (row.decisions.find((d) => d.kind === kind.name) as ScaleDecision).oursNs;
      return { kind: kind.name, ratio: at(target) / at(first) };
    });
    const flat = growth.every((g) => g.ratio <= 1.3);
    verdicts.push({
      target: `Decisions at 500 × 1,000 within 1.3× of ${first.size.name}`,
      measured: growth.map((g) => `${g.kind} ${formatRatio(g.ratio)}`).join('; '),
      met: flat,
      ...limitWhenMissed(flat, LIMIT),
    });
    if (target.load !== undefined) {
      const met = target.load.ms <= 20;
      verdicts.push({
        target: 'Import + createPermissions at 500 × 1,000 at most 20 ms',
        measured: formatMs(target.load.ms),
        met,
        ...limitWhenMissed(met, LIMIT),
      });
    }
  }
  const refused = result.refusal?.compile;
  if (refused !== undefined) {
    const ms = 'refused' in refused ? refused.ms : undefined;
    const met = ms !== undefined && ms <= REFUSAL_TARGET_MS;
    verdicts.push({
      target: `A policy past a limit (${REFUSED_SIZE.name}) refused within ${REFUSAL_TARGET_MS / 1000} s`,
      measured: 'refused' in refused ? compileCell(refused) : 'compiled: it was not refused',
      met,
      ...limitWhenMissed(met, LIMIT),
    });
  }
  for (const row of result.rows) {
    const ratios = row.decisions.map((d) => ({ kind: d.kind, ratio: d.oursNs / d.caslNs }));
    const met = ratios.every((r) => r.ratio <= 0.7);
    verdicts.push({
      target: `Decisions at most 0.7× CASL's can — ${row.size.name}`,
      measured: ratios.map((r) => `${r.kind} ${formatRatio(r.ratio)}`).join('; '),
      met,
      ...limitWhenMissed(met, LIMIT),
    });
    const ns = (kind: string) => (row.decisions.find((d) => d.kind === kind) as ScaleDecision).oursNs;
    const refusalMet = ns('1 role, denied') <= ns('1 role, granted') && ns('3 roles, denied') <= ns('3 roles, granted');
    verdicts.push({
      target: `A refusal costs no more than a grant — ${row.size.name}`,
      measured:
        `1 role ${formatNs(ns('1 role, denied'))} vs ${formatNs(ns('1 role, granted'))}; ` +
        `3 roles ${formatNs(ns('3 roles, denied'))} vs ${formatNs(ns('3 roles, granted'))}`,
      met: refusalMet,
      ...limitWhenMissed(refusalMet, LIMIT),
    });
  }
  return verdicts;
}

/** The scale benchmark. */
export const scaleBenchmark: Benchmark<ScaleResult> = { title: 'scale', run, sections, targets };
