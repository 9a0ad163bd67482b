/**
 * A command loads only what it uses: TypeScript (through ts-morph, the largest module the command line can load) is
 * for `compile`, which emits code, and for reading `*.permissions.ts` files. `--help`, `test`, `diff` and `explain` over
 * JSON definitions start without it (it is about 0.7 s of a command's 1.2 s start). Each command runs in a process of
 * its own, which then lists the packages of ts-morph it loaded (CommonJS modules, which `require.cache` lists).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, removeTempDir, repoRoot } from '../compiler/helpers.js';

/** Runs the command line from the sources, then prints its exit code and the packages of ts-morph it loaded. */
function loadedBy(argv: readonly string[], cwd: string): { code: number; loaded: string[] } {
  const script =
    `import { createRequire } from 'node:module';\n` +
    `const { main } = await import(${JSON.stringify(join(repoRoot, 'compiler', 'commands', 'main.ts'))});\n` +
    `const code = await main(${JSON.stringify(argv)}, { log: () => {}, error: () => {} });\n` +
    `const pattern = /node_modules\\/(ts-morph|@ts-morph\\/common)\\//;\n` +
    `const loaded = Object.keys(createRequire(import.meta.url).cache).flatMap((path) => pattern.exec(path)?.[1] ?? []);\n` +
    `console.log(JSON.stringify({ code, loaded: [...new Set(loaded)].sort() }));\n`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
    timeout: 50_000,
    env: { ...process.env, NODE_OPTIONS: '', TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.json') },
  });
  if (child.status !== 0) throw new Error(`the command line failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { code: number; loaded: string[] };
}

describe('each command loads only what it uses', () => {
  it('help, test, diff and explain over JSON definitions do not load TypeScript; compile does', () => {
    const dir = makeTempDir('command-loading');
    try {
      cpSync(join(repoRoot, 'definitions'), join(dir, 'definitions'), { recursive: true });
      expect(loadedBy(['--help'], dir)).toEqual({ code: 0, loaded: [] });
      expect(loadedBy(['test', 'definitions'], dir)).toEqual({ code: 0, loaded: [] });
      expect(loadedBy(['diff', 'definitions', 'definitions'], dir)).toEqual({ code: 0, loaded: [] });
      expect(loadedBy(['explain', 'definitions', '--roles', 'EMPLOYEE', '--resource', 'document', '--action', 'read'], dir)).toEqual({ code: 0, loaded: [] });
      expect(loadedBy(['compile', 'definitions', '--out', 'generated'], dir)).toEqual({ code: 0, loaded: ['@ts-morph/common', 'ts-morph'] });
    } finally {
      removeTempDir(dir);
    }
  }, 240_000);

  it('a *.permissions.ts definitions file is read with TypeScript, loaded when that file is read', () => {
    const dir = makeTempDir('command-loading-ts');
    try {
      cpSync(join(repoRoot, 'definitions'), join(dir, 'definitions'), { recursive: true });
      writeFileSync(join(dir, 'definitions', 'extra.permissions.ts'), `export default [{ roles: ['AUDITOR'], resource: 'document', grant: ['read:any'] }];\n`);
      expect(loadedBy(['explain', 'definitions', '--roles', 'AUDITOR', '--resource', 'document', '--action', 'read'], dir)).toEqual({
        code: 0,
        loaded: ['@ts-morph/common', 'ts-morph'],
      });
    } finally {
      removeTempDir(dir);
    }
  }, 120_000);
});
