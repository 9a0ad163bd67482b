/**
 * The PostgreSQL server a benchmark publishes policies to: the one BENCH_DATABASE_URL or TEST_DATABASE_URL names,
 * else a throwaway one started by scripts/start-test-postgres.sh (and stopped by the caller).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Skipped } from './benchmark.js';
import { REPO_ROOT } from './repository.js';

/** A server to use, and how to stop it when the benchmark started it. */
export interface PostgresServer {
  readonly url: string;
  stop(): void;
}

/** How long starting a throwaway server may take (initdb included). */
const START_TIMEOUT_MS = 300_000;

/**
 * Finds or starts a server, or says why there is none.
 *
 * @example
 * ```ts
 * const server = findPostgresServer();
 * if ('skipped' in server) return server;
 * ```
 */
export function findPostgresServer(): PostgresServer | Skipped {
  const given = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'];
  if (given !== undefined && given !== '') return { url: given, stop: () => undefined };
  const started = spawnSync(join(REPO_ROOT, 'scripts', 'start-test-postgres.sh'), { encoding: 'utf8', timeout: START_TIMEOUT_MS });
  if (started.status !== 0) return { skipped: `no PostgreSQL server (set BENCH_DATABASE_URL): ${started.stderr.trim().split('\n').at(-1) ?? ''}` };
  const [url, data, bin] = started.stdout.trim().split(' ') as [string, string, string];
  return { url, stop: () => void spawnSync('runuser', ['-u', 'postgres', '--', `${bin}/pg_ctl`, '-D', data, 'stop', '-m', 'fast']) };
}
