/**
 * Loads {@link GrantTables} into the structures a query reads: maps from names to indexes and, per
 * resource, role and action, one precomputed {@link Combination}. Loading binds the hooks and indexes the
 * names; a resource's cells are decoded the first time a decision asks about that resource, so loading does
 * not grow with the policy and memory grows with the resources used. It expands nothing: that happened in the
 * table builder.
 */
import { NOTHING, planBytes, planFromJson, planToPatterns, unionPlans, type AttributePlan } from '../projection/attribute-plan.js';
import { BoundedCache, CacheBudget } from '../common/bounded-cache.js';
import type { OwnershipContext } from '../ownership-rules/ownership-context.js';
import type { OwnershipQuestion } from '../ownership-rules/ownership-rule-source.js';
import { ownershipLabel, type GrantCell, type GrantTables, type HookRef, type RuleTable } from './grant-tables.js';
import type { ResourceIdType } from '../tables/grant-tables.js';
import { cellCount, notGrantTablesError, resourceCells, type CellRange } from './packed-tables.js';

/** A hook bound to the ownership service it came from, with the name used in error messages. */
export interface BoundHook {
  readonly name: string;
  readonly call: (args: object) => unknown;
}

/**
 * The hooks an ownership rule decides through, made from the application's rule source: one record
 * (`isOwner`), every owned record (`listOwned`), a filter (`limitOwned`) and many records at once (`ownedAmong`).
 */
export interface BoundRule {
  readonly rule: RuleTable;
  /** What the rule is evaluated with: its resource, the relations, its user attributes. */
  readonly context: OwnershipContext;
  readonly isOwner: BoundHook;
  readonly listOwned: BoundHook;
  readonly limitOwned: BoundHook;
  readonly ownedAmong: BoundHook;
  /** The source's filter for any question about the rule's resource: several rules' OR in one filter. */
  readonly filter: (question: OwnershipQuestion) => unknown;
}

/**
 * An ownership group's hooks, bound to functions, for one resource: how a permit on that resource
 * decides what the user owns. Ownership of one record is asked of `isOwner` when the group has one;
 * otherwise, and for many records at once, it is computed: membership in `listOwned`, or the
 * resource's `ownedAmong` running the `limitOwned` filter over the ids.
 */
export interface LoadedOwner {
  /** The ownership group (index in the tables' `owners`). */
  readonly id: number;
  readonly isOwner: BoundHook | undefined;
  readonly listOwned: BoundHook | undefined;
  readonly limitOwned: BoundHook | undefined;
  /** The resource's executor, when the group has limitOwned and the resource declares one. */
  readonly ownedAmong: BoundHook | undefined;
  /** The hook that decides ownership of one record, as explanations name it. */
  readonly label: string;
  /** The ownership rule the hooks are made from, when the group names one. */
  readonly rule: BoundRule | undefined;
}

/** The own attributes one ownership group adds, for items that group owns. */
export interface OwnGrant {
  readonly owner: LoadedOwner;
  readonly plan: AttributePlan;
  /** `[owner]`: the owning groups of a record only this grant's group owns, made once. */
  readonly ownersOnly: readonly LoadedOwner[];
}

/** What a set of roles may do with one action on one resource. Shared by every query with those roles. */
export interface Combination {
  /** Identifies the combination of one cell among the loaded tables' distinct ones (cache keys of multi-role users); -1 for combinations made from several. */
  readonly id: number;
  readonly anyPlan: AttributePlan;
  readonly anyGranted: boolean;
  /** Some role grants the action as own. */
  readonly ownActionGranted: boolean;
  /** Own grants that add attributes beyond `anyPlan`; when empty, no hook needs calling to pick. */
  readonly ownBeyondAny: readonly OwnGrant[];
  /** Ownership groups that decide isOwn, listOwn and limitOwn. */
  readonly owners: readonly LoadedOwner[];
}

/**
 * One resource of the loaded tables. Its combinations are decoded from its cells when a decision first asks
 * about it (`byRole` is null until then).
 */
export class LoadedResource {
  /**
   * Per role index, per action index, the role's combination; NO_GRANT where the role has no cell. Roles without
   * any cell on the resource share one row, so that a refusal is a hit as cheap as a grant.
   */
  byRole: readonly (readonly Combination[])[] | null = null;
  /** Per action index, the combinations of several roles, made on demand (bounded per entry by count, per engine by bytes). */
  readonly multiRole: (BoundedCache<number | string, Combination> | undefined)[] = [];

  constructor(
    readonly name: string,
    /** Its index in the tables' `resources`. */
    readonly index: number,
    /** Its declared id type, if any. */
    readonly idType: ResourceIdType | undefined,
    /** Per action index, whether the resource takes it; undefined when it declares no actions (it takes every one). */
    readonly takes: readonly boolean[] | undefined,
  ) {}
}

/** The loaded tables. */
export interface GrantIndex {
  readonly tables: GrantTables;
  /**
   * The number of each role and action, and every resource, by name: dictionaries without a prototype, which the
   * decision path reads. For a name seen before a property read is cheaper than a Map's `get` (three roles: 17 ns
   * against 22 ns); for a string made by the request, which the engine first looks up in its table of names, it
   * costs 15–25 ns more per name (a tenant id, always such a string, is looked up in a Map for that reason). A role
   * is put in `roleIds` when a decision first names it ({@link GrantIndex.roleOnFirstUse}), as a resource in
   * `resourceByName`.
   */
  readonly roleIds: NameDictionary<number>;
  /** The number of role `name` when `roleIds` does not hold it yet (then it does), or undefined when the tables have no such role. */
  readonly roleOnFirstUse: (name: string) => number | undefined;
  readonly actionIds: NameDictionary<number>;
  readonly resourceByName: NameDictionary<LoadedResource>;
  /**
   * The loaded resource named `name` when `resourceByName` does not hold it yet (then it does), or undefined when the
   * tables have no such resource: a tenant's view too holds only the resources its tenant used.
   */
  readonly resourceOnFirstUse: (name: string) => LoadedResource | undefined;
  /** Above the id of every combination the tables can give (their cell count): the base of multi-role cache keys. */
  readonly combinationIdBound: number;
  /** The bytes every multi-role cache of the engine may hold together. */
  readonly combinationBudget: CacheBudget;
  /** The combinations of a resource by role and action, decoding its cells on first use (a PermissionsUsageError for malformed ones). */
  combinationsOf(resource: LoadedResource): readonly (readonly Combination[])[];
  /** Ownership group `group` bound for resource number `resource`: one object per group and resource, whoever asks. */
  readonly ownerOf: (group: number, resource: number) => LoadedOwner;
}

/** Names to values, in an object without a prototype (so `__proto__`, `constructor` and the like are plain keys). */
export type NameDictionary<T> = { readonly [name: string]: T | undefined };

/**
 * A dictionary of `entries` without a prototype: a name that is not a key reads undefined, whatever it is.
 *
 * @example
 * ```ts
 * nameDictionary([['EMPLOYEE', 0]])['toString']; // undefined
 * ```
 */
export function nameDictionary<T>(entries: Iterable<readonly [string, T]>): NameDictionary<T> {
  const dictionary = Object.create(null) as Record<string, T>;
  for (const [name, value] of entries) Object.defineProperty(dictionary, name, { value, enumerable: true });
  return dictionary;
}

/** A dictionary of names filled as they are first asked for: see {@link namesOnFirstUse}. */
export interface NamesOnFirstUse<T> {
  /** The names asked for so far, with their values. */
  readonly dictionary: NameDictionary<T>;
  /** The value of `name` when `dictionary` does not hold it yet (then it does); undefined when `name` is none of the names. */
  readonly onFirstUse: (name: string) => T | undefined;
}

/**
 * A dictionary (without a prototype, as {@link nameDictionary}'s) whose entries are made when a name is first asked
 * for: `make` gives a name's value, or undefined for a name that has none. Loading a policy of thousands of roles
 * or resources then makes no property key per name (making a name a key is the dearer part) and no object per
 * resource.
 *
 * @example
 * ```ts
 * const numbers = new Map([['ADMIN', 0], ['EMPLOYEE', 1]]);
 * const roles = namesOnFirstUse((name) => numbers.get(name));
 * roles.dictionary['EMPLOYEE'] ?? roles.onFirstUse('EMPLOYEE'); // 1, and `roles.dictionary` now holds it
 * ```
 */
export function namesOnFirstUse<T>(make: (name: string) => T | undefined): NamesOnFirstUse<T> {
  const dictionary = Object.create(null) as Record<string, T>;
  const onFirstUse = (name: string): T | undefined => {
    // Asked again for a name it holds (a caller that did not read the dictionary first), it gives what it holds.
    const held = dictionary[name];
    if (held !== undefined) return held;
    const value = make(name);
    if (value !== undefined) Object.defineProperty(dictionary, name, { value, enumerable: true });
    return value;
  };
  return { dictionary, onFirstUse };
}

/**
 * The number of a name in `names`, from a map made when a name is first asked for: loading a policy makes no map of
 * its thousands of names, the first decision does (a name's first look-up, when it goes into its dictionary).
 *
 * @example
 * ```ts
 * const roleNumber = numberOnFirstUse(['ADMIN', 'EMPLOYEE']);
 * roleNumber('EMPLOYEE'); // 1
 * ```
 */
function numberOnFirstUse(names: readonly string[]): (name: string) => number | undefined {
  let numbers: Map<string, number> | undefined;
  return (name) => {
    if (numbers === undefined) {
      numbers = new Map<string, number>();
      for (let i = 0; i < names.length; i++) numbers.set(names[i] as string, i);
    }
    return numbers.get(name);
  };
}

/** Multi-role combinations cached per resource and action; bounded so that odd role lists cannot grow memory without limit. */
export const MAX_CACHED_COMBINATIONS = 1024;
/** The estimated bytes of every multi-role combination one engine keeps, over all resources and actions. */
export const MAX_COMBINATION_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * An estimate of the memory a combination takes (its own object and lists, and its plans, which it may
 * share), for the byte budget of the combination cache.
 *
 * @example
 * ```ts
 * entry.multiRole.set(key, combination, combinationBytes(combination));
 * ```
 */
export function combinationBytes(combination: Combination): number {
  let bytes = 256 + planBytes(combination.anyPlan) + 16 * combination.owners.length;
  for (const grant of combination.ownBeyondAny) bytes += 64 + planBytes(grant.plan);
  return bytes;
}

/** A combination that grants nothing (one object literal, so that every such combination has one hidden class). */
const nothingGranted = (): Combination =>
  Object.freeze({
    id: -1,
    anyPlan: NOTHING,
    anyGranted: false,
    ownActionGranted: false,
    ownBeyondAny: Object.freeze([]),
    owners: Object.freeze([]),
  });

/** The combination of no role at all: nothing granted. */
export const NO_GRANT: Combination = nothingGranted();

/**
 * What the look-up gives, instead of NO_GRANT, where it refuses because a name is unknown: the same nothing, told apart
 * by identity, so that a permit's reason is read from its combination. The look-up takes these ways only for names it
 * warns about, so the decision path pays nothing for them.
 */
export const UNKNOWN_RESOURCE: Combination = nothingGranted();
export const UNKNOWN_ACTION: Combination = nothingGranted();
/** Every role of the question is unknown (there was at least one). */
export const UNKNOWN_ROLES: Combination = nothingGranted();

const NO_OWN_BEYOND_ANY: readonly OwnGrant[] = Object.freeze([]);

// Tables hold few distinct plans and many cells: what is derived from a plan is derived once.
const patternsOf = new WeakMap<AttributePlan, readonly string[]>();
const addsBeyond = new WeakMap<AttributePlan, WeakMap<AttributePlan, boolean>>();

/**
 * The canonical patterns of a plan (what `permit.anyAttributes` shows), derived once per plan and
 * only when asked: a combination made for a one-off set of roles never pays for them.
 *
 * @example
 * ```ts
 * canonicalPatterns(compileAttributePatterns(['title', 'date'])); // ['date', 'title']
 * ```
 */
export function canonicalPatterns(plan: AttributePlan): readonly string[] {
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

function makeCombination(anyPlan: AttributePlan, own: ReadonlyMap<LoadedOwner, AttributePlan>, owners: readonly LoadedOwner[], id = -1): Combination {
  let ownBeyondAny = NO_OWN_BEYOND_ANY;
  for (const [owner, plan] of own) {
    if (!keepsMoreThan(plan, anyPlan)) continue;
    if (ownBeyondAny === NO_OWN_BEYOND_ANY) ownBeyondAny = [];
    (ownBeyondAny as OwnGrant[]).push({ owner, plan, ownersOnly: Object.freeze([owner]) });
  }
  return {
    id,
    anyPlan,
    anyGranted: anyPlan.allowsAny,
    ownActionGranted: own.size > 0,
    ownBeyondAny: ownBeyondAny === NO_OWN_BEYOND_ANY ? ownBeyondAny : Object.freeze(ownBeyondAny),
    owners: owners.length < 2 ? owners : [...owners].sort((a, b) => a.id - b.id),
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
export function loadGrantTables(
  tables: GrantTables,
  bindHook: (ref: HookRef, index: number) => BoundHook,
  bindRule?: (rule: RuleTable, index: number) => BoundRule,
): GrantIndex {
  const hooks = tables.hooks.map((ref, i) => bindHook(ref, i));
  const rules = (tables.ownershipRules?.rules ?? []).map((rule, i) => {
    if (bindRule === undefined) throw notGrantTablesError('ownershipRules: the tables name ownership rules, and no rule source binds them');
    return bindRule(rule, i);
  });
  const hookOf = (index: number | undefined): BoundHook | undefined => (index === undefined || index === -1 ? undefined : hooks[index]);
  // One LoadedOwner per ownership group and resource: the executor of limitOwned depends on the resource.
  const loadedOwners = new Map<string, LoadedOwner>();
  const ownerOf = (id: number, resource: number): LoadedOwner => {
    const key = `${id}/${resource}`;
    let owner = loadedOwners.get(key);
    if (owner === undefined) {
      const group = tables.owners[id] as GrantTables['owners'][number];
      const rule = group.rule === undefined ? undefined : rules[group.rule];
      if (rule !== undefined) {
        const { isOwner, listOwned, limitOwned, ownedAmong } = rule;
        loadedOwners.set(
          key,
          (owner = Object.freeze({ id, isOwner, listOwned, limitOwned, ownedAmong, label: ownershipLabel({ rule: rule.rule.name }), rule })),
        );
        return owner;
      }
      const isOwner = hookOf(group.isOwner);
      const listOwned = hookOf(group.listOwned);
      const limitOwned = hookOf(group.limitOwned);
      const ownedAmong = limitOwned === undefined ? undefined : hookOf(tables.ownedAmong?.[resource]);
      const label = ownershipLabel({ isOwner: isOwner?.name, listOwned: listOwned?.name, limitOwned: limitOwned?.name, ownedAmong: ownedAmong?.name });
      loadedOwners.set(key, (owner = Object.freeze({ id, isOwner, listOwned, limitOwned, ownedAmong, label, rule: undefined })));
    }
    return owner;
  };
  const plans = tables.plans.map(planFromJson);
  const combinationIdBound = cellCount(tables) + 1;
  const decoder = new CellDecoder(tables.actions.length, plans, ownerOf, 0, combinationIdBound);
  const combinationsOf = (resource: LoadedResource): readonly (readonly Combination[])[] =>
    (resource.byRole ??= decoder.rows(resourceCells(tables, resource.index), tables.roles.length));

  // Resources and roles are put in their dictionaries when a decision first names them, as a tenant's view does.
  const declared = tables.declaredActions;
  const resourceNumber = numberOnFirstUse(tables.resources);
  const resources = namesOnFirstUse((name) => {
    const r = resourceNumber(name);
    if (r === undefined) return undefined;
    const indexes = declared?.[r] ?? null;
    const takes = indexes === null ? undefined : tables.actions.map((_, a) => indexes.includes(a));
    return new LoadedResource(name, r, tables.idTypes?.[r] ?? undefined, takes);
  });
  const roles = namesOnFirstUse(numberOnFirstUse(tables.roles));

  return {
    tables,
    roleIds: roles.dictionary,
    roleOnFirstUse: roles.onFirstUse,
    actionIds: nameDictionary(tables.actions.map((name, i) => [name, i])),
    resourceByName: resources.dictionary,
    resourceOnFirstUse: resources.onFirstUse,
    combinationIdBound,
    combinationBudget: new CacheBudget(MAX_COMBINATION_CACHE_BYTES),
    combinationsOf,
    ownerOf,
  };
}

/**
 * Decodes cells into rows of combinations, per role and action. A large policy has many cells and few distinct
 * ones (a '*' grant repeats one cell everywhere): cells that say the same share one combination, and one list of
 * ownership groups, across every resource one decoder decodes. Combination ids are counted from `firstId` and stay
 * below `idBound` (what multi-role cache keys count on).
 */
export class CellDecoder {
  private readonly ownerLists = new Map<string, readonly LoadedOwner[]>();
  private readonly combinations = new Map<string, Combination>();
  /** The row of a role without a cell on a resource: shared by every such role and resource. */
  private readonly noRow: readonly Combination[];

  constructor(
    actionCount: number,
    private readonly plans: readonly AttributePlan[],
    private readonly ownerOf: (group: number, resource: number) => LoadedOwner,
    private readonly firstId: number,
    private readonly idBound: number,
  ) {
    this.noRow = Object.freeze(Array.from({ length: actionCount }, () => NO_GRANT));
  }

  /**
   * The rows of `roleCount` roles from one resource's cells (a PermissionsUsageError for tables that say more
   * distinct cells than they count).
   *
   * @example
   * ```ts
   * resource.byRole ??= decoder.rows(resourceCells(tables, resource.index), tables.roles.length);
   * ```
   */
  rows({ cells, start, end }: CellRange, roleCount: number): (readonly Combination[])[] {
    const { combinations, ownerLists, plans, noRow } = this;
    const byRole: (readonly Combination[])[] = Array.from({ length: roleCount }, () => noRow);
    for (let c = start; c < end; c++) {
      const [r, action, role, anyPlan, own, cellOwners] = cells[c] as GrantCell;
      // Groups bind per resource (their limitOwned executor is the resource's): only cells without any share across resources.
      const ownersKey = cellOwners.length === 0 ? '' : `${r}/${cellOwners.join(',')}`;
      const key = `${anyPlan}/${own.join(',')}/${ownersKey}`;
      let combination = combinations.get(key);
      if (combination === undefined) {
        // Ids stay below the bound that multi-role cache keys count on; more distinct cells than cells means tampering.
        if (this.firstId + combinations.size + 1 >= this.idBound)
          throw notGrantTablesError(`cells: more distinct cells than the ${this.idBound - this.firstId - 1} the tables count`);
        const ownPlans = new Map<LoadedOwner, AttributePlan>();
        for (let i = 0; i < own.length; i += 2) ownPlans.set(this.ownerOf(own[i] as number, r), plans[own[i + 1] as number] as AttributePlan);
        let ownerList = ownerLists.get(ownersKey);
        if (ownerList === undefined)
          ownerLists.set(ownersKey, (ownerList = Object.freeze(cellOwners.map((id) => this.ownerOf(id, r)).sort((a, b) => a.id - b.id))));
        const id = this.firstId + combinations.size;
        combinations.set(key, (combination = makeCombination(anyPlan === -1 ? NOTHING : (plans[anyPlan] as AttributePlan), ownPlans, ownerList, id)));
      }
      let row = byRole[role] as Combination[];
      if (row === noRow) byRole[role] = row = noRow.slice();
      row[action] = combination;
    }
    return byRole;
  }
}
