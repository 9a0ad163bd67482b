/**
 * `postgresTenantRoles({ connectionString })`: tenants' custom roles as `typed-permissions tenant publish` (or
 * the admin API) writes them to the PostgreSQL store. A read is one statement on a small pool; the watch listens
 * on the tenant channel on a dedicated connection and names the tenant of each notification, so that a publish
 * reaches every instance at once and touches no other tenant's cache. When the connection is lost and comes
 * back, every tenant may have changed meanwhile (NOTIFY has no replay): the watch says so with
 * `changed(undefined)`. The connection is checked with a bounded `SELECT 1` every `pingIntervalMs`, so that a
 * server that went away without a word is found out within that interval.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { durationOption } from './duration-option.js';
import { loadPg, serverOfConnectionString, type PgPool } from './postgres-client.js';
import { PostgresListener } from './postgres-listener.js';
import { readTenantRoles, tenantRolesStoreNames } from './postgres-tenant-roles-store.js';
import type { TenantRolesSource, TenantRolesVersion } from './tenant-roles-source.js';

/** Options of {@link postgresTenantRoles}. */
export interface PostgresTenantRolesOptions {
  /** The server, as node-postgres takes it: `postgres://user:password@host:5432/database`. */
  readonly connectionString: string;
  /** The store's schema (the policy store's). Default `typed_permissions`. */
  readonly schema?: string | undefined;
  /** The channel that names the tenants whose roles changed. Default `typed_permissions_tenant_roles`. */
  readonly channel?: string | undefined;
  /** How often the listening connection is checked, in ms. Default 30,000. */
  readonly pingIntervalMs?: number | undefined;
  /** How long to wait before reconnecting a lost listener, in ms (doubling up to 30 s while it keeps failing). Default 500. */
  readonly reconnectDelayMs?: number | undefined;
}

const APPLICATION_NAME = 'typed-permissions tenant roles';

/**
 * A source of tenants' custom roles in a PostgreSQL store.
 *
 * @example
 * ```ts
 * const tenantRoles = postgresTenantRoles({ connectionString: process.env.DATABASE_URL! });
 * await tenantRoles.read('acme'); // { tenant: 'acme', sequence: 2, document: { definitions: [ … ] } }
 * ```
 */
export function postgresTenantRoles(options: PostgresTenantRolesOptions): TenantRolesSource {
  if (typeof options !== 'object' || options === null || typeof options.connectionString !== 'string' || options.connectionString === '')
    throw new PermissionsUsageError('postgresTenantRoles(options): options.connectionString must be a PostgreSQL connection string.');
  const names = tenantRolesStoreNames(options);
  const pingIntervalMs = durationOption('postgresTenantRoles(): pingIntervalMs', options.pingIntervalMs, 30_000, 10);
  const reconnectDelayMs = durationOption('postgresTenantRoles(): reconnectDelayMs', options.reconnectDelayMs, 500, 1);
  const { connectionString } = options;
  let pool: PgPool | undefined;
  const poolOf = async (): Promise<PgPool> => {
    if (pool === undefined) {
      const { Pool } = await loadPg();
      pool = new Pool({ connectionString, max: 4, connectionTimeoutMillis: 10_000, query_timeout: 10_000, application_name: APPLICATION_NAME });
      // An idle pooled connection that breaks is replaced on the next read; its error is not the source's failure.
      pool.on('error', () => undefined);
    }
    return pool;
  };
  return {
    description: `PostgreSQL tenant roles in schema ${names.schema} at ${serverOfConnectionString(connectionString)}`,
    async read(tenant: string): Promise<TenantRolesVersion | undefined> {
      return readTenantRoles(await poolOf(), names, tenant);
    },
    watch(changed, failed) {
      const listener = new PostgresListener({
        connectionString,
        applicationName: APPLICATION_NAME,
        channel: names.channel,
        reconnectDelayMs,
        pingIntervalMs,
        // A payload that names no tenant (sent by hand, say) may concern any of them.
        notified: (payload) => changed(payload === undefined || payload === '' ? undefined : payload),
        // The first LISTEN starts after the engine may have read some tenants: every one is read again then, as after a reconnect.
        listening: () => changed(undefined),
        failed,
      });
      void listener.connect();
      return async () => {
        await listener.close();
        const open = pool;
        pool = undefined;
        await open?.end().catch(() => undefined);
      };
    },
  };
}
