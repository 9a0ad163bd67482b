/**
 * Loading tables for an engine: each hook of the tables bound to the function it names — a method of the
 * ownership service, or the function a definition gave in-process. Compiled tables are shape-checked first,
 * and every name the service lacks is reported at once, naming the definitions that use it.
 */
import { missingExecutorProblem, missingMethodProblem, resolveMethod } from '../table-building/ownership-methods.js';
import type { BuiltDefinitions } from '../table-building/build-definitions.js';
import { PermissionDefinitionError, type DefinitionProblem } from '../common/errors.js';
import type { GrantTables } from '../tables/grant-tables.js';
import { loadGrantTables, type GrantIndex, type BoundHook, type BoundRule } from '../tables/table-loader.js';
import type { OwnershipRuleSource } from '../ownership-rules/ownership-rule-source.js';
import type { RuleTable } from '../tables/grant-tables.js';
import { bindRule, ruleContext } from './bind-rules.js';
import { grantTablesProblem } from '../tables/table-shape.js';
import { definitionSummary, isPacked, notGrantTablesError, packedHeaderProblem } from '../tables/packed-tables.js';

/** A hook that is never called: what a missing method is bound to while its problem is reported. */
const unbound = (): undefined => undefined;

/** Where the tables' hooks and rules are bound: the ownership service's methods, and the source of the rules' records. */
export interface OwnershipSources {
  readonly ownership: object | undefined;
  readonly ownershipRules: OwnershipRuleSource | undefined;
}

/**
 * The binder of the tables' rules to `source`; without a source, each rule is reported in `problems` (naming the
 * definitions that use it) and bound to hooks that are never called.
 */
function ruleBinder(tables: GrantTables, source: OwnershipRuleSource | undefined, problems: DefinitionProblem[]) {
  return (rule: RuleTable, index: number): BoundRule => {
    const context = ruleContext(tables, rule);
    if (source !== undefined) return bindRule(source, rule, context);
    for (const location of usersOf(tables, (group) => group.rule === index))
      problems.push({
        code: 'unknown-hook-method',
        ...location,
        path: ['owner'],
        message:
          `The definition's ownership rule ${JSON.stringify(rule.name)} of ${JSON.stringify(rule.resource)} needs the records it reads, ` +
          'and no ownershipRules source is given.',
        fix: 'Pass ownershipRules (for example kyselyOwnership(db, { tables }) from typed-permissions/kysely, or memoryOwnership) to createPermissions.',
      });
    const never = { name: `rule ${rule.name}`, call: unbound };
    return { rule, context, isOwner: never, listOwned: never, limitOwned: never, ownedAmong: never, filter: unbound };
  };
}

/**
 * Loads what `build()` made: hooks given as functions are called as they are, names are methods of `ownership`
 * (which the build already checked).
 *
 * @example
 * ```ts
 * const index = loadBuiltTables(buildDefinitions(added, settings), settings.ownership);
 * ```
 */
export function loadBuiltTables(built: BuiltDefinitions, { ownership, ownershipRules }: OwnershipSources): GrantIndex {
  const problems: DefinitionProblem[] = [];
  const index = loadGrantTables(
    built.tables,
    (ref, i): BoundHook => {
      const value = built.hookValues[i];
      if (typeof value === 'function') return { name: ref.name, call: value as (args: object) => unknown };
      return { name: ref.name, call: (ownership === undefined ? undefined : resolveMethod(ownership, ref.name)) ?? unbound };
    },
    ruleBinder(built.tables, ownershipRules, problems),
  );
  if (problems.length > 0) throw new PermissionDefinitionError(problems);
  return index;
}

/** The definitions (as problems' locations) of the ownership groups `uses` picks. */
function usersOf(tables: GrantTables, uses: (group: GrantTables['owners'][number]) => boolean): { index: number; source?: string }[] {
  const definitions = tables.owners.filter(uses).flatMap((group) => group.definitions);
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
export function loadCompiledTables(tables: GrantTables, sources: OwnershipSources): GrantIndex {
  // Packed tables (the generated code's) are checked part by part: the header now, a resource's cells when first decoded.
  const shape = isPacked(tables) ? packedHeaderProblem(tables) : grantTablesProblem(tables);
  if (shape !== undefined) throw notGrantTablesError(shape);
  return bindTables(tables, sources);
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
export function bindTables(tables: GrantTables, { ownership, ownershipRules }: OwnershipSources): GrantIndex {
  const problems: DefinitionProblem[] = [];
  const index = loadGrantTables(
    tables,
    (ref, hookIndex): BoundHook => {
      const call = ownership === undefined ? undefined : resolveMethod(ownership, ref.name);
      if (call !== undefined) return { name: ref.name, call };
      if (ref.kind === 'ownedAmong') {
        const resources = (tables.ownedAmong ?? []).flatMap((hook, resource) => (hook === hookIndex ? [tables.resources[resource] as string] : []));
        for (const resource of resources) problems.push(missingExecutorProblem(ownership, ref.name, resource));
      } else {
        const uses = (group: GrantTables['owners'][number]) => group.isOwner === hookIndex || group.listOwned === hookIndex || group.limitOwned === hookIndex;
        for (const location of usersOf(tables, uses)) problems.push(missingMethodProblem(ownership, ref.name, ref.kind, location));
      }
      return { name: ref.name, call: unbound };
    },
    ruleBinder(tables, ownershipRules, problems),
  );
  if (problems.length > 0) throw new PermissionDefinitionError(problems);
  return index;
}
