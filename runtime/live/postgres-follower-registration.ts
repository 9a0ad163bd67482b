/**
 * A follower's registration in a PostgreSQL store: written when it starts, at once whenever it activates or
 * rejects a version, and every FOLLOWER_REFRESH_MS otherwise; deleted when it stops. One write at a time. When
 * the store's tables are not there yet, the follower creates them (the store's identity with them) — only before
 * its first registration: a store whose tables go away later was dropped, and a follower that made it again would
 * make a dropped store an empty one, and keep it there against whoever dropped it. When its
 * database role may not write them — a read-only role — it keeps following: the failure is said once (until a
 * write succeeds), naming what to grant.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FollowerRegistration, FollowerStatus } from './policy-source.js';
import { FOLLOWER_REFRESH_MS } from './follower-timing.js';
import type { PgPool } from './postgres-client.js';
import { forgetFollower, writeFollower, type FollowerIdentity } from './postgres-follower-registry.js';
import { ensurePolicyStore, isMissingStore, type PolicyStoreNames } from './postgres-policy-store.js';

/** 42501 insufficient_privilege, 25006 read_only_sql_transaction: the role may read the store, not write it. */
const READ_ONLY = new Set(['42501', '25006']);

/**
 * Registers a follower of the store `names` on the pool `poolOf` gives, until the registration is closed.
 *
 * @example
 * ```ts
 * const registration = followerRegistration(poolOf, names, 'PostgreSQL store typed_permissions at db:5432', () => follower.status(), report);
 * registration.changed(); // after an activation
 * await registration.close();
 * ```
 */
export function followerRegistration(
  poolOf: () => Promise<PgPool>,
  names: PolicyStoreNames,
  description: string,
  status: () => FollowerStatus,
  failed: (error: unknown) => void,
): FollowerRegistration {
  const identity: FollowerIdentity = { instance: randomUUID(), host: hostname(), pid: process.pid, startedAt: new Date().toISOString() };
  let closed = false;
  let writing: Promise<void> | undefined;
  let again = false;
  let lastProblem: string | undefined;
  let registered = false;

  const writeOnce = async (): Promise<void> => {
    const pool = await poolOf();
    try {
      await writeFollower(pool, names, identity, status());
    } catch (error) {
      if (!isMissingStore(error)) throw error;
      if (registered) throw new Error(`the store's tables are gone (dropped after this follower registered; it does not make them again)`, { cause: error });
      await createStore(pool, names);
      await writeFollower(pool, names, identity, status());
    }
    registered = true;
  };
  const write = (): void => {
    if (closed) return;
    if (writing !== undefined) {
      again = true;
      return;
    }
    writing = (async () => {
      do {
        again = false;
        try {
          await writeOnce();
          lastProblem = undefined;
        } catch (error) {
          report(error);
        }
      } while (again && !closed);
      writing = undefined;
    })();
  };
  const report = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (closed || message === lastProblem) return;
    lastProblem = message;
    const code = (error as { code?: string } | null)?.code ?? '';
    const grant = `GRANT INSERT, UPDATE, DELETE ON "${names.schema}".policy_followers, or CREATE on the database while the store does not exist yet`;
    const fix = READ_ONLY.has(code) ? `; let its role write the registrations (${grant})` : '';
    failed(
      new Error(
        `this follower cannot register itself in ${description} (${message}); it follows the store as before, ` +
          `but \`typed-permissions policy publish\` cannot check versions against it${fix}.`,
      ),
    );
  };

  write();
  const refresh = setInterval(write, FOLLOWER_REFRESH_MS);
  refresh.unref();
  return {
    changed: write,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(refresh);
      await writing;
      // A follower that stops is forgotten at once, not a minute later; when that fails, the minute does it.
      await poolOf()
        .then((pool) => forgetFollower(pool, names, identity.instance))
        .catch(() => undefined);
    },
  };
}

/** Creates the store (tables and identity) in a transaction of its own on a connection of the pool. */
async function createStore(pool: PgPool, names: PolicyStoreNames): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await ensurePolicyStore(client, names);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
