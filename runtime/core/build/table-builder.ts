/**
 * The one table builder: validated definitions in, {@link GrantTables} out. `Permissions.build()`
 * loads its result directly; the compiler serialises it into generated code. Every `'*'` (role,
 * resource, action) is expanded here, once, so that a query is a few array and map look-ups.
 */
import { compileAttributePatterns, EVERYTHING, planToJson, unionPlans, type AttributePlan } from '../projection/attribute-plan.js';
import type { Possession } from '../definition/definition-types.js';
import { formatProblemLocation, type DefinitionLocation, type DefinitionProblem } from '../errors.js';
import { CRUD_ACTIONS, isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import { quoteForMessage } from '../definition/names.js';
import type { DefinitionSummary, GrantCell, GrantTables, HookKind, HookRef, OwnerGroup } from '../tables/grant-tables.js';
import type { ResourceIdType } from '../engine/resource-id.js';

/** A hook as given in a definition: a method name of the ownership service, or a function. */
export type HookValue = string | ((...args: never[]) => unknown);

/** A definition that passed `validateDefinition`. */
export interface ValidDefinition {
  readonly roles: string | readonly string[];
  readonly resource: string;
  readonly descr?: string | undefined;
  readonly possession?: Possession | undefined;
  readonly grant: readonly string[] | Readonly<Record<string, readonly string[]>>;
  readonly isOwner?: HookValue | undefined;
  readonly listOwned?: HookValue | undefined;
  readonly limitOwned?: HookValue | undefined;
}

/** A definition with where it came from. */
export interface LocatedDefinition {
  readonly definition: ValidDefinition;
  readonly location: DefinitionLocation;
}

/** What {@link buildGrantTables} returns: the tables, plus the problems and warnings it found across definitions. */
export interface TableBuildResult {
  readonly tables: GrantTables;
  /** The hook given for each entry of `tables.hooks` (a name or a function), in the same order. */
  readonly hookValues: readonly HookValue[];
  readonly problems: readonly DefinitionProblem[];
  readonly warnings: readonly string[];
}

/** A cell while it is built: lean (most cells have no own grant and one source), because a large policy has hundreds of thousands. */
interface CellBuild {
  any: AttributePlan | undefined;
  own: Map<number, AttributePlan> | undefined;
  owners: number[] | undefined;
  readonly sources: number[];
}

/** The most distinct grant cells (role × resource × action) a set of definitions may expand to. */
export const MAX_GRANT_CELLS = 250_000;
/**
 * The most role × resource × action expansions, summed over every grant entry of every definition
 * (a cell reached by several definitions counts once per definition). Bounds the build's time, as
 * {@link MAX_GRANT_CELLS} bounds its memory.
 */
export const MAX_GRANT_EXPANSIONS = 1_000_000;

const formatCount = (n: number): string => n.toLocaleString('en-US');
const NO_NUMBERS: readonly number[] = [];
/** Warnings are for people: a policy that repeats itself thousands of times gets the first ones and a count. */
const MAX_BUILD_WARNINGS = 100;

interface ExplicitGrant {
  readonly plan: AttributePlan;
  readonly planKey: string;
  readonly location: DefinitionLocation;
  readonly path: readonly (string | number)[];
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function grantEntries(definition: ValidDefinition): [key: string, patterns: readonly string[], path: (string | number)[]][] {
  if (Array.isArray(definition.grant)) return (definition.grant as readonly string[]).map((key, i) => [key, ['*'], ['grant', i]]);
  return Object.entries(definition.grant as Readonly<Record<string, readonly string[]>>).map(([key, patterns]) => [key, patterns, ['grant', key]]);
}

function rolesOf(definition: ValidDefinition): readonly string[] {
  return typeof definition.roles === 'string' ? [definition.roles] : definition.roles;
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
}

/**
 * Builds the grant tables of a set of valid definitions. Cross-definition problems (conflicting
 * explicit redefinitions, grants that keep no attribute, ownership that cannot be computed) are
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

  const roleSet = new Set<string>();
  const resourceSet = new Set<string>();
  const actionSet = new Set<string>(CRUD_ACTIONS);
  for (const { definition } of located) {
    for (const role of rolesOf(definition)) if (role !== '*') roleSet.add(role);
    if (definition.resource !== '*') resourceSet.add(definition.resource);
    for (const [key] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (!isSyntaxProblem(parsed) && parsed.action !== '*') actionSet.add(parsed.action);
    }
  }
  const roles = [...roleSet].sort(byCodeUnit);
  const resources = [...resourceSet].sort(byCodeUnit);
  const actions = [...actionSet].sort(byCodeUnit);
  const roleIndex = new Map(roles.map((name, i) => [name, i]));
  const resourceIndex = new Map(resources.map((name, i) => [name, i]));
  const actionIndex = new Map(actions.map((name, i) => [name, i]));
  const allRoles = roles.map((_, i) => i);
  const allResources = resources.map((_, i) => i);
  const allActions = actions.map((_, i) => i);

  const hooks: HookRef[] = [];
  const hookValues: HookValue[] = [];
  const hookIndex = new Map<string, Map<HookValue, number>>();
  const internHook = (kind: HookKind, value: HookValue): number => {
    let byValue = hookIndex.get(kind);
    if (byValue === undefined) hookIndex.set(kind, (byValue = new Map<HookValue, number>()));
    let index = byValue.get(value);
    if (index === undefined) {
      index = hooks.length;
      byValue.set(value, index);
      hooks.push({ kind, name: typeof value === 'string' ? value : value.name || `<anonymous ${kind} #${index}>` });
      hookValues.push(value);
    }
    return index;
  };
  const owners: (OwnerGroup & { definitions: number[] })[] = [];
  const ownerIndex = new Map<string, number>();
  const internOwner = (definition: ValidDefinition, definitionNumber: number): number | undefined => {
    if (definition.isOwner === undefined && definition.listOwned === undefined && definition.limitOwned === undefined) return undefined;
    const group: { isOwner?: number; listOwned?: number; limitOwned?: number; definitions: number[] } = {
      ...(definition.isOwner === undefined ? {} : { isOwner: internHook('isOwner', definition.isOwner) }),
      ...(definition.listOwned === undefined ? {} : { listOwned: internHook('listOwned', definition.listOwned) }),
      ...(definition.limitOwned === undefined ? {} : { limitOwned: internHook('limitOwned', definition.limitOwned) }),
      definitions: [],
    };
    const key = `${group.isOwner ?? ''}/${group.listOwned ?? ''}/${group.limitOwned ?? ''}`;
    let index = ownerIndex.get(key);
    if (index === undefined) {
      index = owners.length;
      ownerIndex.set(key, index);
      owners.push(group);
    }
    (owners[index] as { definitions: number[] }).definitions.push(definitionNumber);
    return index;
  };

  const empty = (): TableBuildResult => ({
    tables: { format: 1, roles, resources, actions, plans: [], hooks: [], owners: [], cells: [], definitions: [] },
    hookValues: [],
    problems,
    warnings,
  });

  // Each known resource's ownedAmong executor (a hook index), or -1.
  const ownedAmong = resources.map((resource) => {
    const executor = options.ownedAmong?.get(resource);
    return executor === undefined ? -1 : internHook('ownedAmong', executor);
  });
  for (const resource of options.ownedAmong?.keys() ?? []) {
    if (!resourceIndex.has(resource))
      warnings.push(`ownedAmong is given for resource ${quoteForMessage(resource)}, which no definition names; it is not used.`);
  }
  // Each known resource's declared id type, or null.
  const idTypes = resources.map((resource) => options.idTypes?.get(resource) ?? null);
  for (const resource of options.idTypes?.keys() ?? []) {
    if (!resourceIndex.has(resource))
      warnings.push(`An id type is given for resource ${quoteForMessage(resource)}, which no definition names; it is not used.`);
  }
  // Ownership must be decidable for one record: by isOwner, by membership in listOwned, or by the
  // resource's ownedAmong running the limitOwned filter.
  for (const { definition, location } of located) {
    if (definition.limitOwned === undefined || definition.isOwner !== undefined) continue;
    const covered = definition.resource === '*' ? resources : [definition.resource];
    const missing = covered.filter((resource) => ownedAmong[resourceIndex.get(resource) as number] === -1);
    if (missing.length === 0) continue;
    const named = `${missing
      .slice(0, 5)
      .map((resource) => quoteForMessage(resource))
      .join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`;
    problems.push({
      code: 'own-without-is-owner',
      ...location,
      path: ['limitOwned'],
      message:
        `The definition decides ownership with limitOwned and has no isOwner, but resource${missing.length === 1 ? '' : 's'} ${named} ` +
        `declare${missing.length === 1 ? 's' : ''} no ownedAmong executor, so whether one record is owned cannot be computed.`,
      fix:
        `Declare an ownedAmong executor for ${quoteForMessage(missing[0] as string)} ("ownedAmong": "<method>" in its *.resource.json, ` +
        `or new Permissions({ ownedAmong: { ... } })), or add isOwner.`,
    });
  }

  // Every '*' is expanded below; first make sure the expansion is bounded, before allocating anything.
  let expansions = 0;
  let largest = { expansions: -1, location: undefined as DefinitionLocation | undefined };
  for (const { definition, location } of located) {
    const roleNames = rolesOf(definition);
    const roleCount = roleNames.includes('*') ? roles.length : new Set(roleNames).size;
    const resourceCount = definition.resource === '*' ? resources.length : 1;
    let own = 0;
    for (const [key] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (!isSyntaxProblem(parsed)) own += roleCount * resourceCount * (parsed.action === '*' ? actions.length : 1);
    }
    expansions += own;
    if (own > largest.expansions) largest = { expansions: own, location };
  }
  if (expansions > MAX_GRANT_EXPANSIONS) {
    problems.push({
      code: 'too-large',
      ...(largest.location as DefinitionLocation),
      path: [],
      message:
        `The definitions expand to ${formatCount(expansions)} grants of a role, resource and action (every '*' is expanded), ` +
        `more than the limit of ${formatCount(MAX_GRANT_EXPANSIONS)}; this definition alone expands to ${formatCount(largest.expansions)} ` +
        `(${roles.length} roles, ${resources.length} resources, ${actions.length} actions are known).`,
      fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
    });
    return empty();
  }

  const cells = new Map<number, CellBuild>();
  let tooManyCells = false;
  const cellAt = (resource: number, action: number, role: number): CellBuild | undefined => {
    const key = (resource * actions.length + action) * roles.length + role;
    let cell = cells.get(key);
    if (cell === undefined) {
      if (cells.size >= MAX_GRANT_CELLS) return undefined;
      cells.set(key, (cell = { any: undefined, own: undefined, owners: undefined, sources: [] }));
    }
    return cell;
  };

  const explicit = new Map<string, ExplicitGrant>();
  let duplicates = 0;
  // A plan's text, once per plan: a grant to many roles would otherwise serialise it once per role.
  const planKeys = new Map<AttributePlan, string>();
  const definitions: DefinitionSummary[] = [];

  for (let definitionNumber = 0; definitionNumber < located.length && !tooManyCells; definitionNumber++) {
    const { definition, location } = located[definitionNumber] as LocatedDefinition;
    definitions.push({
      index: location.index,
      ...(location.source === undefined ? {} : { source: location.source }),
      ...(definition.descr === undefined ? {} : { descr: definition.descr }),
    });
    const owner = internOwner(definition, definitionNumber);
    const roleNames = rolesOf(definition);
    const roleIds = roleNames.includes('*') ? allRoles : [...new Set(roleNames)].map((name) => roleIndex.get(name) as number);
    const resourceIds = definition.resource === '*' ? allResources : [resourceIndex.get(definition.resource) as number];
    for (const [key, patterns, path] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (isSyntaxProblem(parsed)) continue;
      const plan = patterns.length === 1 && patterns[0] === '*' ? EVERYTHING : compileAttributePatterns(patterns);
      if (!plan.allowsAny && patterns.length > 0) {
        problems.push({
          code: 'bad-attribute',
          ...location,
          path,
          message: `Grant ${quoteForMessage(key)} keeps no attribute with patterns ${patterns
            .slice(0, 5)
            .map((pattern) => quoteForMessage(pattern))
            .join(', ')}${patterns.length > 5 ? `, … (${patterns.length} patterns)` : ''}.`,
          fix: "Start with '*' before exclusions ('*', '!secret'), or name the attributes to keep.",
        });
        continue;
      }
      const possession: Possession = parsed.possession ?? definition.possession ?? 'any';
      const actionIds = parsed.action === '*' ? allActions : [actionIndex.get(parsed.action) as number];
      if (parsed.action !== '*' && definition.resource !== '*') {
        for (const role of new Set(roleNames))
          if (role !== '*')
            recordExplicit(
              `${role}\u0000${definition.resource}\u0000${parsed.action}\u0000${possession}`,
              plan,
              location,
              path,
              `${role} ${parsed.action}:${possession} on ${definition.resource}`,
            );
      }
      const source = definitionNumber * 2 + (possession === 'own' ? 1 : 0);
      expand: for (const resource of resourceIds) {
        for (const action of actionIds) {
          for (const role of roleIds) {
            const cell = cellAt(resource, action, role);
            if (cell === undefined) {
              tooManyCells = true;
              problems.push({
                code: 'too-large',
                ...location,
                path,
                message:
                  `With this grant the definitions need more than ${formatCount(MAX_GRANT_CELLS)} distinct grants ` +
                  "of a role, resource and action (every '*' is expanded), the limit.",
                fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
              });
              break expand;
            }
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
        }
      }
      if (tooManyCells) break;
    }
  }
  if (tooManyCells) return empty();

  function recordExplicit(key: string, plan: AttributePlan, location: DefinitionLocation, path: readonly (string | number)[], what: string): void {
    let planKey = planKeys.get(plan);
    if (planKey === undefined) planKeys.set(plan, (planKey = JSON.stringify(planToJson(plan))));
    const earlier = explicit.get(key);
    if (earlier === undefined) {
      explicit.set(key, { plan, planKey, location, path });
      return;
    }
    const first = formatProblemLocation({ ...earlier.location, path: earlier.path });
    const second = formatProblemLocation({ ...location, path });
    if (earlier.planKey === planKey) {
      duplicates++;
      if (warnings.length < MAX_BUILD_WARNINGS) warnings.push(`${what} is granted twice with the same attributes, at ${first} and ${second}.`);
      return;
    }
    problems.push({
      code: 'conflicting-redefinition',
      ...location,
      path,
      message: `${what} is already granted at ${first} with different attributes.`,
      fix: `Keep one of the two grants, or make their attributes identical.`,
    });
  }

  const planIndex = new Map<string, number>();
  const plans: ReturnType<typeof planToJson>[] = [];
  const planIdentity = new Map<AttributePlan, number>();
  const internPlan = (plan: AttributePlan): number => {
    const known = planIdentity.get(plan);
    if (known !== undefined) return known;
    const json = planToJson(plan);
    const key = JSON.stringify(json);
    let index = planIndex.get(key);
    if (index === undefined) {
      index = plans.length;
      planIndex.set(key, index);
      plans.push(json);
    }
    planIdentity.set(plan, index);
    return index;
  };

  // Cells repeat the same few lists (a '*' grant gives every cell it reaches the same sources): one
  // exact-size array per distinct list keeps the tables of a large policy small.
  const lists = new Map<string, readonly number[]>();
  const shared = (list: readonly number[]): readonly number[] => {
    const key = list.join(',');
    let known = lists.get(key);
    if (known === undefined) lists.set(key, (known = [...list]));
    return known;
  };
  const cellRows: GrantCell[] = [];
  const keys = [...cells.keys()].sort((a, b) => a - b);
  for (const key of keys) {
    const cell = cells.get(key) as CellBuild;
    const role = key % roles.length;
    const rest = (key - role) / roles.length;
    const action = rest % actions.length;
    const resource = (rest - action) / actions.length;
    const own = cell.own === undefined ? NO_NUMBERS : shared([...cell.own].sort(([a], [b]) => a - b).flatMap(([group, plan]) => [group, internPlan(plan)]));
    cellRows.push([
      resource,
      action,
      role,
      cell.any === undefined ? -1 : internPlan(cell.any),
      own,
      cell.owners === undefined ? NO_NUMBERS : shared(cell.owners.sort((a, b) => a - b)),
      shared(cell.sources.sort((a, b) => a - b)),
    ]);
  }

  if (duplicates > warnings.length) warnings.push(`… and ${formatCount(duplicates - warnings.length)} more grants given twice with the same attributes.`);
  return {
    tables: {
      format: 1,
      roles,
      resources,
      actions,
      plans,
      hooks,
      owners,
      ...(ownedAmong.some((hook) => hook !== -1) ? { ownedAmong } : {}),
      ...(idTypes.some((type) => type !== null) ? { idTypes } : {}),
      cells: cellRows,
      definitions,
    },
    hookValues,
    problems,
    warnings,
  };
}
