/**
 * `Permissions`: collects definitions, validates and builds them once at start, and answers grant
 * queries from the precomputed tables.
 */
import type { LimitOwnReducer, OwnedAmongHook, PermissionDefinition, User } from './definition-types.js';
import type { SchemaProblem } from './definition-schema.js';
import { PermissionDefinitionError, PermissionsUsageError, type DefinitionLocation, type DefinitionProblem } from './errors.js';
import type { GrantTables } from './grant-tables.js';
import { resolveMethod, type BoundHook } from './hook-call.js';
import { hookNameProblem, quoteForMessage } from './names.js';
import { OwnershipMemo } from './ownership-memo.js';
import { Permit, type PermitSettings } from './permit.js';
import { grantTablesProblem } from './table-shape.js';
import type { HookValue, LocatedDefinition, TableBuildOptions, TableBuildResult, ValidDefinition } from './table-builder.js';
import { combinationBytes, combineRoles, loadGrantTables, NO_GRANT, type Combination, type GrantIndex, type LoadedOwner } from './table-loader.js';
import { BoundedCache, CacheBudget } from './bounded-cache.js';
import { cutSlice, sliceBytes, tablesVersion, type PermissionSlice } from './permission-slice.js';
import { resourceIdOfType, type ResourceIdType } from './resource-id.js';

/** Where warnings go (unknown roles, duplicate grants). `console` fits. */
export interface PermissionsLogger {
  warn(message: string): void;
}

/** Options of {@link Permissions}. */
export interface PermissionsOptions<TUser = any, TFilter = any> {
  /** The ownership service: hook strings in definitions name its methods. */
  readonly ownership?: object | undefined;
  /** Combines the filters of several limitOwned hooks for `permit.limitOwn()`, typically with OR. */
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  /** Throw instead of warning on unknown roles, resources and actions. Default false. */
  readonly strict?: boolean | undefined;
  /** Receives warnings. Default `console`. */
  readonly logger?: PermissionsLogger | undefined;
  /** How to read the id of an item given to pick/filterPick. Default `item.id`. */
  readonly getResourceId?: ((args: { resource: string; item: object }) => unknown) | undefined;
  /** How long a hook may take before the check fails closed. Default 5000 ms. */
  readonly hookTimeoutMs?: number | undefined;
  /**
   * The ownedAmong executor of each resource that has one: a method name of `ownership`, or a
   * function `({ user, filter, resourceIds }) => ids` that runs one limitOwned filter restricted to
   * `resourceIds` and returns those that match. With it, definitions on that resource need no
   * isOwner with limitOwned, and ownership of many records is one call. Used by `build()`; the
   * compiler reads it from `*.resource.json` instead.
   */
  readonly ownedAmong?: { readonly [resource: string]: OwnedAmongHook<TUser, TFilter> | string } | undefined;
  /**
   * The id type of each resource that declares one, as `*.resource.json` declares it for the compiler
   * (`{ document: 'number' }`): a resource id entering a check (a grant query, a path parameter, a GraphQL
   * argument) is projected to it — `'10'` becomes `10` — and anything else is refused with a
   * PermissionsInvalidIdError (400 in the integrations). Used by `build()`; precompiled tables carry it.
   */
  readonly resourceIdTypes?: { readonly [resource: string]: ResourceIdType } | undefined;
}

/** The names of the {@link PermissionsOptions}: an option spelt otherwise is refused, not ignored. */
export const PERMISSIONS_OPTION_KEYS = [
  'ownership',
  'limitOwnReduce',
  'strict',
  'logger',
  'getResourceId',
  'hookTimeoutMs',
  'ownedAmong',
  'resourceIdTypes',
] as const satisfies readonly (keyof PermissionsOptions)[];

/** A grant query: can `user` perform `action` on `resource` (and the record `resourceId`)? */
export interface GrantQuery<TUser extends User<unknown> = User<unknown>, TId = unknown> {
  readonly user: TUser;
  readonly resource: string;
  readonly action: string;
  readonly resourceId?: TId | null | undefined;
}

/**
 * What `build()` needs besides the engine: definition validation (zod) and the table builder. The
 * full entry (`typed-permissions`) provides them when it is imported; the precompiled entry
 * (`typed-permissions/precompiled`, what generated code imports) does not, so that loading
 * precompiled tables and deciding never load zod or the builder.
 */
export interface DefinitionsBuilder {
  validate(definition: unknown): readonly SchemaProblem[];
  buildTables(located: readonly LocatedDefinition[], options: TableBuildOptions): TableBuildResult;
}

let definitionsBuilder: DefinitionsBuilder | undefined;

/**
 * @internal Called by the full entry when it is loaded.
 *
 * @example
 * ```ts
 * provideDefinitionsBuilder({ validate: (definition) => validateDefinition(definition, 'functions-or-names'), buildTables: buildGrantTables });
 * ```
 */
export function provideDefinitionsBuilder(builder: DefinitionsBuilder): void {
  definitionsBuilder = builder;
}

/** Slices (and per-resource ownership groups) kept per distinct set of roles; the oldest is forgotten first. */
export const MAX_CACHED_SLICES = 1024;
/** The estimated bytes of every slice one engine keeps (a slice of a large policy is large). */
export const MAX_SLICE_CACHE_BYTES = 16 * 1024 * 1024;
/** The estimated bytes of the ownership groups per resource and set of roles one engine keeps. */
export const MAX_RESOURCE_OWNERS_CACHE_BYTES = 4 * 1024 * 1024;
const MAX_WARNINGS = 1000;

/** A cache key for a set of combinations sorted by id: one number while it fits exactly, else a string. */
function combinationKey(sorted: readonly Combination[], count: number): number | string {
  const base = count + 1;
  if (base ** sorted.length >= Number.MAX_SAFE_INTEGER) return sorted.map((combination) => combination.id).join(',');
  let key = 0;
  for (const combination of sorted) key = key * base + combination.id + 1;
  return key;
}

/**
 * A cache key for a set of roles: order and repetitions do not matter, and no two sets share one (role names
 * of users are any strings, separators included, so the names are JSON-encoded rather than joined).
 */
function rolesKey(roles: readonly string[]): string {
  return JSON.stringify([...new Set(roles)].sort());
}

/** Freezes a JSON value and everything in it (a cached slice is shared by every caller). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function defaultResourceId({ item }: { item: object }): unknown {
  return (item as { id?: unknown }).id;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? quoteForMessage(value) : typeof value;
}

function isValidId(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The permissions engine.
 *
 * @example
 * ```ts
 * const permissions = new Permissions({ ownership: new DocumentOwnership(db) });
 * permissions.addPermissions(definitions, { source: 'document.permissions.json' });
 * permissions.build();
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * ```
 */
export class Permissions<TUser extends User<unknown> = User<unknown>, TFilter = any> {
  private readonly raw: { definition: unknown; location: DefinitionLocation }[] = [];
  private index: GrantIndex | undefined;
  private readonly settings: PermitSettings;
  private readonly strict: boolean;
  private readonly logger: PermissionsLogger;
  private readonly ownership: object | undefined;
  private readonly ownedAmong: ReadonlyMap<string, HookValue>;
  private readonly idTypes: ReadonlyMap<string, ResourceIdType>;
  private readonly warned = new Set<string>();
  private version: string | undefined;
  /** Slices by set of roles ({@link rolesKey}): a slice depends on the roles only. */
  private readonly slices = new BoundedCache<string, PermissionSlice>(MAX_CACHED_SLICES, new CacheBudget(MAX_SLICE_CACHE_BYTES));
  /** The ownership groups of a set of roles on a resource, over every action, by `[resource, rolesKey]`. */
  private readonly resourceOwners = new BoundedCache<string, readonly LoadedOwner[]>(MAX_CACHED_SLICES, new CacheBudget(MAX_RESOURCE_OWNERS_CACHE_BYTES));

  constructor(options: PermissionsOptions<TUser, TFilter> = {}) {
    if (typeof options !== 'object' || options === null) throw new PermissionsUsageError('new Permissions(options): options must be an object.');
    const unknownOption = Object.keys(options).find((key) => !(PERMISSIONS_OPTION_KEYS as readonly string[]).includes(key));
    if (unknownOption !== undefined)
      throw new PermissionsUsageError(
        `Permissions option ${quoteForMessage(unknownOption)} does not exist; the options are ${PERMISSIONS_OPTION_KEYS.join(', ')}.`,
      );
    const { ownership, limitOwnReduce, strict, logger, getResourceId, hookTimeoutMs, ownedAmong, resourceIdTypes } = options;
    if (ownership !== undefined && (typeof ownership !== 'object' || ownership === null))
      throw new PermissionsUsageError('Permissions option ownership must be an object whose methods the hook strings name.');
    if (limitOwnReduce !== undefined && typeof limitOwnReduce !== 'function')
      throw new PermissionsUsageError('Permissions option limitOwnReduce must be a function ({ user, limitOwneds }) => filter.');
    if (getResourceId !== undefined && typeof getResourceId !== 'function')
      throw new PermissionsUsageError('Permissions option getResourceId must be a function ({ resource, item }) => id.');
    if (hookTimeoutMs !== undefined && !(typeof hookTimeoutMs === 'number' && hookTimeoutMs > 0 && hookTimeoutMs <= 2_147_483_647))
      throw new PermissionsUsageError('Permissions option hookTimeoutMs must be a positive number of milliseconds.');
    if (logger !== undefined && typeof logger?.warn !== 'function')
      throw new PermissionsUsageError('Permissions option logger must have a warn(message) method.');
    if (ownedAmong !== undefined && (typeof ownedAmong !== 'object' || ownedAmong === null))
      throw new PermissionsUsageError('Permissions option ownedAmong must be an object: resource name → executor (a method name or a function).');
    for (const [resource, executor] of Object.entries(ownedAmong ?? {})) {
      const problem =
        typeof executor === 'string' ? hookNameProblem(executor) : typeof executor === 'function' ? undefined : 'is neither a method name nor a function';
      if (problem !== undefined) throw new PermissionsUsageError(`Permissions option ownedAmong.${resource}: the executor ${problem}.`);
    }
    if (resourceIdTypes !== undefined && (typeof resourceIdTypes !== 'object' || resourceIdTypes === null))
      throw new PermissionsUsageError('Permissions option resourceIdTypes must be an object: resource name → "number" or "string".');
    for (const [resource, idType] of Object.entries(resourceIdTypes ?? {})) {
      if (idType !== 'number' && idType !== 'string')
        throw new PermissionsUsageError(`Permissions option resourceIdTypes.${resource} must be "number" or "string", got ${describeValue(idType)}.`);
    }
    this.idTypes = new Map(Object.entries(resourceIdTypes ?? {}));
    this.ownership = ownership;
    this.ownedAmong = new Map(Object.entries(ownedAmong ?? {}) as [string, HookValue][]);
    this.strict = strict === true;
    this.logger = logger ?? console;
    this.settings = {
      tables: () => this.tables,
      limitOwnReduce,
      getResourceId: getResourceId ?? defaultResourceId,
      hookTimeoutMs: hookTimeoutMs ?? 5000,
      ownersOnResource: (roles, resource) => this.ownersOnResource(roles, resource),
    };
  }

  /**
   * Creates a built instance from precomputed tables (what the compiler emits), without validating
   * or expanding definitions again. Hook names are bound to methods of `options.ownership`; a
   * missing method throws a PermissionDefinitionError naming it.
   *
   * @example
   * ```ts
   * const permissions = Permissions.fromTables(grantTables, { ownership: new DocumentOwnership(db) });
   * ```
   */
  static fromTables<TUser extends User<unknown> = User<unknown>, TFilter = any>(
    tables: GrantTables,
    options: PermissionsOptions<TUser, TFilter> = {},
  ): Permissions<TUser, TFilter> {
    const problem = grantTablesProblem(tables);
    if (problem !== undefined) {
      throw new PermissionsUsageError(
        `Permissions.fromTables: these are not grant tables of this version of typed-permissions (${problem}); run \`npx typed-permissions compile\` again.`,
      );
    }
    for (const [key, what, declaration] of [
      ['ownedAmong', 'ownedAmong executors', '"ownedAmong": "<method>"'],
      ['resourceIdTypes', 'resource id types', '"idType": "number"'],
    ] as const) {
      if (options[key] !== undefined) {
        throw new PermissionsUsageError(
          `Precompiled tables carry the ${what}; remove the ${key} option and declare ${key === 'ownedAmong' ? 'each executor' : 'each id type'} ` +
            `in its resource file (${declaration} in definitions/<resource>.resource.json), then compile again (npx typed-permissions compile).`,
        );
      }
    }
    const permissions = new Permissions<TUser, TFilter>(options);
    const problems: DefinitionProblem[] = [];
    const index = loadGrantTables(tables, (ref, hookIndex) => {
      const call = permissions.ownership === undefined ? undefined : resolveMethod(permissions.ownership, ref.name);
      if (call !== undefined) return { name: ref.name, call };
      if (ref.kind === 'ownedAmong') {
        const executorOf = (tables.ownedAmong ?? []).flatMap((hook, resource) => (hook === hookIndex ? [tables.resources[resource] as string] : []));
        for (const resource of executorOf) problems.push(permissions.missingExecutorProblem(ref.name, resource));
        return { name: ref.name, call: () => undefined };
      }
      // Name every definition that uses the missing method, as build() would.
      const users = tables.owners
        .filter((group) => group.isOwner === hookIndex || group.listOwned === hookIndex || group.limitOwned === hookIndex)
        .flatMap((group) => group.definitions);
      for (const definition of [...new Set(users)].sort((a, b) => a - b)) {
        const { index: at, source } = tables.definitions[definition] ?? { index: definition };
        problems.push(permissions.missingMethodProblem(ref.name, ref.kind, source === undefined ? { index: at } : { index: at, source }));
      }
      return { name: ref.name, call: () => undefined };
    });
    if (problems.length > 0) throw new PermissionDefinitionError(problems);
    permissions.index = index;
    return permissions;
  }

  /** Whether `build()` has run. */
  get built(): boolean {
    return this.index !== undefined;
  }

  /** The grant tables `build()` made (for inspection and for comparing with the compiler's output). */
  get tables(): GrantTables {
    return this.requireBuilt('tables').tables;
  }

  /**
   * Registers definitions; call before `build()`. `source` labels them in error messages.
   *
   * @example
   * ```ts
   * permissions.addPermissions([{ roles: ['ADMIN'], resource: '*', grant: ['*:any'] }], { source: 'admin rules' });
   * ```
   */
  addPermissions(definitions: readonly PermissionDefinition[], options: { source?: string } = {}): this {
    if (this.index !== undefined)
      throw new PermissionsUsageError('addPermissions() was called after build(); add every definition before build() (at application start).');
    if (!Array.isArray(definitions))
      throw new PermissionsUsageError(`addPermissions(definitions) expects an array of PermissionDefinitions, got ${describeValue(definitions)}.`);
    const source = typeof options?.source === 'string' ? options.source : undefined;
    definitions.forEach((definition: unknown, index) => this.raw.push({ definition, location: source === undefined ? { index } : { index, source } }));
    return this;
  }

  private missingExecutorProblem(name: string, resource: string): DefinitionProblem {
    return {
      code: 'unknown-hook-method',
      index: -1,
      source: `the ownedAmong executor of ${quoteForMessage(resource)}`,
      path: ['ownedAmong', resource],
      message:
        this.ownership === undefined
          ? `ownedAmong names method "${name}" for ${quoteForMessage(resource)}, but no ownership service was given.`
          : `ownedAmong names method "${name}" for ${quoteForMessage(resource)}, which the ownership service does not have.`,
      fix: `Add a method ${name}({ user, filter, resourceIds }) to the ownership service, or correct the name.`,
    };
  }

  private missingMethodProblem(name: string, kind: string, location: DefinitionLocation): DefinitionProblem {
    return {
      code: 'unknown-hook-method',
      ...location,
      path: [kind],
      message:
        this.ownership === undefined
          ? `${kind} names method "${name}", but no ownership service was given.`
          : `${kind} names method "${name}", which the ownership service (${this.ownership.constructor?.name ?? 'object'}) does not have.`,
      fix:
        this.ownership === undefined
          ? `Pass { ownership } to new Permissions() (or provide the ownership service), with a method ${name}.`
          : `Add a method ${name} to the ownership service, or correct the name.`,
    };
  }

  /**
   * Validates every definition and builds the grant tables, once, at application start. Throws a
   * single PermissionDefinitionError listing every problem.
   *
   * @example
   * ```ts
   * permissions.build(); // throws PermissionDefinitionError: definitions[2].grant[0]: … 'read:mine' …
   * ```
   */
  build(): this {
    if (this.index !== undefined) throw new PermissionsUsageError('build() was already called; a Permissions instance is built once.');
    const builder = definitionsBuilder;
    if (builder === undefined) {
      throw new PermissionsUsageError(
        "build() validates definitions, which 'typed-permissions/precompiled' leaves out to stay small: import Permissions from 'typed-permissions' where " +
          'definitions are built at run time, or compile them ahead of time (npx typed-permissions compile) and load the generated tables.',
      );
    }
    const problems: DefinitionProblem[] = [];
    const valid: LocatedDefinition[] = [];
    for (const { definition, location } of this.raw) {
      const found = builder.validate(definition);
      for (const problem of found) problems.push({ ...location, ...problem });
      if (found.length > 0) continue;
      const checked = definition as ValidDefinition;
      for (const kind of ['isOwner', 'listOwned', 'limitOwned'] as const) {
        const hook = checked[kind];
        if (typeof hook === 'string' && (this.ownership === undefined || resolveMethod(this.ownership, hook) === undefined))
          problems.push(this.missingMethodProblem(hook, kind, location));
      }
      valid.push({ definition: checked, location });
    }
    for (const [resource, executor] of this.ownedAmong) {
      if (typeof executor === 'string' && (this.ownership === undefined || resolveMethod(this.ownership, executor) === undefined))
        problems.push(this.missingExecutorProblem(executor, resource));
    }
    const { tables, hookValues, problems: tableProblems, warnings } = builder.buildTables(valid, { ownedAmong: this.ownedAmong, idTypes: this.idTypes });
    problems.push(...tableProblems);
    if (problems.length > 0) {
      // Report in the order the definitions were added, whichever check found the problem.
      const order = new Map(this.raw.map(({ location }, i) => [`${location.source ?? ''}\u0000${location.index}`, i]));
      const rank = (p: DefinitionProblem) => order.get(`${p.source ?? ''}\u0000${p.index}`) ?? 0;
      throw new PermissionDefinitionError(
        problems
          .map((p, i) => ({ p, i }))
          .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
          .map(({ p }) => p),
      );
    }
    for (const warning of warnings) this.logger.warn(`typed-permissions: ${warning}`);
    this.index = loadGrantTables(tables, (ref, i) => this.bind(ref.name, hookValues[i] as HookValue));
    return this;
  }

  private bind(name: string, value: HookValue): BoundHook {
    if (typeof value === 'function') return { name, call: value as (args: object) => unknown };
    return { name, call: resolveMethod(this.ownership as object, value) as (args: object) => unknown };
  }

  private requireBuilt(what: string): GrantIndex {
    if (this.index === undefined)
      throw new PermissionsUsageError(`${what} needs build() first: call permissions.build() at application start, after addPermissions().`);
    return this.index;
  }

  private warnOnce(key: string, message: string): void {
    if (this.strict) throw new PermissionsUsageError(message);
    if (this.warned.has(key) || this.warned.size >= MAX_WARNINGS) return;
    this.warned.add(key);
    this.logger.warn(`typed-permissions: ${message}`);
  }

  /** The combination of the user's roles for one resource and action. */
  private lookup(index: GrantIndex, roles: readonly string[], resource: string, action: string): Combination {
    const byAction = index.resources.get(resource);
    if (byAction === undefined) {
      this.warnOnce(`resource\u0000${resource}`, `unknown resource ${describeValue(resource)}: no definition names it, so nothing is granted.`);
      return NO_GRANT;
    }
    const entry = byAction.get(action);
    if (entry === undefined) {
      this.warnOnce(`action\u0000${action}`, `unknown action ${describeValue(action)}: no definition grants it on any resource, so nothing is granted.`);
      return NO_GRANT;
    }
    const { byRole } = entry;
    if (roles.length === 1) {
      const name = roles[0] as string;
      const combination = byRole.get(name);
      if (combination !== undefined) return combination;
      if (!index.roleIndex.has(name)) this.warnOnce(`role\u0000${name}`, `unknown role ${describeValue(name)} is ignored: no definition names it.`);
      return NO_GRANT;
    }
    // Most multi-role users have one role that matters for a given resource and action, and roles
    // whose cells say the same share one combination: only build a cache key when two distinct
    // combinations meet.
    let first: Combination = NO_GRANT;
    let others: Combination[] | undefined;
    for (let i = 0; i < roles.length; i++) {
      const name = roles[i] as string;
      const combination = byRole.get(name);
      if (combination === undefined) {
        if (!index.roleIndex.has(name)) this.warnOnce(`role\u0000${name}`, `unknown role ${describeValue(name)} is ignored: no definition names it.`);
        continue;
      }
      if (combination === first) continue;
      if (first === NO_GRANT) first = combination;
      else if (others === undefined) others = [combination];
      else if (!others.includes(combination)) others.push(combination);
    }
    if (others === undefined) return first;
    others.push(first);
    others.sort((a, b) => a.id - b.id);
    const key = combinationKey(others, index.combinationCount);
    let combination = entry.multiRole.get(key);
    if (combination === undefined) {
      combination = combineRoles(others);
      // Full: the oldest is forgotten, so a changing working set of role combinations stays cached.
      entry.multiRole.set(key, combination, combinationBytes(combination));
    }
    return combination;
  }

  private checkQuery(query: GrantQuery<TUser>): void {
    if (typeof query !== 'object' || query === null)
      throw new PermissionsUsageError(`grantPermit(query) expects an object { user, resource, action, resourceId? }, got ${describeValue(query)}.`);
    const { user, resource, action } = query;
    if (typeof user !== 'object' || user === null)
      throw new PermissionsUsageError(`grantPermit: user must be an object { id, roles }, got ${describeValue(user)}.`);
    if (!isValidId(user.id))
      throw new PermissionsUsageError(`grantPermit: user.id must be a string, a finite number or a bigint, got ${describeValue(user.id)}.`);
    this.checkRoles(user, 'grantPermit');
    if (typeof resource !== 'string') throw new PermissionsUsageError(`grantPermit: resource must be a string, got ${describeValue(resource)}.`);
    if (typeof action !== 'string') throw new PermissionsUsageError(`grantPermit: action must be a string, got ${describeValue(action)}.`);
  }

  /**
   * Answers a grant query. Without `resourceId`: granted when the action is granted as any or own.
   * With it: granted when granted as any, or granted as own and the user owns that record.
   *
   * @example
   * ```ts
   * const permit = await permissions.grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 });
   * permit.granted; // true: user 1 created document 10
   * ```
   */
  async grantPermit<TId = unknown>(query: GrantQuery<TUser, TId>): Promise<Permit<TUser, TId, TFilter>> {
    const decided = this.decide(query);
    if (decided instanceof Permit) return decided;
    const { combination, resourceId } = decided;
    const { user, resource, action } = query;
    const memo = new OwnershipMemo(user, this.settings);
    const owned = await memo.isOwn(combination.owners, resourceId);
    return new Permit<TUser, TId, TFilter>(user, resource, action, resourceId, owned, owned, combination, this.settings, memo);
  }

  /**
   * Answers a grant query synchronously, for the queries that need no ownership hook: without
   * `resourceId`, or when the action is granted as any (or not at all). A query whose answer depends
   * on `isOwn(resourceId)` throws a PermissionsUsageError: use {@link Permissions.grantPermit}.
   *
   * @example
   * ```ts
   * const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
   * if (permit.granted) return permit.filterPick(rows);
   * ```
   */
  grantPermitSync<TId = unknown>(query: GrantQuery<TUser, TId>): Permit<TUser, TId, TFilter> {
    const decided = this.decide(query);
    if (decided instanceof Permit) return decided;
    throw new PermissionsUsageError(
      `grantPermitSync: ${query.action} on ${query.resource} ${String(decided.resourceId)} depends on ownership (an isOwner hook); ` +
        'use await grantPermit(query).',
    );
  }

  /**
   * What `user`'s roles may do, as compact JSON for a frontend (`createClient(slice)` of
   * `typed-permissions/client`): per resource and action, the `any` attributes and the ownership groups
   * with their own attributes, as opaque numbers. No hook, hook name, role name or definition text, and
   * nothing the user's roles may not do. `version` identifies the tables (a client can tell it is stale).
   * Depends on the roles only: cut once per distinct set of roles (the last {@link MAX_CACHED_SLICES}
   * kept) and frozen.
   *
   * @example
   * ```ts
   * app.get('/me/permissions', (req, res) => res.json(permissions.sliceFor(req.user)));
   * ```
   */
  sliceFor(user: TUser): PermissionSlice {
    const index = this.requireBuilt('sliceFor()');
    const roles = this.checkRoles(user, 'sliceFor');
    const key = rolesKey(roles);
    let slice = this.slices.get(key);
    if (slice === undefined) {
      this.version ??= tablesVersion(index.tables);
      const cut = cutSlice(index.tables, this.version, (resource, action) => this.lookup(index, roles, resource, action));
      slice = deepFreeze(cut);
      this.slices.set(key, slice, sliceBytes(cut) + 2 * key.length);
    }
    return slice;
  }

  /** The ownership groups of `roles` on `resource`, over every action (the groups a slice names for that resource). */
  private ownersOnResource(roles: readonly string[], resource: string): readonly LoadedOwner[] {
    const index = this.requireBuilt('owningGroups()');
    const key = JSON.stringify([resource, rolesKey(roles)]);
    let owners = this.resourceOwners.get(key);
    if (owners === undefined) {
      const found = new Map<number, LoadedOwner>();
      for (const action of index.resources.get(resource)?.keys() ?? []) {
        for (const owner of this.lookup(index, roles, resource, action).owners) found.set(owner.id, owner);
      }
      owners = Object.freeze([...found.values()].sort((a, b) => a.id - b.id));
      this.resourceOwners.set(key, owners, 96 + 2 * key.length + 8 * owners.length);
    }
    return owners;
  }

  /** The roles of a user given to `what`, checked like a grant query's. */
  private checkRoles(user: unknown, what: string): readonly string[] {
    if (typeof user !== 'object' || user === null)
      throw new PermissionsUsageError(`${what}: user must be an object { id, roles }, got ${describeValue(user)}.`);
    const roles: unknown = (user as { roles?: unknown }).roles;
    if (!Array.isArray(roles)) throw new PermissionsUsageError(`${what}: user.roles must be an array of role names, got ${describeValue(roles)}.`);
    for (let i = 0; i < roles.length; i++) {
      if (typeof roles[i] !== 'string')
        throw new PermissionsUsageError(`${what}: user.roles[${i}] must be a role name (string), got ${describeValue(roles[i])}.`);
    }
    return roles as readonly string[];
  }

  /** The decision without ownership hooks: a Permit, or what is needed to ask isOwn. */
  private decide<TId>(query: GrantQuery<TUser, TId>): Permit<TUser, TId, TFilter> | { combination: Combination; resourceId: TId } {
    const index = this.requireBuilt('grantPermit()');
    this.checkQuery(query);
    const { user, resource, action } = query;
    // The id in the resource's declared type ('10' → 10 for numeric ids); anything else is refused here, before any hook.
    const resourceId =
      query.resourceId === undefined || query.resourceId === null
        ? undefined
        : (resourceIdOfType(query.resourceId, resource, index.idTypes.get(resource)) as TId);
    const combination = this.lookup(index, user.roles, resource, action);
    if (resourceId === undefined || combination.anyGranted || !combination.ownActionGranted) {
      const granted = combination.anyGranted || combination.ownActionGranted;
      return new Permit<TUser, TId, TFilter>(user, resource, action, resourceId, granted, granted, combination, this.settings, undefined);
    }
    return { combination, resourceId };
  }
}
