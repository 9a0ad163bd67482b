/**
 * The snapshots of tenants: a question asked in a tenant is decided by that tenant's snapshot — the policy's
 * tables with the tenant's custom roles beside them, and the tenant on every permit (ownership rules and hooks
 * read it). A tenant's custom roles are read from the followed source when a decision first asks about the tenant
 * (one read; concurrent first questions share it), kept in a cache bounded by count and bytes, and forgotten when
 * the source says that tenant changed. Nothing made for one tenant — rows, caches, slices — is read by another.
 */
import { BoundedCache, CacheBudget } from '../core/common/bounded-cache.js';
import { PermissionsTenantRolesError, PermissionsUsageError } from '../core/common/errors.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import { overlayTenantRoles, tenantViewBytes } from '../core/tables/tenant-overlay.js';
import { MAX_COMBINATION_CACHE_BYTES } from '../core/tables/table-loader.js';
import { COMPILED_FORM_FORMAT, readCompiledTenantRoles } from '../core/tables/compiled-tenant-roles.js';
import { PolicySnapshot, snapshotBudgets } from '../core/decision/policy-snapshot.js';
import { OnceWarnings } from '../core/decision/once-warnings.js';
import { describeValue } from '../core/common/describe-value.js';
import { thrownText } from '../core/common/thrown-text.js';
import { withinTime } from '../core/common/within-time.js';
import type { TenantRolesSource, TenantRolesVersion } from '../live/tenant-roles-source.js';
import type { buildTenantRoles } from '../core/table-building/tenant-roles.js';

/** Tenants kept by default. */
export const DEFAULT_MAX_TENANTS = 1000;
/** The estimated bytes of every tenant's custom roles and rows kept, by default. */
export const DEFAULT_MAX_TENANT_BYTES = 64 * 1024 * 1024;

/**
 * `version` as a kept tenant keeps it, to make its snapshot again when the policy changes: without its compiled
 * roles, which were compiled for the policy just used (another policy builds the document), and without reading its
 * document (a lazily parsed one stays unparsed). In the tenants benchmark the compiled text is 2.7 KB a tenant.
 *
 * @example
 * ```ts
 * keptVersion({ tenant: 'acme', sequence: 3, document, compiled }); // { tenant: 'acme', sequence: 3, document }
 * ```
 */
export function keptVersion(version: TenantRolesVersion): TenantRolesVersion {
  if (version.compiled === undefined) return version;
  const kept = { tenant: version.tenant, sequence: version.sequence } as TenantRolesVersion;
  const document = Object.getOwnPropertyDescriptor(version, 'document');
  // The source's own property: a value, or the getter that parses the text when first read.
  Object.defineProperty(kept, 'document', document === undefined ? { value: undefined, enumerable: true } : { ...document, enumerable: true });
  return kept;
}

/** One tenant as cached: its custom roles' version, and its snapshot for the policy it was last asked with. */
interface TenantEntry {
  readonly version: TenantRolesVersion | undefined;
  /** The snapshot for `base`; remade (without reading the source) when the policy changes. */
  snapshot: PolicySnapshot;
  base: PolicySnapshot;
}

/** A read in progress, and whether the tenant changed while it ran (it is then read again). */
interface Pending {
  promise: Promise<TenantEntry>;
  stale: boolean;
}

/** What following a source of tenants' custom roles needs from the engine. */
export interface TenantFollowSettings {
  readonly source: TenantRolesSource;
  readonly build: typeof buildTenantRoles;
  readonly maxTenants: number;
  readonly maxBytes: number;
  /** How long one read may take before it counts as failed. */
  readonly readTimeoutMs: number;
}

/**
 * `settings.source.read(tenant)`, or a failure when it does not settle within `timeoutMs` (its late answer is
 * dropped): `late` says why the wait ended.
 */
function readWithin(settings: TenantFollowSettings, tenant: string, timeoutMs: number, late: string): Promise<unknown> {
  return withinTime(
    () => settings.source.read(tenant),
    timeoutMs,
    () => new Error(late),
  );
}

/**
 * What a read of `tenant` answered instead of a version of it, or undefined when it is one: its sequence is a
 * positive whole number (it names the version in warnings, and keys what is said of it).
 *
 * @example
 * ```ts
 * versionProblem('acme', { tenant: 'acme', sequence: 1n, document }); // 'a version whose sequence is bigint (not a positive whole number)'
 * ```
 */
function versionProblem(tenant: string, read: unknown): string | undefined {
  if (typeof read !== 'object' || read === null) return describeValue(read);
  const { tenant: of, sequence } = read as Partial<Record<keyof TenantRolesVersion, unknown>>;
  if (of !== tenant) return 'the version of another tenant';
  if (!Number.isSafeInteger(sequence) || (sequence as number) < 1)
    return `a version whose sequence is ${typeof sequence === 'number' ? String(sequence) : describeValue(sequence)} (not a positive whole number)`;
  return undefined;
}

/** What follows when tenants' compiled roles are for another policy or another version: the same remedy for both. */
const BUILT_UNTIL_PUBLISHED =
  'their documents are built instead (a slower first decision per tenant) until `typed-permissions policy publish` compiles them again';

/**
 * The tenants of one engine.
 *
 * @example
 * ```ts
 * const tenants = new TenantSnapshots();
 * const snapshot = await tenants.snapshotFor(current, 'acme');
 * ```
 */
export class TenantSnapshots {
  private settings: TenantFollowSettings | undefined;
  private entries = this.cache(DEFAULT_MAX_TENANTS, DEFAULT_MAX_TENANT_BYTES);
  /**
   * The snapshots kept over {@link keptOver}, by tenant id: the warm path's one look-up, kept in step with the cache.
   * A Map, not a dictionary object: tenant ids come from requests, and a property look-up with a string just read
   * from a request first looks it up in the engine's table of names (measured: 40 ns more per decision than a Map).
   * It holds snapshots, not entries: one read fewer per decision.
   */
  private byTenant = new Map<string, PolicySnapshot>();
  /** The policy the snapshots of {@link byTenant} are over: a new one starts an empty map. */
  private keptOver: PolicySnapshot | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Shared by every tenant's snapshot: their caches are bounded together, whatever the number of tenants. */
  private readonly budgets = snapshotBudgets();
  private readonly combinationBudget = new CacheBudget(MAX_COMBINATION_CACHE_BYTES);
  /** Tenants whose last read failed, so that a failing source is reported once per tenant until it answers. */
  private readonly unreadable = new Set<string>();
  /**
   * Tenants whose last snapshot was larger than the whole of `maxBytes`, with its estimated bytes and that
   * `maxBytes`: never kept, so that `loadTenant` and the synchronous questions say why (bounded as {@link unreadable} is).
   */
  private readonly tooLarge = new Map<string, { readonly bytes: number; readonly maxBytes: number }>();
  /** What was said of tenants' custom roles (refused, compiled forms not used), made when first needed. */
  private said: OnceWarnings | undefined;

  /** How many tenants are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Reads custom roles from `settings.source` from now on (every tenant kept so far is forgotten).
   *
   * @example
   * ```ts
   * tenants.use({ source, build: buildTenantRoles, maxTenants: 1000, maxBytes: 64 * 1024 * 1024 });
   * ```
   */
  use(settings: TenantFollowSettings | undefined): void {
    this.settings = settings;
    this.changed(undefined);
    this.tooLarge.clear();
    // A read of the settings before (even one that never ends) is no read of these: the next question reads anew.
    this.pending.clear();
    this.entries = this.cache(settings?.maxTenants ?? DEFAULT_MAX_TENANTS, settings?.maxBytes ?? DEFAULT_MAX_TENANT_BYTES);
  }

  /**
   * Whether `settings` are the ones followed now: a handle of `followTenantRoles` that another one replaced
   * neither forgets tenants when its source says they changed nor stops the one that replaced it.
   *
   * @example
   * ```ts
   * if (tenants.follows(settings)) tenants.use(undefined);
   * ```
   */
  follows(settings: TenantFollowSettings): boolean {
    return this.settings === settings;
  }

  private cache(maxTenants: number, maxBytes: number): BoundedCache<string, TenantEntry> {
    return new BoundedCache(
      maxTenants,
      new CacheBudget(maxBytes),
      (tenant, entry) => {
        if (this.byTenant.get(tenant) === entry.snapshot) this.byTenant.delete(tenant);
      },
      // Second chance: a tenant asked about since the cache last passed over it stays (least recently asked goes first).
      (_tenant, entry) => {
        if (!entry.snapshot.recentlyAsked) return false;
        entry.snapshot.recentlyAsked = false;
        return true;
      },
    );
  }

  /**
   * Forgets `tenant` (every tenant, for undefined): its next question reads the source again. A read running now
   * is read again when it ends, so an answer from before the change is never kept.
   *
   * @example
   * ```ts
   * source.watch((tenant) => tenants.changed(tenant), onError);
   * ```
   */
  changed(tenant: string | undefined): void {
    if (tenant === undefined) {
      for (const name of new Set([...this.pending.keys(), ...this.entries.keys()])) this.changed(name);
      return;
    }
    this.entries.delete(tenant);
    // Its next version may fit.
    this.tooLarge.delete(tenant);
    const running = this.pending.get(tenant);
    if (running !== undefined) running.stale = true;
  }

  /**
   * The snapshot of `tenant` over `base` when it is kept and made for `base`: the hot path of a warm tenant (one
   * map look-up; every kept tenant's id was checked when it was first asked).
   *
   * @example
   * ```ts
   * const snapshot = tenants.kept(current, 'acme') ?? tenants.ready(current, 'acme');
   * ```
   */
  kept(base: PolicySnapshot, tenant: string): PolicySnapshot | undefined {
    if (base !== this.keptOver) return undefined;
    const snapshot = this.byTenant.get(tenant);
    // One store per question: the mark the cache reads before it forgets the oldest tenant.
    if (snapshot !== undefined) snapshot.recentlyAsked = true;
    return snapshot;
  }

  /**
   * The snapshot of `tenant` over `base`, when its custom roles are kept (or no source is followed); undefined when
   * they must be read first.
   *
   * @example
   * ```ts
   * const snapshot = tenants.ready(current, 'acme') ?? (await tenants.snapshotFor(current, 'acme'));
   * ```
   */
  ready(base: PolicySnapshot, tenant: string): PolicySnapshot | undefined {
    const entry = this.entries.get(tenant);
    // Off the hot path (a first question after a policy change, loadTenant): the tenant becomes the newest kept.
    if (entry !== undefined) this.entries.refresh(tenant);
    if (entry !== undefined && entry.base === base) return this.keptFast(tenant, base, entry.snapshot);
    if (entry !== undefined) return this.remake(tenant, entry.version, base).snapshot;
    if (this.settings !== undefined) return undefined;
    return this.remake(tenant, undefined, base).snapshot;
  }

  /**
   * The snapshot of `tenant` over `base`: kept, or made after one read of the source. Rejects with a
   * PermissionsTenantRolesError when the source cannot be read.
   *
   * @example
   * ```ts
   * const permit = await (await tenants.snapshotFor(current, 'acme')).grantPermit(query);
   * ```
   */
  snapshotFor(base: PolicySnapshot, tenant: string): PolicySnapshot | Promise<PolicySnapshot> {
    return (
      this.ready(base, tenant) ??
      this.read(tenant, base).then((entry) => (entry.base === base ? entry.snapshot : this.remake(tenant, entry.version, base).snapshot))
    );
  }

  /**
   * Reads `tenant`'s custom roles when they are not kept, for `loadTenant`: rejects with a PermissionsUsageError when
   * they are too large to keep (the synchronous questions could not answer in it), with a
   * PermissionsTenantRolesError when the source cannot be read.
   *
   * @example
   * ```ts
   * await tenants.load(current, 'acme');
   * tenants.ready(current, 'acme'); // its snapshot
   * ```
   */
  async load(base: PolicySnapshot, tenant: string): Promise<void> {
    await this.snapshotFor(base, tenant);
    const tooLarge = this.tooLargeProblem(tenant);
    if (tooLarge !== undefined)
      throw new PermissionsUsageError(
        `loadTenant: ${tooLarge}, so grantPermitSync and sliceFor cannot decide in it. Raise maxBytes in ` +
          'followTenantRoles(source, { maxBytes }), or decide in it with await permissions.grantPermit(query), which reads its roles for each question.',
      );
  }

  /**
   * Why a synchronous question (`what`) cannot be decided in `tenant`, which {@link ready} does not give: its custom
   * roles are too large to keep, or not read yet.
   *
   * @example
   * ```ts
   * const snapshot = tenants.ready(current, 'acme') ?? throwing(tenants.notReady('grantPermitSync', 'acme'));
   * ```
   */
  notReady(what: string, tenant: string): PermissionsUsageError {
    const tooLarge = this.tooLargeProblem(tenant);
    return new PermissionsUsageError(
      tooLarge === undefined
        ? `${what}: the custom roles of tenant ${JSON.stringify(tenant)} are not loaded yet; await permissions.loadTenant(tenant) first, ` +
            'or decide with await permissions.grantPermit(query), which loads them.'
        : `${what}: ${tooLarge}, so no synchronous question can decide in it. Raise maxBytes in followTenantRoles(source, { maxBytes }), ` +
            'or decide with await permissions.grantPermit(query), which reads them for each question.',
    );
  }

  private read(tenant: string, base: PolicySnapshot): Promise<TenantEntry> {
    const running = this.pending.get(tenant);
    if (running !== undefined) return running.promise;
    const pending = { stale: false } as Pending;
    this.pending.set(tenant, pending);
    // Only its own entry is removed when it ends: following another source may have started a newer read since.
    pending.promise = this.readOnce(tenant, base, pending).finally(() => {
      if (this.pending.get(tenant) === pending) this.pending.delete(tenant);
    });
    return pending.promise;
  }

  private async readOnce(tenant: string, base: PolicySnapshot, pending: Pending): Promise<TenantEntry> {
    // One deadline for the whole wait: a tenant that changes during every read is not read again for ever. Past it,
    // the question is refused (fail closed): the last read may hold roles that the change revoked.
    let deadline: number | undefined;
    let late: string | undefined;
    for (;;) {
      const settings = this.settings;
      if (settings === undefined) return this.remake(tenant, undefined, base);
      deadline ??= Date.now() + settings.readTimeoutMs;
      late ??= `it did not answer within ${settings.readTimeoutMs} ms`;
      let version: unknown;
      try {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(late);
        version = await readWithin(settings, tenant, left, late);
      } catch (error) {
        throw this.unreadableRefusal(tenant, settings, error, base);
      }
      this.unreadable.delete(tenant);
      // The tenant changed while it was read (or following stopped): what was read may be the old roles.
      if (pending.stale || this.settings !== settings) {
        pending.stale = false;
        late = `it changed while it was read, and was not read again without a change within ${settings.readTimeoutMs} ms (readTimeoutMs)`;
        continue;
      }
      return this.remake(tenant, this.versionOf(tenant, version, settings, base), base);
    }
  }

  /** The refusal of a read that failed or timed out, said once until a read of the tenant succeeds again (integrations answer 503 without the cause). */
  private unreadableRefusal(tenant: string, settings: TenantFollowSettings, error: unknown, base: PolicySnapshot): PermissionsTenantRolesError {
    const refusal = new PermissionsTenantRolesError(
      tenant,
      `The custom roles of tenant ${JSON.stringify(tenant)} could not be read from ${settings.source.description}: ` +
        `${thrownText(error)}. Its questions are refused until the source answers.`,
      { cause: error },
    );
    if (!this.unreadable.has(tenant)) {
      if (this.unreadable.size >= DEFAULT_MAX_TENANTS) this.unreadable.clear();
      this.unreadable.add(tenant);
      base.settings.logger.warn(`typed-permissions: ${refusal.message}`);
    }
    return refusal;
  }

  /**
   * The version a read answered, when it is one of `tenant`: a source that answers with something else (another
   * tenant's version, null, a string, a sequence that is no positive whole number) is not believed, and said once:
   * the tenant gets no custom roles.
   */
  private versionOf(tenant: string, read: unknown, settings: TenantFollowSettings, base: PolicySnapshot): TenantRolesVersion | undefined {
    if (read === undefined) return undefined;
    const answered = versionProblem(tenant, read);
    if (answered === undefined) return read as TenantRolesVersion;
    this.reports(base).warn('a read answered with no version of the tenant', JSON.stringify([tenant]), () => ({
      problem: `${settings.source.description} answered the read of tenant ${JSON.stringify(tenant)} with ${answered}, not its version`,
      consequence: 'the tenant gets no custom roles',
    }));
    return undefined;
  }

  /** Makes and keeps the snapshot of `tenant` with custom roles `version` over `base` (just read, or the policy changed). */
  private remake(tenant: string, version: TenantRolesVersion | undefined, base: PolicySnapshot): TenantEntry {
    const roles = version === undefined ? undefined : this.build(base, version);
    const index = roles === undefined ? base.index : overlayTenantRoles(base.index, roles, this.combinationBudget);
    const snapshot = new PolicySnapshot(
      index,
      base.settings,
      base.warnings,
      base.version,
      { id: tenant, tables: roles, sequence: roles === undefined ? undefined : version?.sequence },
      this.budgets,
    );
    const made: TenantEntry = { version: version === undefined ? undefined : keptVersion(version), snapshot, base };
    const bytes = (roles === undefined ? 512 : tenantViewBytes(base.index, roles)) + 2 * tenant.length;
    this.entries.set(tenant, made, bytes);
    if (this.entries.get(tenant) === made) {
      this.tooLarge.delete(tenant);
      this.keptFast(tenant, base, snapshot);
    } else this.notKept(tenant, bytes, base);
    return made;
  }

  /** A tenant larger than the whole budget is not kept (it is read again when next asked): remembered, and said once. */
  private notKept(tenant: string, bytes: number, base: PolicySnapshot): void {
    if (this.tooLarge.size >= DEFAULT_MAX_TENANTS) this.tooLarge.clear();
    this.tooLarge.set(tenant, { bytes, maxBytes: this.settings?.maxBytes ?? DEFAULT_MAX_TENANT_BYTES });
    this.reports(base).warn('a tenant too large to keep', JSON.stringify([tenant]), () => ({
      problem: this.tooLargeProblem(tenant) as string,
      consequence: 'it is read again for each of its questions, and loadTenant, grantPermitSync and sliceFor refuse it',
      hint: ' Raise maxBytes in followTenantRoles(source, { maxBytes }).',
    }));
  }

  /**
   * What is wrong with `tenant` when its custom roles are too large to keep (larger than the whole of `maxBytes`);
   * undefined when they were not found too large.
   *
   * @example
   * ```ts
   * tenants.tooLargeProblem('acme'); // 'the custom roles of tenant "acme" take an estimated 5120 bytes, more than maxBytes (4000) ...'
   * ```
   */
  tooLargeProblem(tenant: string): string | undefined {
    const size = this.tooLarge.get(tenant);
    if (size === undefined) return undefined;
    return (
      `the custom roles of tenant ${JSON.stringify(tenant)} take an estimated ${size.bytes} bytes, ` +
      `more than maxBytes (${size.maxBytes}) of followTenantRoles can keep`
    );
  }

  /**
   * Puts a kept snapshot over `base` where {@link kept} finds it (a snapshot over an earlier policy is not found
   * there: it is remade when next asked, through `ready`). Also called by `ready` for a tenant kept in the cache but
   * not there (after a question over another policy made it start anew), so that its next questions take the warm path.
   */
  private keptFast(tenant: string, base: PolicySnapshot, snapshot: PolicySnapshot): PolicySnapshot {
    if (base !== this.keptOver) {
      this.byTenant = new Map();
      this.keptOver = base;
    }
    this.byTenant.set(tenant, snapshot);
    return snapshot;
  }

  /**
   * The tables of a version's custom roles over `base`: its compiled form when it was compiled against this policy,
   * else built from its document; undefined (reported once) when they do not fit it.
   */
  private build(base: PolicySnapshot, version: TenantRolesVersion): GrantTables | undefined {
    try {
      return this.buildRead(base, version);
    } catch (error) {
      // What the source gave could not be read (a document that parses when first read, and does not): no custom roles.
      this.reports(base).warn('custom roles that cannot be read', JSON.stringify([version.tenant, version.sequence]), () => ({
        problem: `the custom roles of tenant ${JSON.stringify(version.tenant)} (version ${version.sequence}) cannot be read ` + `(${thrownText(error)})`,
        consequence: 'they grant nothing',
      }));
      return undefined;
    }
  }

  /** See {@link build}: what may throw when the version's compiled form or document cannot be read. */
  private buildRead(base: PolicySnapshot, version: TenantRolesVersion): GrantTables | undefined {
    if (version.compiled !== undefined) {
      const read = readCompiledTenantRoles(base.tables, base.version, version.compiled);
      if ('tables' in read) return read.tables;
      if ('problem' in read)
        this.reports(base).warn('compiled custom roles', JSON.stringify([version.tenant, version.sequence]), () => ({
          problem: `the compiled custom roles of tenant ${JSON.stringify(version.tenant)} (version ${version.sequence}) cannot be used (${read.problem})`,
          consequence: 'its document is built instead',
        }));
      else if ('otherFormat' in read)
        this.reports(base).warn('compiled by another version', JSON.stringify([read.otherFormat]), () => ({
          problem: `tenants' custom roles were compiled by another version of typed-permissions (format ${read.otherFormat}, not ${COMPILED_FORM_FORMAT})`,
          consequence: BUILT_UNTIL_PUBLISHED,
        }));
      else
        this.reports(base).warn('compiled for another policy', JSON.stringify([read.otherPolicy, base.version]), () => ({
          problem: `tenants' custom roles were compiled against policy version ${read.otherPolicy}, not the active ${base.version}`,
          consequence: BUILT_UNTIL_PUBLISHED,
        }));
    }
    const { roles, problems } = (this.settings as TenantFollowSettings).build(base.tables, version.tenant, version.document);
    if (roles !== undefined) return roles.tables;
    this.reports(base).warn('custom roles that do not fit', JSON.stringify([version.tenant, version.sequence]), () => ({
      problem: `the custom roles of tenant ${JSON.stringify(version.tenant)} (version ${version.sequence}) do not fit the active policy`,
      consequence: 'they grant nothing',
      hint: ` ${problems.map((problem) => problem.message).join(' ')}`,
    }));
    return undefined;
  }

  /** What is said of tenants' custom roles, each once: the engine's logger, warnings bounded as the engine's are (never refusals). */
  private reports(base: PolicySnapshot): OnceWarnings {
    return (this.said ??= new OnceWarnings(false, base.settings.logger));
  }
}
