/**
 * The cost limits end to end: a hostile definitions file of about 100 KB never crashes the
 * compiler or build(), and never needs more than a 512 MB heap — it compiles, or fails with a clear
 * problem. Each file runs in a child process started with `--max-old-space-size=512`, so running
 * out of memory would crash that process (and fail the test) instead of passing unnoticed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir, removeTempDir, repoRoot } from './helpers.js';
import { bundleForNode } from './node-bundle.js';

const roles = (n: number) => Array.from({ length: n }, (_, i) => `R${i}`);

/** Hostile policies, each one file of at most ~100 KB, and what must happen to it. */
const HOSTILE: readonly { name: string; definitions: () => unknown[]; outcome: 'compiles' | 'too-large' }[] = [
  {
    name: "a '*' explosion: 1,000 roles × 1,000 resources × 104 actions",
    definitions: () => [
      { roles: roles(1000), resource: 'r0', grant: Array.from({ length: 100 }, (_, i) => `a${i}:any`) },
      ...Array.from({ length: 1000 }, (_, i) => ({ roles: 'R0', resource: `r${i}`, grant: ['read'] })),
      { roles: '*', resource: '*', grant: ['*'] },
    ],
    outcome: 'too-large',
  },
  {
    name: 'the cell limit (500,000) reached with 3,000 attribute patterns in every cell',
    definitions: () => [
      { roles: roles(200), resource: 'r0', grant: Array.from({ length: 21 }, (_, i) => `a${i}:any`) },
      ...Array.from({ length: 99 }, (_, i) => ({ roles: 'R0', resource: `r${i + 1}`, grant: ['read'] })),
      {
        roles: '*',
        resource: '*',
        possession: 'own',
        grant: { '*': ['*', ...Array.from({ length: 3000 }, (_, i) => `!attribute${i}`)] },
        isOwner: 'isMine',
        listOwned: 'listMine',
      },
    ],
    outcome: 'compiles',
  },
  {
    name: '700 ownership groups over every cell',
    definitions: () => [
      { roles: roles(50), resource: 'r0', grant: ['a0:any', 'a1:any'] },
      ...Array.from({ length: 49 }, (_, i) => ({ roles: 'R0', resource: `r${i + 1}`, grant: ['read'] })),
      ...Array.from({ length: 700 }, (_, i) => ({ roles: '*', resource: '*', possession: 'own', grant: ['*'], isOwner: `isOwner${i}`, listOwned: `list${i}` })),
    ],
    outcome: 'too-large',
  },
  {
    name: 'a 100 KB description full of escapes, pipes and HTML',
    definitions: () => [{ roles: 'A', resource: 'r', descr: 'x\u001b[2J|`<script>&'.repeat(5000), grant: ['read:any'] }],
    outcome: 'compiles',
  },
];

/** The runtime's build() on the file named by the first argument; `runtime` is the runtime's entry module. */
const runBuild = (runtime: string) => `
import { readFileSync } from 'node:fs';
import { parseDefinitionsJson, Permissions, PermissionDefinitionError } from '${pathToFileURL(runtime).href}';
const isHookName = (name) => typeof name === 'string' && /^(is|list)/.test(name);
const ownership = new Proxy({}, {
  get: (_target, name) => (isHookName(name) ? () => false : undefined),
  getOwnPropertyDescriptor: (_target, name) =>
    isHookName(name) ? { value: () => false, configurable: true, enumerable: true, writable: true } : undefined,
});
const permissions = new Permissions({ logger: { warn() {} }, ownership });
permissions.addPermissions(parseDefinitionsJson(readFileSync(process.argv[1], 'utf8')));
try {
  permissions.build();
  console.log('built ' + permissions.tables.cells.length);
} catch (error) {
  if (!(error instanceof PermissionDefinitionError)) throw error;
  console.log('refused ' + error.problems.map((problem) => problem.code).join(','));
}
`;

describe('a hostile 100 KB definitions file compiles or fails clearly, within a 512 MB heap', () => {
  let temp: string | undefined;
  // The compiler's command line and the runtime, each bundled once for the eight processes (see node-bundle.ts).
  let cli: string;
  let runtime: string;
  beforeAll(async () => {
    temp = makeTempDir('hostile-file');
    [cli, runtime] = await Promise.all([
      bundleForNode('compiler/bin.ts', join(temp, 'cli.mjs')),
      bundleForNode('runtime/permissions/index.ts', join(temp, 'permissions.mjs')),
    ]);
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  const node = (args: readonly string[]) =>
    spawnSync(process.execPath, ['--max-old-space-size=512', ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 120_000,
    });

  it.each(HOSTILE)(
    '$name',
    ({ name, definitions, outcome }) => {
      const dir = join(temp as string, name.replace(/\W+/g, '-'));
      mkdirSync(join(dir, 'definitions'), { recursive: true });
      const file = join(dir, 'definitions', 'hostile.permissions.json');
      const text = JSON.stringify(definitions());
      expect(text.length).toBeLessThanOrEqual(110_000);
      writeFileSync(file, text);

      const compiled = node([cli, 'compile', join(dir, 'definitions'), '--out', join(dir, 'generated')]);
      expect(compiled.signal).toBeNull();
      expect(compiled.stderr).not.toMatch(/internal error|RangeError|heap out of memory|Allocation failed/);
      if (outcome === 'compiles') expect(compiled.status).toBe(0);
      else {
        expect(compiled.status).toBe(1);
        expect(compiled.stderr).toContain('[too-large]');
      }

      const builtOrRefused = node(['--input-type=module', '--eval', runBuild(runtime), file]);
      expect(builtOrRefused.signal).toBeNull();
      expect(builtOrRefused.stderr).toBe('');
      expect(builtOrRefused.stdout.trim()).toMatch(outcome === 'compiles' ? /^built \d+$/ : /^refused too-large$/);
    },
    180_000,
  );
});

describe('a JSON file nested past the limit, or deep with long keys, is refused or read within a 512 MB heap', () => {
  let temp: string | undefined;
  let cli: string;
  beforeAll(async () => {
    temp = makeTempDir('hostile-nesting');
    cli = await bundleForNode('compiler/bin.ts', join(temp, 'cli.mjs'));
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  /** Compiles a folder holding `text` as its one definitions file, in a process with a 512 MB heap. */
  function compileFile(name: string, text: string) {
    const dir = join(temp as string, name);
    mkdirSync(join(dir, 'definitions'), { recursive: true });
    writeFileSync(join(dir, 'definitions', 'hostile.permissions.json'), text);
    const compiled = spawnSync(process.execPath, ['--max-old-space-size=512', cli, 'compile', join(dir, 'definitions'), '--out', join(dir, 'generated')], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 120_000,
    });
    expect(compiled.signal).toBeNull();
    expect(compiled.stderr).not.toMatch(/internal error|RangeError|heap out of memory|Allocation failed/);
    return compiled;
  }

  it('1,000,000 nested arrays (2 MB): one problem at the start of the file', () => {
    const compiled = compileFile('depth', `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(compiled.status).toBe(1);
    expect(compiled.stderr).toContain(
      'hostile.permissions.json:1:1 $ [invalid-file] The file nests arrays and objects more than 64 levels deep; ' +
        'no definitions, resource, test or custom roles file does.',
    );
  }, 180_000);

  it('300,000 nested objects, each with a key written twice (3.6 MB): one problem at the start of the file', () => {
    const compiled = compileFile('duplicates', `${'{"a":0,"a":'.repeat(300_000)}0${'}'.repeat(300_000)}`);
    expect(compiled.status).toBe(1);
    expect(compiled.stderr).toContain('hostile.permissions.json:1:1 $ [invalid-file] The file nests arrays and objects more than 64 levels deep;');
    expect(compiled.stderr).not.toContain('[duplicate-key]');
  }, 180_000);

  it('60 levels of 60,000-character keys above 1,000,000 values (5.6 MB): read, and refused as no definitions', () => {
    const key = 'k'.repeat(60_000);
    const text = `${`{"${key}":`.repeat(60)}[${Array.from({ length: 1_000_000 }, () => '0').join(',')}]${'}'.repeat(60)}`;
    expect(text.length).toBeLessThan(8 * 1024 * 1024);
    const compiled = compileFile('long-keys', text);
    expect(compiled.status).toBe(1);
    expect(compiled.stderr).toContain('hostile.permissions.json:1:1 $.definitions [invalid-file] Field "definitions" is missing.');
  }, 180_000);
});
