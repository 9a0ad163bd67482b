/**
 * The one `Permissions` engine of a NestJS application, made at start from every definition the application
 * gives (or from precompiled tables), with its errors' fixes said the NestJS way.
 */
import { PermissionDefinitionError, Permissions, PermissionsUsageError, type User } from '../permissions/index.js';
import type { DefinitionSource } from './definition-sources.js';
import { engineOptionsOf } from './module-options-check.js';
import type { PermissionsModuleOptions } from './permissions-module-options.js';

/** How a NestJS application gives the engine its ownership service, for the fix of a missing-method problem. */
const NEST_OWNERSHIP_FIX = (method: string): string =>
  `Provide the ownership service, with a method ${method}, under PERMISSIONS_OWNERSHIP_SERVICE_TOKEN in any module ` +
  `({ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: YourOwnershipService }), or pass it as the ownership option of PermissionsModule.forRoot().`;

/**
 * The engine's definition error, with the fix of every "no ownership service" problem said the NestJS way
 * (the core's fix names `new Permissions({ ownership })`, which a NestJS application never calls).
 */
function withNestOwnershipFix(error: unknown): unknown {
  if (!(error instanceof PermissionDefinitionError)) return error;
  const problems = error.problems.map((problem) =>
    problem.code === 'unknown-hook-method' && problem.message.includes('but no ownership service was given')
      ? { ...problem, fix: NEST_OWNERSHIP_FIX(/"([^"]+)"/.exec(problem.message)?.[1] ?? 'the hook names') }
      : problem,
  );
  return new PermissionDefinitionError(problems);
}

/** With `tables`, the definitions some source still gives would be silently lost: they stop the start instead. */
function refuseDefinitionsBesideTables(sources: readonly DefinitionSource[]): void {
  const extra = sources.filter((source) => source.definitions.length > 0);
  if (extra.length === 0) return;
  throw new PermissionsUsageError(
    `PermissionsModule.forRoot({ tables }) loads precompiled grant tables, which cannot be extended at run time, ` +
      `but more definitions were given by: ${extra.map((s) => `${s.source} (${s.definitions.length})`).join('; ')}. ` +
      'Move these definitions into a file in definitions/ and compile again (typed-permissions compile), then ' +
      'remove them from the guards, forFeature() and forRoot(); or drop `tables` to build every definition at ' +
      'start.',
  );
}

/**
 * The application's engine: from `options.tables` when given (then no source may give definitions), else
 * built from every source's definitions. `ownership` (the module option or the provider under
 * `PERMISSIONS_OWNERSHIP_SERVICE_TOKEN`) replaces the `ownership` option. An invalid definition throws, so
 * that `app.init()` rejects.
 *
 * @example
 * ```ts
 * const engine = buildPermissionsEngine(moduleOptions, [{ definitions, source: 'PermissionsModule.forRoot({ definitions })' }], new DocumentOwnership());
 * await engine.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * ```
 */
export function buildPermissionsEngine<TUser extends User<unknown>, TFilter>(
  options: PermissionsModuleOptions<TUser, TFilter>,
  sources: readonly DefinitionSource[],
  ownership: object | undefined,
): Permissions<TUser, TFilter> {
  const engineOptions = { ...engineOptionsOf(options), ownership };
  try {
    if (options.tables !== undefined) {
      refuseDefinitionsBesideTables(sources);
      return Permissions.fromTables<TUser, TFilter>(options.tables, engineOptions);
    }
    const engine = new Permissions<TUser, TFilter>(engineOptions);
    // A source alone: its first version will be the policy (and its vocabulary).
    if (options.source !== undefined && sources.every((source) => source.definitions.length === 0)) return engine;
    for (const { definitions, source } of sources) engine.addPermissions(definitions, { source });
    engine.build();
    return engine;
  } catch (error) {
    throw ownership === undefined ? withNestOwnershipFix(error) : error;
  }
}
