/**
 * A tenant's view of the loaded policy: the policy's roles and the tenant's custom roles, side by side. The custom
 * roles' tables share the policy's names and ownership groups (the tenant roles builder makes them so), so a
 * custom role is one more row per resource: the look-up is the policy's own, a custom role costs what a policy
 * role does, and ownership groups are the policy's bound objects. Everything made per tenant — the rows, the
 * multi-role caches — belongs to this view alone: no other tenant reads it.
 */
import type { CacheBudget } from '../common/bounded-cache.js';
import type { GrantTables } from './grant-tables.js';
import { cellCount, resourceCells } from './packed-tables.js';
import { planFromJson, type AttributePlan, type AttributePlanJson } from '../projection/attribute-plan.js';
import { CellDecoder, LoadedResource, namesOnFirstUse, type Combination, type GrantIndex } from './table-loader.js';

/**
 * The estimated bytes a tenant's view may come to hold beyond its cells: per resource, one row reference per role
 * (made when a decision first asks about the resource), and the view's own objects.
 *
 * @example
 * ```ts
 * cache.set(tenant, view, tenantViewBytes(base, tenantTables));
 * ```
 */
export function tenantViewBytes(base: GrantIndex, tenant: GrantTables): number {
  const roles = base.tables.roles.length + tenant.roles.length;
  return 4096 + base.tables.resources.length * (160 + 8 * roles) + 160 * cellCount(tenant) + 96 * tenant.plans.length;
}

const noRole = (): undefined => undefined;

/** The policies whose every role is in their dictionary already (a view reads them through its prototype). */
const rolesFilled = new WeakSet<GrantIndex>();

/** The most plans shared per policy, and the longest plan (as JSON) shared: past either, a tenant's plan is its own. */
export const MAX_SHARED_PLANS = 1024;
export const MAX_SHARED_PLAN_LENGTH = 1024;
/** Per policy, the plans tenants' views have made, by their JSON. */
const sharedPlans = new WeakMap<GrantIndex, Map<string, AttributePlan>>();

/**
 * The plan `json` for a view of `base`, made once per policy and shared by every tenant's view: tenants name the
 * same few attribute lists, and making their plans was an eighth of what reading a tenant's compiled roles
 * allocated. A plan holds attribute names only, nothing of a tenant.
 */
function sharedPlan(base: GrantIndex, json: AttributePlanJson): AttributePlan {
  let plans = sharedPlans.get(base);
  if (plans === undefined) sharedPlans.set(base, (plans = new Map<string, AttributePlan>()));
  const key = JSON.stringify(json);
  let plan = plans.get(key);
  if (plan === undefined) {
    plan = planFromJson(json);
    if (plans.size < MAX_SHARED_PLANS && key.length <= MAX_SHARED_PLAN_LENGTH) plans.set(key, plan);
  }
  return plan;
}

/**
 * The view of `base` for a tenant whose custom roles are `tenant` (tables made by the tenant roles builder
 * against `base.tables`). Multi-role combinations it makes are charged to `budget` (shared by every tenant view,
 * so their total is bounded whatever the number of tenants).
 *
 * @example
 * ```ts
 * const view = overlayTenantRoles(snapshotIndex, checkTenantRoles(snapshotIndex.tables, 'acme', document).tables, budget);
 * ```
 */
export function overlayTenantRoles(base: GrantIndex, tenant: GrantTables, budget: CacheBudget): GrantIndex {
  const baseRoles = base.tables.roles.length;
  // The policy's roles are read through the prototype: the view copies nothing of a large policy. Deleting a
  // property that is not the last one makes the object a dictionary; every tenant's then has the same hidden class,
  // so the decision path's role look-up stays one kind of read however many tenants it sees (measured: 1.25× → 1.15×
  // a question without a tenant, over 16 tenants). The answer is the same either way.
  // Every role of the policy is put in its dictionary before it is a prototype: read through a prototype that
  // properties are still added to, a tenant's decisions were a sixth slower.
  // Once per policy, not per tenant: a policy of thousands of roles would make every cold tenant walk them.
  if (!rolesFilled.has(base)) {
    for (const role of base.tables.roles) if (base.roleIds[role] === undefined) base.roleOnFirstUse(role);
    rolesFilled.add(base);
  }
  const roleIds = Object.create(base.roleIds) as Record<string, number>;
  const first = Symbol('first');
  Object.defineProperty(roleIds, first, { value: 0, configurable: true });
  tenant.roles.forEach((role, i) => Object.defineProperty(roleIds, role, { value: baseRoles + i, enumerable: true }));
  delete (roleIds as Record<symbol, number>)[first];
  const combinationIdBound = base.combinationIdBound + cellCount(tenant) + 1;
  const decoder = new CellDecoder(
    tenant.actions.length,
    tenant.plans.map((json) => sharedPlan(base, json)),
    base.ownerOf,
    base.combinationIdBound,
    combinationIdBound,
  );
  // A view holds the loaded resources its tenant asked about, each made on first use: a view of a policy with a
  // thousand resources costs what its tenant uses (the cache's memory, and the collector's work on a cold tenant).
  const resources = namesOnFirstUse((name) => {
    const loaded = base.resourceByName[name] ?? base.resourceOnFirstUse(name);
    return loaded === undefined ? undefined : new LoadedResource(loaded.name, loaded.index, loaded.idType, loaded.takes);
  });
  const combinationsOf = (resource: LoadedResource): readonly (readonly Combination[])[] => {
    if (resource.byRole !== null) return resource.byRole;
    const own = decoder.rows(resourceCells(tenant, resource.index), tenant.roles.length);
    const policyResource = (base.resourceByName[resource.name] ?? base.resourceOnFirstUse(resource.name)) as LoadedResource;
    return (resource.byRole = [...base.combinationsOf(policyResource), ...own]);
  };
  return {
    tables: base.tables,
    roleIds,
    // Every role is in the view's dictionary or its prototype: a name found in neither is no role.
    roleOnFirstUse: noRole,
    actionIds: base.actionIds,
    resourceByName: resources.dictionary,
    resourceOnFirstUse: resources.onFirstUse,
    combinationIdBound,
    combinationBudget: budget,
    combinationsOf,
    ownerOf: base.ownerOf,
  };
}
