/**
 * `policy publish` shows what a version changes before it changes anything, and `diff` reads the store: on a
 * PostgreSQL server (TEST_DATABASE_URL), publishing prints the diff against the active version, asks on a terminal
 * (no answer, or no terminal without --yes, publishes nothing), refuses when the active version moved while the
 * question was asked, records who published and the diff's summary (a store made before that column keeps working),
 * `diff store:<sequence> store:active` compares two versions of the store, and `render --before store:<sequence>` draws
 * the review page against one.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useServerSchema } from './fixtures/server-schema.js';
import { main } from '../../compiler/commands/main.js';
import { collectIo } from '../compiler/helpers.js';
import type { CommandOutput } from '../../compiler/commands/command-line.js';

const serverUrl = process.env['TEST_DATABASE_URL'];

async function run(argv: readonly string[], answers?: string[], onAsk?: () => Promise<void>) {
  const { logs, errors, io } = collectIo();
  const questions: string[] = [];
  const ask = async (question: string) => {
    questions.push(question);
    await onAsk?.();
    return answers?.shift() ?? '';
  };
  const output: CommandOutput = answers === undefined ? io : { ...io, ask };
  const code = await main(argv, output);
  return { code, logs, errors, questions };
}

/** A definitions folder: readers read notes with these attributes. */
function folder(dir: string, attributes: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'app.permissions.json'),
    JSON.stringify({ definitions: [{ roles: ['READER'], resource: 'note', grant: { 'read:any': attributes } }] }),
  );
  return dir;
}

const describeWithServer = serverUrl === undefined ? describe.skip : describe;
if (serverUrl === undefined) console.info('policy publish with its diff: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('policy publish shows the diff and asks; diff reads the store', () => {
  const schema = `publish_diff_${process.pid}`;
  const { store, admin } = useServerSchema(serverUrl as string, schema);
  const temp = mkdtempSync(join(tmpdir(), 'publish-diff-'));
  const v1 = folder(join(temp, 'v1'), ['title']);
  const v2 = folder(join(temp, 'v2'), ['title', 'body']);
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('without a terminal and without --yes: prints the diff, publishes nothing, exit 2', async () => {
    const result = await run(['policy', 'publish', v1, ...store()]);
    expect(result.code).toBe(2);
    expect(result.logs).toEqual([
      [
        `Policy diff nothing published -> ${v1}: +1 −0 cells, roles +1 −0, resources +1 −0, actions +4 −0`,
        'roles added: "READER"',
        'resources added: "note"',
        'actions added: "create", "delete", "read", "update"',
        'note:',
        '  + READER read:any, attributes title',
      ].join('\n'),
    ]);
    expect(result.errors).toEqual([
      'typed-permissions: policy publish asks before publishing, and standard input is not a terminal; nothing was published. ' +
        'Review the diff above, then publish with --yes.',
    ]);
    expect((await run(['policy', 'list', ...store()])).logs).toEqual([`typed-permissions: nothing was published to ${schema} yet.`]);
  });

  it('on a terminal: asks, publishes on y, and records who published and the summary', async () => {
    const declined = await run(['policy', 'publish', v1, ...store()], ['n']);
    expect([declined.code, declined.questions, declined.errors]).toEqual([1, ['Publish? [y/N] '], ['typed-permissions: nothing was published.']]);
    const accepted = await run(['policy', 'publish', v1, ...store(), '--published-by', 'release bot'], [' Y ']);
    expect([accepted.code, accepted.questions, accepted.errors]).toEqual([0, ['Publish? [y/N] '], []]);
    expect(accepted.logs[1]).toMatch(new RegExp(`^typed-permissions: published version [0-9a-f]{64} as #1 to ${schema}; `));
    const widened = await run(['policy', 'publish', v2, ...store(), '--yes', '--published-by', 'alice']);
    expect(widened.code).toBe(0);
    expect(widened.logs[0]).toBe(
      [
        `Policy diff store:1 -> ${v2}: +0 −0 cells, 1 attribute set widened`,
        'note:',
        '  ~ READER read:any, attributes widened (patterns +body): title -> body title',
      ].join('\n'),
    );
    const listed = (await run(['policy', 'list', ...store()])).logs.map((line) => line.replace(/ [0-9a-f]{64} \S+Z /, ' <version> <when> '));
    expect(listed).toEqual([
      '#2 <version> <when> alice (active), run by 0 followers [+0 −0 cells, 1 attribute set widened]',
      '#1 <version> <when> release bot, run by 0 followers [+1 −0 cells, roles +1 −0, resources +1 −0, actions +4 −0]',
    ]);
  });

  it('diff store:1 store:active compares two versions of the store', async () => {
    expect(await run(['diff', 'store:1', 'store:active', ...store()])).toEqual({
      code: 1,
      logs: [
        [
          'Policy diff store:1 -> store:active: +0 −0 cells, 1 attribute set widened',
          'note:',
          '  ~ READER read:any, attributes widened (patterns +body): title -> body title',
        ].join('\n'),
      ],
      errors: [],
      questions: [],
    });
    expect((await run(['diff', 'store:2', v2, ...store()])).code).toBe(0);
    expect(await run(['diff', 'store:9', v2, ...store()])).toEqual({
      code: 2,
      logs: [],
      errors: ['typed-permissions: The policy store has no version 9; see `typed-permissions policy list`.'],
      questions: [],
    });
  });

  it('render --before store:1 draws the review page against a version of the store', async () => {
    const site = join(temp, 'site');
    const rendered = await run(['render', v2, '--out', site, '--before', 'store:1', ...store()]);
    expect(rendered).toEqual({
      code: 0,
      logs: [
        `Wrote the review page of v2/ to ${site}/ (3 pages; open ${site}/index.html), compared with store:1: 1 attribute set widened (more attributes shown).`,
      ],
      errors: [],
      questions: [],
    });
  });

  it('refuses when the active version changed while the person was asked', async () => {
    const result = await run(['policy', 'publish', v1, ...store()], ['y'], async () => {
      expect((await run(['policy', 'publish', v1, ...store(), '--yes'])).code).toBe(0);
    });
    expect(result.code).toBe(1);
    expect(result.errors).toEqual([
      'typed-permissions: the active version changed while the diff was shown (#2 is now #3); nothing was published. ' +
        'Run policy publish again to see the diff against it.',
    ]);
    const { rows } = await admin().query<{ sequence: string }>(`SELECT sequence FROM ${schema}.policy_current`);
    expect(rows).toEqual([{ sequence: '3' }]);
  });

  it('a store made before the summary column: list works, and the next publish adds the column', async () => {
    await admin().query(`ALTER TABLE ${schema}.policy_versions DROP COLUMN diff_summary`);
    const listed = await run(['policy', 'list', ...store()]);
    expect(listed.code).toBe(0);
    expect(listed.logs[0]).toMatch(/^#3 [0-9a-f]{64} \S+Z \S+ \(active\), run by 0 followers$/);
    expect((await run(['policy', 'publish', v2, ...store(), '--yes'])).code).toBe(0);
    expect((await run(['policy', 'list', ...store()])).logs[0]).toMatch(/\(active\), run by 0 followers \[\+0 −0 cells, 1 attribute set widened\]$/);
  });

  it("diff tenant:<id> reads the tenant's custom roles from the database, over the store's active policy", async () => {
    const roles = join(temp, 'auditor.json');
    writeFileSync(roles, JSON.stringify({ definitions: [{ roles: ['AUDITOR'], resource: 'note', grant: { 'read:any': ['title'] } }] }));
    expect((await run(['tenant', 'publish', 'acme', roles, ...store()])).code).toBe(0);
    expect(await run(['diff', 'store:active', 'tenant:acme', ...store()])).toEqual({
      code: 1,
      logs: [
        ['Policy diff store:active -> tenant:acme: +1 −0 cells, roles +1 −0', 'roles added: "AUDITOR"', 'note:', '  + AUDITOR read:any, attributes title'].join(
          '\n',
        ),
      ],
      errors: [],
      questions: [],
    });
    expect((await run(['diff', 'store:active', 'tenant:other', ...store()])).code).toBe(0);
  });

  it('--published-by must be a printable name within its limit', async () => {
    for (const name of ['', ' ', 'a'.repeat(201), 'bell\u0007']) {
      const result = await run(['policy', 'publish', v1, ...store(), '--yes', '--published-by', name]);
      expect(result.code).toBe(2);
      expect(result.errors).toEqual([
        expect.stringContaining('typed-permissions: policy publish --published-by takes a printable name of 1 to 200 characters.'),
      ]);
    }
    expect((await run(['policy', 'publish', v1, ...store(), '--yes', '--published-by', 'a'.repeat(200)])).code).toBe(0);
  });
});
