/**
 * The one table builder: validated definitions in, grant tables out. `build()` loads its result directly;
 * the compiler serialises it into generated code. Every `'*'` (role, resource, action) is expanded here,
 * once, so that a query is a few array and map look-ups. The phases: the known names, the resources'
 * settings, the bounds on expansion and on distinct cells (both counted before anything is built), the cells,
 * their rows.
 */
import type { DefinitionProblem } from '../common/errors.js';
import type { DefinitionSummary, GrantTables, ResourceIdType } from '../tables/grant-tables.js';
import { cellRows } from './cell-rows.js';
import type { HookValue, LocatedDefinition } from './definition-parts.js';
import { expansionProblem } from './expansion-limit.js';
import { GrantCells, MAX_GRANT_CELLS } from './grant-cells.js';
import { HookRegistry } from './hook-registry.js';
import { knownNames, type KnownUniverse } from './known-names.js';
import { resourceSettings, uncomputableOwnership, type DeclaredResourceActions } from './resource-settings.js';
import { ownershipRulesTable, unknownRuleProblems, type ResourceRules } from './rule-owners.js';

export type { HookValue, LocatedDefinition, ValidDefinition } from './definition-parts.js';
export type { DeclaredResourceActions } from './resource-settings.js';
export type { ResourceRules } from './rule-owners.js';
export { MAX_GRANT_EXPANSIONS } from './expansion-limit.js';
export { MAX_GRANT_CELLS } from './grant-cells.js';

/** What {@link buildGrantTables} returns: the tables, plus the problems and warnings it found across definitions. */
export interface TableBuildResult {
  readonly tables: GrantTables;
  /** The hook given for each entry of `tables.hooks` (a name or a function), in the same order. */
  readonly hookValues: readonly HookValue[];
  readonly problems: readonly DefinitionProblem[];
  readonly warnings: readonly string[];
}

/** What the table builder needs besides the definitions. */
export interface TableBuildOptions {
  /**
   * The ownedAmong executor of each resource that has one (a method name or a function): it runs a
   * limitOwned filter over given ids, so that definitions with limitOwned need no isOwner there.
   */
  readonly ownedAmong?: ReadonlyMap<string, HookValue> | undefined;
  /** The declared id type of each resource that has one: ids entering a check are projected to it. */
  readonly idTypes?: ReadonlyMap<string, ResourceIdType> | undefined;
  /**
   * The declared actions of each resource that declares them (valid lists: `declaredActionsProblems` found none):
   * grants may name only those there, and `'*'` expands to them.
   */
  readonly actions?: ReadonlyMap<string, DeclaredResourceActions> | undefined;
  /**
   * The declared attributes of each resource that declares them (what `undeclaredAttributePaths` checks grants
   * against): the tables carry them, sorted, for checks made at run time.
   */
  readonly attributes?: ReadonlyMap<string, readonly string[]> | undefined;
  /** The ownership rules, user attributes and relations each resource's `*.resource.json` declares: what `"owner"` may name. */
  readonly ownershipRules?: ReadonlyMap<string, ResourceRules> | undefined;
  /**
   * Told when the costly phase starts — expanding `definitions` definitions into cells — once the limits are
   * checked: a compiler shows it as progress, and a policy past a limit never reaches it.
   */
  readonly progress?: ((phase: 'expanding', definitions: number) => void) | undefined;
  /** Resources and actions known besides the ones the definitions name (a tenant's roles: the compiled policy's). */
  readonly universe?: KnownUniverse | undefined;
}

function summaryOf({ definition, location }: LocatedDefinition): DefinitionSummary {
  return {
    index: location.index,
    ...(location.source === undefined ? {} : { source: location.source }),
    ...(definition.descr === undefined ? {} : { descr: definition.descr }),
  };
}

/**
 * Builds the grant tables of a set of valid definitions. Cross-definition problems (conflicting
 * explicit redefinitions, grants that keep no attribute, ownership that cannot be computed, limits) are
 * returned, not thrown, so the caller can report them together with its own.
 *
 * @example
 * ```ts
 * const { tables, problems } = buildGrantTables([{ definition: { roles: 'ADMIN', resource: 'document', grant: ['*:any'] }, location: { index: 0 } }]);
 * tables.actions; // ['create', 'delete', 'read', 'update']
 * ```
 */
export function buildGrantTables(located: readonly LocatedDefinition[], options: TableBuildOptions = {}): TableBuildResult {
  const problems: DefinitionProblem[] = [];
  const warnings: string[] = [];
  const names = knownNames(located, options.actions, options.universe);
  const { roles, resources, actions } = names;
  const empty = (): TableBuildResult => ({
    tables: { format: 1, roles, resources, actions, plans: [], hooks: [], owners: [], cells: [], definitions: [] },
    hookValues: [],
    problems,
    warnings,
  });

  const registry = new HookRegistry();
  const settings = resourceSettings(names, registry, options, warnings);
  problems.push(...uncomputableOwnership(located, names, settings.ownedAmong));
  const declaredRules = options.ownershipRules ?? new Map<string, ResourceRules>();
  problems.push(...unknownRuleProblems(located, declaredRules));
  const expansion = expansionProblem(located, names, settings);
  if (expansion.problem !== undefined) {
    problems.push(expansion.problem);
    return empty();
  }

  const cells = new GrantCells(names, settings, options.actions, problems, warnings);
  // Distinct cells are at most the expansions: counting them is needed only past the cell limit.
  const tooManyCells = expansion.expansions > MAX_GRANT_CELLS ? cells.countProblem(located) : undefined;
  if (tooManyCells !== undefined) {
    problems.push(tooManyCells);
    return empty();
  }

  options.progress?.('expanding', located.length);
  const definitions: DefinitionSummary[] = [];
  for (let number = 0; number < located.length; number++) {
    const entry = located[number] as LocatedDefinition;
    definitions.push(summaryOf(entry));
    cells.expand(entry, number, registry.ownerOf(entry.definition, number));
  }
  cells.finish();

  const { plans, rows } = cellRows(cells.cells, names);
  const { ownedAmong, idTypes, actions: declaredActions, attributes } = settings;
  const ownershipRules = problems.length === 0 ? ownershipRulesTable(registry.rules, declaredRules, resources) : undefined;
  return {
    tables: {
      format: 1,
      roles,
      resources,
      actions,
      plans,
      hooks: registry.hooks,
      owners: registry.owners,
      ...(ownedAmong.some((hook) => hook !== -1) ? { ownedAmong } : {}),
      ...(idTypes.some((type) => type !== null) ? { idTypes } : {}),
      ...(declaredActions.some((declared) => declared !== null) ? { declaredActions } : {}),
      ...(attributes.some((declared) => declared !== null) ? { attributes } : {}),
      ...(ownershipRules === undefined ? {} : { ownershipRules }),
      cells: rows,
      definitions,
    },
    hookValues: registry.values,
    problems,
    warnings,
  };
}
