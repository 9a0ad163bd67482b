/**
 * `typed-permissions policy publish|list|rollback`, run in-process through `main(argv, io)`: usage errors exit 2
 * with the usage; a definitions folder with problems publishes nothing and never connects; a server that cannot
 * be reached, or refuses, is one line and exit 1, never a crash. On a PostgreSQL server (TEST_DATABASE_URL) the
 * store is created on the first publish, the log lists newest first, and a rollback to a version that does not
 * exist changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useServerSchema } from './fixtures/server-schema.js';
import { main } from '../../compiler/commands/main.js';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import type { PgClient } from '../../runtime/live/postgres-client.js';
import { publishPolicy, readCurrentPolicy, readStoredVersion, storeNames } from '../../runtime/live/postgres-policy-store.js';
import { MAX_POLICY_BUNDLE_LENGTH, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { policyVersion } from '../../generated/index.js';
import { collectIo, fixture, repoRoot } from '../compiler/helpers.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
/** Nothing listens on port 1 of loopback: every connection is refused at once. */
const UNREACHABLE = 'postgres://user:secret@127.0.0.1:1/none';
const definitions = `${repoRoot}definitions`;

async function run(...argv: string[]) {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  return { code, logs, errors };
}

describe('typed-permissions policy: refusals', () => {
  const saved = process.env['DATABASE_URL'];
  beforeAll(() => {
    delete process.env['DATABASE_URL'];
  });
  afterAll(() => {
    if (saved !== undefined) process.env['DATABASE_URL'] = saved;
  });

  it.each<[string, string[], string]>([
    ['no subcommand', ['policy'], 'policy needs a subcommand: publish, list, rollback or followers.'],
    ['an unknown subcommand', ['policy', 'push', '--database-url', UNREACHABLE], 'Unknown policy subcommand "push".'],
    ['no database', ['policy', 'list'], 'policy list needs --database-url <url> (or DATABASE_URL).'],
    ['a folder given to list', ['policy', 'list', 'definitions', '--database-url', UNREACHABLE], 'policy list takes no folder.'],
    [
      'a rollback without a sequence',
      ['policy', 'rollback', '--database-url', UNREACHABLE],
      'policy rollback takes the sequence number of a version (see policy list).',
    ],
    [
      'a rollback to no number',
      ['policy', 'rollback', 'latest', '--database-url', UNREACHABLE],
      'policy rollback takes the sequence number of a version (see policy list).',
    ],
    [
      'a rollback to zero',
      ['policy', 'rollback', '0', '--database-url', UNREACHABLE],
      'policy rollback takes the sequence number of a version (see policy list).',
    ],
    ...['0x1', '1e0', ' 1', '1 ', '+1', '01', '1.0', '9007199254740993'].map((given): [string, string[], string] => [
      `a rollback to ${JSON.stringify(given)} (a sequence is decimal digits)`,
      ['policy', 'rollback', given, '--database-url', UNREACHABLE],
      'policy rollback takes the sequence number of a version (see policy list).',
    ]),
    ['a list with --note (it records nothing)', ['policy', 'list', '--note', 'why', '--database-url', UNREACHABLE], 'policy list takes no --note.'],
    ['followers with --note', ['policy', 'followers', '--note', 'why', '--database-url', UNREACHABLE], 'policy followers takes no --note.'],
    ['a rollback with --yes (it does not ask)', ['policy', 'rollback', '1', '--yes', '--database-url', UNREACHABLE], 'policy rollback takes no --yes.'],
    [
      'a rollback by an unprintable name',
      ['policy', 'rollback', '1', '--published-by', 'a\u0007b', '--database-url', UNREACHABLE],
      'policy rollback --published-by takes a printable name of 1 to 200 characters.',
    ],
    ['a list with --published-by', ['policy', 'list', '--published-by', 'alice', '--database-url', UNREACHABLE], 'policy list takes no --published-by.'],
  ])('%s: exit 2 with the usage', async (_label, argv, says) => {
    const { code, logs, errors } = await run(...argv);
    expect([code, logs]).toEqual([2, []]);
    expect(errors).toEqual([expect.stringContaining(`typed-permissions: ${says}\n\nUsage:`)]);
  });

  it('a definitions folder with problems publishes nothing, and connects to nothing', async () => {
    const { code, logs, errors } = await run('policy', 'publish', '--yes', fixture('bad/empty-grant'), '--database-url', UNREACHABLE);
    expect([code, logs]).toEqual([1, []]);
    expect(errors.at(-1)).toBe(`typed-permissions: ${fixture('bad/empty-grant')} has problems; nothing was published.`);
    expect(errors.join('\n')).not.toContain('cannot reach');
  });

  it('a server that cannot be reached is one line, exit 1, without the password', async () => {
    for (const argv of [
      ['policy', 'publish', '--yes', definitions],
      ['policy', 'list'],
      ['policy', 'rollback', '3'],
    ]) {
      const { code, logs, errors } = await run(...argv, '--database-url', UNREACHABLE);
      expect([code, logs]).toEqual([1, []]);
      expect(errors).toEqual([
        expect.stringMatching(/^typed-permissions: cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\); nothing was changed\.$/),
      ]);
      expect(errors[0]).not.toContain('secret');
    }
  });

  it('store names that are not lower-case SQL identifiers are refused before connecting', async () => {
    const { code, errors } = await run('policy', 'list', '--database-url', UNREACHABLE, '--schema', 'Policies; DROP TABLE users');
    expect(code).toBe(1);
    expect(errors).toEqual([
      'typed-permissions: The policy store\'s schema must be a lower-case SQL identifier (letters, digits, _), got "Policies; DROP TABLE users".',
    ]);
  });
});

const describeWithServer = serverUrl === undefined ? describe.skip : describe;
if (serverUrl === undefined)
  console.info('typed-permissions policy on a server: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('typed-permissions policy on a PostgreSQL server', () => {
  const schema = `cli_${process.pid}`;
  const { store, admin } = useServerSchema(serverUrl as string, schema);

  it('creates the store on the first publish, lists newest first, and refuses a rollback to a version it does not have', async () => {
    expect(await run('policy', 'list', ...store())).toEqual({ code: 0, logs: [`typed-permissions: nothing was published to ${schema} yet.`], errors: [] });
    // Publishing prints the diff against the active version first: the first, everything the policy grants; the second, nothing.
    const first = await run('policy', 'publish', '--yes', definitions, ...store(), '--note', 'take 1');
    expect([first.code, first.errors]).toEqual([0, []]);
    expect(first.logs[0]).toMatch(
      new RegExp(`^Policy diff nothing published -> ${definitions}: \\+(\\d+) −0 cells, roles \\+\\d+ −0, resources \\+3 −0, actions \\+\\d+ −0\n`),
    );
    expect(first.logs[1]).toBe(`typed-permissions: published version ${policyVersion} as #1 to ${schema}; no follower was seen in the last 60 s.`);
    const firstSummary = (first.logs[0] as string).split('\n')[0]?.replace(/^.*: /, '');
    expect(await run('policy', 'publish', '--yes', definitions, ...store(), '--note', 'take 2', '--published-by', 'alice')).toEqual({
      code: 0,
      logs: [
        `Policy diff store:1 -> ${definitions}: no change`,
        `typed-permissions: published version ${policyVersion} as #2 to ${schema}; no follower was seen in the last 60 s.`,
      ],
      errors: [],
    });
    const listed = await run('policy', 'list', ...store());
    // Who published: the name given, else the database user (as before --published-by).
    expect(
      listed.logs.map((line) => line.replace(/ \S+Z (alice|[^\s,]+)/, (_, who: string) => ` <when> ${who === 'alice' ? who : '<database user>'}`)),
    ).toEqual([
      `#2 ${policyVersion} <when> alice (active), run by 0 followers [no change] — take 2`,
      `#1 ${policyVersion} <when> <database user>, run by 0 followers [${firstSummary}] — take 1`,
    ]);
    expect(await run('policy', 'rollback', '9', ...store())).toEqual({
      code: 1,
      logs: [],
      errors: ['typed-permissions: The policy store has no version 9; see `typed-permissions policy list`.'],
    });
    const { rows } = await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`);
    expect(rows).toEqual([{ sequence: '2' }]);
    // A rollback records its --note after what it did; without one, what it did alone.
    expect((await run('policy', 'rollback', '1', ...store(), '--note', 'incident 42')).code).toBe(0);
    expect((await run('policy', 'rollback', '2', ...store())).code).toBe(0);
    const notes = await admin().query<{ sequence: string; note: string }>(
      `SELECT sequence, note FROM ${schema}.policy_versions WHERE sequence > 2 ORDER BY sequence`,
    );
    expect(notes.rows).toEqual([
      { sequence: '3', note: 'rollback to 1: incident 42' },
      { sequence: '4', note: 'rollback to 2' },
    ]);
  });

  it('refuses a rollback to a version edited in the database (tables that do not hash to its version, or no tables), changing nothing', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const { rows } = await admin().query<{ bundle: string; sequence: string }>(
      `SELECT bundle, sequence FROM ${schema}.policy_versions ORDER BY sequence DESC LIMIT 1`,
    );
    const stored = JSON.parse(rows[0]?.bundle as string) as { version: string; tables: object };
    const forged = { ...stored, version: 'b'.repeat(64) };
    const broken = { ...stored, tables: { roles: 'all' } };
    const inserted = await admin().query<{ sequence: string }>(
      `INSERT INTO ${schema}.policy_versions (version, bundle) VALUES ($1, $2), ($3, $4) RETURNING sequence`,
      [forged.version, JSON.stringify(forged), stored.version, JSON.stringify(broken)],
    );
    const [forgedAt, brokenAt] = inserted.rows.map((row) => row.sequence);
    const active = await admin().query(`SELECT sequence FROM ${schema}.policy_current`);
    const forgedRun = await run('policy', 'rollback', forgedAt as string, ...store());
    expect([forgedRun.code, forgedRun.errors]).toEqual([
      1,
      [
        `typed-permissions: Version #${forgedAt} of the policy store says version ${'b'.repeat(64)}, but its tables hash to ${policyVersion} ` +
          '(the bundle was changed or cut short); nothing was changed.',
      ],
    ]);
    const brokenRun = await run('policy', 'rollback', brokenAt as string, ...store());
    expect([brokenRun.code, brokenRun.errors[0]?.startsWith(`typed-permissions: Version #${brokenAt} of the policy store has tables that are not`)]).toEqual([
      1,
      true,
    ]);
    expect((await admin().query(`SELECT sequence FROM ${schema}.policy_current`)).rows).toEqual(active.rows);
  });

  it('a publish whose predecessor is no longer the active version when it commits publishes nothing (two publishes of one diff: one wins)', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const names = storeNames({ schema, channel: schema });
    const seen = (await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`)).rows[0]?.sequence as string;
    const bundle = await readStoredVersion(admin(), names, Number(seen));
    // pg's Client as the store takes it (its typing of `on` is wider than the store needs).
    const client = admin() as unknown as PgClient;
    // Someone else's publish lands between what this publisher saw and its commit.
    const theirs = await publishPolicy(client, names, bundle, 'theirs', { activeBefore: Number(seen) });
    await expect(publishPolicy(client, names, bundle, 'mine', { activeBefore: Number(seen) })).rejects.toThrow(
      new PermissionsUsageError(
        `The active version changed while this one was checked (#${seen} is now #${theirs}, published by someone else meanwhile); nothing was ` +
          'published. Look at the diff against it and publish again.',
      ),
    );
    expect((await admin().query(`SELECT sequence FROM ${schema}.policy_current`)).rows).toEqual([{ sequence: String(theirs) }]);
  });

  it('an active version that cannot be read (not JSON, over the bundle limit) is replaced by a publish or a rollback, diffed against nothing', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const readable = (await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`)).rows[0]?.sequence as string;
    const published = `typed-permissions: published version ${policyVersion} as`;
    // Written into the store directly: a version edited in the database, or published before bundles were bounded.
    const unreadable = async (bundleSql: string): Promise<number> => {
      expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
      const { rows } = await admin().query<{ sequence: string }>(
        `UPDATE ${schema}.policy_versions SET bundle = ${bundleSql} WHERE sequence = (SELECT sequence FROM ${schema}.policy_current) RETURNING sequence`,
      );
      return Number(rows[0]?.sequence);
    };
    const notJson = await unreadable(`'not json'`);
    const parseError = (() => {
      try {
        return JSON.parse('not json') as never;
      } catch (error) {
        return (error as Error).message;
      }
    })();
    const publishedOver = await run('policy', 'publish', '--yes', definitions, ...store());
    expect([publishedOver.code, publishedOver.errors, publishedOver.logs[0], publishedOver.logs[2]]).toEqual([
      0,
      [],
      `typed-permissions: the active version #${notJson} cannot be read (The policy bundle of policy store version ${notJson} is not JSON ` +
        `(${parseError}); it is not loaded); the diff below is against nothing.`,
      `${published} #${notJson + 1} to ${schema}; no follower was seen in the last 60 s.`,
    ]);
    expect(publishedOver.logs[1]).toMatch(new RegExp(`^Policy diff unreadable #${notJson} -> ${definitions}: \\+\\d+ −0 cells`));
    const oversize = await unreadable(`repeat('x', ${MAX_POLICY_BUNDLE_LENGTH + 1})`);
    const rolledBack = await run('policy', 'rollback', readable, ...store());
    expect([rolledBack.code, rolledBack.errors, rolledBack.logs[0], rolledBack.logs[2]]).toEqual([
      0,
      [],
      `typed-permissions: the active version #${oversize} cannot be read (The policy bundle of policy store version ${oversize} has ` +
        `${MAX_POLICY_BUNDLE_LENGTH + 1} characters, more than the limit of ${MAX_POLICY_BUNDLE_LENGTH}); the diff below is against nothing.`,
      `typed-permissions: version #${readable} is active again, as #${oversize + 1}; no follower was seen in the last 60 s.`,
    ]);
    expect((await admin().query(`SELECT sequence FROM ${schema}.policy_current`)).rows).toEqual([{ sequence: String(oversize + 1) }]);
  }, 60_000);

  it('refuses to publish a bundle over the bundle limit, which no follower would read; nothing changes', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const names = storeNames({ schema, channel: schema });
    const active = await admin().query(`SELECT sequence FROM ${schema}.policy_current`);
    const bundle = await readStoredVersion(admin(), names, Number((active.rows[0] as { sequence: string }).sequence));
    // Policy tests travel in the bundle: large ones are what makes a bundle this long.
    const large = { ...bundle, tests: { padding: 'x'.repeat(MAX_POLICY_BUNDLE_LENGTH) } } as unknown as PolicyBundle;
    const length = JSON.stringify(large).length;
    await expect(publishPolicy(admin() as unknown as PgClient, names, large, 'large')).rejects.toThrow(
      new PermissionsUsageError(
        `The bundle to publish has ${length} characters, more than the limit of ${MAX_POLICY_BUNDLE_LENGTH} that a follower reads; nothing was ` +
          'published. Make the policy or its policy tests smaller.',
      ),
    );
    expect((await admin().query(`SELECT sequence FROM ${schema}.policy_current`)).rows).toEqual(active.rows);
  }, 30_000);

  it('a store without its identity table (made before identities, or the table not restored) is followed, published to and rolled back', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const before = Number((await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`)).rows[0]?.sequence);
    await admin().query(`DROP TABLE ${schema}.policy_store`);
    // What a follower reads: the active version, of a store without identity (not "no store at all").
    const current = await readCurrentPolicy(admin(), storeNames({ schema, channel: schema }));
    expect([current?.sequence, current?.store, (current?.bundle as PolicyBundle | undefined)?.version]).toEqual([before, undefined, policyVersion]);
    expect(await run('policy', 'publish', '--yes', definitions, ...store())).toEqual({
      code: 0,
      logs: [
        `Policy diff store:${before} -> ${definitions}: no change`,
        `typed-permissions: published version ${policyVersion} as #${before + 1} to ${schema}; no follower was seen in the last 60 s.`,
      ],
      errors: [],
    });
    // The publish made the identity the store lacked; a rollback goes through as well.
    expect((await admin().query(`SELECT count(*)::int AS n FROM ${schema}.policy_store`)).rows).toEqual([{ n: 1 }]);
    await admin().query(`DROP TABLE ${schema}.policy_store`);
    expect(await run('policy', 'rollback', String(before), ...store())).toEqual({
      code: 0,
      logs: [
        `Policy diff store:${before + 1} -> store:${before}: no change`,
        `typed-permissions: version #${before} is active again, as #${before + 2}; no follower was seen in the last 60 s.`,
      ],
      errors: [],
    });
  }, 30_000);

  it('a registration that cannot be checked (a method named twice, a name that is none) counts as a follower that rejects: --force goes on', async () => {
    expect((await run('policy', 'publish', '--yes', definitions, ...store())).code).toBe(0);
    const sequence = (await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`)).rows[0]?.sequence as string;
    for (const methods of [['isOwner', 'isOwner'], ['not a name']]) {
      await admin().query(`DELETE FROM ${schema}.policy_followers`);
      await admin().query(`INSERT INTO ${schema}.policy_followers (instance, host, pid, started_at, capabilities) VALUES ('odd', 'h', 1, now(), $1)`, [
        JSON.stringify({ ownershipMethods: methods, ownershipService: 'Svc' }),
      ]);
      const refused = await run('policy', 'rollback', sequence, ...store());
      expect([refused.code, refused.errors.join('\n')]).toEqual([1, expect.stringContaining('its registration cannot be read')]);
      const forced = await run('policy', 'rollback', sequence, '--force', ...store());
      expect([forced.code, forced.errors]).toEqual([0, []]);
    }
  });
});
