/**
 * (Over 350 lines: one class whose methods share the permit's private state; most lines are the TSDoc users read.)
 *
 * The Permit: the answer to one grant query, carried through the application's layers to restrict
 * records (isOwn, limitOwn, listOwn, filterPick) and attributes (pick, filterPick).
 */
import { unionPlans, type AttributePlan } from '../projection/attribute-plan.js';
import { pickWithPlan } from '../projection/attribute-picker.js';
import { explainGrantIn, type Explanation } from './explain.js';
import { reasonSourceOf, type PermitReason, type RefusalReason } from './permit-reason.js';
import { callIdOf, nextCallSequence } from './call-id.js';
import type { GrantTables, ResourceIdType } from '../tables/grant-tables.js';
import { projectResourceIdOfType, resourceIdOfType } from './resource-id.js';
import { loadDefinitionDescriptions } from '../tables/packed-tables.js';
import type { LimitOwnReducer, User } from '../definition/definition-types.js';
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';
import { OwnershipMemo, operationLimit } from './ownership-memo.js';
import { limitOwnedFilters, listedOrLimitedFilters, reduceFilters, type OwnedQuery } from './owned-filters.js';
import { anyOfRules, rulesOf } from './bind-rules.js';
import { callHookSync } from './hook-call.js';
import type { OwnershipQuestion, OwnershipRuleSource } from '../ownership-rules/ownership-rule-source.js';
import { canonicalPatterns, type BoundRule, type Combination, type LoadedOwner, type OwnGrant } from '../tables/table-loader.js';

/** What a Permit reads from the policy snapshot it was decided on (and keeps for its whole life). */
export interface PermitContext {
  /** The tables the decision came from, for `explain()`; undefined where there are none (remote permissions: the service sends no definitions). */
  readonly tables: GrantTables | undefined;
  /** The version of that policy. */
  readonly version: string;
  /**
   * The tenant the decision was asked in (its custom roles were looked up with the user's roles, and ownership
   * rules and hooks are asked with it); undefined for a question without a tenant.
   */
  readonly tenant?: string | undefined;
  /** The tables of the tenant's custom roles, when it has some (for `explain()`). */
  readonly tenantTables?: GrantTables | undefined;
  readonly limitOwnReduce: LimitOwnReducer | undefined;
  /** The application's ownership rule source, when it gave one: it also writes "no record" for roles that own nothing. */
  readonly ownershipRules: OwnershipRuleSource | undefined;
  /** How the application reads an item's id; undefined: `item.id`. */
  readonly getResourceId: ((args: { resource: string; item: object }) => unknown) | undefined;
  readonly hookTimeoutMs: number;
  /** Whether hot attribute plans may be compiled (`compileProjections`). */
  readonly compileProjections: boolean;
  /**
   * Why `roles` get nothing of `action` on `resource`, whatever they own (an unknown resource, action, tenant or
   * roles, or no grant), given the combination they were decided with: asked only when a permit's reason is read,
   * never while deciding. The embedded engine reads it from the combination alone.
   */
  refusalOf(combination: Combination, roles: readonly string[], resource: string, action: string): RefusalReason;
  /** The ownership groups of a set of roles on a resource, over every action. */
  ownersOnResource(roles: readonly string[], resource: string): readonly LoadedOwner[];
  /** The declared id type of `resource` (undefined: ids of either type), which every id a permit is given must have. */
  idTypeOf(resource: string): ResourceIdType | undefined;
}

/** No ownership group owns the item. */
const NO_OWNERS: readonly LoadedOwner[] = Object.freeze([]);

/** The most plans kept per combination for sets of owning groups. */
const MAX_OWNED_PLANS_PER_COMBINATION = 64;

/** Per combination, the plans for items owned by a given group (its id) or set of groups (`'1,4'`), made on demand. */
const ownedPlansOf = new WeakMap<Combination, Map<number | string, AttributePlan>>();

/** Array.isArray without narrowing: narrowing a typed array with it would type its items `any`. */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}

function isRecord(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The result of `grantPermit`. Use its methods rather than inspecting roles: they apply ownership
 * and attribute rules consistently.
 *
 * @example
 * ```ts
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'list' });
 * if (!permit.granted) throw new ForbiddenException();
 * return permit.filterPick(await documents.findAll());
 * ```
 */
export class Permit<TUser extends User<unknown> = User<unknown>, TId = unknown, TFilter = unknown> {
  private memo: OwnershipMemo | undefined;
  /** @internal The decision's sequence number, from which its call id is made (the decision log copies it). */
  readonly callSequence = nextCallSequence();
  /** With one own grant: the plan of a record its group owns (any and own attributes), made on the first such pick. */
  private ownedPlan: AttributePlan | undefined;

  /** @internal Created by `Permissions.grantPermit`. */
  constructor(
    /** The user of the query. */
    readonly user: TUser,
    /** The resource of the query. */
    readonly resource: string,
    /** The action of the query. */
    readonly action: string,
    /** The resource id of the query, if one was given. */
    readonly resourceId: TId | undefined,
    /** User + action + resource is granted in some possession (for `resourceId`, when given). */
    readonly granted: boolean,
    /** The action is granted on the user's own records (for `resourceId`: that record is owned); always true when `anyGranted` is. */
    readonly ownGranted: boolean,
    private readonly combination: Combination,
    private readonly context: PermitContext,
    memo: OwnershipMemo | undefined,
  ) {
    this.memo = memo;
  }

  /** The action is granted on any record (possession `any`). When true, `ownGranted` is true too. */
  get anyGranted(): boolean {
    return this.combination.anyGranted;
  }

  /**
   * The version of the policy this permit was decided on (a live policy may have changed since: the permit keeps
   * answering from its own). The integrations send it as `x-permissions-version`.
   *
   * @example
   * ```ts
   * response.setHeader('x-permissions-version', permit.policyVersion);
   * ```
   */
  get policyVersion(): string {
    return this.context.version;
  }

  /**
   * The id of this decision, a UUID unique across processes (version 8: random per process, then a sequence),
   * made when first read: the decision log's event carries it and the integrations send it as
   * `x-permissions-call-id`, so an application's own logs can be joined to the decision.
   *
   * @example
   * ```ts
   * logger.info({ callId: permit.callId }, 'document approved');
   * ```
   */
  get callId(): string {
    return callIdOf(this.callSequence);
  }

  /**
   * Why this permit is granted or refused, in one word ({@link PermitReason} lists them and when each holds). Worked
   * out when read, from what the permit holds: deciding costs nothing more for it.
   *
   * @example
   * ```ts
   * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'update', resourceId: 7 });
   * if (permit.reason === 'not-owner') return reply.code(403).send({ message: 'Only its creator may change this document.' });
   * ```
   */
  get reason(): PermitReason {
    // reasonOf's order, written out: no closure is made for the refusal, which is asked only when nothing grants as own.
    const { combination } = this;
    if (this.granted) return combination.anyGranted ? 'granted-any' : 'granted-own';
    if (combination.ownActionGranted) return 'not-owner';
    return this.context.refusalOf(combination, this.user.roles, this.resource, this.action);
  }

  /**
   * The definition that decided this permit, by its source (the file, or the `addPermissions` label) and its index
   * there: for `'granted-any'` the first definition granting the action as any to the user's roles, for
   * `'granted-own'` and `'not-owner'` the first granting it as own (first by source, then index; `explain()` and
   * the decision log list them all). Undefined for the other refusals, where no definition decided, and on a
   * permit of remote permissions (the decision service never sends definitions).
   *
   * @example
   * ```ts
   * permit.reasonSource; // { source: 'document.permissions.json', index: 2 }
   * ```
   */
  get reasonSource(): { readonly source: string; readonly index: number } | undefined {
    const reason = this.reason;
    const { tables, tenant, tenantTables } = this.context;
    if (tables === undefined || (reason !== 'granted-any' && reason !== 'granted-own' && reason !== 'not-owner')) return undefined;
    const explanation = explainGrantIn(
      tables,
      tenant === undefined ? undefined : { id: tenant, tables: tenantTables },
      this.user.roles,
      this.resource,
      this.action,
    );
    return reasonSourceOf(explanation, reason);
  }

  /** The attribute patterns allowed for the `any` possession, canonical: `['*', '!confidential']`, `['date', 'title']`. */
  get anyAttributes(): readonly string[] {
    return canonicalPatterns(this.combination.anyPlan);
  }

  private ownership(): OwnershipMemo {
    return (this.memo ??= new OwnershipMemo(this.user, this.context));
  }

  /**
   * Whether the user owns `resourceId`, as the ownership groups of the user's roles decide (OR):
   * each group's isOwner when it has one, else computed (membership in its listOwned, or its
   * limitOwned filter run by the resource's ownedAmong). False when no ownership hook applies,
   * even for a role that grants everything. Answers are kept per id: asked again, it answers at once.
   *
   * @example
   * ```ts
   * if (!permit.anyGranted && !(await permit.isOwn(id))) throw new ForbiddenException();
   * ```
   */
  async isOwn(resourceId: TId): Promise<boolean> {
    // Refused as grantPermit refuses the id (a PermissionsInvalidIdError), whatever the groups.
    const id = this.checkedId(resourceId);
    const { owners } = this.combination;
    if (owners.length === 0) return false;
    const memo = this.ownership();
    // Known answers need no hook.
    let unknown = false;
    for (const owner of owners) {
      const known = memo.known(owner, id);
      if (known === true) return true;
      if (known === undefined) unknown = true;
    }
    return unknown ? memo.isOwn(owners, id) : false;
  }

  /** `id` in the resource's id type, as grantPermit takes it (`'10'` is 10 for numeric ids); anything else is a PermissionsInvalidIdError, before any hook. */
  private checkedId(id: unknown): unknown {
    return resourceIdOfType(id, this.resource, this.context.idTypeOf(this.resource));
  }

  /** The plan for one item, given which ownership groups own it. */
  private planFor(owning: readonly LoadedOwner[]): AttributePlan | undefined {
    const { anyPlan, anyGranted, ownBeyondAny } = this.combination;
    if (owning.length === 0) return anyGranted ? anyPlan : undefined;
    let ownedPlans = ownedPlansOf.get(this.combination);
    if (ownedPlans === undefined) ownedPlansOf.set(this.combination, (ownedPlans = new Map<number | string, AttributePlan>()));
    const key = owning.length === 1 ? (owning[0] as LoadedOwner).id : owning.map((owner) => owner.id).join(',');
    let plan = ownedPlans.get(key);
    if (plan === undefined) {
      plan = anyPlan;
      for (const grant of ownBeyondAny) if (owning.includes(grant.owner)) plan = unionPlans(plan, grant.plan);
      // Sets of owning groups are few in practice, but up to 2^groups in theory: bounded, emptied when full.
      if (ownedPlans.size >= MAX_OWNED_PLANS_PER_COMBINATION) ownedPlans.clear();
      ownedPlans.set(key, plan);
    }
    return plan;
  }

  /** An item's id in the resource's id type; undefined (owned by nobody, no hook asked) when it has none or it is no id of that type. */
  private idOf(item: object, idType: ResourceIdType | undefined = this.context.idTypeOf(this.resource)): unknown {
    // The default reads `item.id`: read it here, without a call and an arguments object per item.
    const { getResourceId } = this.context;
    const id = getResourceId === undefined ? (item as { id?: unknown }).id : getResourceId({ resource: this.resource, item });
    return id === undefined || id === null ? undefined : projectResourceIdOfType(id, idType);
  }

  /** The own grants of `grants` whose group owns `id`, when every answer is already known; else undefined. */
  private knownOwning(grants: readonly OwnGrant[], id: unknown): LoadedOwner[] | undefined {
    const memo = this.ownership();
    const owning: LoadedOwner[] = [];
    for (const grant of grants) {
      const known = memo.known(grant.owner, id);
      if (known === undefined) return undefined;
      if (known) owning.push(grant.owner);
    }
    return owning;
  }

  private pickFor<TItem extends object>(owning: readonly LoadedOwner[], item: TItem): Partial<TItem> {
    const plan = this.planFor(owning);
    return (plan === undefined ? {} : pickWithPlan(plan, item, this.context.compileProjections)) as Partial<TItem>;
  }

  /**
   * The item reduced to the attributes this user may see: the `any` attributes, plus the own
   * attributes of the definitions whose ownership hook matched this very item. `{}` when the user
   * may see nothing of it. Always a new object with own enumerable properties only. When the
   * ownership answers for the item are already known (asked before, or from a list), it answers
   * without waiting on any hook.
   *
   * @example
   * ```ts
   * return permit.pick(await documents.findById(id)); // without 'confidential' for an EMPLOYEE
   * ```
   */
  pick<TItem extends object>(item: TItem): Promise<Partial<TItem>> {
    if (!isRecord(item)) {
      return Promise.reject(new PermissionsUsageError(`pick expects an object, got ${describeValue(item, { quoteStrings: false })}.`));
    }
    const { ownBeyondAny } = this.combination;
    if (ownBeyondAny.length === 0) return Promise.resolve(this.pickFor(NO_OWNERS, item));
    // One own grant (the usual case) and a known answer: no list, no key, one plan or the other.
    if (ownBeyondAny.length === 1 && this.memo !== undefined) {
      const grant = ownBeyondAny[0] as OwnGrant;
      const known = this.memo.known(grant.owner, this.idOf(item));
      if (known !== undefined) {
        const plan = known
          ? (this.ownedPlan ??= this.planFor(grant.ownersOnly) as AttributePlan)
          : this.combination.anyGranted
            ? this.combination.anyPlan
            : undefined;
        return Promise.resolve((plan === undefined ? {} : pickWithPlan(plan, item, this.context.compileProjections)) as Partial<TItem>);
      }
    }
    const id = this.idOf(item);
    if (id === undefined) return Promise.resolve(this.pickFor(NO_OWNERS, item));
    const owning = this.knownOwning(ownBeyondAny, id);
    if (owning !== undefined) return Promise.resolve(this.pickFor(owning, item));
    const memo = this.ownership();
    return Promise.all(ownBeyondAny.map((grant) => memo.ownedBy(grant.owner, id))).then((answers) =>
      this.pickFor(
        ownBeyondAny.filter((_, i) => answers[i]).map((grant) => grant.owner),
        item,
      ),
    );
  }

  /**
   * {@link Permit.pick} without waiting, for permits whose attributes need no ownership hook (the
   * `any` attributes already cover every own grant, or there is none). Otherwise it throws a
   * PermissionsUsageError: use `await pick(item)`.
   *
   * @example
   * ```ts
   * const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
   * const row = permit.pickSync(document);
   * ```
   */
  pickSync<TItem extends object>(item: TItem): Partial<TItem> {
    if (!isRecord(item)) throw new PermissionsUsageError(`pickSync expects an object, got ${describeValue(item, { quoteStrings: false })}.`);
    const { anyPlan, anyGranted, ownBeyondAny } = this.combination;
    if (ownBeyondAny.length > 0)
      throw new PermissionsUsageError(
        `pickSync: the attributes of ${this.action} on ${this.resource} depend on ownership (an isOwner hook); use await pick(item).`,
      );
    return (anyGranted ? pickWithPlan(anyPlan, item, this.context.compileProjections) : {}) as Partial<TItem>;
  }

  /**
   * Keeps the items the user may see (owned, or readable as `any`), in order, each reduced like
   * {@link Permit.pick}. Ownership is answered for all items at once, per ownership group: its
   * listOwned is called once per permit, or its resource's ownedAmong once for every id not known
   * yet, whatever the number of items; only a group that has neither asks isOwner per item, at
   * most 32 at a time.
   *
   * @example
   * ```ts
   * return permit.filterPick(await documents.findAll());
   * ```
   */
  async filterPick<TItem extends object>(items: readonly TItem[]): Promise<Partial<TItem>[]> {
    if (!isList(items)) throw new PermissionsUsageError(`filterPick expects an array of objects, got ${describeValue(items, { quoteStrings: false })}.`);
    for (let i = 0; i < items.length; i++) {
      if (!isRecord(items[i]))
        throw new PermissionsUsageError(`filterPick expects an array of objects; items[${i}] is ${describeValue(items[i], { quoteStrings: false })}.`);
    }
    const { anyPlan, anyGranted, ownBeyondAny } = this.combination;
    if (ownBeyondAny.length === 0) return anyGranted ? items.map((item) => pickWithPlan(anyPlan, item, this.context.compileProjections) as Partial<TItem>) : [];

    const idType = this.context.idTypeOf(this.resource);
    const ids = items.map((item) => this.idOf(item, idType));
    const asked = ids.filter((id) => id !== undefined);
    const memo = this.ownership();
    const limit = operationLimit();
    await Promise.all(ownBeyondAny.map((grant) => memo.answerAll(grant.owner, asked, limit)));
    // Every answer is known now: ownership is a look-up, with no promise per item.
    const out: Partial<TItem>[] = [];
    items.forEach((item, i) => {
      const id = ids[i];
      const owning = id === undefined ? NO_OWNERS : (this.knownOwning(ownBeyondAny, id) ?? NO_OWNERS);
      const plan = this.planFor(owning);
      if (plan !== undefined) out.push(pickWithPlan(plan, item, this.context.compileProjections) as Partial<TItem>);
    });
    return out;
  }

  /**
   * Explains this permit: which definitions grant the action to which of the user's roles, in which
   * possession, with which attributes; with a resource id (this permit's, or the one given), which
   * ownership hooks were asked and what they answered.
   *
   * @example
   * ```ts
   * console.log(formatExplanation(await permit.explain()));
   * // read on document for roles EMPLOYEE: NOT GRANTED for id 2 ... isCreator answered not owned ...
   * ```
   */
  async explain(resourceId: TId | undefined = this.resourceId): Promise<Explanation> {
    const { tables } = this.context;
    if (tables === undefined)
      throw new PermissionsUsageError(
        'explain() is not available on a permit of remote permissions: the decision service never sends definitions. ' +
          'Run `npx typed-permissions explain` against the definitions instead.',
      );
    // Compiled tables keep the definitions' descriptions in a module of their own, imported on this first need.
    await loadDefinitionDescriptions(tables);
    const { tenant, tenantTables } = this.context;
    const base = explainGrantIn(tables, tenant === undefined ? undefined : { id: tenant, tables: tenantTables }, this.user.roles, this.resource, this.action);
    if (resourceId === undefined || resourceId === null) return base;
    const id = this.checkedId(resourceId);
    const memo = this.ownership();
    const checks = [];
    for (const owner of this.combination.owners) checks.push({ isOwner: owner.label, owned: await memo.ownedBy(owner, id) });
    const granted = this.combination.anyGranted || (this.combination.ownActionGranted && checks.some((check) => check.owned));
    return { ...base, granted, ownership: { resourceId: id, checks } };
  }

  /**
   * The filter of owned records, from the ownership rules and limitOwned hooks of the user's roles (several hooks
   * combined by the `limitOwnReduce` option when configured; several rules by the rule source, as one OR). Roles
   * that own nothing get the rule source's filter of no record when there is a rule source. It configures a filter
   * and never executes it: add it to your query as an extra AND condition.
   *
   * @example
   * ```ts
   * const rows = await db.selectFrom('document').selectAll().where(permit.limitOwn()).execute();
   * ```
   */
  limitOwn(): TFilter {
    const query = this.ownedQuery();
    const source = this.context.ownershipRules;
    // No group of these roles owns anything: a rule source writes that as its filter for "no record", no reducer needed.
    if (query.owners.length === 0 && query.limitOwnReduce === undefined && source !== undefined) {
      const nothing = anyOfRules([], this.resource, this.user, false, this.context.tenant);
      return callHookSync({ name: 'ownershipRules.filter', call: () => source.filter(nothing) }, {}) as TFilter;
    }
    const rules = rulesOf(query.owners);
    // Groups that are all rules need no reducer: the rule source writes their OR as one filter.
    if (rules !== undefined && rules.length > 1 && query.limitOwnReduce === undefined) {
      const asked = anyOfRules(rules, this.resource, this.user, false, this.context.tenant);
      return callHookSync({ name: (query.owners[0] as LoadedOwner).label, call: () => (rules[0] as BoundRule).filter(asked) }, {}) as TFilter;
    }
    return reduceFilters(query, limitOwnedFilters(query), 'limitOwn()') as TFilter;
  }

  /**
   * The records of the resource this permit may list, as a question for an ownership rules adapter: every
   * record when the action is granted as `any`, none when it is not granted, else the records the rules of the
   * user's roles select (their OR). Ownership decided by hooks cannot be a question: a PermissionsUsageError
   * naming them (use limitOwn() for those roles). An adapter makes it a filter of its own form.
   *
   * @example
   * ```ts
   * const rules = kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
   * const page = await db.selectFrom('documents').selectAll().where(rules.where(permit)).limit(50).execute();
   * ```
   */
  ownershipScope(): OwnershipQuestion {
    const { combination, resource, user } = this;
    if (combination.anyGranted || !combination.ownActionGranted) return anyOfRules([], resource, user, combination.anyGranted, this.context.tenant);
    const rules = rulesOf(combination.owners);
    if (rules === undefined)
      throw new PermissionsUsageError(
        `ownershipScope(): the ownership of ${this.action} on ${resource} for roles ${JSON.stringify(user.roles)} is decided by hooks ` +
          `(${combination.owners
            .filter((owner) => owner.rule === undefined)
            .map((owner) => owner.label)
            .join(', ')}), not only by ownership rules; use limitOwn() for these roles.`,
      );
    return anyOfRules(rules, resource, user, false, this.context.tenant);
  }

  /**
   * Like {@link Permit.limitOwn}, for roles whose ownership comes from listOwned hooks too: each such group's
   * listed ids (one call per group) become a filter through `byIds`, and every group's filter is combined
   * like limitOwn's (`limitOwnReduce`). The query for "every record this user owns", whatever mix of roles.
   *
   * @example
   * ```ts
   * const where = await permit.limitOwnWith((ids) => (eb) => eb('documents.id', '=', eb.fn.any(eb.val(ids))));
   * const rows = await db.selectFrom('documents').selectAll().where(where).execute();
   * ```
   */
  async limitOwnWith(byIds: (ids: TId[]) => TFilter): Promise<TFilter> {
    if (typeof byIds !== 'function') throw new PermissionsUsageError('limitOwnWith(byIds) expects a function (ids) => filter.');
    const query = this.ownedQuery();
    return reduceFilters(query, await listedOrLimitedFilters(query, this.ownership(), byIds), 'limitOwnWith()') as TFilter;
  }

  /** What the filters of owned records are about: this permit's user, resource, action and ownership groups. */
  private ownedQuery(): OwnedQuery {
    const { user, resource, action, combination, context } = this;
    return { user, tenant: context.tenant, resource, action, owners: combination.owners, limitOwnReduce: context.limitOwnReduce };
  }

  /**
   * Which of the user's ownership groups on this resource own each of `ids` (in order): the opaque
   * group numbers a slice (`permissions.sliceFor(user)`) names, for the client's `owned` option. Answered
   * in one batch per group, like {@link Permit.filterPick}: one listOwned or ownedAmong call per group,
   * isOwner per id (at most 32 in flight) only for groups that have nothing else. Every group of the
   * user's roles on the resource is asked, whatever this permit's action, so the answer serves every
   * action of the resource.
   *
   * @example
   * ```ts
   * const groups = await permit.owningGroups(documents.map((d) => d.id)); // [[0], [], [0, 2]]
   * return documents.map((document, i) => ({ document, ownedBy: groups[i] }));
   * ```
   */
  async owningGroups(ids: readonly TId[]): Promise<number[][]> {
    if (!isList(ids)) throw new PermissionsUsageError(`owningGroups expects an array of resource ids, got ${describeValue(ids, { quoteStrings: false })}.`);
    const owners = this.context.ownersOnResource(this.user.roles, this.resource);
    if (owners.length === 0) return ids.map(() => []);
    // Each id as grantPermit takes it: one that is no id of the resource is refused before any hook.
    const checked = ids.map((id) => (id === undefined || id === null ? undefined : this.checkedId(id)));
    const asked = checked.filter((id) => id !== undefined);
    const memo = this.ownership();
    const limit = operationLimit();
    await Promise.all(owners.map((owner) => memo.answerAll(owner, asked, limit)));
    return checked.map((id) => (id === undefined ? [] : owners.filter((owner) => memo.known(owner, id) === true).map((owner) => owner.id)));
  }

  /**
   * The ids of the records the user owns, from the listOwned hooks (union, first-seen order).
   *
   * @example
   * ```ts
   * const ids = await permit.listOwn(); // [1, 10, 100]
   * ```
   */
  async listOwn(): Promise<TId[]> {
    const { owners } = this.combination;
    const limitOnly = owners.filter((owner) => owner.listOwned === undefined);
    if (limitOnly.length > 0) {
      throw new PermissionsUsageError(
        `listOwn() cannot list the ownership decided by limitOwned hook${limitOnly.length === 1 ? '' : 's'} ` +
          `${limitOnly.map((o) => o.limitOwned?.name).join(', ')} for ${this.action} on ${this.resource}; use limitOwn() for these roles.`,
      );
    }
    const memo = this.ownership();
    const sets = await Promise.all(owners.map((owner) => memo.listedBy(owner, owner.listOwned as NonNullable<LoadedOwner['listOwned']>)));
    const ids = new Set<unknown>();
    for (const set of sets) for (const id of set) ids.add(id);
    return [...ids] as TId[];
  }
}
