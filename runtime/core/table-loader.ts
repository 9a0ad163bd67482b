/**
 * Loads {@link GrantTables} into the structures a query reads: maps from names to indexes and, per
 * resource and action, one precomputed {@link Combination} per role. Loading is linear in the size
 * of the tables and expands nothing: that happened in the table builder.
 */
import { NOTHING, planFromJson, planToPatterns, unionPlans, type AttributePlan } from './attribute-plan.js';
import type { BoundHook } from './hook-call.js';
import type { GrantTables, HookRef } from './grant-tables.js';

/** An ownership group with its hooks bound to functions. */
export interface LoadedOwner {
  readonly id: number;
  readonly isOwner: BoundHook;
  readonly listOwned: BoundHook | undefined;
  readonly limitOwned: BoundHook | undefined;
}

/** The own attributes one ownership group adds, for items that group owns. */
export interface OwnGrant {
  readonly owner: LoadedOwner;
  readonly plan: AttributePlan;
}

/** What a set of roles may do with one action on one resource. Shared by every query with those roles. */
export interface Combination {
  readonly anyPlan: AttributePlan;
  readonly anyGranted: boolean;
  readonly anyAttributes: readonly string[];
  /** Some role grants the action as own. */
  readonly ownActionGranted: boolean;
  /** Own grants that add attributes beyond `anyPlan`; when empty, no hook needs calling to pick. */
  readonly ownBeyondAny: readonly OwnGrant[];
  /** Ownership groups that decide isOwn, listOwn and limitOwn. */
  readonly owners: readonly LoadedOwner[];
  /** Plans for items owned by a given group (its id) or set of groups (`'1,4'`), filled on demand. */
  readonly ownedPlans: Map<number | string, AttributePlan>;
}

/** The combinations of one resource and action, by role index, plus a cache for multi-role users. */
export interface ActionEntry {
  /** Keyed by role name (one look-up per role); a Map because most roles have no cell here. */
  readonly byRole: ReadonlyMap<string, RoleCombination>;
  readonly multiRole: Map<number | string, Combination>;
}

/** The combination of one role's cell, with that role's index (for multi-role cache keys). */
export interface RoleCombination extends Combination {
  readonly role: number;
}

/** The loaded tables. */
export interface GrantIndex {
  readonly tables: GrantTables;
  readonly roleIndex: ReadonlyMap<string, number>;
  readonly knownActions: ReadonlySet<string>;
  readonly resources: ReadonlyMap<string, ReadonlyMap<string, ActionEntry>>;
  readonly owners: readonly LoadedOwner[];
}

/** The combination of no role at all: nothing granted. */
export const NO_GRANT: Combination = Object.freeze({
  anyPlan: NOTHING,
  anyGranted: false,
  anyAttributes: Object.freeze([]),
  ownActionGranted: false,
  ownBeyondAny: Object.freeze([]),
  owners: Object.freeze([]),
  ownedPlans: new Map(),
});

// Tables hold few distinct plans and many cells: what is derived from a plan is derived once.
const patternsOf = new WeakMap<AttributePlan, readonly string[]>();
const addsBeyond = new WeakMap<AttributePlan, WeakMap<AttributePlan, boolean>>();

function canonicalPatterns(plan: AttributePlan): readonly string[] {
  let patterns = patternsOf.get(plan);
  if (patterns === undefined) patternsOf.set(plan, (patterns = Object.freeze(planToPatterns(plan))));
  return patterns;
}

/** Whether `own` keeps some attribute that `any` does not. */
function keepsMoreThan(own: AttributePlan, any: AttributePlan): boolean {
  let byOwn = addsBeyond.get(any);
  if (byOwn === undefined) addsBeyond.set(any, (byOwn = new WeakMap()));
  let answer = byOwn.get(own);
  if (answer === undefined) {
    const merged = unionPlans(any, own);
    answer = merged !== any && canonicalPatterns(merged).join('\u0000') !== canonicalPatterns(any).join('\u0000');
    byOwn.set(own, answer);
  }
  return answer;
}

function makeCombination(anyPlan: AttributePlan, own: ReadonlyMap<LoadedOwner, AttributePlan>, owners: readonly LoadedOwner[], role = -1): RoleCombination {
  const ownBeyondAny: OwnGrant[] = [];
  for (const [owner, plan] of own) if (keepsMoreThan(plan, anyPlan)) ownBeyondAny.push({ owner, plan });
  return {
    role,
    anyPlan,
    anyGranted: anyPlan.allowsAny,
    anyAttributes: canonicalPatterns(anyPlan),
    ownActionGranted: own.size > 0,
    ownBeyondAny: Object.freeze(ownBeyondAny),
    owners: owners.length < 2 ? owners : [...owners].sort((a, b) => a.id - b.id),
    ownedPlans: new Map(),
  };
}

/**
 * Combines the combinations of several roles: union of any attributes, own grants merged by
 * ownership group, owners deduplicated.
 */
export function combineRoles(parts: readonly Combination[]): Combination {
  let anyPlan = NOTHING;
  const own = new Map<LoadedOwner, AttributePlan>();
  const owners = new Set<LoadedOwner>();
  for (const part of parts) {
    anyPlan = unionPlans(anyPlan, part.anyPlan);
    for (const owner of part.owners) owners.add(owner);
  }
  for (const part of parts) {
    for (const { owner, plan } of part.ownBeyondAny) {
      const before = own.get(owner);
      own.set(owner, before === undefined ? plan : unionPlans(before, plan));
    }
  }
  const combined = makeCombination(anyPlan, own, [...owners]);
  if (parts.some((part) => part.ownActionGranted) && !combined.ownActionGranted) return { ...combined, ownActionGranted: true };
  return combined;
}

/**
 * Loads tables, binding each hook with `bindHook` (a method of the ownership service, or the
 * function given in-process).
 *
 * @example
 * ```ts
 * const index = loadGrantTables(tables, (ref) => ({ name: ref.name, call: resolveMethod(service, ref.name)! }));
 * ```
 */
export function loadGrantTables(tables: GrantTables, bindHook: (ref: HookRef, index: number) => BoundHook): GrantIndex {
  const hooks = tables.hooks.map((ref, i) => bindHook(ref, i));
  const owners: LoadedOwner[] = tables.owners.map((group, id) => ({
    id,
    isOwner: hooks[group.isOwner] as BoundHook,
    listOwned: group.listOwned === undefined ? undefined : hooks[group.listOwned],
    limitOwned: group.limitOwned === undefined ? undefined : hooks[group.limitOwned],
  }));
  const plans = tables.plans.map(planFromJson);

  const resources = new Map<string, Map<string, ActionEntry>>();
  const entries: Map<string, RoleCombination>[][] = tables.resources.map((resource) => {
    const byAction = new Map<string, ActionEntry>();
    resources.set(resource, byAction);
    return tables.actions.map((action) => {
      const byRole = new Map<string, RoleCombination>();
      byAction.set(action, { byRole, multiRole: new Map() });
      return byRole;
    });
  });

  for (const [resource, action, role, anyPlan, own, cellOwners] of tables.cells) {
    const ownPlans = new Map<LoadedOwner, AttributePlan>();
    for (let i = 0; i < own.length; i += 2) ownPlans.set(owners[own[i] as number] as LoadedOwner, plans[own[i + 1] as number] as AttributePlan);
    const combination = makeCombination(anyPlan === -1 ? NOTHING : (plans[anyPlan] as AttributePlan), ownPlans, cellOwners.map((id) => owners[id] as LoadedOwner), role);
    entries[resource]![action]!.set(tables.roles[role] as string, combination);
  }

  return {
    tables,
    roleIndex: new Map(tables.roles.map((name, i) => [name, i])),
    knownActions: new Set(tables.actions),
    resources,
    owners,
  };
}
