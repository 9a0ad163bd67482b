/**
 * Builds the example page: bundles `page.ts` with the browser client into one minified script (esbuild)
 * and copies the HTML and CSS next to it. `npm run build` (and so `npm start`) runs it; the tests run it
 * into a temporary folder.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's source folder, next to this file in the sources. */
const SOURCE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'page');

/** The files the page serves, by URL path. */
export const PAGE_FILES = { '/': 'index.html', '/page.css': 'page.css', '/app.js': 'app.js' } as const;

/**
 * Writes `index.html`, `page.css` and `app.js` (the bundled script, no source of other modules, no eval)
 * into `outDir`. `sourceDir` is the folder holding `page.ts` (default: `examples/documents/page` of the
 * repository the process runs in).
 *
 * @example
 * ```ts
 * await buildPage({ outDir: 'dist/page' });
 * ```
 */
export async function buildPage({ outDir, sourceDir = SOURCE_DIR }: { readonly outDir: string; readonly sourceDir?: string }): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(sourceDir, 'page.ts')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'page.css']) await copyFile(join(sourceDir, file), join(outDir, file));
}

// `node dist/examples/documents/build-page.js <outDir>` (npm run build): the sources are read from the repository (cwd).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildPage({ outDir: resolve(process.argv[2] ?? 'dist/page'), sourceDir: resolve('examples/documents/page') });
}
