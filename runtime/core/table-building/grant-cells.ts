/**
 * Expanding grants into cells: every `'*'` of a definition's roles, resource and actions becomes the
 * (role, resource, action) cells it reaches, each holding the union of the attribute plans granted there —
 * as `any`, or as `own` per ownership group — and the definitions that reached it. Explicit grants written
 * twice are checked here: the same attributes warn, different ones conflict.
 */
import { formatProblemLocation, type DefinitionLocation, type DefinitionProblem } from '../common/errors.js';
import { isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import { quoteForMessage } from '../common/printable-text.js';
import { compileAttributePatterns, EVERYTHING, planToJson, unionPlans, type AttributePlan } from '../projection/attribute-plan.js';
import { formatCount, grantEntries, rolesOf, type LocatedDefinition } from './definition-parts.js';
import type { KnownNames } from './known-names.js';

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
 * const cells = new GrantCells(names, problems, warnings);
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

  constructor(
    private readonly names: KnownNames,
    private readonly problems: DefinitionProblem[],
    private readonly warnings: string[],
  ) {}

  /**
   * Expands definition number `definitionNumber` (whose ownership group is `owner`) into the cells. Returns false,
   * with a `too-large` problem, when the cells would pass {@link MAX_GRANT_CELLS}.
   */
  expand({ definition, location }: LocatedDefinition, definitionNumber: number, owner: number | undefined): boolean {
    const { roles, resources, actions, roleIndex, resourceIndex, actionIndex } = this.names;
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
      const actionIds = parsed.action === '*' ? actions.map((_, i) => i) : [actionIndex.get(parsed.action) as number];
      if (parsed.action !== '*' && definition.resource !== '*') {
        for (const role of new Set(roleNames)) {
          if (role === '*') continue;
          const what = `${role} ${parsed.action}:${possession} on ${definition.resource}`;
          this.recordExplicit(`${role}\u0000${definition.resource}\u0000${parsed.action}\u0000${possession}`, plan, location, path, what);
        }
      }
      const source = definitionNumber * 2 + (possession === 'own' ? 1 : 0);
      for (const resource of resourceIds) {
        for (const action of actionIds) {
          for (const role of roleIds) {
            const cell = this.cellAt(resource, action, role);
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
