/**
 * Where the custom roles of each tenant come from, as the engine reads them: one read per tenant when a decision
 * first asks about it, and a watch that names the tenants whose roles changed (so that a change to one tenant
 * touches no other tenant's cache). The PostgreSQL store and the file store implement it; so can an application.
 */

/** One version of a tenant's custom roles, as a source holds it. */
export interface TenantRolesVersion {
  /** The tenant it belongs to (exactly as asked). */
  readonly tenant: string;
  /** The tenant's order of versions: 1 for its first publish, one more for each later one (a rollback included). */
  readonly sequence: number;
  /**
   * The custom roles: `{ "definitions": [ … ] }`, the format of a `*.permissions.json` file, as parsed from the
   * source (not trusted: the engine checks it against the compiled policy before using it).
   */
  readonly document: unknown;
  /**
   * The custom roles as a publish compiled them against the policy active then, when the source keeps them (the
   * PostgreSQL store does): an engine on that policy reads them instead of building the document (a cold tenant's
   * first decision then costs a fraction); made for another policy, or unusable, they are ignored and the document is
   * built. Given only with the very document they were compiled from; a source of your own leaves them out.
   */
  readonly compiled?: string | undefined;
}

/**
 * A source of tenants' custom roles.
 *
 * @example
 * ```ts
 * const tenantRoles = await permissions.followTenantRoles(postgresTenantRoles({ connectionString: process.env.DATABASE_URL }));
 * ```
 */
export interface TenantRolesSource {
  /** What the source is, for reports: `PostgreSQL tenant roles in schema typed_permissions`. */
  readonly description: string;
  /** The active version of `tenant`'s custom roles, or undefined when it has none. May reject (the source is unreachable). */
  read(tenant: string): Promise<TenantRolesVersion | undefined>;
  /**
   * Calls `changed(tenant)` whenever that tenant's roles may have changed, `changed(undefined)` when any tenant's
   * may have (a lost notification connection came back: every cached tenant is read again), and `failed` when
   * watching runs into trouble it recovers from; returns the function that stops watching and releases
   * everything the source holds. Optional: a source without it is read once per tenant and never again.
   */
  watch?(changed: (tenant: string | undefined) => void, failed: (error: unknown) => void): () => Promise<void>;
}
