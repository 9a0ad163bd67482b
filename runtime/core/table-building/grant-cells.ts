/**
 * Expanding grants into cells: every `'*'` of a definition's roles, resource and actions becomes the
 * (role, resource, action) cells it reaches, each holding the union of the attribute plans granted there —
 * as `any`, or as `own` per ownership group — and the definitions that reached it. On a resource that
 * declares its actions, `'*'` reaches those only, and a grant naming another action is an error. Explicit
 * grants written twice are checked here: the same attributes warn, different ones conflict.
 */
import { formatProblemLocation, type DefinitionLocation, type DefinitionProblem } from '../common/errors.js';
import { isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import { quoteForMessage } from '../common/printable-text.js';
import { compileAttributePatterns, EVERYTHING, planToJson, unionPlans, type AttributePlan } from '../projection/attribute-plan.js';
import { formatCount, grantEntries, rolesOf, type LocatedDefinition, type ValidDefinition } from './definition-parts.js';
import type { KnownNames } from './known-names.js';
import { resourceTakes, type DeclaredResourceActions, type ResourceSettings } from './resource-settings.js';
import { actionsForMessage } from '../definition/declared-actions.js';
import { didYouMean } from '../common/nearest-name.js';

/**
 * The most distinct grant cells (role × resource × action) a set of definitions may expand to: counted before
 * any cell is built, so that a policy past it is refused in time linear in its expansions, with little memory.
 */
export const MAX_GRANT_CELLS = 500_000;
/** Warnings are for people: a policy that repeats itself thousands of times gets the first ones and a count. */
const MAX_BUILD_WARNINGS = 100;

/** A cell while it is built: lean (most cells have no own grant and one source), because a large policy has hundreds of thousands. */
export interface CellBuild {
  any: AttributePlan | undefined;
  own: Map<number, AttributePlan> | undefined;
  owners: number[] | undefined;
  readonly sources: number[];
}

/** An explicit grant entry (no `'*'` anywhere), kept once per entry: its cells point at it by number. */
interface ExplicitEntry {
  readonly planKey: string;
  readonly location: DefinitionLocation;
  readonly path: readonly (string | number)[];
}

/**
 * The cells of a policy as definitions are expanded into them, in order.
 *
 * @example
 * ```ts
 * const cells = new GrantCells(names, settings, declared, problems, warnings);
 * if (cells.countProblem(located) === undefined)
 *   for (const [i, entry] of located.entries()) cells.expand(entry, i, registry.ownerOf(entry.definition, i));
 * ```
 */
export class GrantCells {
  /** Cells by {@link GrantCells.keyOf}: `(resource * actions + action) * roles + role`. */
  readonly cells = new Map<number, CellBuild>();
  /** The explicit entry that first granted each explicit cell and possession (`cell key * 2 + 1` for own), by number. */
  private readonly explicit = new Map<number, number>();
  private readonly explicitEntries: ExplicitEntry[] = [];
  /** A plan's text, once per plan: a grant to many roles would otherwise serialise it once per role. */
  private readonly planKeys = new Map<AttributePlan, string>();
  private duplicates = 0;
  /** Every action's index: what `'*'` reaches on a resource that declares no actions. */
  private readonly everyAction: readonly number[];

  constructor(
    private readonly names: KnownNames,
    private readonly settings: ResourceSettings,
    private readonly declared: ReadonlyMap<string, DeclaredResourceActions> | undefined,
    private readonly problems: DefinitionProblem[],
    private readonly warnings: string[],
  ) {
    this.everyAction = names.actions.map((_, i) => i);
  }

  /**
   * The `too-large` problem, at the grant entry that crosses it, when the definitions reach more than
   * {@link MAX_GRANT_CELLS} distinct cells; undefined within the limit. Walks exactly what {@link GrantCells.expand}
   * will (entries that are mistakes for another reason are counted too: an upper bound), keeping only cell numbers.
   */
  countProblem(located: readonly LocatedDefinition[]): DefinitionProblem | undefined {
    const seen = new Set<number>();
    for (const { definition, location } of located) {
      const roleIds = this.roleIdsOf(definition);
      const resourceIds = this.resourceIdsOf(definition);
      for (const [key, , path] of grantEntries(definition)) {
        const parsed = parseGrantKey(key);
        if (isSyntaxProblem(parsed)) continue;
        const action = parsed.action === '*' ? undefined : (this.names.actionIndex.get(parsed.action) as number);
        const reached = this.reachedResources(definition, resourceIds, action);
        for (const resource of reached ?? []) {
          for (const actionId of this.actionsOn(resource, action)) {
            for (const role of roleIds) seen.add(this.keyOf(resource, actionId, role));
            if (seen.size > MAX_GRANT_CELLS) return tooManyCells(location, path);
          }
        }
      }
    }
    return undefined;
  }

  /** Expands definition number `definitionNumber` (whose ownership group is `owner`) into the cells. */
  expand({ definition, location }: LocatedDefinition, definitionNumber: number, owner: number | undefined): void {
    const roleNames = rolesOf(definition);
    const roleIds = this.roleIdsOf(definition);
    const resourceIds = this.resourceIdsOf(definition);
    for (const [key, patterns, path] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (isSyntaxProblem(parsed)) continue;
      const plan = patterns.length === 1 && patterns[0] === '*' ? EVERYTHING : compileAttributePatterns(patterns);
      if (!plan.allowsAny && patterns.length > 0) {
        this.problems.push(keepsNothing(key, patterns, location, path));
        continue;
      }
      const possession = parsed.possession ?? definition.possession ?? 'any';
      const action = parsed.action === '*' ? undefined : (this.names.actionIndex.get(parsed.action) as number);
      const reached = this.reachedResources(definition, resourceIds, action);
      if (reached === undefined) {
        this.problems.push(this.undeclaredAction(parsed.action, definition.resource, location, path));
        continue;
      }
      if (action !== undefined && definition.resource !== '*') {
        const resource = resourceIds[0] as number;
        const entry = this.explicitEntries.length;
        this.explicitEntries.push({ planKey: this.planKeyOf(plan), location, path });
        // The roles named besides a '*' are explicit too.
        const named = roleNames.includes('*')
          ? new Set(roleNames.filter((role) => role !== '*').map((role) => this.names.roleIndex.get(role) as number))
          : roleIds;
        for (const role of named) this.recordExplicit(this.keyOf(resource, action, role) * 2 + (possession === 'own' ? 1 : 0), entry, possession);
      }
      const source = definitionNumber * 2 + (possession === 'own' ? 1 : 0);
      for (const resource of reached) {
        for (const actionId of this.actionsOn(resource, action)) {
          for (const role of roleIds) grantInto(this.cellAt(this.keyOf(resource, actionId, role)), possession === 'own' ? 'own' : 'any', plan, owner, source);
        }
      }
    }
  }

  /** The roles a definition names, as indexes (every role for `'*'`), each once. */
  private roleIdsOf(definition: ValidDefinition): readonly number[] {
    const roleNames = rolesOf(definition);
    return roleNames.includes('*') ? this.names.roles.map((_, i) => i) : [...new Set(roleNames)].map((name) => this.names.roleIndex.get(name) as number);
  }

  private resourceIdsOf(definition: ValidDefinition): readonly number[] {
    return definition.resource === '*' ? this.names.resources.map((_, i) => i) : [this.names.resourceIndex.get(definition.resource) as number];
  }

  /**
   * The resources an entry naming `action` (undefined for `'*'`) reaches: those that take it. Undefined when
   * that is a mistake: a named resource that does not take it, or `'*'` when no resource does.
   */
  private reachedResources(definition: ValidDefinition, resourceIds: readonly number[], action: number | undefined): readonly number[] | undefined {
    if (action === undefined) return resourceIds;
    const reached = resourceIds.filter((resource) => resourceTakes(this.settings, resource, action));
    return reached.length < resourceIds.length && (definition.resource !== '*' || reached.length === 0) ? undefined : reached;
  }

  /** The actions an entry naming `action` (undefined for `'*'`) reaches on `resource`. */
  private actionsOn(resource: number, action: number | undefined): readonly number[] {
    return action === undefined ? (this.settings.actions[resource] ?? this.everyAction) : [action];
  }

  private keyOf(resource: number, action: number, role: number): number {
    return (resource * this.names.actions.length + action) * this.names.roles.length + role;
  }

  private planKeyOf(plan: AttributePlan): string {
    let planKey = this.planKeys.get(plan);
    if (planKey === undefined) this.planKeys.set(plan, (planKey = JSON.stringify(planToJson(plan))));
    return planKey;
  }

  /** The problem of a grant naming `action` on `resource` (a name, or `'*'` when no resource takes it), where it is not declared. */
  private undeclaredAction(action: string, resource: string, location: DefinitionLocation, path: readonly (string | number)[]): DefinitionProblem {
    const declared = resource === '*' ? undefined : this.declared?.get(resource);
    if (declared !== undefined)
      return {
        code: 'unknown-action',
        ...location,
        path,
        message:
          `Action ${quoteForMessage(action)} is not an action of ${quoteForMessage(resource)}, which declares ${actionsForMessage(declared.actions)}.` +
          didYouMean(action, declared.actions),
        fix: `Correct the action, or add ${quoteForMessage(action)} to ${declared.declaredIn}.`,
      };
    const everyDeclared = new Set([...(this.declared?.values() ?? [])].flatMap((one) => one.actions));
    return {
      code: 'unknown-action',
      ...location,
      path,
      message:
        `Action ${quoteForMessage(action)} is not an action of any resource: each one declares its actions, and none declares it.` +
        didYouMean(action, everyDeclared),
      fix: `Correct the action, or declare it for the resources it applies to.`,
    };
  }

  /** The last warning: how many more grants were given twice with the same attributes than were warned about. */
  finish(): void {
    if (this.duplicates > this.warnings.length)
      this.warnings.push(`… and ${formatCount(this.duplicates - this.warnings.length)} more grants given twice with the same attributes.`);
  }

  private cellAt(key: number): CellBuild {
    let cell = this.cells.get(key);
    if (cell === undefined) this.cells.set(key, (cell = { any: undefined, own: undefined, owners: undefined, sources: [] }));
    return cell;
  }

  /** Remembers the explicit entry number `entry` as granting cell key `key` (with its possession); the same grant written again warns or conflicts. */
  private recordExplicit(key: number, entry: number, possession: 'any' | 'own'): void {
    const earlierEntry = this.explicit.get(key);
    if (earlierEntry === undefined) {
      this.explicit.set(key, entry);
      return;
    }
    const earlier = this.explicitEntries[earlierEntry] as ExplicitEntry;
    const later = this.explicitEntries[entry] as ExplicitEntry;
    const first = formatProblemLocation({ ...earlier.location, path: earlier.path });
    const second = formatProblemLocation({ ...later.location, path: later.path });
    if (earlier.planKey === later.planKey) {
      this.duplicates++;
      if (this.warnings.length < MAX_BUILD_WARNINGS)
        this.warnings.push(`${this.describe(key, possession)} is granted twice with the same attributes, at ${first} and ${second}.`);
      return;
    }
    this.problems.push({
      code: 'conflicting-redefinition',
      ...later.location,
      path: later.path,
      message: `${this.describe(key, possession)} is already granted at ${first} with different attributes.`,
      fix: `Keep one of the two grants, or make their attributes identical.`,
    });
  }

  /** `ROLE action:possession on resource`, of an explicit key. */
  private describe(key: number, possession: 'any' | 'own'): string {
    const cell = (key - (key % 2)) / 2;
    const { roles, actions, resources } = this.names;
    const role = cell % roles.length;
    const rest = (cell - role) / roles.length;
    const action = rest % actions.length;
    const resource = (rest - action) / actions.length;
    return `${roles[role] as string} ${actions[action] as string}:${possession} on ${resources[resource] as string}`;
  }
}

/** Adds one grant to one cell: its plan as `any`, or as `own` of its ownership group, and where it came from. */
function grantInto(cell: CellBuild, possession: 'any' | 'own', plan: AttributePlan, owner: number | undefined, source: number): void {
  if (possession === 'any') cell.any = cell.any === undefined ? plan : unionPlans(cell.any, plan);
  else if (owner !== undefined) {
    cell.own ??= new Map();
    const before = cell.own.get(owner);
    cell.own.set(owner, before === undefined ? plan : unionPlans(before, plan));
  }
  if (owner !== undefined) {
    cell.owners ??= [];
    if (!cell.owners.includes(owner)) cell.owners.push(owner);
  }
  // Definitions are expanded in order, so a source already recorded is among the last two.
  const { sources } = cell;
  if (sources.at(-1) !== source && sources.at(-2) !== source) sources.push(source);
}

function keepsNothing(key: string, patterns: readonly string[], location: DefinitionLocation, path: readonly (string | number)[]): DefinitionProblem {
  return {
    code: 'bad-attribute',
    ...location,
    path,
    message: `Grant ${quoteForMessage(key)} keeps no attribute with patterns ${patterns
      .slice(0, 5)
      .map((pattern) => quoteForMessage(pattern))
      .join(', ')}${patterns.length > 5 ? `, … (${patterns.length} patterns)` : ''}.`,
    fix: "Start with '*' before exclusions ('*', '!secret'), or name the attributes to keep.",
  };
}

function tooManyCells(location: DefinitionLocation, path: readonly (string | number)[]): DefinitionProblem {
  return {
    code: 'too-large',
    ...location,
    path,
    message:
      `With this grant the definitions need more than ${formatCount(MAX_GRANT_CELLS)} distinct grants ` +
      "of a role, resource and action (every '*' is expanded), the limit.",
    fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
  };
}
