/** How generated code imports the runtime: the package, or inside this repository (where the package is not built) its source. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The runtime entry generated code imports: the precompiled engine (no zod, no table builder). */
export const RUNTIME_IMPORT = 'typed-permissions/precompiled';

/** The root of this repository above `start` (its runtime workspace holds the sources), if `start` is inside it. */
function findSourceRepository(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    try {
      const runtime = JSON.parse(readFileSync(join(dir, 'runtime', 'package.json'), 'utf8')) as { name?: string };
      if (runtime.name === 'typed-permissions' && existsSync(join(dir, 'runtime', 'permissions', 'precompiled.ts'))) return dir;
    } catch {
      // No runtime workspace here: look further up.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * How generated code imports the runtime: `typed-permissions/precompiled`, or inside the
 * typed-permissions repository itself (where the package is not built) a relative path to its source.
 *
 * @example
 * ```ts
 * defaultRuntimeImport('generated'); // 'typed-permissions/precompiled' in an application
 * ```
 */
export function defaultRuntimeImport(outDir: string): string {
  const root = findSourceRepository(outDir);
  if (root === undefined) return RUNTIME_IMPORT;
  const path = relative(resolve(outDir), join(root, 'runtime', 'permissions', 'precompiled.js'))
    .split(sep)
    .join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
