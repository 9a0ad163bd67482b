/**
 * The runtime package's JavaScript: one ES module per entry of its `exports` (and its `bin`), with the code they
 * share in chunks of their own, so that every class exists once however many entries an application imports.
 *
 * Node reads, compiles and links every file of an import on its own, and on a cold start a file costs more than its
 * bytes: importing `typed-permissions/precompiled` and `/ownership` from the runtime compiled file by file read 58
 * files; split by which entries share each module (esbuild's code splitting), 24. So what those two entries load
 * before any code runs — the engine that decides — is one chunk, `chunks/engine-<hash>.js`, and the two entries
 * re-export from it: 3 files, about 30 ms less on a cold start. The other entries share the engine and split the
 * rest among themselves as rollup chooses; what is imported dynamically (following a live policy, the decision log's
 * delivery, tracing, tenants' custom roles) stays in chunks loaded when first used, so that optional peers (zod,
 * pg, @opentelemetry/api) are only imported by the code that needs them.
 *
 * Packages stay imports (dependencies and peers are resolved where the application installed them); esbuild turns
 * each TypeScript file into JavaScript, rollup bundles; nothing is minified, and class names stay as written (error
 * names are their classes' names: the build fails if rollup had to rename a class). The declarations are tsc's
 * (`tsc --emitDeclarationOnly`).
 *
 * Run from the runtime package's folder: `node ../scripts/bundle-runtime.mjs`.
 */
import { transform } from 'esbuild';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { cwd } from 'node:process';
import { dirname, isAbsolute, resolve } from 'node:path';
import { rollup } from 'rollup';

/** The entries whose static imports make the engine chunk: what deciding with generated code loads. */
const ENGINE_ENTRIES = ['permissions/precompiled', 'ownership/index'];

const root = cwd();
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const outputs = [...Object.values(manifest.exports).flatMap((entry) => (typeof entry === 'object' ? [entry.default] : [])), ...Object.values(manifest.bin)];
// `./dist/permissions/index.js` is built from `permissions/index.ts`.
const input = Object.fromEntries(
  outputs.map((output) => {
    const match = /^\.\/dist\/(.+)\.js$/.exec(output);
    if (match === null) throw new Error(`bundle-runtime: ${output} is not a .js file under dist/`);
    return [match[1], resolve(root, `${match[1]}.ts`)];
  }),
);

/** The sources as the compiler reads them: `./x.js` is `./x.ts`, made JavaScript by esbuild (the options tsconfig.json gives). */
const typescript = {
  name: 'typescript-sources',
  resolveId(source, importer) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const file = resolve(dirname(importer), source).replace(/\.js$/, '.ts');
    return existsSync(file) ? file : null;
  },
  async transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const compilerOptions = { experimentalDecorators: true, verbatimModuleSyntax: true, useDefineForClassFields: true };
    const { code: javascript } = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: id, tsconfigRaw: { compilerOptions } });
    return { code: javascript, map: null };
  },
};

const bundle = await rollup({
  input,
  plugins: [typescript],
  // A package, a dependency or a peer, is imported where the application installed it.
  external: (source) => !source.startsWith('.') && !isAbsolute(source),
  preserveEntrySignatures: 'strict',
  onwarn: (warning) => {
    // Circles among the runtime's modules are the dependency rule's to refuse (npm run lint), not the bundle's.
    if (warning.code !== 'CIRCULAR_DEPENDENCY') throw new Error(`bundle-runtime: ${warning.message}`);
  },
});

/** The modules the engine entries reach by static imports, found when the first module is assigned a chunk. */
let engine;
const { output } = await bundle.write({
  dir: 'dist',
  format: 'es',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  manualChunks(id, { getModuleInfo }) {
    if (engine === undefined) {
      engine = new Set();
      for (const next = ENGINE_ENTRIES.map((name) => input[name]); next.length > 0;) {
        const module = next.pop();
        if (engine.has(module)) continue;
        engine.add(module);
        next.push(...getModuleInfo(module).importedIds.filter((imported) => imported.startsWith(root)));
      }
    }
    return engine.has(id) && !Object.values(input).includes(id) ? 'engine' : undefined;
  },
});
await bundle.close();

/** `Name$1`: a class rollup renamed because two modules of one chunk declare the name (its errors' names would change). */
const renamedClass = /\bclass ([A-Za-z_]\w*\$\d+)\b/g;
const renamed = output.flatMap((file) =>
  file.type === 'chunk' ? [...file.code.matchAll(renamedClass)].map((match) => `${match[1]} in ${file.fileName}`) : [],
);
if (renamed.length > 0) throw new Error(`bundle-runtime: classes renamed by the bundle: ${renamed.join(', ')}. Give them distinct names.`);

// A JavaScript file with one character past ASCII is held by V8 as two-byte text, twice its length, for as long as
// the module lives; so is a bundle an application builds from it with its generated tables, which are ASCII (a
// 500 × 1,000 policy bundled with the engine: 5.76 MiB of heap after createPermissions, 4.89 MiB once ASCII).
// esbuild escapes such characters in strings; what it leaves are the TSDoc comments it keeps in classes and objects.
const wide = output.flatMap((file) =>
  file.type === 'chunk'
    ? file.code.split('\n').flatMap((line, index) => (/[\u0080-\uffff]/.test(line) ? [`${file.fileName}:${index + 1}: ${line.trim().slice(0, 100)}`] : []))
    : [],
);
if (wide.length > 0)
  throw new Error(
    `bundle-runtime: characters past ASCII in the built JavaScript (write these comments in ASCII: "..." for an ellipsis, ` +
      `":" or parentheses for a dash):\n${wide.join('\n')}`,
  );
for (const bin of Object.values(manifest.bin)) chmodSync(bin, 0o755);
