/**
 * One immutable policy, loaded and bound: everything a decision reads — the tables, their hooks bound to the
 * ownership service, the per-role combinations, and the caches keyed by sets of roles. An engine holds one
 * snapshot at a time and replaces it as a whole; a Permit keeps the snapshot it was decided on, so one
 * request never sees two policies.
 */
import { BoundedCache, CacheBudget } from '../common/bounded-cache.js';
import type { User } from '../definition/definition-types.js';
import { PermissionsUsageError } from '../common/errors.js';
import { resourceActionIndexes, type GrantTables, type ResourceIdType } from '../tables/grant-tables.js';
import type { Combination, GrantIndex, LoadedOwner, LoadedResource } from '../tables/table-loader.js';
import { checkGrantQuery, checkRoles, rolesKey, type GrantQuery } from './grant-query.js';
import type { OnceWarnings } from './once-warnings.js';
import { cutSlice, sliceBytes, type PermissionSlice } from './permission-slice.js';
import { policyVersionOf } from '../tables/policy-version.js';
import { defaultResourceId, type DecisionRecorder, type EngineSettings, type LoggedDecision } from './engine-settings.js';
import { decideOwnership, decideWithoutHooks, queriedResourceId, type Decision } from './decide-permit.js';
import { Permit, type PermitContext } from './permit.js';
import { lookupCombination, refusalOfCombination } from './role-lookup.js';
import type { RefusalReason } from './permit-reason.js';

/** Slices (and per-resource ownership groups) kept per distinct set of roles; the oldest is forgotten first. */
export const MAX_CACHED_SLICES = 1024;
/** The estimated bytes of every slice one snapshot keeps (a slice of a large policy is large). */
export const MAX_SLICE_CACHE_BYTES = 16 * 1024 * 1024;
/** The estimated bytes of the ownership groups per resource and set of roles one snapshot keeps. */
export const MAX_RESOURCE_OWNERS_CACHE_BYTES = 4 * 1024 * 1024;

/** Freezes a JSON value and everything in it (a cached slice is shared by every caller). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * A loaded policy. Made by an engine (`Permissions`) from built or compiled tables; every query of the
 * engine is answered by its current snapshot.
 *
 * @example
 * ```ts
 * const snapshot = new PolicySnapshot(loadCompiledTables(grantTables, ownership), settings, warnings);
 * const permit = await snapshot.grantPermit({ user, resource: 'document', action: 'read', resourceId: 10 });
 * ```
 */
/** The byte budgets of a snapshot's caches: its own, or shared by every tenant's snapshot (so their total is bounded). */
export interface SnapshotBudgets {
  readonly slices: CacheBudget;
  readonly resourceOwners: CacheBudget;
}

/** The budgets of one snapshot's caches, at the limits above. */
export function snapshotBudgets(): SnapshotBudgets {
  return { slices: new CacheBudget(MAX_SLICE_CACHE_BYTES), resourceOwners: new CacheBudget(MAX_RESOURCE_OWNERS_CACHE_BYTES) };
}

/** What a tenant's snapshot knows of its tenant. */
export interface SnapshotTenant {
  readonly id: string;
  /** The tables of the tenant's custom roles (for `explain`), or undefined when it has none. */
  readonly tables: GrantTables | undefined;
  /** The sequence of the custom roles' version, or undefined when it has none. */
  readonly sequence: number | undefined;
}

/** The refusal of `grantPermitSync` for a record whose ownership decides (built apart: the decision stays small enough to inline). */
function ownershipNeeded(query: GrantQuery<User<unknown>, unknown>, resourceId: unknown): PermissionsUsageError {
  return new PermissionsUsageError(
    `grantPermitSync: ${query.action} on ${query.resource} ${String(resourceId)} depends on ownership (an isOwner hook); use await grantPermit(query).`,
  );
}

/** A decision as the log records it: the permit's answer, for the user as they were decided with (when copied). */
function decidedFor(permit: LoggedDecision, user: LoggedDecision['user'] | undefined): LoggedDecision {
  if (user === undefined) return permit;
  const { resource, action, resourceId, granted, anyGranted, ownGranted, callSequence } = permit;
  return { user, resource, action, resourceId, granted, anyGranted, ownGranted, callSequence };
}

export class PolicySnapshot<TUser extends User<unknown> = User<unknown>, TFilter = any> implements PermitContext {
  readonly tables: GrantTables;
  readonly tenant: string | undefined;
  /** The tables of the tenant's custom roles, when the snapshot is a tenant's and it has some. */
  readonly tenantTables: GrantTables | undefined;
  /** The version of the tenant's custom roles, when it has some. */
  readonly tenantSequence: number | undefined;
  readonly limitOwnReduce: EngineSettings['limitOwnReduce'];
  readonly ownershipRules: EngineSettings['ownershipRules'];
  readonly getResourceId: EngineSettings['getResourceId'] | undefined;
  readonly hookTimeoutMs: number;
  readonly compileProjections: boolean;
  private readonly log: DecisionRecorder | undefined;
  private fingerprint: string | undefined;
  /**
   * A tenant's snapshot: asked since the cache of tenants last passed over it (set by every question that finds
   * it, cleared when the cache spares it), so that the tenant asked about least recently is forgotten first.
   */
  recentlyAsked = false;
  /** Slices by set of roles ({@link rolesKey}): a slice depends on the roles only (and the tenant, whose snapshot this is). */
  private slicesMade: BoundedCache<string, PermissionSlice> | undefined;
  /** The ownership groups of a set of roles on a resource, over every action, by `[resource, rolesKey]`. */
  private resourceOwnersMade: BoundedCache<string, readonly LoadedOwner[]> | undefined;

  constructor(
    readonly index: GrantIndex,
    readonly settings: EngineSettings,
    readonly warnings: OnceWarnings,
    version?: string,
    tenant?: SnapshotTenant,
    private readonly budgets: SnapshotBudgets = snapshotBudgets(),
  ) {
    this.tenant = tenant?.id;
    this.tenantTables = tenant?.tables;
    this.tenantSequence = tenant?.sequence;
    this.tables = index.tables;
    this.limitOwnReduce = settings.limitOwnReduce;
    this.ownershipRules = settings.ownershipRules;
    this.getResourceId = settings.getResourceId === defaultResourceId ? undefined : settings.getResourceId;
    this.hookTimeoutMs = settings.hookTimeoutMs;
    this.compileProjections = settings.compileProjections;
    this.log = settings.decisionLog;
    this.fingerprint = version;
  }

  /** The caches, made when first used: a tenant's snapshot that only decides holds neither. */
  private get slices(): BoundedCache<string, PermissionSlice> {
    return (this.slicesMade ??= new BoundedCache(MAX_CACHED_SLICES, this.budgets.slices));
  }

  private get resourceOwners(): BoundedCache<string, readonly LoadedOwner[]> {
    return (this.resourceOwnersMade ??= new BoundedCache(MAX_CACHED_SLICES, this.budgets.resourceOwners));
  }

  /** The version of the policy: the one it was published with, else the SHA-256 of its tables (computed once). */
  get version(): string {
    return (this.fingerprint ??= policyVersionOf(this.tables));
  }

  /** What `roles` may do with `action` on `resource`. */
  lookup(roles: readonly string[], resource: string, action: string): Combination {
    return lookupCombination(this.index, roles, this.resourceNamed(resource), resource, action, this.warnings);
  }

  /** The loaded resource named `name`, or undefined when the policy has none (one property read when it was asked about before). */
  private resourceNamed(name: string): LoadedResource | undefined {
    return this.index.resourceByName[name] ?? this.index.resourceOnFirstUse(name);
  }

  /** See {@link PermitContext.idTypeOf}. */
  idTypeOf(resource: string): ResourceIdType | undefined {
    return this.resourceNamed(resource)?.idType;
  }

  /** See {@link PermitContext.refusalOf}: a tenant is known when its custom roles are kept (`tenantTables`). */
  refusalOf(combination: Combination): RefusalReason {
    return refusalOfCombination(combination, this.tenant === undefined || this.tenantTables !== undefined);
  }

  /** The decision without ownership hooks: a Permit, or what is needed to ask isOwn. */
  decide<TId>(query: GrantQuery<TUser, TId>): Decision<TUser, TId, TFilter> {
    const roles = checkGrantQuery(query);
    const { user, resource, action } = query;
    const loaded = this.resourceNamed(resource);
    // The id in the resource's declared type ('10' → 10 for numeric ids); anything else is refused here, before any hook.
    const resourceId = queriedResourceId<TId>(query, loaded?.idType);
    const combination = lookupCombination(this.index, roles, loaded, resource, action, this.warnings);
    const decided = decideWithoutHooks<TUser, TId, TFilter>(user, resource, action, resourceId, combination, this);
    if (decided instanceof Permit) return decided;
    // Hooks run before the decision is logged: the log records the user as decided with (the roles checked above).
    if (this.log === undefined) return decided;
    return { combination, resourceId: decided.resourceId, decidedFor: { id: user.id, roles: roles.slice() } };
  }

  /** See `Permissions.grantPermit`; `via` names who asked, for the decision log. */
  async grantPermit<TId>(query: GrantQuery<TUser, TId>, via = 'direct'): Promise<Permit<TUser, TId, TFilter>> {
    const decided = this.decide(query);
    if (decided instanceof Permit) {
      this.log?.record(decided, this, via, false);
      return decided;
    }
    const permit = await decideOwnership<TUser, TId, TFilter>(query.user, query.resource, query.action, decided, this);
    this.log?.record(decidedFor(permit, decided.decidedFor), this, via, true);
    return permit;
  }

  /** See `Permissions.grantPermitSync`. */
  grantPermitSync<TId>(query: GrantQuery<TUser, TId>): Permit<TUser, TId, TFilter> {
    const decided = this.decide(query);
    if (decided instanceof Permit) {
      this.log?.record(decided, this, 'direct', false);
      return decided;
    }
    throw ownershipNeeded(query, decided.resourceId);
  }

  /** See `Permissions.sliceFor`. */
  sliceFor(user: TUser): PermissionSlice {
    const roles = checkRoles(user, 'sliceFor');
    const key = rolesKey(roles);
    let slice = this.slices.get(key);
    if (slice === undefined) {
      let cut = cutSlice(this.tables, this.version, (resource, action) => this.lookup(roles, resource, action));
      // Roles that are all unknown are refused everything for that reason: the slice says it, for remote permits and clients.
      if (roles.length > 0 && roles.every((role) => (this.index.roleIds[role] ?? this.index.roleOnFirstUse(role)) === undefined))
        cut = { ...cut, refusal: this.tenant === undefined || this.tenantTables !== undefined ? 'unknown-role' : 'unknown-tenant' };
      slice = deepFreeze(cut);
      this.slices.set(key, slice, sliceBytes(cut) + 2 * key.length);
    }
    return slice;
  }

  /** The ownership groups of `roles` on `resource`, over every action (the groups a slice names for that resource). */
  ownersOnResource(roles: readonly string[], resource: string): readonly LoadedOwner[] {
    const key = JSON.stringify([resource, rolesKey(roles)]);
    let owners = this.resourceOwners.get(key);
    if (owners === undefined) {
      const found = new Map<number, LoadedOwner>();
      const loaded = this.resourceNamed(resource);
      for (const action of loaded === undefined ? [] : resourceActionIndexes(this.tables, loaded.index).map((a) => this.tables.actions[a] as string)) {
        for (const owner of this.lookup(roles, resource, action).owners) found.set(owner.id, owner);
      }
      owners = Object.freeze([...found.values()].sort((a, b) => a.id - b.id));
      this.resourceOwners.set(key, owners, 96 + 2 * key.length + 8 * owners.length);
    }
    return owners;
  }
}
