/**
 * A PostgreSQL connection for one command that reads or changes a store (policy versions, their diff): what the
 * server or the network refuses is said in one line, never as a crash.
 */
import { loadPg, PermissionsUsageError, serverOfConnectionString, type PgClient } from 'typed-permissions/internal';

/**
 * Runs `work` with a connected client (ended afterwards). No connection, a missing database, a role without
 * rights: a PermissionsUsageError naming the server (never its password), saying that nothing was changed.
 *
 * @example
 * ```ts
 * const entries = await withClient(databaseUrl, (client) => listPolicies(client, names));
 * ```
 */
export async function withClient<T>(databaseUrl: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const { Client } = await loadPg();
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000, application_name: 'typed-permissions policy' });
  // A connection that breaks while idle emits 'error'; the pending query rejects with it as well.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new PermissionsUsageError(
      `cannot reach the PostgreSQL server at ${serverOfConnectionString(databaseUrl)} (${(error as Error).message}); nothing was changed.`,
    );
  }
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw error;
    throw new PermissionsUsageError(
      `the PostgreSQL server at ${serverOfConnectionString(databaseUrl)} refused: ${(error as Error).message}; nothing was changed.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
