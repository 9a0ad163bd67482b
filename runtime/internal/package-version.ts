/**
 * The version of an installed package, read from its package.json: the nearest one above the module asking that
 * carries the package's name. Source and build sit at different depths in the package (`cli/command.ts`,
 * `dist/cli/command.js`), so the file is found by walking up rather than by a fixed relative path.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `version` of package `name`, from the nearest package.json above `moduleUrl` that names it; undefined when
 * none does (a bundled copy of the module).
 *
 * @example
 * ```ts
 * packageVersion(import.meta.url, 'typed-permissions'); // '0.1.0'
 * ```
 */
export function packageVersion(moduleUrl: string, name: string): string | undefined {
  for (let dir = dirname(fileURLToPath(moduleUrl)); ; dir = dirname(dir)) {
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest?.name === name && typeof manifest.version === 'string') return manifest.version;
    if (dirname(dir) === dir) return undefined;
  }
}

function readManifest(path: string): { readonly name?: unknown; readonly version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { readonly name?: unknown; readonly version?: unknown };
  } catch {
    // Missing or unreadable: not the package's manifest; look further up.
    return undefined;
  }
}
