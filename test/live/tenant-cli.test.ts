/**
 * `typed-permissions tenant publish|list|show|rollback`, run in-process through `main(argv, io)`: usage errors
 * exit 2 with the usage; a roles file that is not JSON, or whose roles do not fit the policy, prints each problem
 * at file:line:column, exits 1 and publishes nothing; a server that cannot be reached is one line and exit 1. On a
 * folder (`--store`) and, with TEST_DATABASE_URL, on a PostgreSQL server checked against the store's active policy.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTenantRolesAdmin } from '../../runtime/live/index.js';
import { main } from '../../compiler/commands/main.js';
import { collectIo, makeTempDir, removeTempDir, repoRoot } from '../compiler/helpers.js';
import { useServerSchema } from './fixtures/server-schema.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
/** Nothing listens on port 1 of loopback: every connection is refused at once. */
const UNREACHABLE = 'postgres://user:secret@127.0.0.1:1/none';
const policy = join(repoRoot, 'generated', 'policy.json');

async function run(...argv: string[]) {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  return { code, logs, errors };
}

/** What the lines say with the time of publishing taken out. */
const withoutTimes = (lines: readonly string[]) => lines.map((line) => line.replace(/ \d{4}-\d\d-\d\dT[\d:.]+Z /, ' <when> '));

const AUDITORS = `{
  "definitions": [
    { "roles": ["AUDITOR"], "resource": "document", "grant": ["read:any"] }
  ]
}
`;

const CLERKS = `{
  "definitions": [
    { "roles": ["CLERK"], "resource": "document", "grant": ["read:any", "update:any"] }
  ]
}
`;

describe('typed-permissions tenant: refusals', () => {
  const saved = process.env['DATABASE_URL'];
  beforeAll(() => {
    delete process.env['DATABASE_URL'];
  });
  afterAll(() => {
    if (saved !== undefined) process.env['DATABASE_URL'] = saved;
  });

  it.each<[string, string[], string]>([
    ['no subcommand', ['tenant'], 'tenant needs a subcommand: publish, list, show or rollback.'],
    ['an unknown subcommand', ['tenant', 'push', '--store', 'x'], 'Unknown tenant subcommand "push".'],
    ['no store', ['tenant', 'list'], 'tenant list needs --database-url <url> (or DATABASE_URL), or --store <folder>.'],
    [
      'two stores',
      ['tenant', 'list', '--store', 'x', '--database-url', UNREACHABLE],
      'tenant list takes --store <folder> or a database (--database-url, --schema, --channel), not both.',
    ],
    ['publish without a file', ['tenant', 'publish', 'acme', '--store', 'x'], 'tenant publish takes a tenant id and a roles file.'],
    [
      'publish to a folder without a policy',
      ['tenant', 'publish', 'acme', 'a.json', '--store', 'x'],
      'tenant publish --store <folder> needs --policy <policy.json>, the policy the roles are checked against.',
    ],
    ['show without a tenant', ['tenant', 'show', '--store', 'x'], 'tenant show takes a tenant id.'],
    ['a list with a tenant', ['tenant', 'list', 'acme', '--store', 'x'], 'tenant list takes no tenant (--after <tenant> starts a page after one).'],
    ['a list past its page limit', ['tenant', 'list', '--store', 'x', '--limit', '1001'], 'tenant list --limit takes a number of tenants from 1 to 1000.'],
    ['show with a note', ['tenant', 'show', 'acme', '--store', 'x', '--note', 'n'], 'tenant show takes no --note.'],
    [
      'a rollback to no number',
      ['tenant', 'rollback', 'acme', 'latest', '--store', 'x'],
      'tenant rollback takes a tenant id and the sequence number of one of its versions (see tenant show).',
    ],
    [
      'a rollback to zero',
      ['tenant', 'rollback', 'acme', '0', '--store', 'x'],
      'tenant rollback takes a tenant id and the sequence number of one of its versions (see tenant show).',
    ],
    ...['0x10', '1e1', ' 1', '1 ', '+1', '01', '1.0', '9007199254740993'].flatMap((given): [string, string[], string][] => [
      [
        `a rollback to ${JSON.stringify(given)} (a sequence is decimal digits)`,
        ['tenant', 'rollback', 'acme', given, '--store', 'x'],
        'tenant rollback takes a tenant id and the sequence number of one of its versions (see tenant show).',
      ],
      [
        `a list --limit of ${JSON.stringify(given)} (a limit is decimal digits)`,
        ['tenant', 'list', '--store', 'x', '--limit', given],
        'tenant list --limit takes a number of tenants from 1 to 1000.',
      ],
    ]),
  ])('%s: exit 2 with the usage', async (_label, argv, says) => {
    const { code, logs, errors } = await run(...argv);
    expect([code, logs]).toEqual([2, []]);
    expect(errors).toEqual([expect.stringContaining(`typed-permissions: ${says}\n\nUsage:`)]);
  });

  it('a server that cannot be reached is one line, exit 1, without the password', async () => {
    for (const argv of [
      ['tenant', 'list'],
      ['tenant', 'show', 'acme'],
    ]) {
      const { code, logs, errors } = await run(...argv, '--database-url', UNREACHABLE);
      expect([code, logs]).toEqual([1, []]);
      expect(errors).toEqual([
        expect.stringMatching(
          /^typed-permissions: the PostgreSQL server at 127\.0\.0\.1:1 refused or could not be reached \(.*ECONNREFUSED.*\); nothing was changed\.$/,
        ),
      ]);
      expect(errors[0]).not.toContain('secret');
    }
  });
});

describe('typed-permissions tenant on a folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = makeTempDir('tenant-cli');
  });
  afterEach(() => removeTempDir(folder));

  it('publishes, lists, shows and rolls back', async () => {
    const store = join(folder, 'store');
    writeFileSync(join(folder, 'auditors.json'), AUDITORS);
    writeFileSync(join(folder, 'clerks.json'), CLERKS);
    expect(await run('tenant', 'list', '--store', store)).toEqual({
      code: 0,
      logs: [`typed-permissions: no tenant has custom roles in folder ${store}.`],
      errors: [],
    });
    expect(
      await run('tenant', 'publish', 'acme', join(folder, 'auditors.json'), '--store', store, '--policy', policy, '--published-by', 'ana', '--note', 'audit'),
    ).toEqual({
      code: 0,
      logs: [`typed-permissions: published the custom roles of tenant "acme" from ${join(folder, 'auditors.json')} as #1 to folder ${store}.`],
      errors: [],
    });
    expect((await run('tenant', 'publish', 'acme', join(folder, 'clerks.json'), '--store', store, '--policy', policy, '--published-by', 'bo')).code).toBe(0);
    expect(
      (await run('tenant', 'publish', '../globex', join(folder, 'auditors.json'), '--store', store, '--policy', policy, '--published-by', 'cy')).code,
    ).toBe(0);
    const listed = await run('tenant', 'list', '--store', store, '--limit', '1');
    expect([listed.code, withoutTimes(listed.logs)]).toEqual([
      0,
      ['"../globex" #1 <when> cy: AUDITOR', 'typed-permissions: more tenants follow: --after "../globex"'],
    ]);
    const next = await run('tenant', 'list', '--store', store, '--after', '../globex');
    expect(withoutTimes(next.logs)).toEqual(['"acme" #2 <when> bo: CLERK']);
    expect(await run('tenant', 'rollback', 'acme', '1', '--store', store, '--policy', policy, '--published-by', 'di')).toEqual({
      code: 0,
      logs: [`typed-permissions: version #1 of tenant "acme" is active again in folder ${store}, as #3.`],
      errors: [],
    });
    const shown = await run('tenant', 'show', 'acme', '--store', store);
    expect([shown.code, withoutTimes(shown.logs)]).toEqual([
      0,
      [
        '#3 <when> di (active): AUDITOR — rollback to 1',
        '#2 <when> bo: CLERK',
        '#1 <when> ana: AUDITOR — audit',
        `The active document (#3):\n${JSON.stringify(JSON.parse(AUDITORS), null, 2)}`,
      ],
    ]);
    expect(await run('tenant', 'show', 'initech', '--store', store)).toEqual({
      code: 0,
      logs: [`typed-permissions: tenant "initech" has no custom roles in folder ${store}.`],
      errors: [],
    });
    // A note and an author with line breaks print on their own line, escaped: never a line that reads as another tenant's.
    const forged = '"globex" #7 2026-01-01T00:00:00.000Z ana: SUPER_ADMIN';
    await fileTenantRolesAdmin(store, { policy: JSON.parse(readFileSync(policy, 'utf8')) as never }).publish('initech', JSON.parse(AUDITORS) as object, {
      note: `ok\n${forged}`,
      publishedBy: `eve\n${forged}`,
    });
    const initech = await run('tenant', 'list', '--store', store, '--after', 'acme');
    expect(withoutTimes(initech.logs)).toEqual([`"initech" #1 <when> eve\\u000a${forged}: AUDITOR — ok\\u000a${forged}`]);
    expect(withoutTimes((await run('tenant', 'show', 'initech', '--store', store)).logs)[0]).toBe(
      `#1 <when> eve\\u000a${forged} (active): AUDITOR — ok\\u000a${forged}`,
    );
  }, 30_000);

  it('a file that is not JSON, or whose roles do not fit the policy, prints each problem at file:line:column, exit 1, and publishes nothing', async () => {
    const store = join(folder, 'store');
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{\n  "definitions": [\n    { "roles": ["AUDITOR"], },\n  ]\n}\n');
    expect(await run('tenant', 'publish', 'acme', broken, '--store', store, '--policy', policy)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `${broken}:3:27 $ [syntax-error] Syntax error: a trailing comma before '}' (JSON allows none). Fix: Remove the comma after the last field.`,
        `typed-permissions: ${broken} has 1 problem; nothing was published.`,
      ],
    });
    const twice = join(folder, 'twice.json');
    writeFileSync(twice, '{ "definitions": [], "definitions": [] }');
    const { errors: twiceErrors } = await run('tenant', 'publish', 'acme', twice, '--store', store, '--policy', policy);
    expect(twiceErrors.at(-1)).toBe(`typed-permissions: ${twice} has 1 problem; nothing was published.`);
    expect(twiceErrors[0]).toMatch(new RegExp(`^${twice.replace(/[.]/g, '\\.')}:1:22 \\$\\.definitions \\[duplicate-key\\] `));
    const misfit = join(folder, 'misfit.json');
    writeFileSync(
      misfit,
      '{\n  "definitions": [\n    { "roles": ["EMPLOYEE"], "resource": "document", "grant": ["read:any"] },\n' +
        '    { "roles": ["AUDITOR"], "resource": "invoice", "grant": ["read:any"] }\n  ]\n}\n',
    );
    expect(await run('tenant', 'publish', 'acme', misfit, '--store', store, '--policy', policy)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `${misfit}:3:17 $.definitions[0].roles[0] [tenant-role] Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one. ` +
          'Fix: Give the custom role a name of its own (for example "ACME_REVIEWER").',
        `${misfit}:4:41 $.definitions[1].resource [unknown-resource] Resource "invoice" is not a resource of the compiled policy. ` +
          'Fix: Name one of its resources: "decision", "document", "session", or "*".',
        `typed-permissions: ${misfit} has 2 problems; nothing was published.`,
      ],
    });
    expect((await run('tenant', 'list', '--store', store)).logs).toEqual([`typed-permissions: no tenant has custom roles in folder ${store}.`]);
  });

  it('a tenant id that breaks the rule is refused, exit 1', async () => {
    writeFileSync(join(folder, 'auditors.json'), AUDITORS);
    const { code, errors } = await run(
      'tenant',
      'publish',
      'a'.repeat(257),
      join(folder, 'auditors.json'),
      '--store',
      join(folder, 'store'),
      '--policy',
      policy,
    );
    expect([code, errors]).toEqual([1, ['typed-permissions: publish: tenant must be at most 256 characters, got 257.']]);
  });
});

const describeWithServer = serverUrl === undefined ? describe.skip : describe;
if (serverUrl === undefined)
  console.info('typed-permissions tenant on a server: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('typed-permissions tenant on a PostgreSQL server', () => {
  const schema = `tenant_cli_${process.pid}`;
  const { store } = useServerSchema(serverUrl as string, schema);
  let folder: string;
  beforeAll(() => {
    folder = makeTempDir('tenant-cli-server');
    writeFileSync(join(folder, 'auditors.json'), AUDITORS);
  });
  afterAll(() => removeTempDir(folder));

  it('refuses to publish before a policy was published, then checks against the active one', async () => {
    const file = join(folder, 'auditors.json');
    expect(await run('tenant', 'publish', 'acme', file, ...store())).toEqual({
      code: 1,
      logs: [],
      errors: [
        `typed-permissions: No policy was published to ${schema}, so tenants' roles cannot be checked against it: publish one first ` +
          "(`typed-permissions policy publish`), or give the base policy (`--policy <policy.json>`, or the admin's `policy` option).",
      ],
    });
    expect((await run('policy', 'publish', '--yes', join(repoRoot, 'definitions'), ...store())).code).toBe(0);
    expect(await run('tenant', 'publish', 'acme', file, ...store(), '--published-by', 'ana')).toEqual({
      code: 0,
      logs: [`typed-permissions: published the custom roles of tenant "acme" from ${file} as #1 to schema ${schema}.`],
      errors: [],
    });
    const listed = await run('tenant', 'list', ...store());
    expect(withoutTimes(listed.logs)).toEqual(['"acme" #1 <when> ana: AUDITOR']);
    expect(await run('tenant', 'rollback', 'acme', '5', ...store())).toEqual({
      code: 1,
      logs: [],
      errors: ['typed-permissions: Tenant "acme" has no version 5 of custom roles; see `typed-permissions tenant show`.'],
    });
  }, 30_000);
});
