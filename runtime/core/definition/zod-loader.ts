/**
 * zod, loaded only where definitions are validated. zod is an optional peer dependency: an application that
 * loads compiled tables never installs or loads it, and importing `typed-permissions` never pulls it into a
 * bundle. `build()` is synchronous (it runs at start and throws every problem at once), so zod is required
 * synchronously, through Node's own `require` of this module's location, when the first definition is validated.
 */
import type * as Zod from 'zod';
import { PermissionsUsageError } from '../common/errors.js';

/** The zod module (its namespace: `z`). */
export type ZodModule = typeof Zod;

let loaded: ZodModule | undefined;

/** What `require` a module has here, through Node's `module.createRequire` (`process.getBuiltinModule` keeps `node:` imports out of browser bundles). */
function nodeRequire(): ((id: string) => unknown) | undefined {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const moduleApi =
    typeof getBuiltinModule === 'function' ? (getBuiltinModule('node:module') as { createRequire?: (from: string) => (id: string) => unknown }) : undefined;
  return typeof moduleApi?.createRequire === 'function' ? moduleApi.createRequire(import.meta.url) : undefined;
}

/**
 * The zod module, required once. Throws a PermissionsUsageError that says what to install when zod is not
 * installed, or that this runtime cannot load it synchronously (a browser: compile the definitions ahead of time).
 *
 * @example
 * ```ts
 * const z = loadZod();
 * const schema = z.strictObject({ resource: z.string() });
 * ```
 */
export function loadZod(): ZodModule {
  if (loaded !== undefined) return loaded;
  const require = nodeRequire();
  if (require === undefined) {
    throw new PermissionsUsageError(
      'Validating definitions at run time needs Node.js 20.19 or later (zod is loaded with require()). Here, compile the definitions ahead of ' +
        'time (npx typed-permissions compile) and load the generated tables (createPermissions from generated/, or permissionsFromTables).',
    );
  }
  try {
    loaded = require('zod') as ZodModule;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new PermissionsUsageError(
      'Validating definitions at run time needs zod, which is not installed: run `npm install zod` (zod 4). An application that only loads ' +
        'compiled tables (createPermissions from generated/, or permissionsFromTables) does not need it.',
    );
  }
  return loaded;
}

/**
 * Whether zod's `.max(max)` refused `value`. zod counts code points there (an astral character, such as an emoji, is
 * one), while every limit of the runtime counts UTF-16 code units (it is two): a string of `max + 1` to `2 * max`
 * code units may pass zod's `max` and still be over the limit, and must then be refused by a check of its own.
 *
 * @example
 * ```ts
 * zodMaxRefused('\u{1F600}'.repeat(200), 256); // false: 400 code units, 200 code points
 * zodMaxRefused('\u{1F600}'.repeat(257), 256); // true
 * ```
 */
export function zodMaxRefused(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  // Each surrogate pair is one code point of two units.
  const pairs = value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return value.length - pairs > max;
}
