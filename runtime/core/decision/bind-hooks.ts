/**
 * Loading tables for an engine: each hook of the tables bound to the function it names — a method of the
 * ownership service, or the function a definition gave in-process. Compiled tables are shape-checked first,
 * and every name the service lacks is reported at once, naming the definitions that use it.
 */
import { missingExecutorProblem, missingMethodProblem, resolveMethod } from '../table-building/ownership-methods.js';
import type { BuiltDefinitions } from '../table-building/build-definitions.js';
import { PermissionDefinitionError, type DefinitionProblem } from '../common/errors.js';
import type { GrantTables } from '../tables/grant-tables.js';
import { loadGrantTables, type GrantIndex, type BoundHook } from '../tables/table-loader.js';
import { grantTablesProblem } from '../tables/table-shape.js';
import { definitionSummary, isPacked, notGrantTablesError, packedHeaderProblem } from '../tables/packed-tables.js';

/** A hook that is never called: what a missing method is bound to while its problem is reported. */
const unbound = (): undefined => undefined;

/**
 * Loads what `build()` made: hooks given as functions are called as they are, names are methods of `ownership`
 * (which the build already checked).
 *
 * @example
 * ```ts
 * const index = loadBuiltTables(buildDefinitions(added, settings), settings.ownership);
 * ```
 */
export function loadBuiltTables(built: BuiltDefinitions, ownership: object | undefined): GrantIndex {
  return loadGrantTables(built.tables, (ref, i): BoundHook => {
    const value = built.hookValues[i];
    if (typeof value === 'function') return { name: ref.name, call: value as (args: object) => unknown };
    return { name: ref.name, call: (ownership === undefined ? undefined : resolveMethod(ownership, ref.name)) ?? unbound };
  });
}

/** The definitions (as problems' locations) that use hook `hookIndex` of `tables`. */
function usersOfHook(tables: GrantTables, hookIndex: number): { index: number; source?: string }[] {
  const definitions = tables.owners
    .filter((group) => group.isOwner === hookIndex || group.listOwned === hookIndex || group.limitOwned === hookIndex)
    .flatMap((group) => group.definitions);
  return [...new Set(definitions)]
    .sort((a, b) => a - b)
    .map((definition) => {
      const { index, source } = definitionSummary(tables, definition) ?? { index: definition };
      return source === undefined ? { index } : { index, source };
    });
}

/**
 * Loads compiled tables (what the compiler emits), binding hook names to methods of `ownership`. Throws a
 * PermissionsUsageError for tables of another format or version (for packed tables: a malformed header here, a
 * resource's malformed cells when a decision first needs them), and a PermissionDefinitionError naming every
 * method the service lacks and the definitions (or resources) that use it.
 *
 * @example
 * ```ts
 * const index = loadCompiledTables(grantTables, new DocumentOwnership(db));
 * ```
 */
export function loadCompiledTables(tables: GrantTables, ownership: object | undefined): GrantIndex {
  // Packed tables (the generated code's) are checked part by part: the header now, a resource's cells when first decoded.
  const shape = isPacked(tables) ? packedHeaderProblem(tables) : grantTablesProblem(tables);
  if (shape !== undefined) throw notGrantTablesError(shape);
  return bindTables(tables, ownership);
}

/**
 * Loads tables whose shape is already checked (a policy bundle's, by policyBundleProblem), binding hook names
 * to methods of `ownership`; throws a PermissionDefinitionError naming every method the service lacks.
 *
 * @example
 * ```ts
 * if (policyBundleProblem(bundle) === undefined) index = bindTables(bundle.tables, ownership);
 * ```
 */
export function bindTables(tables: GrantTables, ownership: object | undefined): GrantIndex {
  const problems: DefinitionProblem[] = [];
  const index = loadGrantTables(tables, (ref, hookIndex): BoundHook => {
    const call = ownership === undefined ? undefined : resolveMethod(ownership, ref.name);
    if (call !== undefined) return { name: ref.name, call };
    if (ref.kind === 'ownedAmong') {
      const resources = (tables.ownedAmong ?? []).flatMap((hook, resource) => (hook === hookIndex ? [tables.resources[resource] as string] : []));
      for (const resource of resources) problems.push(missingExecutorProblem(ownership, ref.name, resource));
    } else {
      for (const location of usersOfHook(tables, hookIndex)) problems.push(missingMethodProblem(ownership, ref.name, ref.kind, location));
    }
    return { name: ref.name, call: unbound };
  });
  if (problems.length > 0) throw new PermissionDefinitionError(problems);
  return index;
}
