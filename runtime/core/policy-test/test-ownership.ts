/**
 * Ownership as a test file states it, in place of the application's ownership service: per ownership method and
 * user, the ids that method owns. Each method the definitions name answers from its own ids, and the engine asks
 * the method it asks in production — for one record, a definition's isOwner when it has one, else its listOwned
 * (is the id listed?), else its limitOwned run by the resource's ownedAmong executor. So a method that owns
 * nothing in the file answers "not owned", and a test sees exactly what the engine does with those answers:
 * per-group attributes included.
 *
 * limitOwned configures a filter, which only the resource's ownedAmong executor runs. Here the filter carries the
 * ids its limitOwned method owns for the user, and the executor keeps the asked ids that the filter owns, or that
 * are listed under the executor's own name (an executor listed in the file owns those ids through any filter).
 */
import type { User } from '../definition/definition-types.js';
import type { GrantTables, RuleTable } from '../tables/grant-tables.js';
import { ruleContext } from '../decision/bind-rules.js';
import { fixedMemoryOwnership, type FixedMemoryOwnership } from '../ownership-rules/fixed-memory-ownership.js';
import type { PolicyTestFile, PolicyTestId, PolicyTestRecords } from './policy-test-types.js';

const NOTHING: ReadonlySet<PolicyTestId> = new Set();

/** Every resource whose records the ownership rules of `tables` may read: the tables' resources, the rules' own and those their relations reach. */
function ruleResources(tables: GrantTables): string[] {
  const rules = tables.ownershipRules;
  const related = Object.entries(rules?.relations ?? {}).flatMap(([resource, byName]) => [
    resource,
    ...Object.values(byName).map((relation) => relation.resource),
  ]);
  return [...tables.resources, ...(rules?.rules ?? []).map((rule) => rule.resource), ...related];
}

/** The filter a limitOwned method of the tests configures: the ids it owns for the user. */
class TestFilter {
  constructor(readonly ids: ReadonlySet<PolicyTestId>) {}
}

/**
 * The users and the ownership of one test file, and the ownership service that answers from them.
 *
 * @example
 * ```ts
 * const ownership = new TestOwnership(file);
 * const engine = permissionsFromTables(grantTables, { ownership: ownership.service(grantTables) });
 * await engine.grantPermit({ user: ownership.user('alice'), resource: 'document', action: 'read', resourceId: 1 });
 * ```
 */
export class TestOwnership {
  private readonly owned = new Map<string, Map<string, ReadonlySet<PolicyTestId>>>();
  private readonly users = new Map<string, User<PolicyTestId>>();
  /** The name of each user object handed out: the engine gives hooks the user of the query. */
  private readonly names = new WeakMap<object, string>();

  /** The test file's records, per resource and id. */
  private readonly records: PolicyTestRecords;
  /** The rule source over the records, per tables: the runner's decisions and the coverage read the same one. */
  private readonly ruleSources = new WeakMap<GrantTables, FixedMemoryOwnership>();

  constructor(file: PolicyTestFile) {
    this.records = file.records;
    for (const [name, { id, roles, attributes = {} }] of Object.entries(file.users)) {
      // fromEntries defines own properties: no attribute name reaches a prototype; id and roles are the user's own.
      const user = Object.freeze({ ...Object.fromEntries(Object.entries(attributes)), id, roles: Object.freeze([...roles]) });
      this.users.set(name, user);
      this.names.set(user, name);
    }
    for (const [method, byUser] of Object.entries(file.ownership))
      this.owned.set(method, new Map(Object.entries(byUser).map(([user, ids]) => [user, new Set(ids)])));
  }

  /**
   * The user object of the test file's user `name` (the same object every time).
   *
   * @example
   * ```ts
   * ownership.user('alice'); // { id: 1, roles: ['EMPLOYEE'] }
   * ```
   */
  user(name: string): User<PolicyTestId> {
    const user = this.users.get(name);
    if (user === undefined) throw new Error(`The test file has no user ${JSON.stringify(name)}.`);
    return user;
  }

  /** The ids `method` owns for the user called `user`. */
  private ids(method: string, user: string): ReadonlySet<PolicyTestId> {
    return this.owned.get(method)?.get(user) ?? NOTHING;
  }

  /** The test file's name of the user a hook is given. */
  private nameOf(user: unknown): string {
    const name = typeof user === 'object' && user !== null ? this.names.get(user) : undefined;
    if (name === undefined) throw new Error('The ownership of a policy test answers only for the users of its test file.');
    return name;
  }

  /**
   * An ownership service with one method for every method `tables` name, answering from the test file.
   *
   * @example
   * ```ts
   * const service = ownership.service(grantTables); // { isCreator({ user, resourceId }), limitToCreator({ user }), ... }
   * ```
   */
  service(tables: GrantTables): object {
    // No prototype: a method is found on the object itself, whatever its name.
    const service = Object.create(null) as object;
    for (const { kind, name } of tables.hooks) {
      if (Object.hasOwn(service, name)) continue;
      let answer: (args: { user: unknown; resourceId?: unknown; filter?: unknown; resourceIds?: readonly unknown[] }) => unknown;
      if (kind === 'isOwner') answer = ({ user, resourceId }) => this.ids(name, this.nameOf(user)).has(resourceId as PolicyTestId);
      else if (kind === 'listOwned') answer = ({ user }) => [...this.ids(name, this.nameOf(user))];
      else if (kind === 'limitOwned') answer = ({ user }) => new TestFilter(this.ids(name, this.nameOf(user)));
      else
        answer = ({ user, filter, resourceIds = [] }) => {
          const listed = this.ids(name, this.nameOf(user));
          const byFilter = filter instanceof TestFilter ? filter.ids : NOTHING;
          return resourceIds.filter((id) => byFilter.has(id as PolicyTestId) || listed.has(id as PolicyTestId));
        };
      Object.defineProperty(service, name, { value: answer, enumerable: true });
    }
    return service;
  }

  /**
   * Whether ownership group `group` of `tables` owns record `id` of resource `resource` (an index) for the user
   * called `user`, asking in `tenant` when the test names one, as the engine decides one record: the group's rule
   * (which may compare with the tenant), else its isOwner, else its listOwned, else its limitOwned run by the
   * resource's ownedAmong.
   *
   * @example
   * ```ts
   * ownership.groupOwns(grantTables, 0, 0, 'alice', 10); // true when the group's method owns 10 for alice
   * ownership.groupOwns(grantTables, 0, 0, 'alice', 10, 'acme'); // true when the group's rule holds for 10 in tenant "acme"
   * ```
   */
  groupOwns(tables: GrantTables, group: number, resource: number, user: string, id: PolicyTestId, tenant?: string): boolean {
    const owner = tables.owners[group];
    const nameOf = (hook: number) => tables.hooks[hook]?.name ?? '';
    if (owner === undefined) return false;
    const rule = owner.rule === undefined ? undefined : tables.ownershipRules?.rules[owner.rule];
    if (rule !== undefined) return this.ruleOwns(tables, rule, user, id, tenant);
    if (owner.isOwner !== undefined) return this.ids(nameOf(owner.isOwner), user).has(id);
    if (owner.listOwned !== undefined) return this.ids(nameOf(owner.listOwned), user).has(id);
    const executor = tables.ownedAmong?.[resource] ?? -1;
    if (owner.limitOwned === undefined || executor === -1) return false;
    return this.ids(nameOf(owner.limitOwned), user).has(id) || this.ids(nameOf(executor), user).has(id);
  }

  /**
   * The source of the records ownership rules of `tables` read: the test file's records, each resource's as a
   * list. Every resource of the tables, and every resource a relation of their rules reaches, has a list (empty
   * when the file holds none of its records): a record the file does not hold is owned by no rule, not a failure.
   * Records are found by their `id`, compared with `===` (a record whose id is "1" is not record 1). The same source
   * every time for the same tables.
   *
   * @example
   * ```ts
   * const engine = permissionsFromTables(grantTables, { ownershipRules: ownership.ruleSource(grantTables) });
   * ```
   */
  ruleSource(tables: GrantTables): FixedMemoryOwnership {
    let source = this.ruleSources.get(tables);
    if (source !== undefined) return source;
    const lists = new Map<string, readonly object[]>(ruleResources(tables).map((resource) => [resource, []]));
    for (const [resource, byId] of Object.entries(this.records)) lists.set(resource, Object.values(byId));
    // The file's records do not change while its tests run: indexed once, each question reads the records it names.
    source = fixedMemoryOwnership(Object.fromEntries(lists));
    this.ruleSources.set(tables, source);
    return source;
  }

  /**
   * Whether `rule` holds for record `id` of its resource for the user called `user` in `tenant`, found and related
   * as the runner's decisions find them ({@link ruleSource}): a record the file does not hold is not owned.
   */
  private ruleOwns(tables: GrantTables, rule: RuleTable, user: string, id: PolicyTestId, tenant: string | undefined): boolean {
    const source = this.ruleSource(tables);
    try {
      const record = source.record(rule.resource, id);
      return record !== undefined && source.filter({ scope: rule.condition, context: ruleContext(tables, rule), user: this.user(user), tenant })(record);
    } catch {
      // A record or user without what the rule reads: the test's own decision reports it; here it owns nothing.
      return false;
    }
  }
}
