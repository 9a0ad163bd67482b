/**
 * `typed-permissions policy publish|list|rollback|followers`: the PostgreSQL policy store that running
 * applications follow (`postgresPolicySource`). Publishing compiles the definitions in memory, runs their policy
 * tests (a failing test publishes nothing), checks the bundle against every follower seen recently (one that
 * would reject it publishes nothing, unless `--force`), and inserts the version, moves the store's pointer and
 * notifies every follower in one transaction. A rollback is checked the same way.
 */
import {
  forgetGoneFollowers,
  listFollowers,
  listPolicies,
  loadPg,
  PermissionsUsageError,
  policyBundleOf,
  publishPolicy,
  readStoredVersion,
  rollbackPolicy,
  runPolicyTests,
  storeNames,
  type PgClient,
  type PolicyBundle,
  serverOfConnectionString,
} from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { formatCompileProblem } from '../problems/compile-problem.js';
import { failuresOf } from '../policy-tests/test-report.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command, type CommandOutput } from './command-line.js';
import { followerLines, followerName, refusingFollowers, runningVersion, SEEN_RECENTLY, type RefusingFollower } from './policy-followers.js';

/** The store connection options every subcommand takes. */
const STORE_OPTIONS = {
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  channel: { type: 'string' },
  note: { type: 'string' },
  force: { type: 'boolean' },
} as const;

type StoreNames = ReturnType<typeof storeNames>;

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

async function publish(definitionsDir: string, databaseUrl: string, names: StoreNames, options: ActivateOptions, io: CommandOutput): Promise<number> {
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
  return withClient(databaseUrl, (client) =>
    activateChecked(client, names, bundle, options, io, {
      publish: () => publishPolicy(client, names, bundle, options.note),
      done: (sequence) => `published version ${bundle.version} as #${sequence} to ${names.schema}`,
    }),
  );
}

/** What publish and rollback share. */
interface ActivateOptions {
  readonly note: string;
  readonly force: boolean;
}

/**
 * Checks `bundle` against every follower seen recently, then (unless one would reject it and `--force` is not
 * given) runs `activate.publish` and says who loads it. Refused: exit 1, naming each follower and its reasons,
 * nothing changed.
 */
async function activateChecked(
  client: PgClient,
  names: StoreNames,
  bundle: PolicyBundle,
  options: ActivateOptions,
  io: CommandOutput,
  activate: { readonly publish: () => Promise<number>; readonly done: (sequence: number) => string },
): Promise<number> {
  await forgetGoneFollowers(client, names);
  const followers = await listFollowers(client, names);
  const refusing = refusingFollowers(bundle, followers);
  if (refusing.length > 0 && !options.force) {
    const counted = `${refusing.length} of ${plural(followers.length, 'follower')}`;
    io.error(`typed-permissions: ${counted} would reject version ${bundle.version}; nothing was changed:`);
    for (const line of refusalLines(refusing, 'runs')) io.error(line);
    io.error(
      'typed-permissions: change the definitions, or first deploy code that can honour them; ' +
        '`--force` activates the version anyway, and these followers keep the version they run.',
    );
    return 1;
  }
  const sequence = await activate.publish();
  const loading = followers.length - refusing.length;
  if (refusing.length === 0) {
    const who = followers.length === 0 ? `no follower was ${SEEN_RECENTLY}` : `${plural(loading, 'follower')} load it now`;
    io.log(`typed-permissions: ${activate.done(sequence)}; ${who}.`);
    return 0;
  }
  const who = `${plural(loading, 'follower')} load it now; ${refusing.length} reject it and keep the version they run`;
  io.log(`typed-permissions: ${activate.done(sequence)} (--force); ${who}:`);
  for (const line of refusalLines(refusing, 'keeps')) io.log(line);
  return 0;
}

function refusalLines(refusing: readonly RefusingFollower[], verb: 'runs' | 'keeps'): string[] {
  return refusing.map(({ follower, reasons }) => `  ${followerName(follower)}, ${verb} ${runningVersion(follower)}: ${reasons.join('; ')}`);
}

async function list(databaseUrl: string, names: StoreNames, io: CommandOutput): Promise<number> {
  const entries = await withClient(databaseUrl, (client) => listPolicies(client, names));
  if (entries.length === 0) io.log(`typed-permissions: nothing was published to ${names.schema} yet.`);
  for (const entry of entries) {
    const active = entry.active ? ' (active)' : '';
    const note = entry.note === '' ? '' : ` — ${entry.note}`;
    io.log(`#${entry.sequence} ${entry.version} ${entry.publishedAt} ${entry.publishedBy}${active}, run by ${plural(entry.followers, 'follower')}${note}`);
  }
  return 0;
}

async function followers(databaseUrl: string, names: StoreNames, io: CommandOutput): Promise<number> {
  const found = await withClient(databaseUrl, (client) => listFollowers(client, names));
  if (found.length === 0) {
    io.log(`typed-permissions: no follower of ${names.schema} was ${SEEN_RECENTLY}.`);
    return 0;
  }
  io.log(`typed-permissions: ${plural(found.length, 'follower')} of ${names.schema}, ${SEEN_RECENTLY}:`);
  for (const follower of found) for (const line of followerLines(follower)) io.log(line);
  return 0;
}

async function rollback(databaseUrl: string, names: StoreNames, sequence: number, options: ActivateOptions, io: CommandOutput): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const bundle = await readStoredVersion(client, names, sequence);
    return activateChecked(client, names, bundle, options, io, {
      publish: () => rollbackPolicy(client, names, sequence),
      done: (active) => `version #${sequence} is active again, as #${active}`,
    });
  });
}

/**
 * Runs `policy <publish|list|rollback|followers>`. The database comes from `--database-url`, else `DATABASE_URL`.
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
  if (subcommand !== 'publish' && subcommand !== 'list' && subcommand !== 'rollback' && subcommand !== 'followers')
    throw new UsageError(
      subcommand === undefined
        ? 'policy needs a subcommand: publish, list, rollback or followers.'
        : `Unknown policy subcommand ${JSON.stringify(subcommand)}.`,
    );
  if (databaseUrl === undefined || databaseUrl === '') throw new UsageError(`policy ${subcommand} needs --database-url <url> (or DATABASE_URL).`);
  if ((subcommand === 'list' || subcommand === 'followers') && values.force !== undefined) throw new UsageError(`policy ${subcommand} takes no --force.`);
  const names = storeNames({
    ...(values.schema === undefined ? {} : { schema: values.schema }),
    ...(values.channel === undefined ? {} : { channel: values.channel }),
  });
  const options: ActivateOptions = { note: values.note ?? '', force: values.force === true };
  if (subcommand === 'publish') return publish(definitionsFolder('policy publish', rest), databaseUrl, names, options, io);
  if (subcommand === 'list' || subcommand === 'followers') {
    if (rest.length > 0) throw new UsageError(`policy ${subcommand} takes no folder.`);
    return subcommand === 'list' ? list(databaseUrl, names, io) : followers(databaseUrl, names, io);
  }
  const sequence = Number(rest[0]);
  if (rest.length !== 1 || !Number.isSafeInteger(sequence) || sequence < 1)
    throw new UsageError('policy rollback takes the sequence number of a version (see policy list).');
  return rollback(databaseUrl, names, sequence, options, io);
};
