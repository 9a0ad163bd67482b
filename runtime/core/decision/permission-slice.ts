/**
 * A user's slice of the permissions: what the user's roles may do, per resource and action, as compact
 * JSON for a frontend (`typed-permissions/client`). It carries the decisions and attribute plans only —
 * no hook or hook name, no role name, no definition text, nothing another role may do — and ownership
 * groups as opaque numbers, so that the per-group attributes (a role's own attributes only for the records its group owns)
 * hold in the browser too.
 */
import { planFromJson, planToJson, type AttributePlan, type AttributePlanJson } from '../projection/attribute-plan.js';
import { resourceActionIndexes, type GrantTables } from '../tables/grant-tables.js';
import type { Combination } from '../tables/table-loader.js';

/**
 * One action of a resource in a slice: `[action, anyPlan, ownGranted, own, owners]`. `anyPlan` indexes the
 * slice's `plans` (-1: not granted as any); `ownGranted` is 1 when some role grants the action as own;
 * `own` is a flat list of `group, plan` pairs, the attributes an ownership group adds for records it owns;
 * `owners` are the groups whose answer decides whether one record is owned.
 */
export type SliceAction = readonly [action: string, anyPlan: number, ownGranted: 0 | 1, own: readonly number[], owners: readonly number[]];

/** One resource of a slice and its granted actions. */
export type SliceResource = readonly [resource: string, actions: readonly SliceAction[]];

/**
 * What one user may do, for a frontend: `permissions.sliceFor(user)`, read by `createClient(slice)` of
 * `typed-permissions/client`. Plain JSON (arrays, so that names such as `__proto__` stay data); only
 * granted actions appear.
 *
 * @example
 * ```ts
 * const slice: PermissionSlice = permissions.sliceFor({ id: 1, roles: ['EMPLOYEE'] });
 * // { format: 1, version: '9f3c…', plans: [[1, [['confidential', null]]], …], grants: [['document', [['read', -1, 1, [0, 0], [0]], …]]] }
 * ```
 */
export interface PermissionSlice {
  readonly format: 1;
  /** Identifies the grant tables the slice was cut from: a different version means the client's slice is stale. */
  readonly version: string;
  readonly plans: readonly AttributePlanJson[];
  readonly grants: readonly SliceResource[];
  /**
   * Present when none of the roles exists in the policy (nor among the tenant's custom roles): every action is
   * refused for that reason (`'unknown-tenant'`: asked in a tenant without custom roles kept). A permit's
   * `reason`, remote or in the browser client, reads it.
   */
  readonly refusal?: 'unknown-role' | 'unknown-tenant';
}

/** The combination of the user's roles for one resource and action (the engine's own look-up). */
export type CombinationLookup = (resource: string, action: string) => Combination;

/**
 * Cuts the slice of one set of roles from the tables: one look-up per resource and action (its declared actions,
 * for a resource that declares them), the same combinations `grantPermit` answers from.
 *
 * @example
 * ```ts
 * const slice = cutSlice(tables, policyVersionOf(tables), (resource, action) => lookup(index, roles, resource, action));
 * ```
 */
export function cutSlice(tables: GrantTables, version: string, lookup: CombinationLookup): PermissionSlice {
  const plans: AttributePlanJson[] = [];
  const planIndex = new Map<AttributePlan, number>();
  const indexOf = (plan: AttributePlan): number => {
    let at = planIndex.get(plan);
    if (at === undefined) {
      planIndex.set(plan, (at = plans.length));
      plans.push(planToJson(plan));
    }
    return at;
  };
  const grants: SliceResource[] = [];
  tables.resources.forEach((resource, r) => {
    const actions: SliceAction[] = [];
    for (const actionIndex of resourceActionIndexes(tables, r)) {
      const action = tables.actions[actionIndex] as string;
      const combination = lookup(resource, action);
      if (!combination.anyGranted && !combination.ownActionGranted) continue;
      const own: number[] = [];
      for (const grant of combination.ownBeyondAny) own.push(grant.owner.id, indexOf(grant.plan));
      actions.push([
        action,
        combination.anyGranted ? indexOf(combination.anyPlan) : -1,
        combination.ownActionGranted ? 1 : 0,
        own,
        combination.owners.map((owner) => owner.id),
      ]);
    }
    if (actions.length > 0) grants.push([resource, actions]);
  });
  return { format: 1, version, plans, grants };
}

/** One granted action of a slice, read back: what the client, the decision service and remote permissions answer from. */
export interface SliceEntry {
  /** The attributes granted as any; undefined when the action is not granted as any. */
  readonly any: AttributePlan | undefined;
  readonly ownGranted: boolean;
  /** The attributes each ownership group adds for records it owns, by group, in the slice's order. */
  readonly own: ReadonlyMap<number, AttributePlan>;
  /** The groups whose answer decides whether a record is owned. */
  readonly owners: readonly number[];
}

/** A slice read back: resource → action → entry (only granted actions). */
export type SliceEntries = ReadonlyMap<string, ReadonlyMap<string, SliceEntry>>;

/**
 * Reads a slice back into its entries: the one reader of the format {@link cutSlice} writes. The slice must be
 * well formed — one from the network is checked first (`sliceProblem` of the client).
 *
 * @example
 * ```ts
 * readSlice(permissions.sliceFor(user)).get('document')?.get('read')?.ownGranted; // true
 * ```
 */
export function readSlice(slice: PermissionSlice): SliceEntries {
  const plans = slice.plans.map(planFromJson);
  const entries = new Map<string, Map<string, SliceEntry>>();
  for (const [resource, actions] of slice.grants) {
    const byAction = new Map<string, SliceEntry>();
    entries.set(resource, byAction);
    for (const [action, anyPlan, ownGranted, own, owners] of actions) {
      const ownPlans = new Map<number, AttributePlan>();
      for (let i = 0; i < own.length; i += 2) ownPlans.set(own[i] as number, plans[own[i + 1] as number] as AttributePlan);
      byAction.set(action, { any: anyPlan === -1 ? undefined : plans[anyPlan], ownGranted: ownGranted === 1, own: ownPlans, owners });
    }
  }
  return entries;
}

/** Estimated bytes of a JSON value made of arrays, small numbers and shared strings (what a slice is). */
function arrayBytes(value: unknown): number {
  if (!Array.isArray(value)) return typeof value === 'string' ? 24 + 2 * value.length : 0;
  let bytes = 32 + 8 * value.length;
  for (const item of value) if (typeof item === 'object' || typeof item === 'string') bytes += arrayBytes(item);
  return bytes;
}

/**
 * An estimate of the memory a slice takes, in bytes, for the byte budget of the slice cache.
 *
 * @example
 * ```ts
 * slices.set(key, slice, sliceBytes(slice));
 * ```
 */
export function sliceBytes(slice: PermissionSlice): number {
  return 128 + arrayBytes(slice.plans) + arrayBytes(slice.grants);
}
