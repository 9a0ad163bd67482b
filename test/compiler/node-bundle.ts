/**
 * One TypeScript entry bundled into a single ES module that plain `node` runs, for tests that start many processes of
 * the same program. Each `node --import tsx` process resolves and transpiles every source module again through tsx's
 * loader thread (about as much CPU as the program's own start); bundling once per test file and starting each process
 * from the bundle runs the same source code without that cost. Packages stay outside the bundle, loaded from
 * node_modules as the sources load them, so the bundle must live inside the repository (a {@link makeTempDir} folder).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './helpers.js';

/**
 * Bundles `entry` (a path relative to the repository root) into `outFile`; answers `outFile`.
 *
 * @example
 * ```ts
 * const cli = await bundleForNode('compiler/bin.ts', join(makeTempDir('cli'), 'cli.mjs'));
 * spawnSync(process.execPath, [cli, 'compile', 'definitions', '--out', 'generated']);
 * ```
 */
export async function bundleForNode(entry: string, outFile: string): Promise<string> {
  await build({
    entryPoints: [join(repoRoot, entry)],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outFile;
}
