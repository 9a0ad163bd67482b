/**
 * What a user's application pays for the package itself. What a browser page of the precompiled engine with the
 * example's compiled tables loads — every chunk of it: the entry, what it imports statically and what its run
 * imports dynamically (bench/harness/page-bundle.ts) — next to CASL's for equivalent rules, minified and gzipped;
 * and a cold start measured as whole `node` processes — importing the compiled example tables through the built
 * package, one grant — against importing `@casl/ability`, building equivalent rules and one `can()`, interleaved,
 * medians, with an empty process as the floor. And the browser client (`typed-permissions/client`) with the size of
 * the example users' slices it reads. Targets: the page at most 16 KB and the client at most 6 KB (min+gzip), the
 * cold start at most 1.3× CASL's.
 */
import { transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compile } from '../../compiler/index.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { formatBytes, table } from '../harness/format.js';
import { bundlePage, type ChunkLoad, type Page, type PageBundle } from '../harness/page-bundle.js';
import type { TargetVerdict } from '../harness/report.js';
import { REPO_ROOT, withRunFolder } from '../harness/repository.js';
import { median } from '../harness/statistics.js';

/** One bundle's size: the sums over the chunks the page loads. */
export interface BundleSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

/** One chunk of the precompiled engine's page: how the page loads it (or not), its sizes and its sources, largest first. */
export interface ChunkSize extends BundleSize {
  readonly file: string;
  readonly load: ChunkLoad;
  readonly sources: readonly string[];
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
  readonly bundle: {
    readonly ours: BundleSize;
    readonly casl: BundleSize;
    /**
     * Every chunk of the precompiled engine's page, loaded or not (absent in results recorded before every chunk
     * the page loads was counted: `ours` was then its entry chunk alone).
     */
    readonly oursChunks?: readonly ChunkSize[];
  };
  /** The browser client deciding buttons and picking fields from a slice (absent in results recorded before it was measured). */
  readonly client?: { readonly bundle: BundleSize; readonly slices: readonly SliceSize[] };
  readonly coldStart: ColdStart | Skipped;
}

/** An example document of user 1's: its id and every attribute the example's documents have. */
const DOCUMENT = { id: 10, title: 'Plan', date: '2026-01-05', status: 'draft', personal: 'p', confidential: 'c', creatorId: 1, companyId: 1 };

/**
 * A page that decides with the precompiled engine and the example's compiled tables, as generated code makes it:
 * reads one document (grantPermit with its id: an ownership answer, then pick), lists documents (grantPermitSync,
 * filterPick, the limitOwn filter) and cuts the user's slice. Its ownership rules read the records the page holds in
 * memory (memoryOwnership of typed-permissions/ownership: the documents it was given, and its users' companies). The
 * run does each once, as EMPLOYEE 1.
 */
export const PRECOMPILED_PAGE: Page = {
  source: `
import { createPermissions } from ${JSON.stringify(join(REPO_ROOT, 'generated', 'index.ts'))};
import { memoryOwnership } from ${JSON.stringify(join(REPO_ROOT, 'runtime', 'ownership', 'index.ts'))};
let documents = [];
const users = [{ id: 1, companyId: 1 }];
const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: () => documents, user: users }) });
export async function readDocument(user, document) {
  documents = [document];
  const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: document.id });
  return permit.granted ? permit.pick(document) : undefined;
}
export async function listDocuments(user, given) {
  documents = given;
  const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
  return { rows: await permit.filterPick(given), ownedIds: given.filter(permit.limitOwn()).map((document) => document.id) };
}
export const sliceOf = (user) => permissions.sliceFor(user);
`,
  run: `
const user = { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] };
const document = ${JSON.stringify(DOCUMENT)};
const other = { ...document, id: 20, creatorId: 2 };
return { read: await page.readDocument(user, document), list: await page.listDocuments(user, [document, other]), slice: page.sliceOf(user) };
`,
};

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

/** CASL's page for the same read: EMPLOYEE 1 reads their own document, and its attributes are picked. */
const CASL_PAGE: Page = {
  source: `
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
`,
  run: `return page.readDocument({ id: 1, roles: ['EMPLOYEE'] }, ${JSON.stringify(DOCUMENT)});`,
};

/** What a page does with the client: decide a button and pick the fields of one document from the user's slice. */
function clientPage(slice: unknown): Page {
  return {
    source: `
import { createClient } from ${JSON.stringify(join(REPO_ROOT, 'runtime', 'client', 'index.ts'))};
export function documentView(slice, document, ownedBy) {
  const client = createClient(slice);
  return { canUpdate: client.can('update', 'document', { owned: ownedBy }), fields: client.pick('read', 'document', document, { owned: ownedBy }) };
}
`,
    run: `return page.documentView(${JSON.stringify(slice)}, ${JSON.stringify(DOCUMENT)}, [0]);`,
  };
}

/** The example users whose slices are measured, by their roles. */
const SLICE_USERS: readonly { readonly user: string; readonly roles: readonly string[] }[] = [
  { user: 'user 1 (EMPLOYEE)', roles: ['EMPLOYEE'] },
  { user: 'user 2 (EMPLOYEE_MANAGER)', roles: ['EMPLOYEE_MANAGER'] },
  { user: 'user 4 (COMPANY_ADMIN)', roles: ['COMPANY_ADMIN'] },
  { user: 'user 7 (EMPLOYEE_MANAGER, COMPANY_ADMIN)', roles: ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN'] },
  { user: 'user 9 (SUPER_ADMIN)', roles: ['SUPER_ADMIN'] },
];

/** The example users' slices, cut from the compiled example tables: their JSON sizes, and user 1's (the client page's). */
async function exampleSlices(): Promise<{ sizes: SliceSize[]; employee: unknown }> {
  const { createPermissions } = await import('../../generated/index.js');
  const { memoryOwnership } = await import('../../runtime/ownership/index.js');
  // Cutting a slice reads no record: a rule source without records is enough to load the tables.
  const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: [], user: [] }) });
  const noOwnership = { companyId: null, managedUserIds: [] };
  return {
    sizes: SLICE_USERS.map(({ user, roles }) => ({ user, bytes: Buffer.byteLength(JSON.stringify(permissions.sliceFor({ id: 0, roles, ...noOwnership }))) })),
    employee: permissions.sliceFor({ id: 1, roles: ['EMPLOYEE'], ...noOwnership }),
  };
}

/** What the report keeps of a chunk: its sizes, how the page loads it, and its sources, largest first. */
function chunkSize({ file, load, minifiedBytes, gzipBytes, inputs }: PageBundle['chunks'][number]): ChunkSize {
  return { file, load, minifiedBytes, gzipBytes, sources: inputs.map((input) => input.path) };
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
      `import { memoryOwnership } from 'typed-permissions/ownership';\n` +
      // Document 10 is user 1's: the ownership rule reads it from the records in memory.
      `const ownershipRules = memoryOwnership({ document: [{ id: 10, creatorId: 1 }], user: [{ id: 1, companyId: 1 }] });\n` +
      `const query = { user: { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }, resource: 'document', action: 'read', resourceId: 10 };\n` +
      `const permit = await createPermissions({ ownershipRules }).grantPermit(query);\n` +
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
    const ours = await bundlePage(PRECOMPILED_PAGE, dir, 'precompiled');
    const bundle = { ours: sizeOf(ours), casl: sizeOf(await bundlePage(CASL_PAGE, dir, 'casl')), oursChunks: ours.chunks.map(chunkSize) };
    log(`  browser bundle min+gzip, every chunk the page loads: typed-permissions ${bundle.ours.gzipBytes} B, CASL ${bundle.casl.gzipBytes} B`);
    const slices = await exampleSlices();
    const client = { bundle: sizeOf(await bundlePage(clientPage(slices.employee), dir, 'client')), slices: slices.sizes };
    log(`  browser client min+gzip: ${client.bundle.gzipBytes} B; slices: ${client.slices.map((slice) => `${slice.bytes} B`).join(', ')}`);
    if (settings.smoke) return { bundle, client, coldStart: { skipped: 'smoke run (it builds the runtime package and starts processes)' } };
    return { bundle, client, coldStart: await measureColdStart(dir, log) };
  });
}

function sizeOf({ minifiedBytes, gzipBytes }: PageBundle): BundleSize {
  return { minifiedBytes, gzipBytes };
}

/** A chunk's sources as the report names them: the largest few, by file name. */
function sourcesText(sources: readonly string[]): string {
  const shown = sources.slice(0, 4).map((source) => basename(source));
  return sources.length > shown.length ? `${shown.join(', ')} and ${sources.length - shown.length} more` : shown.join(', ');
}

/** The chunks of the precompiled engine's page: what it loads first, then what it leaves for later. */
function chunksSection(chunks: readonly ChunkSize[]): string {
  const order: readonly ChunkLoad[] = ['entry', 'static import', 'dynamic import during the run', 'not loaded'];
  const sorted = [...chunks].sort((a, b) => order.indexOf(a.load) - order.indexOf(b.load) || b.gzipBytes - a.gzipBytes);
  const imported = chunks.filter((chunk) => chunk.load === 'dynamic import during the run').length;
  return (
    `What the precompiled engine's page loads: every chunk esbuild splits it into, and how the page comes to load it. ` +
    `The page's size is the sum over the chunks it loads — its entry, what that imports statically, and what its run ` +
    `imports dynamically (${imported === 0 ? 'none: deciding, picking, listing, limitOwn and slices load nothing more' : `${imported} chunks`}) ` +
    `— each gzipped on its own, as a server sends it. A chunk it does not load is what the engine loads when first ` +
    `used: following a live policy (with its policy tests), delivering the decision log, tracing in Node.js.\n\n${table(
      ['chunk', 'loaded', 'minified', 'min+gzip', 'largest sources'],
      sorted.map((chunk) => [
        chunk.file.startsWith('chunk-') ? 'a shared chunk' : chunk.file.replace(/-[A-Z0-9]{8}\.js$/, '.js'),
        chunk.load,
        formatBytes(chunk.minifiedBytes),
        formatBytes(chunk.gzipBytes),
        sourcesText(chunk.sources),
      ]),
    )}`
  );
}

function bundleSection(result: PackageResult): string {
  const { ours, casl, oursChunks } = result.bundle;
  const client = result.client?.bundle;
  return `Browser pages with the example's rules (esbuild, minified, ESM, split into chunks; every chunk a page loads, each gzipped at level 9):\n\n${table(
    ['page', 'minified', 'min+gzip'],
    [
      [
        oursChunks === undefined
          ? 'typed-permissions/precompiled + compiled tables: read a document (its entry chunk only, as measured then)'
          : "typed-permissions/precompiled + compiled tables: read a document, list documents and their filter, the user's slice",
        formatBytes(ours.minifiedBytes),
        formatBytes(ours.gzipBytes),
      ],
      ['@casl/ability + permittedFieldsOf: read a document', formatBytes(casl.minifiedBytes), formatBytes(casl.gzipBytes)],
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
 * The package sections: page sizes, the chunks of the precompiled engine's page, the client's slices, the cold
 * start (none for results recorded before this benchmark existed).
 */
function sections(result: PackageResult | undefined): string[] {
  if (result === undefined) return [];
  return [
    bundleSection(result),
    ...(result.bundle.oursChunks === undefined ? [] : [chunksSection(result.bundle.oursChunks)]),
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
 * The package targets: the precompiled engine's page at most 16 KB and the client at most 6 KB (min+gzip), the
 * cold start at most 1.3× CASL's.
 */
function targets(result: PackageResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const { ours, casl, oursChunks } = result.bundle;
  const verdicts: TargetVerdict[] = [
    {
      target: "Browser page of the precompiled engine with the example's compiled tables, every chunk it loads, min+gzip, at most 16 KB",
      measured:
        `${formatBytes(ours.gzipBytes)} (${formatBytes(ours.minifiedBytes)} minified)${oursChunks === undefined ? ', its entry chunk only' : ''}; ` +
        `CASL reading a document with equivalent rules: ${formatBytes(casl.gzipBytes)}`,
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
