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
import { formatCount, grantEntries, rolesOf, type LocatedDefinition } from './definition-parts.js';
import type { KnownNames } from './known-names.js';
import { resourceTakes, type DeclaredResourceActions, type ResourceSettings } from './resource-settings.js';
import { actionsForMessage } from '../definition/declared-actions.js';
import { didYouMean } from '../common/nearest-name.js';

/** The most distinct grant cells (role × resource × action) a set of definitions may expand to. */
export const MAX_GRANT_CELLS = 250_000;
/** Warnings are for people: a policy that repeats itself thousands of times gets the first ones and a count. */
const MAX_BUILD_WARNINGS = 100;

/** A cell while it is built: lean (most cells have no own grant and one source), because a large policy has hundreds of thousands. */
export interface CellBuild {
  any: AttributePlan | undefined;
  own: Map<number, AttributePlan> | undefined;
  owners: number[] | undefined;
  readonly sources: number[];
}

/** An explicit grant (no `'*'` anywhere) as first met, to compare with the same grant written again. */
interface ExplicitGrant {
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
 * for (const [i, { definition, location }] of located.entries()) if (!cells.expand(definition, location, i, registry.ownerOf(definition, i))) break;
 * ```
 */
export class GrantCells {
  /** Cells by `(resource * actions + action) * roles + role`. */
  readonly cells = new Map<number, CellBuild>();
  private readonly explicit = new Map<string, ExplicitGrant>();
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
   * Expands definition number `definitionNumber` (whose ownership group is `owner`) into the cells. Returns false,
   * with a `too-large` problem, when the cells would pass {@link MAX_GRANT_CELLS}.
   */
  expand({ definition, location }: LocatedDefinition, definitionNumber: number, owner: number | undefined): boolean {
    const { roles, resources, roleIndex, resourceIndex, actionIndex } = this.names;
    const roleNames = rolesOf(definition);
    const roleIds = roleNames.includes('*') ? roles.map((_, i) => i) : [...new Set(roleNames)].map((name) => roleIndex.get(name) as number);
    const resourceIds = definition.resource === '*' ? resources.map((_, i) => i) : [resourceIndex.get(definition.resource) as number];
    for (const [key, patterns, path] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (isSyntaxProblem(parsed)) continue;
      const plan = patterns.length === 1 && patterns[0] === '*' ? EVERYTHING : compileAttributePatterns(patterns);
      if (!plan.allowsAny && patterns.length > 0) {
        this.problems.push(keepsNothing(key, patterns, location, path));
        continue;
      }
      const possession = parsed.possession ?? definition.possession ?? 'any';
      const action = parsed.action === '*' ? undefined : (actionIndex.get(parsed.action) as number);
      // A named action reaches the resources that take it; on a named resource that does not, it is a mistake.
      const reached = action === undefined ? resourceIds : resourceIds.filter((resource) => resourceTakes(this.settings, resource, action));
      if (action !== undefined && reached.length < resourceIds.length && (definition.resource !== '*' || reached.length === 0)) {
        this.problems.push(this.undeclaredAction(parsed.action, definition.resource, location, path));
        continue;
      }
      if (action !== undefined && definition.resource !== '*') {
        for (const role of new Set(roleNames)) {
          if (role === '*') continue;
          const what = `${role} ${parsed.action}:${possession} on ${definition.resource}`;
          this.recordExplicit(`${role}\u0000${definition.resource}\u0000${parsed.action}\u0000${possession}`, plan, location, path, what);
        }
      }
      const source = definitionNumber * 2 + (possession === 'own' ? 1 : 0);
      for (const resource of reached) {
        const actionIds = action === undefined ? (this.settings.actions[resource] ?? this.everyAction) : [action];
        for (const actionId of actionIds) {
          for (const role of roleIds) {
            const cell = this.cellAt(resource, actionId, role);
            if (cell === undefined) {
              this.problems.push(tooManyCells(location, path));
              return false;
            }
            grantInto(cell, possession === 'own' ? 'own' : 'any', plan, owner, source);
          }
        }
      }
    }
    return true;
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

  private cellAt(resource: number, action: number, role: number): CellBuild | undefined {
    const key = (resource * this.names.actions.length + action) * this.names.roles.length + role;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      if (this.cells.size >= MAX_GRANT_CELLS) return undefined;
      this.cells.set(key, (cell = { any: undefined, own: undefined, owners: undefined, sources: [] }));
    }
    return cell;
  }

  private recordExplicit(key: string, plan: AttributePlan, location: DefinitionLocation, path: readonly (string | number)[], what: string): void {
    let planKey = this.planKeys.get(plan);
    if (planKey === undefined) this.planKeys.set(plan, (planKey = JSON.stringify(planToJson(plan))));
    const earlier = this.explicit.get(key);
    if (earlier === undefined) {
      this.explicit.set(key, { planKey, location, path });
      return;
    }
    const first = formatProblemLocation({ ...earlier.location, path: earlier.path });
    const second = formatProblemLocation({ ...location, path });
    if (earlier.planKey === planKey) {
      this.duplicates++;
      if (this.warnings.length < MAX_BUILD_WARNINGS) this.warnings.push(`${what} is granted twice with the same attributes, at ${first} and ${second}.`);
      return;
    }
    this.problems.push({
      code: 'conflicting-redefinition',
      ...location,
      path,
      message: `${what} is already granted at ${first} with different attributes.`,
      fix: `Keep one of the two grants, or make their attributes identical.`,
    });
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
