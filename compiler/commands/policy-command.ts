/**
 * `typed-permissions policy publish|list|rollback|followers`: the PostgreSQL policy store that running
 * applications follow (`postgresPolicySource`). Publishing compiles the definitions in memory, runs their policy
 * tests (a failing test publishes nothing), checks the bundle against every follower seen recently (one that
 * would reject it publishes nothing, unless `--force`) and against every tenant's custom roles in the store (a
 * version they would no longer fit publishes nothing, unless `--force`), and inserts the version, moves the
 * store's pointer and notifies every follower in one transaction. A rollback is checked the same way.
 */
import {
  bundleLengthProblem,
  forgetGoneFollowers,
  listFollowers,
  listPolicies,
  policyBundleOf,
  policyBundleProblem,
  printableText,
  publishPolicy,
  readActiveSequence,
  readCurrentPolicy,
  readStoredVersion,
  rollbackPolicy,
  runPolicyTests,
  storeNames,
  tenantRolesFit,
  tenantRolesState,
  compileActiveTenantRoles,
  PermissionsUsageError,
  formatProblemLocation,
  type GrantTables,
  type TenantRolesFit,
  type PgClient,
  type PolicyBundle,
  type Queryable,
} from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { failuresOf } from '../policy-tests/test-report.js';
import { definitionsFolder, parseCommandLine, plural, positiveDecimal, UsageError, type Command, type CommandOutput } from './command-line.js';
import { withClient } from './store-client.js';
import { formatDiffText } from '../review/diff-text.js';
import { diffPolicies, summaryLine } from '../review/policy-diff.js';
import { followerLines, followerName, refusingFollowers, runningVersion, SEEN_RECENTLY, type RefusingFollower } from './policy-followers.js';
import { problemReport } from '../problems/problem-cap.js';

/** The store connection options every subcommand takes. */
const STORE_OPTIONS = {
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  channel: { type: 'string' },
  note: { type: 'string' },
  force: { type: 'boolean' },
  yes: { type: 'boolean' },
  'published-by': { type: 'string' },
} as const;

type StoreNames = ReturnType<typeof storeNames>;

/** Tables that grant nothing: what a store that has no active version is compared with. */
const NOTHING_PUBLISHED: GrantTables = { format: 1, roles: [], resources: [], actions: [], plans: [], hooks: [], owners: [], cells: [], definitions: [] };

/** The longest `--published-by` a version records. */
export const MAX_PUBLISHED_BY_LENGTH = 200;

/**
 * The store's active version as a diff reads it: its tables and how the diff names it. A version this library cannot
 * read (not JSON, over the bundle limit, not a bundle: edited in the database, or published by an older version) is
 * what a new publish or a rollback replaces: it is compared with nothing, and said why, rather than refused.
 */
async function activeForDiff(client: PgClient, names: StoreNames, io: CommandOutput): Promise<{ tables: GrantTables; label: string; sequence?: number }> {
  let current: Awaited<ReturnType<typeof readCurrentPolicy>>;
  try {
    current = await readCurrentPolicy(client, names);
  } catch (error) {
    if (!(error instanceof PermissionsUsageError)) throw error;
    const sequence = await readActiveSequence(client, names);
    if (sequence === undefined) throw error;
    return unreadableActive(sequence, error.message.replace(/\.$/, ''), io);
  }
  if (current === undefined) return { tables: NOTHING_PUBLISHED, label: 'nothing published' };
  const problem = policyBundleProblem(current.bundle);
  if (problem !== undefined) return unreadableActive(current.sequence, `it ${problem}`, io);
  return { tables: (current.bundle as { tables: GrantTables }).tables, label: `store:${current.sequence}`, sequence: current.sequence };
}

/** The active version `sequence` that cannot be read, as a diff takes it: nothing, said with `why`. */
function unreadableActive(sequence: number, why: string, io: CommandOutput): { tables: GrantTables; label: string; sequence: number } {
  io.log(`typed-permissions: the active version #${sequence} cannot be read (${why}); the diff below is against nothing.`);
  return { tables: NOTHING_PUBLISHED, label: `unreadable #${sequence}`, sequence };
}

async function publish(definitionsDir: string, databaseUrl: string, names: StoreNames, options: PublishOptions, io: CommandOutput): Promise<number> {
  const model = compileModel(definitionsDir);
  if (!model.ok) {
    for (const line of problemReport(model, definitionsDir)) io.error(line);
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
  // Before any connection: a bundle no follower can read would be active all the same.
  const tooLong = bundleLengthProblem(JSON.stringify(bundle).length);
  if (tooLong !== undefined) {
    io.error(`typed-permissions: the bundle of ${definitionsDir} ${tooLong}; nothing was published. Make the policy or its policy tests smaller.`);
    return 1;
  }
  // What the version changes, shown before anything changes; its summary is recorded with the version.
  const shown = await withClient(databaseUrl, async (client) => {
    const active = await activeForDiff(client, names, io);
    return { sequence: active.sequence, diff: diffPolicies(active.tables, tables, { before: active.label, after: definitionsDir }) };
  });
  io.log(formatDiffText(shown.diff));
  if (!options.yes) {
    if (io.ask === undefined) {
      io.error(
        'typed-permissions: policy publish asks before publishing, and standard input is not a terminal; nothing was published. ' +
          'Review the diff above, then publish with --yes.',
      );
      return 2;
    }
    const answer = (await io.ask('Publish? [y/N] ')).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') {
      io.error('typed-permissions: nothing was published.');
      return 1;
    }
  }
  return withClient(databaseUrl, async (client) => {
    // A person took time to answer: the diff they agreed to must still be the diff against the active version.
    // The sequence alone: the active version's bundle may be one that cannot be read, which this publish replaces.
    const active = await readActiveSequence(client, names);
    if (active !== shown.sequence) {
      io.error(
        `typed-permissions: the active version changed while the diff was shown (#${shown.sequence ?? 'none'} is now #${active ?? 'none'}); ` +
          'nothing was published. Run policy publish again to see the diff against it.',
      );
      return 1;
    }
    return activateChecked(client, names, bundle, options, io, {
      publish: (underLock) =>
        publishPolicy(client, names, bundle, options.note, {
          publishedBy: options.publishedBy,
          diffSummary: summaryLine(shown.diff.summary),
          activeBefore: shown.sequence ?? null,
          underLock,
        }),
      done: (sequence) => `published version ${bundle.version} as #${sequence} to ${names.schema}`,
    });
  });
}

/** What publish and rollback share. */
interface ActivateOptions {
  readonly note: string;
  readonly force: boolean;
}

/** What publish takes besides: whether to publish without asking, and who publishes. */
interface PublishOptions extends ActivateOptions {
  readonly yes: boolean;
  readonly publishedBy: string | undefined;
}

/**
 * Checks `bundle` against every follower seen recently and against every tenant's custom roles, then (unless a
 * follower would reject it or a tenant's roles would no longer fit, and `--force` is not given) runs
 * `activate.publish` and says who loads it. Refused: exit 1, naming each follower and tenant and why, nothing changed.
 */
async function activateChecked(
  client: PgClient,
  names: StoreNames,
  bundle: PolicyBundle,
  options: ActivateOptions,
  io: CommandOutput,
  activate: { readonly publish: (underLock: (locked: Queryable) => Promise<void>) => Promise<number>; readonly done: (sequence: number) => string },
): Promise<number> {
  await forgetGoneFollowers(client, names);
  const followers = await listFollowers(client, names);
  const refusing = refusingFollowers(bundle, followers);
  const tenantsChecked = await tenantRolesState(client, names);
  const fit = await tenantRolesFit(client, names, bundle.tables as GrantTables);
  // A tenant publish between the check and the activation would have been checked against the version active
  // before: under the store's lock (which tenant publishes take too), nothing may have changed since the check.
  const unchangedTenants = async (locked: Queryable): Promise<void> => {
    if ((await tenantRolesState(locked, names)) !== tenantsChecked)
      throw new PermissionsUsageError(
        "A tenant's custom roles were published while this version was checked against them; nothing was published. Publish again, " +
          'to check them as they are now.',
      );
  };
  if ((refusing.length > 0 || fit.unfitCount > 0) && !options.force) {
    if (refusing.length > 0) {
      const counted = `${refusing.length} of ${plural(followers.length, 'follower')}`;
      io.error(`typed-permissions: ${counted} would reject version ${bundle.version}; nothing was changed:`);
      for (const line of refusalLines(refusing, 'runs')) io.error(line);
      io.error(
        'typed-permissions: change the definitions, or first deploy code that can honour them; ' +
          '`--force` activates the version anyway, and these followers keep the version they run.',
      );
    }
    if (fit.unfitCount > 0) {
      io.error(`typed-permissions: ${unfitCounted(fit)} would no longer fit version ${bundle.version}; nothing was changed:`);
      for (const line of unfitLines(fit)) io.error(line);
      io.error(
        "typed-permissions: change the definitions, or first publish these tenants' roles without what the version drops " +
          '(typed-permissions tenant publish); `--force` activates the version anyway, and their custom roles grant nothing until they fit.',
      );
    }
    return 1;
  }
  const sequence = await activate.publish(unchangedTenants);
  const loading = followers.length - refusing.length;
  if (refusing.length === 0) {
    const who = followers.length === 0 ? `no follower was ${SEEN_RECENTLY}` : `${plural(loading, 'follower')} load it now`;
    io.log(`typed-permissions: ${activate.done(sequence)}; ${who}.`);
  } else {
    const who = `${plural(loading, 'follower')} load it now; ${refusing.length} reject it and keep the version they run`;
    io.log(`typed-permissions: ${activate.done(sequence)} (--force); ${who}:`);
    for (const line of refusalLines(refusing, 'keeps')) io.log(line);
  }
  // Engines take a tenant's compiled roles only for the policy they were compiled against: compiled again for this one.
  if (fit.checked > fit.unfitCount) {
    const { compiled } = await compileActiveTenantRoles(client, names, bundle.tables as GrantTables, bundle.version);
    io.log(`typed-permissions: compiled the custom roles of ${plural(compiled, 'tenant')} against it.`);
  }
  if (fit.unfitCount > 0) {
    io.log(`typed-permissions: ${unfitCounted(fit)} grant nothing under it until they fit (--force):`);
    for (const line of unfitLines(fit)) io.log(line);
  }
  return 0;
}

/** "the custom roles of 2 of 5 tenants" */
function unfitCounted(fit: TenantRolesFit): string {
  return `the custom roles of ${fit.unfitCount} of ${plural(fit.checked, 'tenant')}`;
}

/** A line per reported tenant with its first problem, and how many were left out. */
function unfitLines(fit: TenantRolesFit): string[] {
  const lines = fit.unfit.map(({ tenant, sequence, problems }) => {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${plural(problems.length - 1, 'more problem')})` : '';
    const where = first === undefined ? '' : `${formatProblemLocation({ ...first, source: undefined })}: ${first.message}`;
    return `  tenant ${JSON.stringify(tenant)} #${sequence}: ${where}${more}`;
  });
  if (fit.unfitCount > fit.unfit.length) lines.push(`  … and ${plural(fit.unfitCount - fit.unfit.length, 'more tenant')}`);
  return lines;
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
    const diff = entry.diffSummary === '' ? '' : ` [${entry.diffSummary}]`;
    io.log(
      `#${entry.sequence} ${entry.version} ${entry.publishedAt} ${entry.publishedBy}${active}, run by ${plural(entry.followers, 'follower')}${diff}${note}`,
    );
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

/**
 * Makes version `sequence` active again, as a new entry. What it changes is shown first and recorded with the entry,
 * as a publish's is; it does not ask, since a rollback is what an incident reaches for.
 */
async function rollback(
  databaseUrl: string,
  names: StoreNames,
  sequence: number,
  options: ActivateOptions & { readonly publishedBy: string | undefined },
  io: CommandOutput,
): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const bundle = await readStoredVersion(client, names, sequence);
    const active = await activeForDiff(client, names, io);
    const diff = diffPolicies(active.tables, bundle.tables as GrantTables, { before: active.label, after: `store:${sequence}` });
    io.log(formatDiffText(diff));
    return activateChecked(client, names, bundle, options, io, {
      publish: (underLock) =>
        rollbackPolicy(client, names, sequence, {
          note: options.note,
          publishedBy: options.publishedBy,
          diffSummary: summaryLine(diff.summary),
          activeBefore: active.sequence ?? null,
          underLock,
        }),
      done: (activated) => `version #${sequence} is active again, as #${activated}`,
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
  if (subcommand !== 'publish' && values.yes !== undefined) throw new UsageError(`policy ${subcommand} takes no --yes.`);
  if ((subcommand === 'list' || subcommand === 'followers') && values.note !== undefined) throw new UsageError(`policy ${subcommand} takes no --note.`);
  if (subcommand !== 'publish' && subcommand !== 'rollback' && values['published-by'] !== undefined)
    throw new UsageError(`policy ${subcommand} takes no --published-by.`);
  const publishedBy = values['published-by'];
  if (publishedBy !== undefined && (publishedBy.trim() === '' || publishedBy.length > MAX_PUBLISHED_BY_LENGTH || printableText(publishedBy) !== publishedBy))
    throw new UsageError(`policy ${subcommand} --published-by takes a printable name of 1 to ${MAX_PUBLISHED_BY_LENGTH} characters.`);
  if (subcommand === 'publish')
    return publish(definitionsFolder('policy publish', rest), databaseUrl, names, { ...options, yes: values.yes === true, publishedBy }, io);
  if (subcommand === 'list' || subcommand === 'followers') {
    if (rest.length > 0) throw new UsageError(`policy ${subcommand} takes no folder.`);
    return subcommand === 'list' ? list(databaseUrl, names, io) : followers(databaseUrl, names, io);
  }
  // A sequence number as `policy list` prints it: decimal digits only.
  const sequence = rest.length === 1 ? positiveDecimal(rest[0]) : undefined;
  if (sequence === undefined) throw new UsageError('policy rollback takes the sequence number of a version (see policy list).');
  return rollback(databaseUrl, names, sequence, { ...options, publishedBy }, io);
};
