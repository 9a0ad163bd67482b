/**
 * Remote permissions: the typed `grantPermit` → Permit API of the embedded engine, decided from a shared
 * decision service. What a set of roles may do is asked once per policy version (its slice, and the ownership
 * methods or rules of its groups), kept, and dropped when the service's version changes; ownership hooks run
 * here, in the application, and ownership rules are asked of the application's rule source, with the same Permit
 * class the embedded engine returns.
 */
import type { User } from '../core/definition/definition-types.js';
import { decideOwnership, decideWithoutHooks, queriedResourceId } from '../core/decision/decide-permit.js';
import { checkGrantQuery, rolesKey, type GrantQuery } from '../core/decision/grant-query.js';
import { checkTenantId } from '../core/decision/tenant-id.js';
import { OnceWarnings } from '../core/decision/once-warnings.js';
import { undeclaredActionError } from '../core/decision/role-lookup.js';
import { Permit } from '../core/decision/permit.js';
import type { PermissionsSchema, TypedGrantQuery } from '../permissions/schema-types.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { ResourceIdType } from '../core/tables/grant-tables.js';
import { NO_GRANT } from '../core/tables/table-loader.js';
import { describeValue } from '../core/common/describe-value.js';
import { didYouMean } from '../core/common/nearest-name.js';
import { MAX_NAME_LENGTH } from '../core/definition/names.js';
import { resolveMethod } from '../core/table-building/ownership-methods.js';
import { checkRemoteOptions, type RemotePermissionsOptions, type RemoteSettings } from './remote-options.js';
import { actionsWithGroups, RoleSetPolicy } from './role-set-policy.js';
import { fetchGroupMethods, fetchPolicy, fetchSlice, type ServicePolicy } from './service-client.js';
import { PermissionsServiceError } from './service-error.js';

/** How many times a role set is asked again when the policy changes between its two requests. */
const VERSION_RACE_RETRIES = 3;

/**
 * What the service is sent for a user's role names it would refuse to read (empty, or longer than any name may
 * be): a name no definition can give a role either, since it starts with a space. Such names name no role, so the
 * embedded engine ignores them; sent as they are, the service would answer 400 on every question of that user.
 */
const NAME_OF_NO_ROLE = ' (a role name that is empty or too long)';

/**
 * The role names of a role set as the service is sent them (each one the service reads): the names no role can
 * have (empty, longer than MAX_NAME_LENGTH) become NAME_OF_NO_ROLE, once — unknown like them, so the service's
 * answer, its reason included ('unknown-role' when no role of the set exists), is the embedded engine's.
 *
 * @example
 * ```ts
 * sendableRoles(['', 'EMPLOYEE']); // [' (a role name that is empty or too long)', 'EMPLOYEE']
 * ```
 */
function sendableRoles(roles: readonly string[]): string[] {
  const sendable = roles.filter((role) => role.length > 0 && role.length <= MAX_NAME_LENGTH);
  return sendable.length === roles.length ? [...roles] : [NAME_OF_NO_ROLE, ...sendable];
}

/**
 * Permissions decided by a decision service (`createRemotePermissions`), typed by the generated `Schema`.
 *
 * @example
 * ```ts
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * if (!permit.granted) throw new ForbiddenException();
 * return permit.pick(await documents.find(3));
 * ```
 */
export class RemotePermissions<S extends PermissionsSchema = PermissionsSchema, TUser extends User<unknown> = User, TFilter = unknown> {
  private readonly roleSets = new Map<string, Promise<RoleSetPolicy>>();
  private readonly idTypes: ReadonlyMap<string, ResourceIdType | undefined>;
  /** The actions of the service's policy, as last asked (a permit's reason names an action outside them). */
  private actions: ReadonlySet<string>;
  /** The declared actions of the resources that declare them, in the service's active version (as last asked). */
  private declaredActions: ReadonlyMap<string, readonly string[]>;
  private readonly warnings: OnceWarnings;
  private version: string;
  /** The ownership rules of the service's policy, as last asked, with the version they are of. */
  private rules: { readonly version: string; readonly table: ServicePolicy['ownershipRules'] };
  private refreshing: ReturnType<typeof setInterval> | undefined;
  private refreshFailed = false;

  /** @internal Made by `createRemotePermissions`, once the service's policy is known. */
  constructor(
    private readonly settings: RemoteSettings,
    policy: ServicePolicy,
  ) {
    this.version = policy.policyVersion;
    this.rules = { version: policy.policyVersion, table: policy.ownershipRules };
    this.idTypes = new Map(policy.resources.map((resource) => [resource.name, resource.idType ?? undefined]));
    this.declaredActions = declaredActionsOf(policy);
    this.actions = new Set(policy.actions);
    this.warnings = new OnceWarnings(false, settings.logger);
    this.refreshing = setInterval(() => void this.refresh(), settings.refreshIntervalMs);
    // Asking for the version must not keep a process alive that has nothing else to do.
    this.refreshing.unref?.();
  }

  /** The policy version of the service, as last seen (every role set is asked again when it changes). */
  get policyVersion(): string {
    return this.version;
  }

  /**
   * Like the embedded `grantPermit`: the same typed query, the same Permit. Rejects with a
   * PermissionsServiceError when the service cannot answer (nothing is granted then) and, as embedded, with a
   * PermissionsUsageError for an action its resource does not declare.
   *
   * @example
   * ```ts
   * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'list' });
   * const visible = permit.filterPick(await documents.findAll());
   * ```
   */
  async grantPermit<R extends keyof S['resources'] & string>(query: TypedGrantQuery<S, TUser, R>): Promise<Permit<TUser, S['resources'][R]['id'], TFilter>> {
    type TId = S['resources'][R]['id'];
    const checked = query as unknown as GrantQuery<TUser, TId>;
    const roles = checkGrantQuery(checked);
    const { user, resource, action, tenant } = checked;
    if (tenant !== undefined) checkTenantId(tenant, 'grantPermit: tenant');
    const declared = this.declaredActions.get(resource);
    if (declared !== undefined && !declared.includes(action)) throw undeclaredActionError(resource, action, declared);
    const resourceId = queriedResourceId<TId>(checked, this.idTypes.get(resource));
    const policy = await this.roleSet(roles, tenant);
    const combination = policy.combination(resource, action);
    if (combination === NO_GRANT && !this.idTypes.has(resource))
      this.warnings.warn('resource', resource, () => ({
        problem: `unknown resource ${describeValue(resource)}: the service's policy does not name it`,
        consequence: 'nothing is granted',
        hint: didYouMean(resource, this.idTypes.keys()),
      }));
    const decided = decideWithoutHooks<TUser, TId, TFilter>(user, resource, action, resourceId, combination, policy);
    return decided instanceof Permit ? decided : decideOwnership<TUser, TId, TFilter>(user, resource, action, decided, policy);
  }

  /**
   * Stops asking the service for its version. Permits already made keep working.
   *
   * @example
   * ```ts
   * process.once('SIGTERM', () => remote.close());
   * ```
   */
  close(): void {
    if (this.refreshing !== undefined) clearInterval(this.refreshing);
    this.refreshing = undefined;
  }

  /**
   * The policy of a set of roles (in `tenant`) in the current version: asked once, shared by concurrent callers,
   * retried after a failure. A tenant's role sets are keyed apart (`t` and the tenant before the roles, which a key
   * of roles alone never starts with).
   */
  private roleSet(roles: readonly string[], tenant: string | undefined): Promise<RoleSetPolicy> {
    const sorted = rolesKey(roles);
    const key = tenant === undefined ? sorted : `t${JSON.stringify(tenant)}${sorted}`;
    let found = this.roleSets.get(key);
    if (found === undefined) {
      if (this.roleSets.size >= this.settings.maxCachedRoleSets) this.roleSets.delete(this.roleSets.keys().next().value as string);
      found = this.loadRoleSet(sendableRoles(JSON.parse(sorted) as string[]), tenant);
      this.roleSets.set(key, found);
      found.catch(() => {
        if (this.roleSets.get(key) === found) this.roleSets.delete(key);
      });
    }
    return found;
  }

  private async loadRoleSet(roles: readonly string[], tenant: string | undefined, attempt = 1): Promise<RoleSetPolicy> {
    const connection = this.settings.connection;
    const slice = await fetchSlice(connection, roles, tenant);
    const asked = actionsWithGroups(slice);
    let methods;
    try {
      methods = asked.length === 0 ? [] : await fetchGroupMethods(connection, roles, asked, slice.version, tenant);
    } catch (error) {
      // The policy changed between the slice and the methods: ask again, in the new version.
      if (error instanceof PermissionsServiceError && error.status === 409 && attempt < VERSION_RACE_RETRIES)
        return this.loadRoleSet(roles, tenant, attempt + 1);
      throw error;
    }
    let rules = this.rules;
    if (methods.some((groups) => groups.some((group) => group.rule !== undefined)) && rules.version !== slice.version) {
      // The rules are of the policy version: asked again when the slice is of a newer one.
      const policy = await fetchPolicy(connection);
      rules = this.rememberRules(policy);
      if (rules.version !== slice.version) {
        if (attempt < VERSION_RACE_RETRIES) return this.loadRoleSet(roles, tenant, attempt + 1);
        throw new PermissionsServiceError(
          `The decision service's policy changed ${VERSION_RACE_RETRIES} times while its ownership rules were asked; nothing is granted. Ask again.`,
        );
      }
    }
    this.adopt(slice.version);
    return new RoleSetPolicy(slice, asked, methods, this.settings, rules.table, tenant, {
      unknownName: (resource, action) => (!this.idTypes.has(resource) ? 'unknown-resource' : this.actions.has(action) ? undefined : 'unknown-action'),
      idTypeOf: (resource) => this.idTypes.get(resource),
    });
  }

  /** Keeps the rules of `policy` (a version at least as new as the ones kept). */
  private rememberRules(policy: ServicePolicy): RemotePermissions['rules'] {
    this.rules = { version: policy.policyVersion, table: policy.ownershipRules };
    return this.rules;
  }

  /** Takes `version` as the service's: role sets of another version are asked again. */
  private adopt(version: string): void {
    if (version === this.version) return;
    this.version = version;
    for (const [key, policy] of [...this.roleSets])
      void policy.then(
        (loaded) => loaded.version !== version && this.roleSets.get(key) === policy && this.roleSets.delete(key),
        () => undefined,
      );
  }

  /** Asks the service for its version; a failure is logged once until an answer comes again. */
  private async refresh(): Promise<void> {
    try {
      const policy = await fetchPolicy(this.settings.connection);
      this.refreshFailed = false;
      this.declaredActions = declaredActionsOf(policy);
      this.actions = new Set(policy.actions);
      this.rememberRules(policy);
      this.adopt(policy.policyVersion);
      // A tenant's custom roles change without a new policy version: its role sets are asked again after each refresh.
      for (const key of [...this.roleSets.keys()]) if (key.startsWith('t')) this.roleSets.delete(key);
    } catch (error) {
      if (this.refreshFailed) return;
      this.refreshFailed = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.settings.logger.warn(`typed-permissions remote: ${reason} Role sets already asked keep their answers until it answers again.`);
    }
  }
}

/** The declared actions of the resources of `policy` that declare them. */
function declaredActionsOf(policy: ServicePolicy): ReadonlyMap<string, readonly string[]> {
  return new Map(policy.resources.flatMap((resource) => (resource.actions === undefined ? [] : [[resource.name, resource.actions] as const])));
}

/** The methods of the policy's ownership methods that `ownership` lacks, as `kind name` lines. */
function missingMethods(policy: ServicePolicy, ownership: object): string[] {
  return Object.entries(policy.ownershipMethods).flatMap(([kind, names]) =>
    names.filter((name) => resolveMethod(ownership, name) === undefined).map((name) => `${kind} ${JSON.stringify(name)}`),
  );
}

/**
 * Connects to a decision service (`npx typed-permissions serve`) and returns permissions decided by it, with
 * ownership answered by `options.ownership` (and `options.ownershipRules`, for groups decided by ownership rules) in
 * this application. Resolves once the service answered its policy and the ownership service has every method that
 * policy names; rejects with a PermissionsServiceError when the service cannot be reached or refuses the token,
 * and a PermissionsUsageError for a missing method, or for a policy naming ownership rules without `ownershipRules`.
 *
 * @example
 * ```ts
 * import { createRemotePermissions } from 'typed-permissions/remote';
 * import type { Schema } from './generated/index.js';
 *
 * const permissions = await createRemotePermissions<Schema>({
 *   url: 'http://127.0.0.1:3100',
 *   token: process.env.PERMISSIONS_TOKEN ?? '',
 *   ownership: new DocumentOwnership(db),
 * });
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * ```
 */
export async function createRemotePermissions<S extends PermissionsSchema = PermissionsSchema, TUser extends User<unknown> = User, TFilter = unknown>(
  options: RemotePermissionsOptions<TUser, TFilter>,
): Promise<RemotePermissions<S, TUser, TFilter>> {
  const settings = checkRemoteOptions(options);
  const policy = await fetchPolicy(settings.connection);
  const missing = missingMethods(policy, settings.ownership);
  if (missing.length > 0)
    throw new PermissionsUsageError(
      options.ownership === undefined
        ? `The policy of the decision service at ${settings.connection.url.href} names ownership methods (${missing.join(', ')}): ` +
            'give createRemotePermissions ownership, the service that has them (they run in this application, never in the service).'
        : `The policy of the decision service at ${settings.connection.url.href} names ownership methods the ownership service given to ` +
            `createRemotePermissions does not have: ${missing.join(', ')}. Add them (they run in this application, never in the service).`,
    );
  const { rules } = policy.ownershipRules;
  if (rules.length > 0 && settings.ownershipRules === undefined)
    throw new PermissionsUsageError(
      `The policy of the decision service at ${settings.connection.url.href} names ownership rules (${rules
        .map((rule) => `${rule.resource} ${JSON.stringify(rule.name)}`)
        .join(', ')}): give createRemotePermissions ownershipRules, the source of the records they read (kyselyOwnership(db, { tables }), ` +
        'memoryOwnership(records)). Rules are evaluated in this application, on its records.',
    );
  return new RemotePermissions<S, TUser, TFilter>(settings, policy);
}
