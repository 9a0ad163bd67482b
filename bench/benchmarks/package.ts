/**
 * What a user's application pays for the package itself. The browser bundle of the
 * core runtime for the example's compiled tables (precompiled engine, tables, Permit, pick) next to
 * CASL's for equivalent rules, minified and gzipped by esbuild and zlib; and a cold start measured
 * as whole `node` processes — importing the compiled example tables through the built package, one
 * grant — against importing `@casl/ability`, building equivalent rules and one `can()`, interleaved,
 * medians, with an empty process as the floor. And the browser client (`typed-permissions/client`)
 * with the size of the example users' slices it reads. Targets: the core bundle at most 16 KB and the client at most
 * 6 KB (min+gzip), the cold start at most 1.3× CASL's.
 */
import { build, transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compile } from '../../compiler/index.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { formatBytes, table } from '../harness/format.js';
import type { TargetVerdict } from '../harness/report.js';
import { REPO_ROOT, withRunFolder } from '../harness/repository.js';
import { median } from '../harness/statistics.js';

/** One bundle's size. */
export interface BundleSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

/** Cold starts of whole processes, ms (medians of interleaved runs). */
export interface ColdStart {
  readonly runs: number;
  readonly oursMs: number;
  readonly caslMs: number;
  /** `node` with an empty module: the floor every process pays. */
  readonly emptyMs: number;
  readonly ratio: number;
}

/** The JSON size of one example user's slice (`permissions.sliceFor(user)`). */
export interface SliceSize {
  readonly user: string;
  readonly bytes: number;
}

export interface PackageResult {
  readonly bundle: { readonly ours: BundleSize; readonly casl: BundleSize };
  /** The browser client deciding buttons and picking fields from a slice (absent in results recorded before it was measured). */
  readonly client?: { readonly bundle: BundleSize; readonly slices: readonly SliceSize[] };
  readonly coldStart: ColdStart | Skipped;
}

/** The grant both sides do: EMPLOYEE 1 reads their own document 10, and its attributes are picked. */
const OURS_BUNDLE = `
import { createPermissions } from ${JSON.stringify(join(REPO_ROOT, 'generated', 'index.ts'))};
const ownership = new Proxy({}, { getOwnPropertyDescriptor: () => ({ value: () => true, configurable: true, enumerable: true, writable: true }) });
export async function readDocument(user, document) {
  const permit = await createPermissions({ ownership }).grantPermit({ user, resource: 'document', action: 'read', resourceId: document.id });
  return permit.granted ? permit.pick(document) : undefined;
}
`;

/** The example's EMPLOYEE and COMPANY_ADMIN rules in CASL (own = a condition on creatorId). */
const CASL_RULES = `
function rulesFor(user) {
  const rules = [];
  if (user.roles.includes('EMPLOYEE')) {
    rules.push({ action: ['create', 'read', 'list'], subject: 'document', conditions: { creatorId: user.id } });
    rules.push({ action: ['create', 'read', 'list'], subject: 'document', fields: ['confidential'], inverted: true, conditions: { creatorId: user.id } });
    rules.push({ action: 'list', subject: 'document', fields: ['title', 'date'] });
  }
  if (user.roles.includes('COMPANY_ADMIN')) {
    rules.push({ action: ['read', 'update', 'review'], subject: 'document', conditions: { companyId: user.companyId } });
  }
  if (user.roles.includes('SUPER_ADMIN')) rules.push({ action: 'manage', subject: 'all' });
  return rules;
}
`;

const CASL_BUNDLE = `
import { createMongoAbility, subject } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
${CASL_RULES}
export function readDocument(user, document) {
  const ability = createMongoAbility(rulesFor(user));
  const tagged = subject('document', document);
  if (!ability.can('read', tagged)) return undefined;
  const fields = permittedFieldsOf(ability, 'read', tagged, { fieldsFrom: (rule) => rule.fields || Object.keys(document) });
  return Object.fromEntries(fields.map((field) => [field, document[field]]));
}
`;

/** What a page does with the client: decide a button and pick the fields of one document from the user's slice. */
const CLIENT_BUNDLE = `
import { createClient } from ${JSON.stringify(join(REPO_ROOT, 'runtime', 'client', 'index.ts'))};
export function documentView(slice, document, ownedBy) {
  const client = createClient(slice);
  return { canUpdate: client.can('update', 'document', { owned: ownedBy }), fields: client.pick('read', 'document', document, { owned: ownedBy }) };
}
`;

/** The example users whose slices are measured, by their roles. */
const SLICE_USERS: readonly { readonly user: string; readonly roles: readonly string[] }[] = [
  { user: 'user 1 (EMPLOYEE)', roles: ['EMPLOYEE'] },
  { user: 'user 2 (EMPLOYEE_MANAGER)', roles: ['EMPLOYEE_MANAGER'] },
  { user: 'user 4 (COMPANY_ADMIN)', roles: ['COMPANY_ADMIN'] },
  { user: 'user 7 (EMPLOYEE_MANAGER, COMPANY_ADMIN)', roles: ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN'] },
  { user: 'user 9 (SUPER_ADMIN)', roles: ['SUPER_ADMIN'] },
];

/** The JSON sizes of the example users' slices, cut from the compiled example tables. */
async function sliceSizes(): Promise<SliceSize[]> {
  const { createPermissions } = await import('../../generated/index.js');
  // Cutting a slice calls no hook: an empty ownership service with the methods' names is enough to load the tables.
  const ownership = new Proxy({}, { getOwnPropertyDescriptor: () => ({ value: () => [], configurable: true, enumerable: true, writable: true }) });
  const permissions = createPermissions({ ownership: ownership as never });
  return SLICE_USERS.map(({ user, roles }) => ({ user, bytes: Buffer.byteLength(JSON.stringify(permissions.sliceFor({ id: 0, roles }))) }));
}

/**
 * What a page loads at start: the entry chunk, code split as browser bundlers do — what is imported dynamically
 * (following a live policy, with its bundle checks and policy-test runner) is a chunk of its own, loaded when used.
 */
async function bundleSize(source: string, dir: string, name: string): Promise<BundleSize> {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    outdir: join(dir, `${name}-bundle`),
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  const entryChunk = result.outputFiles.find((file) => file.path.endsWith(`${name}.js`));
  if (entryChunk === undefined) throw new Error(`esbuild wrote no entry chunk for ${name}`);
  const bytes = entryChunk.contents;
  return { minifiedBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

/**
 * The example's definitions compiled the way an application has them (generated code importing
 * `typed-permissions/precompiled`), transpiled to JavaScript beside a script that grants once;
 * `typed-permissions` resolves to the built runtime workspace.
 */
async function prepareColdStart(dir: string): Promise<{ ours: string; casl: string; empty: string }> {
  mkdirSync(dir, { recursive: true });
  const built = spawnSync('npm', ['run', 'build', '--workspace', 'runtime'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the runtime package failed: ${built.stderr}`);
  const generated = join(dir, 'generated-ts');
  const result = await compile({ definitionsDir: join(REPO_ROOT, 'definitions'), outDir: generated, runtimeImport: 'typed-permissions/precompiled' });
  if (!result.ok) throw new Error('compiling the example definitions failed');
  const js = join(dir, 'generated');
  mkdirSync(js);
  for (const file of readdirSync(generated).filter((name) => name.endsWith('.ts'))) {
    const { code } = await transform(readFileSync(join(generated, file), 'utf8'), { loader: 'ts', format: 'esm' });
    writeFileSync(join(js, file.replace(/\.ts$/, '.js')), code);
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const ours = join(dir, 'ours.js');
  writeFileSync(
    ours,
    `import { createPermissions } from './generated/index.js';\n` +
      // Every document counts as user 1's: the ownedAmong executor answers every id it is asked about.
      `const ownership = { isCreatedInSameCompany: () => false, limitToCreator: () => undefined, limitToCreatorOrManagedCreators: () => undefined, ` +
      `listCreatedInSameCompany: () => [], ownedDocumentsAmong: ({ resourceIds }) => resourceIds };\n` +
      `const query = { user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 };\n` +
      `const permit = await createPermissions({ ownership }).grantPermit(query);\n` +
      `if (!permit.granted) process.exit(1);\n`,
  );
  const casl = join(dir, 'casl.js');
  writeFileSync(
    casl,
    `import { createMongoAbility, subject } from '@casl/ability';\n${CASL_RULES}\n` +
      `const ability = createMongoAbility(rulesFor({ id: 1, roles: ['EMPLOYEE'] }));\n` +
      `if (!ability.can('read', subject('document', { id: 10, creatorId: 1 }))) process.exit(1);\n`,
  );
  const empty = join(dir, 'empty.js');
  writeFileSync(empty, '\n');
  return { ours, casl, empty };
}

function timeProcess(script: string): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, [script], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`${script} failed (${child.status}): ${child.stderr}`);
  return ms;
}

/** Whole processes, interleaved so that a slow moment of the shared machine hits all three alike; medians. */
async function measureColdStart(dir: string, log: (line: string) => void): Promise<ColdStart> {
  const scripts = await prepareColdStart(join(dir, 'cold'));
  const runs = 31;
  const times = { ours: [] as number[], casl: [] as number[], empty: [] as number[] };
  for (let i = 0; i < runs; i++) for (const which of ['ours', 'casl', 'empty'] as const) times[which].push(timeProcess(scripts[which]));
  const coldStart: ColdStart = {
    runs,
    oursMs: median(times.ours),
    caslMs: median(times.casl),
    emptyMs: median(times.empty),
    ratio: median(times.ours) / median(times.casl),
  };
  log(
    `  cold start (median of ${runs}): typed-permissions ${coldStart.oursMs.toFixed(1)} ms, ` +
      `CASL ${coldStart.caslMs.toFixed(1)} ms, empty ${coldStart.emptyMs.toFixed(1)} ms`,
  );
  return coldStart;
}

/** The bundles, then the cold start in a full run only: it builds the runtime package and starts processes. */
function run({ settings, log }: BenchContext): Promise<PackageResult> {
  return withRunFolder('package', async (dir) => {
    const bundle = { ours: await bundleSize(OURS_BUNDLE, dir, 'bundle-ours'), casl: await bundleSize(CASL_BUNDLE, dir, 'bundle-casl') };
    log(`  browser bundle min+gzip: typed-permissions ${bundle.ours.gzipBytes} B, CASL ${bundle.casl.gzipBytes} B`);
    const client = { bundle: await bundleSize(CLIENT_BUNDLE, dir, 'bundle-client'), slices: await sliceSizes() };
    log(`  browser client min+gzip: ${client.bundle.gzipBytes} B; slices: ${client.slices.map((slice) => `${slice.bytes} B`).join(', ')}`);
    if (settings.smoke) return { bundle, client, coldStart: { skipped: 'smoke run (it builds the runtime package and starts processes)' } };
    return { bundle, client, coldStart: await measureColdStart(dir, log) };
  });
}

function bundleSection(result: PackageResult): string {
  const { ours, casl } = result.bundle;
  const client = result.client?.bundle;
  return `Browser bundle for reading one document with the example's rules (esbuild, minified, ESM; gzip level 9):\n\n${table(
    ['bundle', 'minified', 'min+gzip'],
    [
      ['typed-permissions/precompiled + compiled tables', formatBytes(ours.minifiedBytes), formatBytes(ours.gzipBytes)],
      ['@casl/ability + permittedFieldsOf', formatBytes(casl.minifiedBytes), formatBytes(casl.gzipBytes)],
      ...(client === undefined
        ? []
        : [['typed-permissions/client (decide a button, pick a document from the slice)', formatBytes(client.minifiedBytes), formatBytes(client.gzipBytes)]]),
    ],
  )}`;
}

function coldStartSection({ coldStart: cold }: PackageResult): string {
  if ('skipped' in cold) return `Cold start: skipped (${cold.skipped}).`;
  return `Cold start, whole \`node\` processes, median of ${cold.runs} interleaved runs:\n\n${table(
    ['process', 'median', 'ratio to CASL'],
    [
      ['import the compiled example tables (typed-permissions/precompiled), one grantPermit', `${cold.oursMs.toFixed(1)} ms`, `${cold.ratio.toFixed(2)}×`],
      ['import @casl/ability, build equivalent rules, one can()', `${cold.caslMs.toFixed(1)} ms`, '1.00×'],
      ['an empty module (the floor)', `${cold.emptyMs.toFixed(1)} ms`, `${(cold.emptyMs / cold.caslMs).toFixed(2)}×`],
    ],
  )}`;
}

/**
 * The package sections: bundle sizes, the client's slices, the cold start (none for results recorded
 * before this benchmark existed).
 */
function sections(result: PackageResult | undefined): string[] {
  if (result === undefined) return [];
  return [
    bundleSection(result),
    ...(result.client === undefined
      ? []
      : [
          `The slices the client reads (\`permissions.sliceFor(user)\`, JSON) for the example users:\n\n${table(
            ['user', 'bytes'],
            result.client.slices.map((slice) => [slice.user, String(slice.bytes)]),
          )}`,
        ]),
    coldStartSection(result),
  ];
}

/**
 * The package targets: the core bundle at most 16 KB and the client at most 6 KB (min+gzip), the cold
 * start at most 1.3× CASL's.
 */
function targets(result: PackageResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const { ours, casl } = result.bundle;
  const verdicts: TargetVerdict[] = [
    {
      target: 'Browser bundle of the core runtime (tables + Permit + pick), min+gzip, at most 16 KB',
      measured: `${formatBytes(ours.gzipBytes)} (${formatBytes(ours.minifiedBytes)} minified); CASL for equivalent rules: ${formatBytes(casl.gzipBytes)}`,
      met: ours.gzipBytes <= 16 * 1024,
    },
  ];
  if (result.client !== undefined) {
    const { bundle, slices } = result.client;
    verdicts.push({
      target: 'Browser client (typed-permissions/client: createClient + can + pick), min+gzip, at most 6 KB',
      measured:
        `${formatBytes(bundle.gzipBytes)} (${formatBytes(bundle.minifiedBytes)} minified); the example users' slices: ` +
        slices.map((slice) => `${slice.user} ${slice.bytes} B`).join(', '),
      met: bundle.gzipBytes <= 6 * 1024,
    });
  }
  const cold = result.coldStart;
  verdicts.push({
    target: 'Cold start (import + load the example tables + one grant, whole process) at most 1.3× CASL’s',
    measured:
      'skipped' in cold
        ? `skipped: ${cold.skipped}`
        : `${cold.ratio.toFixed(2)}× (${cold.oursMs.toFixed(1)} ms vs ${cold.caslMs.toFixed(1)} ms; ` +
          `an empty node process: ${cold.emptyMs.toFixed(1)} ms; median of ${cold.runs} interleaved runs)`,
    met: 'skipped' in cold ? undefined : cold.ratio <= 1.3,
  });
  return verdicts;
}

/** The package: browser bundles and the cold start, beside CASL's. */
export const packageBenchmark: Benchmark<PackageResult> = { title: 'package: bundle and cold start', run, sections, targets };
