/**
 * The dependency rules of `.dependency-cruiser.mjs`, which `npm run lint` checks over runtime/, compiler/ and
 * bench/, catch what they are written for: a tree with one upward import per kind, an integration reaching an inner
 * file, the compiler reaching past `typed-permissions/internal`, and a cycle of type-only imports gets exactly those
 * violations and nothing for the imports that go downward.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

/** A small tree shaped like the repository's, each file one import. */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true } }),
  'runtime/core/common/z.ts': 'export const z = 1;\n',
  // Upward: common is the lowest layer, decision is above it.
  'runtime/core/common/x.ts': "import { y } from '../decision/y.js';\nexport const x = y;\n",
  // Downward: allowed.
  'runtime/core/decision/y.ts': "import { z } from '../common/z.js';\nexport const y = z;\n",
  // An integration importing an inner file of the core instead of a public entry.
  'runtime/hono/h.ts': "import { z } from '../core/common/z.js';\nexport const h = z;\n",
  // A cycle made of type-only imports.
  'bench/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
  'bench/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  'compiler/reading/r.ts': 'export const r = 1;\n',
  // Upward inside the compiler: problems import nothing of it.
  'compiler/problems/p.ts': "import { r } from '../reading/r.js';\nexport const p = r;\n",
  // The compiler past typed-permissions/internal.
  'compiler/model/m.ts': "import { y } from '../../runtime/core/decision/y.js';\nexport const m = y;\n",
};

let tree: string;

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
});

afterAll(() => rmSync(tree, { recursive: true, force: true }));

function cruise(outputType: 'json' | 'err') {
  return spawnSync(depcruise, ['--config', join(root, '.dependency-cruiser.mjs'), '--output-type', outputType, 'runtime', 'compiler', 'bench'], {
    cwd: tree,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the dependency rules of npm run lint', () => {
  it('name each upward import, inner import and cycle, and nothing else', () => {
    const run = cruise('json');
    expect(run.status).toBe(0);
    const violations = (JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }).summary.violations;
    expect(violations.map(({ rule, from, to }) => [rule.name, from, to]).sort()).toEqual([
      ['compiler layer: problems', 'compiler/problems/p.ts', 'compiler/reading/r.ts'],
      ['integrations use public entries', 'runtime/hono/h.ts', 'runtime/core/common/z.ts'],
      ['layer: common', 'runtime/core/common/x.ts', 'runtime/core/decision/y.ts'],
      ['no-circular', 'bench/a.ts', 'bench/b.ts'],
      ['the compiler uses the runtime through typed-permissions/internal', 'compiler/model/m.ts', 'runtime/core/decision/y.ts'],
    ]);
  }, 60_000);

  it('fail the lint (a non-zero exit) when there is one', () => {
    const run = cruise('err');
    expect(run.status).toBe(5);
    expect(run.stdout).toContain('5 dependency violations (5 errors, 0 warnings)');
  }, 60_000);
});
