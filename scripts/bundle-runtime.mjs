/**
 * The runtime package's JavaScript: one ES module per entry of its `exports` (and its `bin`), with the code they
 * share in chunks of their own (esbuild's code splitting), so that every class exists once however many entries
 * an application imports. Node imports a module per file, each read, compiled and linked on its own: importing
 * `typed-permissions/precompiled` and `/ownership` from the runtime compiled file by file read 58 of its files,
 * which cost more than the work of a first decision (now 24). Packages stay imports (dependencies and peers are
 * resolved where the application installed them), dynamic imports stay chunks loaded when first used, and nothing
 * is minified (stack traces read as the source). The declarations are tsc's (`tsc --emitDeclarationOnly`).
 *
 * Run from the runtime package's folder: `node ../scripts/bundle-runtime.mjs`.
 */
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const outputs = [...Object.values(manifest.exports).flatMap((entry) => (typeof entry === 'object' ? [entry.default] : [])), ...Object.values(manifest.bin)];
// `./dist/permissions/index.js` is built from `permissions/index.ts`.
const entryPoints = outputs.map((output) => {
  const match = /^\.\/dist\/(.+)\.js$/.exec(output);
  if (match === null) throw new Error(`bundle-runtime: ${output} is not a .js file under dist/`);
  return { in: `${match[1]}.ts`, out: match[1] };
});

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  // Class and function names as written (error names, stack traces), not as renamed to keep chunks collision-free.
  keepNames: true,
  legalComments: 'none',
  tsconfig: 'tsconfig.build.json',
  logLevel: 'warning',
});
for (const bin of Object.values(manifest.bin)) chmodSync(bin, 0o755);
