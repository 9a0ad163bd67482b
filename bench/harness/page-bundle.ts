/**
 * What a browser page costs: its code bundled as a browser bundler does (esbuild, minified, ESM, split into
 * chunks: what is imported dynamically is a chunk of its own, loaded when first used), then run, and every chunk it
 * loads counted. A chunk counts when the page loads it: the entry, the chunks it imports statically (the browser
 * fetches them before the page's code runs), and the chunks its run imports dynamically. Each counted chunk is
 * measured gzipped on its own (level 9), as a server sends it, and the sizes are added up. The run is the page's
 * code called in a `node` process: the library's code takes the same paths there as in a browser, and every chunk
 * says when it is evaluated (a first line the sizes leave out).
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from './repository.js';

/** A page: its code (an ES module), and what it does once loaded. */
export interface Page {
  /** The page's module; it may import files of the repository by absolute path. */
  readonly source: string;
  /**
   * The body of an async function that uses the page's exports through `page` and returns what it made (JSON):
   * `return page.readDocument(user, document);`.
   */
  readonly run: string;
}

/** How a page comes to load a chunk, or that it does not. */
export type ChunkLoad = 'entry' | 'static import' | 'dynamic import during the run' | 'not loaded';

/** One file of a page's bundle. */
export interface PageChunk {
  /** The file in the bundle's folder: `page.js`, `chunk-<hash>.js`, `policy-follower-<hash>.js`. */
  readonly file: string;
  readonly load: ChunkLoad;
  readonly minifiedBytes: number;
  /** Gzipped on its own, level 9. */
  readonly gzipBytes: number;
  /** Its sources (from the repository root, or {@link PAGE_SOURCE}), with their bytes in the minified file, largest first. */
  readonly inputs: readonly { readonly path: string; readonly bytes: number }[];
}

/** What a page loads: the sums over the chunks it loads, every chunk of the bundle, and what its run returned. */
export interface PageBundle {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  readonly chunks: readonly PageChunk[];
  readonly result: unknown;
}

/** Each chunk's first line: it notes the chunk as evaluated when the run loads it. */
const LOAD_NOTE = 'globalThis.__pageChunks?.push(import.meta.url);';

/** How the chunks' sources name the page's own module (written in a temporary folder). */
export const PAGE_SOURCE = 'the page';

/** How long the page's run may take: one `node` process loading a few files. */
const RUN_TIMEOUT_MS = 60_000;

/** The chunks `entry` loads before any code runs: itself and, transitively, what it imports statically. */
function staticallyLoaded(entry: string, imports: ReadonlyMap<string, readonly { path: string; kind: string }[]>): Set<string> {
  const loaded = new Set<string>();
  const next = [entry];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (loaded.has(file)) continue;
    loaded.add(file);
    for (const imported of imports.get(file) ?? []) if (imported.kind === 'import-statement') next.push(imported.path);
  }
  return loaded;
}

/** A source as the results name it: `the page` for the page's own module, else its path from the repository root. */
function sourceName(path: string, entry: string): string {
  const absolute = join(REPO_ROOT, path);
  return absolute === entry ? PAGE_SOURCE : relative(REPO_ROOT, absolute);
}

/** Runs the page in a `node` process: the chunk files it evaluated (their URLs) and what its run returned. */
function runPage(bundleDir: string, entryFile: string, run: string): { loaded: string[]; result: unknown } {
  const script =
    `globalThis.__pageChunks = [];\n` +
    `const page = await import(${JSON.stringify(pathToFileURL(join(bundleDir, entryFile)).href)});\n` +
    `const result = await (async () => {\n${run}\n})();\n` +
    `process.stdout.write(JSON.stringify({ loaded: globalThis.__pageChunks, result }));\n`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: bundleDir,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (child.status !== 0) throw new Error(`the page's run failed (${child.status ?? child.signal}): ${child.stderr}`);
  return JSON.parse(child.stdout) as { loaded: string[]; result: unknown };
}

/**
 * Bundles `page` into `dir/<name>-bundle`, runs it, and measures every chunk, counting those it loads.
 *
 * @example
 * ```ts
 * const bundle = await bundlePage({ source: `export const hello = () => 'hi';`, run: 'return page.hello();' }, dir, 'hello');
 * bundle.gzipBytes; // the entry, its static imports and what the run imported, each gzipped
 * ```
 */
export async function bundlePage(page: Page, dir: string, name: string): Promise<PageBundle> {
  const entry = join(dir, `${name}.mjs`);
  const bundleDir = join(dir, `${name}-bundle`);
  mkdirSync(bundleDir, { recursive: true });
  writeFileSync(entry, page.source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    outdir: bundleDir,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    banner: { js: LOAD_NOTE },
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
  const entryOutput = outputs.find(([, output]) => output.entryPoint !== undefined)?.[0];
  if (entryOutput === undefined) throw new Error(`esbuild wrote no entry chunk for ${name}`);
  const staticChunks = staticallyLoaded(entryOutput, new Map(outputs.map(([file, output]) => [file, output.imports])));

  writeFileSync(join(bundleDir, 'package.json'), '{ "type": "module" }\n');
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  const fileOf = (output: string) => relative(bundleDir, join(REPO_ROOT, output));
  const ran = runPage(bundleDir, fileOf(entryOutput), page.run);
  const evaluated = new Set(ran.loaded.map((url) => relative(bundleDir, fileURLToPath(url))));

  const chunks = outputs.map(([output, { inputs }]): PageChunk => {
    const file = fileOf(output);
    const text = result.outputFiles.find((written) => written.path === join(REPO_ROOT, output))?.text;
    if (text === undefined || !text.startsWith(`${LOAD_NOTE}\n`)) throw new Error(`esbuild wrote ${file} without its first line`);
    const code = Buffer.from(text.slice(LOAD_NOTE.length + 1));
    const load: ChunkLoad =
      output === entryOutput ? 'entry' : staticChunks.has(output) ? 'static import' : evaluated.has(file) ? 'dynamic import during the run' : 'not loaded';
    if (load !== 'not loaded' && !evaluated.has(file)) throw new Error(`${file} is imported statically, but the page's run did not evaluate it`);
    return {
      file,
      load,
      minifiedBytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      inputs: Object.entries(inputs)
        .map(([path, { bytesInOutput }]) => ({ path: sourceName(path, entry), bytes: bytesInOutput }))
        .filter((input) => input.bytes > 0)
        .sort((a, b) => b.bytes - a.bytes),
    };
  });
  const loaded = chunks.filter((chunk) => chunk.load !== 'not loaded');
  return {
    minifiedBytes: loaded.reduce((sum, chunk) => sum + chunk.minifiedBytes, 0),
    gzipBytes: loaded.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    chunks,
    result: ran.result,
  };
}
