/**
 * `typed-permissions policy publish` knows its followers. Three instances follow one store on a PostgreSQL server,
 * each its own process, and register what they run and can honour; a fourth, whose database role may only read,
 * follows without registering and says so once. The CLI (in-process, through `main`) lists them, publishes a
 * version they take, refuses — exit 1, nothing changed, each instance named with its reason — a version with an
 * action or an ownership method they lack, publishes it with `--force` saying who keeps the old version, checks a
 * rollback the same way, counts followers per version, forgets a follower a minute after it was last seen (and one
 * that stops, at once), and never takes a registration it cannot read for one that accepts anything. Needs
 * TEST_DATABASE_URL (.ci/run starts a server); without one it says so and skips.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { main } from '../../compiler/commands/main.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { collectIo } from '../compiler/helpers.js';
import { isReady, lastChange, until, useFollowerProcesses, type Follower } from './fixtures/follower-processes.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];

async function run(...argv: string[]) {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  return { code, logs, errors };
}

const describeWithServer = databaseUrl === undefined ? describe.skip : describe;
if (databaseUrl === undefined) console.info('policy publish and its followers: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('policy publish checks every follower seen recently', () => {
  const schema = `publishers_${process.pid}`;
  const readOnlyRole = `reader_${process.pid}`;
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-publishers-'));
  const store = () => ['--database-url', databaseUrl as string, '--schema', schema, '--channel', schema];
  const startFollower = useFollowerProcesses({ databaseUrl: databaseUrl as string, schema, baseFile: join(folder, 'base.json') });
  const followers: Follower[] = [];
  let readOnly: Follower;
  let admin: pg.Client;

  /** A definitions folder for the instances' resource `doc` (ids numbers), with `definitions` as its one file. */
  function definitionsFolder(name: string, definitions: readonly object[]): { dir: string; bundle: PolicyBundle } {
    const dir = join(folder, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'doc.resource.json'), JSON.stringify({ resource: 'doc', idType: 'number' }));
    writeFileSync(join(dir, 'doc.permissions.json'), JSON.stringify({ definitions }));
    const model = compileModel(dir);
    if (!model.ok) throw new Error(JSON.stringify(model.problems));
    return { dir, bundle: policyBundleOf(model.model.tables) };
  }

  const base = definitionsFolder('base', [{ roles: ['READER', 'WRITER'], resource: 'doc', grant: ['read:any'] }]);
  const good = definitionsFolder('good', [{ roles: ['READER', 'WRITER'], resource: 'doc', grant: ['read:any', 'update:any'] }]);
  const newAction = definitionsFolder('new-action', [{ roles: ['READER', 'WRITER'], resource: 'doc', grant: ['read:any', 'approve:any'] }]);
  const newMethod = definitionsFolder('new-method', [
    { roles: ['READER'], resource: 'doc', grant: ['read:any'] },
    { roles: ['WRITER'], resource: 'doc', possession: 'own', grant: ['update'], isOwner: 'approvedBy', listOwned: 'listCreated' },
  ]);

  const name = (follower: Follower) => new RegExp(`^  \\S+ pid ${follower.child.pid} \\(instance [0-9a-f]{8}\\)`);
  const registered = async () =>
    (await admin.query<{ pid: number }>(`SELECT pid FROM "${schema}".policy_followers ORDER BY started_at`)).rows.map((row) => row.pid).sort();
  const pids = (list: readonly Follower[]) => list.map((follower) => follower.child.pid as number).sort();
  const active = async () => (await admin.query<{ sequence: string }>(`SELECT sequence FROM "${schema}".policy_current`)).rows[0]?.sequence;

  beforeAll(async () => {
    writeFileSync(join(folder, 'base.json'), JSON.stringify(base.bundle));
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`DROP ROLE IF EXISTS "${readOnlyRole}"`);
    expect(await run('policy', 'publish', '--yes', base.dir, ...store())).toMatchObject({ code: 0 });
    await admin.query(`CREATE ROLE "${readOnlyRole}" LOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${readOnlyRole}"`);
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO "${readOnlyRole}"`);
    for (let i = 0; i < 3; i++) followers.push(startFollower(schema, 30_000));
    const url = new URL(databaseUrl as string);
    url.username = readOnlyRole;
    url.password = '';
    readOnly = startFollower(schema, 30_000, url.toString());
    await until('four followers ready', () => [...followers, readOnly].every(isReady), 60_000);
    await until('three registrations', async () => (await registered()).length === 3, 10_000);
  }, 90_000);

  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS "${readOnlyRole}"`).catch(() => undefined);
    await admin.end();
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  it('the followers register what they run; one whose role may only read follows and says once that it cannot register', async () => {
    expect(await registered()).toEqual(pids(followers));
    const listed = await run('policy', 'followers', ...store());
    expect([listed.code, listed.errors, listed.logs[0]]).toEqual([0, [], `typed-permissions: 3 followers of ${schema}, seen in the last 60 s:`]);
    expect(listed.logs.slice(1)).toHaveLength(3);
    for (const follower of followers)
      expect(listed.logs).toContainEqual(
        expect.stringMatching(
          new RegExp(`^\\S+ pid ${follower.child.pid} \\(instance [0-9a-f]{8}\\): runs #1 ${base.bundle.version}, seen \\d+ s ago, following since \\S+Z$`),
        ),
      );
    const complaints = readOnly.events.filter((event) => event.event === 'error').map((event) => event.message);
    expect(complaints).toEqual([
      expect.stringMatching(
        new RegExp(
          `^this follower cannot register itself in PostgreSQL store ${schema} at \\S+ \\(permission denied for table policy_followers\\); ` +
            'it follows the store as before, but `typed-permissions policy publish` cannot check versions against it; ' +
            `let its role write the registrations \\(GRANT INSERT, UPDATE, DELETE ON "${schema}".policy_followers, ` +
            'or CREATE on the database while the store does not exist yet\\)\\.$',
        ),
      ),
    ]);
  });

  it('a version every follower takes is published, and reaches all four', async () => {
    const published = await run('policy', 'publish', '--yes', good.dir, ...store());
    expect(published).toEqual({
      code: 0,
      // The diff against the active version first (publish prints it before it publishes).
      logs: [
        expect.stringMatching(/^Policy diff store:1 -> /),
        `typed-permissions: published version ${good.bundle.version} as #2 to ${schema}; 3 followers load it now.`,
      ],
      errors: [],
    });
    await until('every follower on #2', () => [...followers, readOnly].every((follower) => lastChange(follower)?.sequence === 2));
  });

  it.each([
    ['an action they do not know', () => newAction, 'it names actions the running code does not know: "approve"'],
    [
      'an ownership method they lack',
      () => newMethod,
      'isOwner names method "approvedBy", which the ownership service (InstanceOwnership) does not have. ' +
        'Add a method approvedBy to the ownership service, or correct the name.',
    ],
  ])('a version with %s is refused, exit 1, each follower named with its reason; nothing changes', async (_label, candidate, reason) => {
    const { dir, bundle } = candidate();
    const refused = await run('policy', 'publish', '--yes', dir, ...store());
    expect([refused.code, refused.logs]).toEqual([1, [expect.stringMatching(/^Policy diff store:2 -> /)]]);
    expect(refused.errors[0]).toBe(`typed-permissions: 3 of 3 followers would reject version ${bundle.version}; nothing was changed:`);
    expect(refused.errors.slice(1, 4)).toEqual(
      followers.map(() => expect.stringMatching(new RegExp(`^  \\S+ pid \\d+ \\(instance [0-9a-f]{8}\\), runs #2 ${good.bundle.version}: `))),
    );
    for (const follower of followers) expect(refused.errors).toContainEqual(expect.stringMatching(name(follower)));
    for (const line of refused.errors.slice(1, 4)) expect(line.endsWith(`: ${reason}`)).toBe(true);
    expect(refused.errors[4]).toBe(
      'typed-permissions: change the definitions, or first deploy code that can honour them; ' +
        '`--force` activates the version anyway, and these followers keep the version they run.',
    );
    expect(await active()).toBe('2');
  });

  it('--force publishes it anyway and says who keeps the old version; the followers reject it and register why', async () => {
    const forced = await run('policy', 'publish', '--yes', newAction.dir, ...store(), '--force');
    expect([forced.code, forced.errors, forced.logs[1]]).toEqual([
      0,
      [],
      `typed-permissions: published version ${newAction.bundle.version} as #3 to ${schema} (--force); ` +
        '0 followers load it now; 3 reject it and keep the version they run:',
    ]);
    expect(forced.logs.slice(2)).toEqual(
      followers.map(() =>
        expect.stringMatching(
          new RegExp(
            `^  \\S+ pid \\d+ \\(instance [0-9a-f]{8}\\), keeps #2 ${good.bundle.version}: it names actions the running code does not know: "approve"$`,
          ),
        ),
      ),
    );
    await until('every follower to reject #3', () =>
      followers.every((follower) => follower.events.some((event) => event.event === 'reject' && event.sequence === 3)),
    );
    await until('the rejections registered', async () => {
      const listed = await run('policy', 'followers', ...store());
      return listed.logs.filter((line) => line.startsWith('  last rejected #3 ')).length === 3;
    });
    const listed = await run('policy', 'followers', ...store());
    expect(listed.logs.filter((line) => line.startsWith('  last rejected'))).toEqual(
      followers.map(() =>
        expect.stringMatching(
          new RegExp(`^  last rejected #3 ${newAction.bundle.version} at \\S+Z: it names actions the running code does not know: "approve"$`),
        ),
      ),
    );
  });

  it('policy list counts the followers that run each version', async () => {
    const listed = await run('policy', 'list', ...store());
    expect(listed.logs.map((line) => line.replace(/ \S+Z [^\s,]+/, ' <when> <who>').replace(/ \[[^\]]*\]$/, ''))).toEqual([
      `#3 ${newAction.bundle.version} <when> <who> (active), run by 0 followers`,
      `#2 ${good.bundle.version} <when> <who>, run by 3 followers`,
      `#1 ${base.bundle.version} <when> <who>, run by 0 followers`,
    ]);
  });

  it('a rollback is checked the same way: to a version they take, it goes through', async () => {
    const rolledBack = await run('policy', 'rollback', '1', ...store(), '--published-by', 'on-call');
    // What the rollback changes is shown first, and recorded with the new entry as a publish's is.
    const diff = [
      'Policy diff store:3 -> store:1: +0 −2 cells, actions +0 −1',
      'actions removed: "approve"',
      'doc:',
      '  - READER approve:any, attributes *',
      '  - WRITER approve:any, attributes *',
    ].join('\n');
    expect(rolledBack).toEqual({ code: 0, logs: [diff, `typed-permissions: version #1 is active again, as #4; 3 followers load it now.`], errors: [] });
    expect((await run('policy', 'list', ...store())).logs[0]).toMatch(
      /^#4 [0-9a-f]{64} \S+ on-call \(active\), run by \d+ followers? \[\+0 −2 cells, actions \+0 −1\] — rollback to 1$/,
    );
    await until('every follower on #4', () => followers.every((follower) => lastChange(follower)?.sequence === 4));
    const refused = await run('policy', 'rollback', '3', ...store());
    expect([refused.code, refused.errors[0]]).toEqual([
      1,
      `typed-permissions: 3 of 3 followers would reject version ${newAction.bundle.version}; nothing was changed:`,
    ]);
    expect(await active()).toBe('4');
  });

  it('a registration that cannot be read is never taken for a follower that accepts anything', async () => {
    await admin.query(
      `INSERT INTO "${schema}".policy_followers (instance, host, pid, started_at, capabilities) ` +
        `VALUES ('forged', 'elsewhere', 1, now(), '{"ownershipMethods": 7}')`,
    );
    const refused = await run('policy', 'publish', '--yes', good.dir, ...store());
    expect([refused.code, refused.errors[0], refused.errors[1]]).toEqual([
      1,
      `typed-permissions: 1 of 4 followers would reject version ${good.bundle.version}; nothing was changed:`,
      '  elsewhere pid 1 (instance forged), runs no version: ' +
        'its registration cannot be read (it was not written by a follower of this version of typed-permissions)',
    ]);
    await admin.query(`DELETE FROM "${schema}".policy_followers WHERE instance = 'forged'`);
  });

  it('a follower not seen for a minute is forgotten (and deleted by the next publish); one that stops is forgotten at once', async () => {
    const [stale, stopping] = followers as [Follower, Follower];
    await admin.query(`UPDATE "${schema}".policy_followers SET last_seen = now() - interval '61 seconds' WHERE pid = $1`, [stale.child.pid]);
    const listed = await run('policy', 'followers', ...store());
    expect(listed.logs[0]).toBe(`typed-permissions: 2 followers of ${schema}, seen in the last 60 s:`);
    expect(listed.logs.join('\n')).not.toContain(`pid ${stale.child.pid} `);
    // Stale until its next refresh (every 10 s): the publish deletes the row first, and counts two.
    const published = await run('policy', 'publish', '--yes', good.dir, ...store());
    expect(published.logs).toEqual([
      expect.stringMatching(/^Policy diff store:4 -> /),
      `typed-permissions: published version ${good.bundle.version} as #5 to ${schema}; 2 followers load it now.`,
    ]);
    const exited = new Promise((resolve) => stopping.child.once('exit', resolve));
    stopping.child.kill('SIGTERM');
    await exited;
    expect(await registered()).not.toContain(stopping.child.pid);
  });
});
