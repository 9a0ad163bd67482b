/**
 * `typed-permissions policy publish` runs the folder's policy tests first: a version whose tests fail is refused —
 * the failures printed, exit 1, no connection made, nothing changed in the store. On a PostgreSQL server
 * (TEST_DATABASE_URL), a passing version is published with its tests in the bundle, and a failing one after it
 * leaves the log and the active version as they were.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { useServerSchema } from '../live/fixtures/server-schema.js';
import { removeTempDir } from '../compiler/helpers.js';
import { articleTest, articleTests, folderWith, run } from './policy-test-folders.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
/** Nothing listens on port 1 of loopback: a connection would be refused at once. */
const UNREACHABLE = 'postgres://user:secret@127.0.0.1:1/none';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

function folder(tests: string): string {
  const dir = folderWith({ 'articles.permissions.test.json': tests });
  folders.push(dir);
  return dir;
}

const passing = articleTests(articleTest('ann', 'read', 1, 'granted'), articleTest('eve', 'publish', undefined, 'granted'));
const failing = articleTests(articleTest('ann', 'read', 1, 'granted'), articleTest('eve', 'update', undefined, 'granted'));

/** What publishing {@link failing} in `dir` prints. */
function refusal(dir: string): string[] {
  return [
    `FAIL ${dir}/articles.permissions.test.json:9:5 eve update article`,
    '  expected granted, got denied',
    '  update on article for roles EDITOR: NOT GRANTED',
    '    - no definition grants update on article to EDITOR.',
    'typed-permissions: 1 of 2 policy tests failed; nothing was published.',
  ];
}

describe('policy publish runs the policy tests first', () => {
  it('a failing version is refused before any connection: the failures, exit 1', async () => {
    const dir = folder(failing);
    expect(await run('policy', 'publish', '--yes', dir, '--database-url', UNREACHABLE)).toEqual({ code: 1, logs: [], errors: refusal(dir) });
  });
});

const describeWithServer = serverUrl === undefined ? describe.skip : describe;
if (serverUrl === undefined)
  console.info('policy publish refusing a failing version on a server: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('policy publish on a PostgreSQL server', () => {
  const schema = `policy_tests_${process.pid}`;
  const { store, admin } = useServerSchema(serverUrl as string, schema);

  it('publishes a passing version with its tests; a failing one after it changes nothing', async () => {
    const good = await run('policy', 'publish', '--yes', folder(passing), ...store());
    // The diff against the store (nothing published yet) first, then the publish.
    expect([good.code, good.errors, good.logs.length]).toEqual([0, [], 2]);
    expect(good.logs[0]).toMatch(/^Policy diff nothing published -> .*: \+\d+ −0 cells/);
    expect(good.logs[1]).toMatch(
      new RegExp(`^typed-permissions: published version [0-9a-f]{64} as #1 to ${schema}; no follower was seen in the last 60 s\\.$`),
    );
    const dir = folder(failing);
    expect(await run('policy', 'publish', '--yes', dir, ...store())).toEqual({ code: 1, logs: [], errors: refusal(dir) });
    const { rows } = await admin().query<{ sequence: string; tests: { files: { tests: unknown[] }[] } }>(
      `SELECT v.sequence, (v.bundle::jsonb)->'tests' AS tests FROM ${schema}.policy_versions v JOIN ${schema}.policy_current c ON c.sequence = v.sequence`,
    );
    expect(rows.map((row) => [row.sequence, row.tests.files[0]?.tests.length])).toEqual([['1', 2]]);
    const { rows: count } = await admin().query<{ count: string }>(`SELECT count(*) FROM ${schema}.policy_versions`);
    expect(count).toEqual([{ count: '1' }]);
  });
});
