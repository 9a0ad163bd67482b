/**
 * The engine over an immutable policy snapshot: it holds a reference to its current snapshot and nothing a
 * decision reads besides. This is the engine of compiled tables — what `typed-permissions/precompiled`
 * exports as `Permissions` and generated code loads; it holds no definitions builder and no zod.
 * `Permissions` of `typed-permissions` extends it with `build()`.
 */
import type { AddedDefinition } from '../core/table-building/build-definitions.js';
import { describeValue } from '../core/common/describe-value.js';
import type { PermissionDefinition, User } from '../core/definition/definition-types.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { GrantIndex } from '../core/tables/table-loader.js';
import { loadCompiledTables } from '../core/decision/bind-hooks.js';
import { callIdOf, nextCallSequence } from '../core/decision/call-id.js';
import { type LoggedDecision, type EngineSettings } from '../core/decision/engine-settings.js';
import { decisionLabelNumber, decisionLabelRefusal } from '../core/decision/decision-labels.js';
import type { DecisionTracing } from '../core/decision-log/decision-tracing.js';
import type { GrantQuery } from '../core/decision/grant-query.js';
import { OnceWarnings } from '../core/decision/once-warnings.js';
import type { PermissionSlice } from '../core/decision/permission-slice.js';
import { checkPermissionsOptions, type PermissionsOptions } from './permissions-options.js';
import type { Permit } from '../core/decision/permit.js';
import { PolicySnapshot } from '../core/decision/policy-snapshot.js';
import { type Vocabulary, vocabularyOf } from '../core/tables/vocabulary.js';
import type { FollowedEngine, FollowOptions, LivePolicy } from '../live/policy-follower.js';
import type { PolicySource } from '../live/policy-source.js';
import type { PolicyBundle } from '../live/policy-bundle.js';
import type { PermissionsSchema, TypedGrantQuery } from './schema-types.js';
import type { TenantSnapshots } from './tenant-snapshots.js';
import type { TenantRolesSource } from '../live/tenant-roles-source.js';
import type { TenantRolesOptions } from './tenant-roles-options.js';
import { checkTenantId, tenantIdProblem } from '../core/decision/tenant-id.js';

/** The tenant a query names, or undefined (a query that is no object is refused later, by the snapshot). */
function tenantOf(query: unknown): unknown {
  return typeof query === 'object' && query !== null ? (query as { tenant?: unknown }).tenant : undefined;
}

/** A source of tenants' custom roles being followed. */
export interface FollowedTenantRoles {
  /** How many tenants are kept now. */
  readonly tenants: number;
  /** Stops watching and forgets every tenant's custom roles (questions in a tenant then use the policy's roles only). */
  close(): Promise<void>;
}

/** A guarded decision of `snapshot`, inside a span where tracing is active. */
function decideTraced<TUser extends User<unknown>, TId, TFilter>(
  snapshot: PolicySnapshot<TUser, TFilter>,
  query: GrantQuery<TUser, TId>,
  via: string,
  tracing: DecisionTracing | undefined,
): Promise<Permit<TUser, TId, TFilter>> {
  return tracing?.active() === true ? tracing.trace(query, via, () => snapshot.grantPermit(query, via)) : snapshot.grantPermit(query, via);
}

/** The tables of `tables` (or of a bundle, with the version it carries, as generated code passes it). */
function tablesOfBundle(tables: GrantTables | PolicyBundle): { grantTables: GrantTables; version: string | undefined } {
  const bundle = tables as Partial<PolicyBundle>;
  if (typeof bundle === 'object' && bundle !== null && 'tables' in bundle && typeof bundle.version === 'string')
    return { grantTables: bundle.tables as GrantTables, version: bundle.version };
  return { grantTables: tables as GrantTables, version: undefined };
}

/** The error of `what` asked of an engine that has no policy yet. */
function unbuilt(what: string): PermissionsUsageError {
  return new PermissionsUsageError(`${what} needs build() first: call permissions.build() at application start, after addPermissions().`);
}

/** Refuses the options that compiled tables carry themselves. */
function refuseTableOptions(options: PermissionsOptions<any, any>): void {
  for (const [key, what, each, declaration] of [
    ['ownedAmong', 'ownedAmong executors', 'each executor', '"ownedAmong": "<method>"'],
    ['resourceIdTypes', 'resource id types', 'each id type', '"idType": "number"'],
    ['resourceActions', 'declared actions', "each resource's actions", '"actions": ["read", "approve"]'],
  ] as const) {
    if (options[key] !== undefined) {
      throw new PermissionsUsageError(
        `Precompiled tables carry the ${what}; remove the ${key} option and declare ${each} ` +
          `in its resource file (${declaration} in definitions/<resource>.resource.json), then compile again (npx typed-permissions compile).`,
      );
    }
  }
}

/**
 * The permissions engine of compiled tables: `typed-permissions/precompiled` exports it as `Permissions`.
 *
 * @example
 * ```ts
 * import { Permissions } from 'typed-permissions/precompiled';
 * const permissions = Permissions.fromTables(grantTables, { ownership: new DocumentOwnership(db) });
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * ```
 */
export class PrecompiledPermissions<TUser extends User<unknown> = User<unknown>, TFilter = any> {
  /** The checked options, shared by every snapshot of this engine. */
  protected readonly settings: EngineSettings;
  /** Definitions added before `build()`. */
  protected readonly added: AddedDefinition[] = [];
  private readonly warnings: OnceWarnings;
  /**
   * The tracing of guarded decisions, where `@opentelemetry/api` is installed and telemetry is on: loaded by the
   * first guarded decision (null until then; a promise while it loads), so that an application that never guards,
   * or starts and exits, does not pay for loading the API at start, and a page does not carry the tracing code.
   */
  private tracing: DecisionTracing | undefined | null | Promise<DecisionTracing | undefined> = null;
  private current: PolicySnapshot<TUser, TFilter> | undefined;
  /**
   * The snapshots of tenants: loaded, with the builder of custom roles, by the first question that names a tenant
   * (a page that never names one does not carry them).
   */
  private tenantSnapshots: TenantSnapshots | undefined;
  private tenantsLoading: Promise<TenantSnapshots> | undefined;
  /**
   * What the running code is written against: the vocabulary of the first policy installed (the compiled tables,
   * or the definitions built). Live versions are checked against it and never change it, so a version that leaves
   * a resource out does not stop a later one that has it again.
   */
  private vocabulary: Vocabulary | undefined;

  constructor(options: PermissionsOptions<TUser, TFilter> = {}) {
    this.settings = checkPermissionsOptions(options);
    this.warnings = new OnceWarnings(this.settings.strict, this.settings.logger);
  }

  /**
   * Creates a built instance from precomputed tables (what the compiler emits), without validating
   * or expanding definitions again. Hook names are bound to methods of `options.ownership`; a
   * missing method throws a PermissionDefinitionError naming it. The same as `permissionsFromTables`.
   *
   * @example
   * ```ts
   * const permissions = Permissions.fromTables(grantTables, { ownership: new DocumentOwnership(db) });
   * ```
   */
  static fromTables<TUser extends User<unknown> = User<unknown>, TFilter = any>(
    tables: GrantTables | PolicyBundle,
    options: PermissionsOptions<TUser, TFilter> = {},
  ): PrecompiledPermissions<TUser, TFilter> {
    refuseTableOptions(options);
    // `this`: called as Permissions.fromTables (of typed-permissions), the engine is a Permissions.
    const engine = new this(options);
    const { grantTables, version } = tablesOfBundle(tables);
    return engine.install(loadCompiledTables(grantTables, engine.settings), version);
  }

  /**
   * The version of the active policy: the SHA-256 of its tables' canonical JSON, as `npx typed-permissions compile`
   * writes it into `generated/` and `policy.json`. Slices and guarded responses (`x-permissions-version`) carry it.
   *
   * @example
   * ```ts
   * permissions.policyVersion; // '3f1c...' (64 hex digits)
   * ```
   */
  get policyVersion(): string {
    return this.snapshot('policyVersion').version;
  }

  /**
   * Follows a policy source (`typed-permissions/live`: a file, a URL, a PostgreSQL store): loads its current
   * version, checks it against the running code (the resources, actions and id types it is written against,
   * the ownership service's methods) and activates it by replacing the engine's snapshot at once; then does
   * the same for every later version the source holds. A request decided before a swap finishes on its own
   * snapshot; one after it sees only the new policy. A version that cannot be honoured is rejected (`onReject`)
   * and the last good version stays; an older or equal version is ignored. Never rejects for the source's
   * sake: when the first version cannot be loaded, the engine keeps its policy (or stays without one, see
   * `built`) and the source is watched on.
   *
   * @example
   * ```ts
   * const live = await permissions.follow(filePolicySource('generated/policy.json'), {
   *   onChange: ({ version }) => logger.info(`policy ${version} active`),
   *   onReject: ({ version, reasons }) => logger.error(`policy ${version} rejected: ${reasons.join('; ')}`),
   * });
   * // at shutdown
   * await live.close();
   * ```
   */
  async follow(source: PolicySource, options: FollowOptions = {}): Promise<LivePolicy> {
    if (typeof source !== 'object' || source === null || typeof source.read !== 'function' || typeof source.watch !== 'function')
      throw new PermissionsUsageError(
        'follow(source): source must be a policy source (filePolicySource, postgresPolicySource, httpPolicySource from typed-permissions/live).',
      );
    // Loaded when first asked for: a page or an application that never follows a source does not carry the follower,
    // the bundle checks and the policy-test runner.
    const { checkFollowOptions, PolicyFollower } = await import('../live/policy-follower.js');
    checkFollowOptions(options);
    const follower = new PolicyFollower(source, this.followed(), options);
    await follower.start();
    return follower;
  }

  /** Whether the engine has a policy (`build()` ran, or it was made from tables). */
  get built(): boolean {
    return this.current !== undefined;
  }

  /** The grant tables of the current policy (for inspection and for comparing with the compiler's output). */
  get tables(): GrantTables {
    return this.snapshot('tables').tables;
  }

  /** This engine, typed plainly (what a typed engine's `permissions` gives). */
  get permissions(): PrecompiledPermissions<TUser, TFilter> {
    return this;
  }

  /**
   * This engine, typed by the schema the compiler emits: `grantPermit` then accepts only the resources of the
   * definitions, their actions and id types. The same object, for what the generated `createPermissions` returns.
   *
   * @example
   * ```ts
   * const typed = permissionsFromTables<AppUser>(grantTables, { ownership }).typed<Schema>();
   * await typed.grantPermit({ user, resource: 'document', action: 'approve' }); // does not compile
   * ```
   */
  typed<S extends PermissionsSchema>(): TypedPermissions<S, TUser, TFilter> {
    this.snapshot('typed()');
    return this;
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
    if (this.current !== undefined)
      throw new PermissionsUsageError('addPermissions() was called after build(); add every definition before build() (at application start).');
    if (!Array.isArray(definitions))
      throw new PermissionsUsageError(`addPermissions(definitions) expects an array of PermissionDefinitions, got ${describeValue(definitions)}.`);
    const source = typeof options?.source === 'string' ? options.source : undefined;
    definitions.forEach((definition: unknown, index) => this.added.push({ definition, location: source === undefined ? { index } : { index, source } }));
    return this;
  }

  /**
   * Refuses: validating and building definitions is what `typed-permissions/precompiled` leaves out to stay small
   * (`Permissions` of `typed-permissions` builds).
   *
   * @example
   * ```ts
   * import { Permissions } from 'typed-permissions'; // not from 'typed-permissions/precompiled'
   * new Permissions({ ownership }).addPermissions(definitions).build();
   * ```
   */
  build(): this {
    if (this.built) throw new PermissionsUsageError('build() was already called; a Permissions instance is built once.');
    throw new PermissionsUsageError(
      "build() validates definitions, which 'typed-permissions/precompiled' leaves out to stay small: import Permissions from 'typed-permissions' where " +
        'definitions are built at run time, or compile them ahead of time (npx typed-permissions compile) and load the generated tables.',
    );
  }

  /**
   * Answers a grant query. Without `resourceId`: granted when the action is granted as any or own.
   * With it: granted when granted as any, or granted as own and the user owns that record. The
   * Permit keeps the policy it was decided on.
   *
   * @example
   * ```ts
   * const permit = await permissions.grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 });
   * permit.granted; // true: user 1 created document 10
   * ```
   */
  grantPermit<TId = unknown>(query: GrantQuery<TUser, TId>): Promise<Permit<TUser, TId, TFilter>> {
    // A snapshot answers a wrong query with a rejection; only a missing one is known here.
    const snapshot = this.current;
    if (snapshot === undefined) return Promise.reject(unbuilt('grantPermit()'));
    const tenant = tenantOf(query);
    if (tenant === undefined) return snapshot.grantPermit(query);
    return this.inTenant(snapshot, tenant, (inTenant) => inTenant.grantPermit(query));
  }

  /** `decide` with the snapshot of `tenant` over `snapshot`: at once when it is kept, else after reading its custom roles. */
  private inTenant<T>(snapshot: PolicySnapshot<TUser, TFilter>, tenant: unknown, decide: (snapshot: PolicySnapshot<TUser, TFilter>) => Promise<T>): Promise<T> {
    // A kept tenant's id was checked when it was first asked: only a tenant not kept is checked (and read).
    const ready = typeof tenant === 'string' ? this.tenantSnapshots?.kept(snapshot, tenant) : undefined;
    if (ready !== undefined) return decide(ready as PolicySnapshot<TUser, TFilter>);
    const problem = tenantIdProblem(tenant);
    if (problem !== undefined) return Promise.reject(new PermissionsUsageError(`grantPermit: tenant ${problem}.`));
    return this.tenants()
      .then((tenants) => tenants.snapshotFor(snapshot, tenant as string))
      .then((inTenant) => decide(inTenant as PolicySnapshot<TUser, TFilter>));
  }

  /** The tenants' snapshots, loaded once. */
  private tenants(): Promise<TenantSnapshots> {
    return (this.tenantsLoading ??= import('./tenant-following.js').then(({ TenantSnapshots }) => (this.tenantSnapshots = new TenantSnapshots())));
  }

  /** The snapshot of `tenant` when it is kept; a PermissionsUsageError naming `what` when its custom roles must be read first. */
  private readyTenant(snapshot: PolicySnapshot<TUser, TFilter>, tenant: unknown, what: string): PolicySnapshot<TUser, TFilter> {
    // The warm path is this one look-up; the rest is apart, so that the engine can inline this into every decision.
    const kept = typeof tenant === 'string' ? this.tenantSnapshots?.kept(snapshot, tenant) : undefined;
    return kept !== undefined ? (kept as PolicySnapshot<TUser, TFilter>) : this.tenantNotKept(snapshot, tenant, what);
  }

  /** See {@link readyTenant}: a tenant not kept (made now when nothing must be read), or refused. */
  private tenantNotKept(snapshot: PolicySnapshot<TUser, TFilter>, tenant: unknown, what: string): PolicySnapshot<TUser, TFilter> {
    const id = checkTenantId(tenant, `${what}: tenant`);
    const tenants = this.tenantSnapshots;
    // Not loaded: no source was ever followed (following loads it first), so there are no custom roles to read and the
    // tenant decides with the policy's roles, as it does once the module is loaded by an asynchronous question.
    if (tenants === undefined)
      return new PolicySnapshot(snapshot.index, snapshot.settings, snapshot.warnings, snapshot.version, { id, tables: undefined, sequence: undefined });
    const ready = tenants.ready(snapshot, id);
    if (ready !== undefined) return ready as PolicySnapshot<TUser, TFilter>;
    // Too large to keep, or not read yet: the tenants' module says which.
    throw tenants.notReady(what, id);
  }

  /**
   * Reads `tenant`'s custom roles, when they are not kept yet, so that `grantPermitSync` and `sliceFor` can answer
   * in that tenant. Rejects with a PermissionsTenantRolesError when the source cannot be read, and with a
   * PermissionsUsageError when they are too large to keep (larger than `maxBytes` of `followTenantRoles`).
   *
   * @example
   * ```ts
   * await permissions.loadTenant('acme');
   * permissions.grantPermitSync({ user, resource: 'document', action: 'list', tenant: 'acme' });
   * ```
   */
  async loadTenant(tenant: string): Promise<void> {
    const snapshot = this.snapshot('loadTenant()');
    checkTenantId(tenant, 'loadTenant: tenant');
    await (await this.tenants()).load(snapshot, tenant);
  }

  /**
   * Follows a source of tenants' custom roles (`postgresTenantRoles`, `fileTenantRoles` of `typed-permissions/live`,
   * or the application's own): a question asked in a tenant then decides with the tenant's custom roles beside the
   * policy's, read from the source when the tenant is first asked about (one read) and kept in a bounded cache; when
   * the source says a tenant changed, that tenant alone is read again. Custom roles that do not fit the active
   * policy grant nothing (reported once through the logger). Needs zod (custom roles are checked when read).
   *
   * @example
   * ```ts
   * const tenantRoles = await permissions.followTenantRoles(postgresTenantRoles({ connectionString }));
   * await permissions.grantPermit({ user, resource: 'document', action: 'review', resourceId: 3, tenant: 'acme' });
   * // at shutdown
   * await tenantRoles.close();
   * ```
   */
  async followTenantRoles(source: TenantRolesSource, options: TenantRolesOptions = {}): Promise<FollowedTenantRoles> {
    if (typeof source !== 'object' || source === null || typeof source.read !== 'function')
      throw new PermissionsUsageError(
        'followTenantRoles(source): source must be a source of tenant roles ' +
          '(postgresTenantRoles, fileTenantRoles from typed-permissions/live, or an object with read(tenant)).',
      );
    // Checking and building custom roles needs the table builder and zod, which a page that never follows tenants does not carry.
    const [{ checkTenantRolesOptions, buildTenantRoles }, tenants] = await Promise.all([import('./tenant-following.js'), this.tenants()]);
    const { maxTenants, maxBytes, readTimeoutMs, onError } = checkTenantRolesOptions(options, this.settings.logger);
    const settings = { source, build: buildTenantRoles, maxTenants, maxBytes, readTimeoutMs };
    tenants.use(settings);
    // A handle that a later followTenantRoles replaced changes nothing of the source followed now.
    const stop = source.watch?.((tenant) => {
      if (tenants.follows(settings)) tenants.changed(tenant);
    }, onError);
    return {
      get tenants() {
        return tenants.follows(settings) ? tenants.size : 0;
      },
      close: async () => {
        if (tenants.follows(settings)) tenants.use(undefined);
        await stop?.();
      },
    };
  }

  /**
   * How an integration asks: the decision of `grantPermit`, with the decision log's event saying `via` (the
   * integration's label: a letter, then letters, digits, `.`, `_` or `-`, at most 32 characters; at most 64
   * distinct labels per process), and a span around it where OpenTelemetry is installed. Applications call
   * `grantPermit`; an integration calls `decideRequest` of `typed-permissions/integration`, which calls this.
   *
   * @example
   * ```ts
   * const permit = await permissions.grantPermitVia({ user, resource: 'document', action: 'read', resourceId: 3 }, 'express');
   * ```
   */
  grantPermitVia<TId = unknown>(query: GrantQuery<TUser, TId>, via: string): Promise<Permit<TUser, TId, TFilter>> {
    const snapshot = this.current;
    if (snapshot === undefined) return Promise.reject(unbuilt('grantPermit()'));
    const refused = decisionLabelRefusal(via);
    if (refused !== undefined) return Promise.reject(refused);
    const tenant = tenantOf(query);
    if (tenant !== undefined) return this.inTenant(snapshot, tenant, (inTenant) => this.decideVia(inTenant, query, via));
    return this.decideVia(snapshot, query, via);
  }

  /** A guarded decision of `snapshot`, traced where tracing is on. */
  private decideVia<TId>(snapshot: PolicySnapshot<TUser, TFilter>, query: GrantQuery<TUser, TId>, via: string): Promise<Permit<TUser, TId, TFilter>> {
    const tracing = this.tracing === null ? (this.tracing = this.loadTracing()) : this.tracing;
    if (tracing instanceof Promise)
      return tracing.then((loaded) => {
        this.tracing = loaded;
        return decideTraced(snapshot, query, via, loaded);
      });
    return decideTraced(snapshot, query, via, tracing);
  }

  /** The tracing, where telemetry is on and Node.js can load `@opentelemetry/api` (never in a browser). */
  private loadTracing(): Promise<DecisionTracing | undefined> | undefined {
    const { telemetry } = this.settings;
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule;
    if (telemetry === false || typeof getBuiltinModule !== 'function') return undefined;
    const warn = (message: string): void => this.settings.logger.warn(`typed-permissions: ${message}`);
    return import('../core/decision-log/decision-tracing.js')
      .then(({ DecisionTracing }) => DecisionTracing.load(telemetry, warn))
      .catch((error: unknown) => {
        // The module or the API did not load: decisions go on untraced (a rejected load kept would refuse every guarded decision).
        try {
          warn(`OpenTelemetry did not load (${error instanceof Error ? error.message : String(error)}); decisions are not traced.`);
        } catch {
          // An error that cannot be read (a throwing getter or toString) or a logger that throws: still untraced, never refused.
        }
        return undefined;
      });
  }

  /**
   * What the decision log (`onDecision`) did so far (events delivered, failed, dropped, skipped, pending) and a
   * way to wait for the pending ones (at shutdown). Undefined without `onDecision`.
   *
   * @example
   * ```ts
   * await permissions.decisionLog?.flush();
   * console.log(permissions.decisionLog?.stats); // { delivered: 120, failed: 0, dropped: 0, skipped: 0, pending: 0 }
   * ```
   */
  get decisionLog():
    | {
        /**
         * Events the sink accepted, whose call failed (threw, rejected, timed out), dropped (the queue was full),
         * skipped (sampled out, or granted with `logGranted: false`), waiting now.
         */
        readonly stats: { readonly delivered: number; readonly failed: number; readonly dropped: number; readonly skipped: number; readonly pending: number };
        flush(): Promise<void>;
      }
    | undefined {
    const log = this.settings.decisionLog;
    return log === undefined ? undefined : { stats: log.stats, flush: () => log.flush() };
  }

  /**
   * @internal Logs a decision made outside `grantPermit` from this engine's current policy (the decision
   * service's answers, `via: 'service'`), and returns its call id; undefined when there is no decision log. A
   * decision made in `tenant` is logged with that tenant's snapshot (kept, since the decision was just made there).
   */
  logDecision(decision: Omit<LoggedDecision, 'callSequence'>, via: string, ownershipChecked: boolean, tenant?: string): string | undefined {
    const log = this.settings.decisionLog;
    const current = this.current;
    if (log === undefined || current === undefined) return undefined;
    const snapshot = tenant === undefined ? current : (this.tenantSnapshots?.ready(current, tenant) ?? current);
    decisionLabelNumber(via);
    const callSequence = nextCallSequence();
    log.record({ ...decision, callSequence }, snapshot, via, ownershipChecked);
    return callIdOf(callSequence);
  }

  /**
   * Answers a grant query synchronously, for the queries that need no ownership hook: without
   * `resourceId`, or when the action is granted as any (or not at all). A query whose answer depends
   * on `isOwn(resourceId)` throws a PermissionsUsageError: use `grantPermit`.
   *
   * @example
   * ```ts
   * const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
   * if (permit.granted) return permit.filterPick(rows);
   * ```
   */
  grantPermitSync<TId = unknown>(query: GrantQuery<TUser, TId>): Permit<TUser, TId, TFilter> {
    const snapshot = this.snapshot('grantPermit()');
    const tenant = tenantOf(query);
    return (tenant === undefined ? snapshot : this.readyTenant(snapshot, tenant, 'grantPermitSync')).grantPermitSync(query);
  }

  /**
   * What `user`'s roles may do, as compact JSON for a frontend (`createClient(slice)` of
   * `typed-permissions/client`): per resource and action, the `any` attributes and the ownership groups
   * with their own attributes, as opaque numbers. No hook, hook name, role name or definition text, and
   * nothing the user's roles may not do. `version` identifies the policy (a client can tell it is stale).
   * Depends on the roles only: cut once per distinct set of roles (bounded by count and bytes) and frozen.
   *
   * @example
   * ```ts
   * app.get('/me/permissions', (req, res) => res.json(permissions.sliceFor(req.user)));
   * ```
   */
  sliceFor(user: TUser, options: { readonly tenant?: string | undefined } = {}): PermissionSlice {
    const snapshot = this.snapshot('sliceFor()');
    const tenant = tenantOf(options);
    return (tenant === undefined ? snapshot : this.readyTenant(snapshot, tenant, 'sliceFor')).sliceFor(user);
  }

  /** Makes the policy of `index` the current one: one assignment, so a request sees either policy, never both. */
  protected install(index: GrantIndex, version?: string): this {
    this.current = new PolicySnapshot<TUser, TFilter>(index, this.settings, this.warnings, version);
    this.vocabulary ??= vocabularyOf(this.current.tables);
    return this;
  }

  /** The engine as a policy follower sees it. */
  private followed(): FollowedEngine {
    const { settings } = this;
    const engine = (): PrecompiledPermissions<TUser, TFilter> => this;
    return {
      get activeVersion() {
        return engine().current?.version;
      },
      vocabulary: () => this.vocabulary,
      ownership: settings.ownership,
      ownershipRules: settings.ownershipRules,
      check: undefined,
      install: ({ index, version }) => void this.install(index, version),
      warn: (message) => settings.logger.warn(`typed-permissions: ${message}`),
    };
  }

  /** The current policy snapshot; throws a usage error naming `what` before `build()`. */
  private snapshot(what: string): PolicySnapshot<TUser, TFilter> {
    if (this.current === undefined) throw unbuilt(what);
    return this.current;
  }
}

declare const schemaType: unique symbol;

/**
 * A `Permissions` whose `grantPermit` is typed by a schema (what the generated `createPermissions` returns;
 * `permissions.typed<Schema>()`). It is the engine itself: `permissions` is the same object, typed plainly,
 * for APIs that take a `Permissions`.
 */
export interface TypedPermissions<S extends PermissionsSchema, TUser extends User<unknown>, TFilter> extends Omit<
  PrecompiledPermissions<TUser, TFilter>,
  'grantPermit' | 'grantPermitSync'
> {
  /** The same engine, typed without the schema. */
  readonly permissions: PrecompiledPermissions<TUser, TFilter>;
  /** Like `Permissions.grantPermit`, with the resource's actions and id type checked at compile time. */
  grantPermit<R extends keyof S['resources'] & string>(query: TypedGrantQuery<S, TUser, R>): Promise<Permit<TUser, S['resources'][R]['id'], TFilter>>;
  /** Like `Permissions.grantPermitSync`, typed the same way. */
  grantPermitSync<R extends keyof S['resources'] & string>(query: TypedGrantQuery<S, TUser, R>): Permit<TUser, S['resources'][R]['id'], TFilter>;
  /** The schema, for type inference only (never set). */
  readonly [schemaType]?: S;
}

/**
 * An engine from precompiled tables (what `npx typed-permissions compile` emits: `grantTables`, or the policy
 * bundle `{ format: 1, version, tables }` of `policy.json`, whose version it keeps), binding hook names to the
 * methods of `options.ownership`. Loads nothing else: no zod, no table builder.
 *
 * @example
 * ```ts
 * const permissions = permissionsFromTables<AppUser>(grantTables, { ownership: new DocumentOwnership(db) });
 * ```
 */
export function permissionsFromTables<TUser extends User<unknown> = User<unknown>, TFilter = any>(
  tables: GrantTables | PolicyBundle,
  options: PermissionsOptions<TUser, TFilter> = {},
): PrecompiledPermissions<TUser, TFilter> {
  return PrecompiledPermissions.fromTables<TUser, TFilter>(tables, options);
}
