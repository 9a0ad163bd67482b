/**
 * `typed-permissions policy publish|list|rollback`: the PostgreSQL policy store that running applications
 * follow (`postgresPolicySource`). Publishing compiles the definitions in memory, runs their policy tests (a
 * failing test publishes nothing), checks the bundle, and inserts the version, moves the store's pointer and
 * notifies every follower in one transaction.
 */
import {
  listPolicies,
  loadPg,
  PermissionsUsageError,
  policyBundleOf,
  publishPolicy,
  rollbackPolicy,
  runPolicyTests,
  storeNames,
  type PgClient,
} from 'typed-permissions/internal';
import { compileModel } from '../compile-model.js';
import { formatCompileProblem } from '../compile-problem.js';
import { failuresOf } from '../policy-tests/test-report.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command, type CommandOutput } from './command-line.js';

/** The store connection options every subcommand takes. */
const STORE_OPTIONS = {
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  channel: { type: 'string' },
  note: { type: 'string' },
} as const;

/** The server of a connection string, for messages (never its password). */
function serverOf(databaseUrl: string): string {
  try {
    return new URL(databaseUrl).host || 'the local socket';
  } catch {
    return 'the configured server';
  }
}

/**
 * A connected client for one subcommand (ended afterwards). What the server or the network refuses — no
 * connection, a missing database, a role without rights — is said in one line, exit 1, never as a crash.
 */
async function withClient<T>(databaseUrl: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const { Client } = await loadPg();
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000, application_name: 'typed-permissions policy' });
  // A connection that breaks while idle emits 'error'; the pending query rejects with it as well.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new PermissionsUsageError(`cannot reach the PostgreSQL server at ${serverOf(databaseUrl)} (${(error as Error).message}); nothing was changed.`);
  }
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw error;
    throw new PermissionsUsageError(`the PostgreSQL server at ${serverOf(databaseUrl)} refused: ${(error as Error).message}; nothing was changed.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function publish(definitionsDir: string, databaseUrl: string, names: ReturnType<typeof storeNames>, note: string, io: CommandOutput): Promise<number> {
  const model = compileModel(definitionsDir);
  if (!model.ok) {
    for (const problem of model.problems) io.error(formatCompileProblem(problem, definitionsDir));
    io.error(`typed-permissions: ${definitionsDir} has problems; nothing was published.`);
    return 1;
  }
  const { tables, tests } = model.model;
  if (tests !== undefined) {
    // Before any connection: a version whose own tests fail never reaches the store.
    const run = await runPolicyTests(tables, tests);
    if (run.failed > 0) {
      for (const line of failuresOf(run, definitionsDir)) io.error(line);
      io.error(`typed-permissions: ${run.failed} of ${plural(run.outcomes.length, 'policy test')} failed; nothing was published.`);
      return 1;
    }
  }
  const bundle = policyBundleOf(tables, tests);
  const sequence = await withClient(databaseUrl, (client) => publishPolicy(client, names, bundle, note));
  io.log(`typed-permissions: published version ${bundle.version} as #${sequence} to ${names.schema}; followers load it now.`);
  return 0;
}

async function list(databaseUrl: string, names: ReturnType<typeof storeNames>, io: CommandOutput): Promise<number> {
  const entries = await withClient(databaseUrl, (client) => listPolicies(client, names));
  if (entries.length === 0) io.log(`typed-permissions: nothing was published to ${names.schema} yet.`);
  for (const entry of entries) {
    const active = entry.active ? ' (active)' : '';
    const note = entry.note === '' ? '' : ` — ${entry.note}`;
    io.log(`#${entry.sequence} ${entry.version} ${entry.publishedAt} ${entry.publishedBy}${active}${note}`);
  }
  return 0;
}

/**
 * Runs `policy <publish|list|rollback>`. The database comes from `--database-url`, else `DATABASE_URL`.
 *
 * @example
 * ```ts
 * await policyCommand(['publish', 'definitions', '--database-url', 'postgres://localhost/app'], io); // 0
 * ```
 */
export const policyCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, STORE_OPTIONS);
  const [subcommand, ...rest] = positionals;
  const databaseUrl = values['database-url'] ?? process.env['DATABASE_URL'];
  if (subcommand !== 'publish' && subcommand !== 'list' && subcommand !== 'rollback')
    throw new UsageError(
      subcommand === undefined ? 'policy needs a subcommand: publish, list or rollback.' : `Unknown policy subcommand ${JSON.stringify(subcommand)}.`,
    );
  if (databaseUrl === undefined || databaseUrl === '') throw new UsageError(`policy ${subcommand} needs --database-url <url> (or DATABASE_URL).`);
  const names = storeNames({
    ...(values.schema === undefined ? {} : { schema: values.schema }),
    ...(values.channel === undefined ? {} : { channel: values.channel }),
  });
  if (subcommand === 'publish') return publish(definitionsFolder('policy publish', rest), databaseUrl, names, values.note ?? '', io);
  if (subcommand === 'list') {
    if (rest.length > 0) throw new UsageError('policy list takes no folder.');
    return list(databaseUrl, names, io);
  }
  const sequence = Number(rest[0]);
  if (rest.length !== 1 || !Number.isSafeInteger(sequence) || sequence < 1)
    throw new UsageError('policy rollback takes the sequence number of a version (see policy list).');
  const active = await withClient(databaseUrl, (client) => rollbackPolicy(client, names, sequence));
  io.log(`typed-permissions: version #${sequence} is active again, as #${active}; followers load it now.`);
  return 0;
};
