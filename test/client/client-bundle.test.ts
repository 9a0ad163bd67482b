/**
 * `typed-permissions/client` as a browser gets it. Bundled with esbuild (minified, ESM,
 * platform browser), it must run under a strict Content-Security-Policy — no code compiled at run time
 * (`new Function`, `Function(…)`, `eval`) — load nothing from Node (`require`, `node:` built-ins) or zod,
 * and stay small: at most 6 KiB minified and gzipped (level 9).
 */
import { relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';

const ENTRY = resolve('runtime/client/index.ts');
const MAX_GZIPPED_BYTES = 6144;

interface Bundle {
  readonly minified: string;
  readonly readable: string;
  readonly inputs: readonly string[];
}

async function bundle(minify: boolean): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no output');
  return { text: output.text, inputs: Object.keys(result.metafile.inputs).map((input) => relative(process.cwd(), resolve(input))) };
}

let built: Bundle;

beforeAll(async () => {
  const [minified, readable] = await Promise.all([bundle(true), bundle(false)]);
  built = { minified: minified.text, readable: readable.text, inputs: minified.inputs };
}, 30_000);

describe('the browser bundle of typed-permissions/client', () => {
  const forbidden: [string, RegExp][] = [
    ['new Function', /\bnew\s+Function\b/],
    ['Function(', /\bFunction\s*\(/],
    ['eval', /\beval\b/],
    ['require(', /\brequire\s*\(/],
    ['node: imports', /["'`]node:/],
    ['zod', /zod/i],
  ];

  for (const [what, pattern] of forbidden) {
    it(`the bundle contains no ${what} (minified and readable builds)`, () => {
      expect([pattern.exec(built.minified)?.[0], pattern.exec(built.readable)?.[0]]).toEqual([undefined, undefined]);
    });
  }

  it('the bundle is made of runtime sources only: no package, and not the compiled picker (new Function)', () => {
    expect(built.inputs.filter((input) => !input.startsWith('runtime/'))).toEqual([]);
    expect(built.inputs).toContain('runtime/client/index.ts');
    expect(built.inputs).toContain('runtime/core/projection/attribute-projection.ts');
    expect(built.inputs.filter((input) => input.endsWith('attribute-picker.ts') || input.includes('definition-schema'))).toEqual([]);
  });

  it(`the minified bundle is at most ${MAX_GZIPPED_BYTES} bytes gzipped (level 9)`, () => {
    const gzipped = gzipSync(Buffer.from(built.minified, 'utf8'), { level: 9 }).length;
    // Measured when written: 5,293 bytes minified, 2,279 gzipped.
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
  });

  it('the bundle runs: its createClient answers from a slice', async () => {
    const module = (await import(`data:text/javascript;base64,${Buffer.from(built.minified, 'utf8').toString('base64')}`)) as {
      createClient: (slice: unknown) => { can(action: string, resource: string): boolean; pick(action: string, resource: string, item: object): object };
    };
    const client = module.createClient({ format: 1, version: 'v', plans: [[1, [['secret', null]]]], grants: [['doc', [['read', 0, 0, [], []]]]] });
    expect([client.can('read', 'doc'), client.can('update', 'doc'), client.pick('read', 'doc', { id: 1, secret: 's' })]).toEqual([true, false, { id: 1 }]);
  });
});
