import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { main } from '../../compiler/commands/main.js';
import { decisionsOfJsonLines, MAX_LOGGED_LINE_BYTES } from '../../compiler/review/decision-log-sources.js';
import { MAX_EXAMPLE_ID_CHARACTERS, MAX_REPLAY_GROUP_CHARACTERS, replayDecisions, type ReplayReport } from '../../compiler/review/decision-replay.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { connectionStringForMessages } from '../../runtime/live/postgres-client.js';
import { fileTenantRolesAdmin } from '../../runtime/live/tenant-roles-admin.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { log: (line: string) => void out.push(line), error: (line: string) => void err.push(line) } };
}

let folder: string;
let candidate: string;

/** A decision event as the decision log writes it (the fields a replay reads, and a few it ignores). */
function event(fields: {
  roles: string[];
  resource?: string;
  action: string;
  granted: boolean;
  resourceId?: unknown;
  anyGranted?: boolean;
  ownershipChecked?: boolean;
  tenant?: string;
  userId?: number;
}): string {
  return JSON.stringify({
    callId: `call-${fields.action}-${fields.roles.join('-')}`,
    time: '2026-11-28T00:00:00.000Z',
    user: { id: fields.userId ?? 1, roles: fields.roles },
    ...(fields.tenant === undefined ? {} : { tenant: fields.tenant }),
    resource: fields.resource ?? 'note',
    action: fields.action,
    ...(fields.resourceId === undefined ? {} : { resourceId: fields.resourceId }),
    granted: fields.granted,
    anyGranted: fields.anyGranted ?? false,
    possession: fields.anyGranted === true ? 'any' : null,
    ownershipChecked: fields.ownershipChecked ?? false,
    definitions: [],
    policyVersion: '0'.repeat(64),
    via: 'direct',
  });
}

/** The log every test replays: each line's fate under the candidate is said beside it. */
const LOG = [
  event({ roles: ['READER'], action: 'read', granted: true }), // 1 unchanged: READER reads any note
  event({ roles: ['WRITER'], action: 'read', granted: true, userId: 2 }), // 2 granted → refused: WRITER no longer reads
  event({ roles: ['WRITER'], action: 'update', granted: true, resourceId: 5, ownershipChecked: true }), // 3 unchanged: owned, update:own
  event({ roles: ['WRITER'], action: 'update', granted: false, resourceId: 6, ownershipChecked: true }), // 4 unchanged: not owned
  event({ roles: ['READER'], action: 'update', granted: false, resourceId: 7 }), // 5 unchanged: READER never updates
  event({ roles: ['ADMIN'], action: 'delete', granted: true, resourceId: 9 }), // 6 granted → refused: ADMIN is gone
  event({ roles: ['WRITER'], action: 'update', granted: true, resourceId: 8 }), // 7 undecided: own only now, no ownership answer logged
  event({ roles: ['READER'], action: 'read', granted: false, userId: 3 }), // 8 refused → granted
  'not json', // 9 unreadable
  JSON.stringify({ user: { id: 1 }, resource: 'note', action: 'read', granted: true }), // 10 unreadable: no roles
  '', // 11 blank: skipped
  event({ roles: ['READER'], action: 'read', granted: true, tenant: 'acme' }), // 12 unchanged, in a tenant
  event({ roles: ['READER'], action: 'archive', granted: true }), // 13 granted → refused: note does not declare archive
  event({ roles: ['WRITER'], action: 'read', granted: true, userId: 4 }), // 14 granted → refused (same group as 2)
];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-replay-'));
  candidate = join(folder, 'candidate');
  mkdirSync(candidate);
  writeFileSync(
    join(candidate, 'note.permissions.json'),
    JSON.stringify({
      definitions: [
        { roles: ['READER'], resource: 'note', grant: ['read:any'] },
        { roles: ['WRITER'], resource: 'note', grant: ['update:own'], isOwner: 'isAuthor', listOwned: 'listAuthored' },
      ],
    }),
  );
  writeFileSync(join(candidate, 'note.resource.json'), JSON.stringify({ resource: 'note', idType: 'number', actions: ['read', 'update', 'delete'] }));
  writeFileSync(join(folder, 'decisions.jsonl'), LOG.join('\n') + '\n');
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const candidateVersion = (): string => policyVersionOf(candidateTables());

function candidateTables() {
  const model = compileModel(candidate);
  if (!model.ok) throw new Error(JSON.stringify(model.problems));
  return model.model.tables;
}

describe('replaying logged decisions against a candidate policy', () => {
  it('counts each answer that would change, by roles, resource and action, with examples', async () => {
    const report = await replayDecisions(decisionsOfJsonLines(join(folder, 'decisions.jsonl')), { candidate: candidateTables(), label: 'candidate' });
    expect({ ...report, candidate: undefined }).toEqual({
      candidate: undefined,
      decisions: 11,
      unchanged: 5,
      grantedToRefused: 4,
      refusedToGranted: 1,
      undecided: 1,
      inTenantsWithoutCustomRoles: 1,
      unreadable: 2,
      unreadableExamples: [
        { line: 9, problem: 'the line is not JSON' },
        { line: 10, problem: '"user.roles" is not a list of at most 1000 role names' },
      ],
      groups: [
        {
          roles: ['WRITER'],
          resource: 'note',
          action: 'read',
          change: 'granted → refused',
          count: 2,
          examples: [
            { line: 2, callId: 'call-read-WRITER', userId: 2 },
            { line: 14, callId: 'call-read-WRITER', userId: 4 },
          ],
        },
        {
          roles: ['ADMIN'],
          resource: 'note',
          action: 'delete',
          change: 'granted → refused',
          count: 1,
          examples: [{ line: 6, callId: 'call-delete-ADMIN', userId: 1, resourceId: 9 }],
        },
        {
          roles: ['READER'],
          resource: 'note',
          action: 'archive',
          change: 'granted → refused',
          count: 1,
          examples: [{ line: 13, callId: 'call-archive-READER', userId: 1 }],
        },
        {
          roles: ['READER'],
          resource: 'note',
          action: 'read',
          change: 'refused → granted',
          count: 1,
          examples: [{ line: 8, callId: 'call-read-READER', userId: 3 }],
        },
        {
          roles: ['WRITER'],
          resource: 'note',
          action: 'update',
          change: 'undecided',
          count: 1,
          examples: [{ line: 7, callId: 'call-update-WRITER', userId: 1, resourceId: 8 }],
        },
      ],
      decisionsInGroupsLeftOut: 0,
    } satisfies Omit<ReplayReport, 'candidate'> & { candidate: undefined });
    expect(report.candidate.version).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prints text, Markdown and JSON, and exits 1 when an answer would change', async () => {
    const text = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', join(folder, 'decisions.jsonl')], text.io)).toBe(1);
    expect(text.err).toEqual([]);
    const lines = text.out.join('\n').split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `Replayed 11 logged decisions against ${candidate} (policy ${candidateVersion()}).`,
      '5 would change (4 granted → refused, 1 refused → granted); 5 unchanged; ' +
        "1 undecided (the log holds no answer about the record's ownership); 2 unreadable lines.",
    ]);
    expect(lines.slice(2, 7)).toEqual([
      '',
      'By roles, resource and action:',
      '  WRITER · note · read: 2 granted → refused',
      '    e.g. line 2, user 2, call call-read-WRITER',
      '    e.g. line 14, user 4, call call-read-WRITER',
    ]);
    expect(lines).toContain(
      "1 decisions were asked in a tenant and decided with the policy's roles alone: give --tenant-roles <folder> to use the tenants' custom roles.",
    );

    const markdown = io();
    expect(
      await main(['replay', '--candidate', candidate, '--decisions', join(folder, 'decisions.jsonl'), '--format', 'markdown', '--examples', '1'], markdown.io),
    ).toBe(1);
    const md = markdown.out.join('\n').split('\n');
    expect(md.slice(0, 1)).toEqual(['### Replay of logged decisions']);
    expect(md).toContain('| roles | resource | action | change | decisions | for example |');
    expect(md).toContain('| WRITER | note | read | granted → refused | 2 | line 2, user 2, call call-read-WRITER |');

    const json = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', join(folder, 'decisions.jsonl'), '--format', 'json'], json.io)).toBe(1);
    expect((JSON.parse(json.out.join('\n')) as ReplayReport).grantedToRefused).toBe(4);
  });

  it('refuses a --tenant-roles folder that does not exist: a mistyped store is not a store without custom roles', async () => {
    const missing = join(folder, 'tenant-rolez');
    const run = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', join(folder, 'decisions.jsonl'), '--tenant-roles', missing], run.io)).toBe(2);
    expect([run.out, run.err[0]?.split('\n')[0]]).toEqual([
      [],
      `typed-permissions: replay --tenant-roles: ${missing} does not exist: give the folder of a tenant roles store.`,
    ]);
  });

  it('prints logged names as written: no link in Markdown, no line of their own in text', async () => {
    const file = join(folder, 'hostile.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ callId: 'see https://evil.example/x', user: { id: 'a@b.co', roles: ['READER'] }, resource: 'note', action: 'read', granted: false }),
        JSON.stringify({ user: { id: 1, roles: ['R www.evil.example\nInjected line'] }, resource: 'note', action: 'read', granted: true }),
      ].join('\n'),
    );
    const markdown = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', file, '--format', 'markdown'], markdown.io)).toBe(1);
    expect(
      markdown.out
        .join('\n')
        .split('\n')
        .filter((line) => line.startsWith('| R') || line.startsWith('| READER')),
    ).toEqual([
      '| R www&#46;evil.example\\\\u000aInjected line | note | read | granted → refused | 1 | line 2, user 1 |',
      '| READER | note | read | refused → granted | 1 | line 1, user &quot;a\\@b.co&quot;, call see https\\://evil.example/x |',
    ]);
    const text = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', file], text.io)).toBe(1);
    expect(text.out.join('\n').split('\n').slice(4, 6)).toEqual([
      '  R www.evil.example\\u000aInjected line · note · read: 1 granted → refused',
      '    e.g. line 2, user 1',
    ]);
  });

  it('takes a policy bundle as compile wrote it (ownership methods named, never run)', async () => {
    const file = join(folder, 'example.jsonl');
    writeFileSync(
      file,
      [
        event({ roles: ['SUPER_ADMIN'], resource: 'document', action: 'delete', granted: false, resourceId: 3 }),
        event({ roles: ['EMPLOYEE'], resource: 'document', action: 'read', granted: true, resourceId: 10, ownershipChecked: true }),
      ].join('\n'),
    );
    const run = io();
    expect(await main(['replay', '--candidate', 'generated/policy.json', '--decisions', file, '--format', 'json'], run.io)).toBe(1);
    const report = JSON.parse(run.out.join('\n')) as ReplayReport;
    expect([report.refusedToGranted, report.unchanged, report.groups.map((group) => [group.roles, group.action, group.change])]).toEqual([
      1,
      1,
      [[['SUPER_ADMIN'], 'delete', 'refused → granted']],
    ]);
  });

  it('counts a decision granted as any as undecided where the candidate grants owners only, even when its event says ownership was checked', async () => {
    const file = join(folder, 'granted-any.jsonl');
    // WRITER updated note 5 as any; the candidate lets WRITER update owned notes only, and the log never asked who owns 5.
    writeFileSync(file, event({ roles: ['WRITER'], action: 'update', granted: true, anyGranted: true, resourceId: 5, ownershipChecked: true }));
    const run = io();
    // Undecided is no change (exit 0, as documented); the report counts it apart from the unchanged.
    expect(await main(['replay', '--candidate', candidate, '--decisions', file, '--format', 'json'], run.io)).toBe(0);
    const report = JSON.parse(run.out.join('\n')) as ReplayReport;
    expect([report.decisions, report.unchanged, report.grantedToRefused, report.refusedToGranted, report.undecided, report.groups]).toEqual([
      1,
      0,
      0,
      0,
      1,
      [
        {
          roles: ['WRITER'],
          resource: 'note',
          action: 'update',
          change: 'undecided',
          count: 1,
          examples: [{ line: 1, callId: 'call-update-WRITER', userId: 1, resourceId: 5 }],
        },
      ],
    ]);
  });

  it('exits 0 when no answer would change', async () => {
    const file = join(folder, 'unchanged.jsonl');
    writeFileSync(file, [LOG[0], LOG[2], LOG[3]].join('\n'));
    const run = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', file], run.io)).toBe(0);
    expect(run.out.join('\n').split('\n')[1]).toBe(
      "0 would change (0 granted → refused, 0 refused → granted); 3 unchanged; 0 undecided (the log holds no answer about the record's ownership).",
    );
  });

  it('exits 2 for a missing log or candidate, a candidate with problems, or wrong arguments', async () => {
    const missingLog = io();
    expect(await main(['replay', '--candidate', candidate, '--decisions', join(folder, 'nowhere.jsonl')], missingLog.io)).toBe(2);
    expect(missingLog.err.join('\n')).toContain('nowhere.jsonl');
    const missingCandidate = io();
    expect(await main(['replay', '--candidate', join(folder, 'nothing'), '--decisions', join(folder, 'decisions.jsonl')], missingCandidate.io)).toBe(2);
    expect(missingCandidate.err.join('\n')).toContain('does not exist');
    const badBundle = join(folder, 'bad-policy.json');
    writeFileSync(badBundle, JSON.stringify({ tables: { roles: 'nope' } }));
    expect(await main(['replay', '--candidate', badBundle, '--decisions', join(folder, 'decisions.jsonl')], io().io)).toBe(2);
    const broken = join(folder, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'x.permissions.json'), '{ "definitions": [ { "roles": ["A"], "resource": "x", "grant": ["read:sometimes"] } ] }');
    const problems = io();
    expect(await main(['replay', '--candidate', broken, '--decisions', join(folder, 'decisions.jsonl')], problems.io)).toBe(2);
    expect(problems.err.join('\n')).toMatch(/x\.permissions\.json:1:\d+/);
    for (const argv of [
      ['replay', '--decisions', 'x.jsonl'],
      ['replay', '--candidate', candidate, '--decisions', 'x.jsonl', '--format', 'html'],
      ['replay', '--candidate', candidate, '--decisions', 'x.jsonl', '--examples', '-1'],
      ['replay', '--candidate', candidate, '--decisions', 'x.jsonl', '--table', 'decision_log'],
    ])
      expect(await main(argv, io().io)).toBe(2);
  });

  it('exits 2, saying why, for a candidate file that is no bundle, a log that is no regular file, and a log with no decision in it', async () => {
    const said = async (argv: string[]) => {
      const run = io();
      return [await main(argv, run.io), run.err.join('\n')];
    };
    const notBundle = join(folder, 'not-a-bundle.json');
    writeFileSync(notBundle, '{}');
    expect(await said(['replay', '--candidate', notBundle, '--decisions', join(folder, 'decisions.jsonl')])).toEqual([
      2,
      `typed-permissions: replay: the candidate file ${notBundle} has format undefined, not 1 (compile it with this version of typed-permissions): ` +
        'give a definitions folder or a policy.json that compile wrote.',
    ]);
    // A named pipe without a writer: a plain open would wait for one for ever.
    const pipe = join(folder, 'decisions.fifo');
    execFileSync('mkfifo', [pipe]);
    for (const [path, kind] of [
      [pipe, 'a named pipe (FIFO)'],
      ['/dev/zero', 'a character device'],
      [folder, 'a folder'],
    ] as const)
      expect(await said(['replay', '--candidate', candidate, '--decisions', path])).toEqual([
        2,
        `typed-permissions: replay: the decision log ${path} is ${kind}, not a regular file: give a JSON Lines file of logged decisions.`,
      ]);
    const compressed = join(folder, 'decisions.jsonl.gz');
    writeFileSync(compressed, gzipSync(LOG.join('\n')));
    const [code, error] = await said(['replay', '--candidate', candidate, '--decisions', compressed]);
    expect(code).toBe(2);
    expect(error).toContain(`typed-permissions: replay: no line of ${compressed} is a logged decision (`);
    expect(error).toContain('unreadable): give a JSON Lines log of decision events, uncompressed.');
  });

  it('reports a line past the length limit without holding it, and goes on', async () => {
    const file = join(folder, 'long.jsonl');
    writeFileSync(file, `${'x'.repeat(MAX_LOGGED_LINE_BYTES + 10)}\n${LOG[0]}\n`);
    const report = await replayDecisions(decisionsOfJsonLines(file), { candidate: candidateTables(), label: 'candidate' });
    expect([report.decisions, report.unchanged, report.unreadableExamples]).toEqual([
      1,
      1,
      [{ line: 1, problem: `the line is longer than ${MAX_LOGGED_LINE_BYTES} bytes` }],
    ]);
  });

  it('keeps groups of long questions up to a stated number of characters, counting the decisions of further ones, and cuts long example ids', async () => {
    // Each line asks with 1,000 roles of 1,000 characters (within the limits of a logged decision): about a million
    // characters per group's question, so 16 groups fit the groups' characters and the 17th does not.
    const roles = (i: number) => Array.from({ length: 1_000 }, (_, r) => `${String(i).padStart(2, '0')}${'R'.repeat(994)}${String(r).padStart(4, '0')}`);
    const line = (i: number) => JSON.stringify({ ...JSON.parse(event({ roles: roles(i), action: 'read', granted: true })), callId: `call-${i}` });
    const file = join(folder, 'long-questions.jsonl');
    writeFileSync(file, `${Array.from({ length: 18 }, (_, i) => line(i)).join('\n')}\n`);
    const report = await replayDecisions(decisionsOfJsonLines(file), { candidate: candidateTables(), label: 'candidate' });
    expect(Math.floor(MAX_REPLAY_GROUP_CHARACTERS / 1_000_000)).toBe(16);
    expect([report.decisions, report.grantedToRefused, report.groups.length, report.decisionsInGroupsLeftOut]).toEqual([18, 18, 16, 2]);

    const longIds = join(folder, 'long-ids.jsonl');
    const id = 'i'.repeat(MAX_EXAMPLE_ID_CHARACTERS);
    writeFileSync(longIds, `${event({ roles: ['NOBODY'], action: 'read', granted: true, resourceId: id })}\n`);
    const [example] = (await replayDecisions(decisionsOfJsonLines(longIds), { candidate: candidateTables(), label: 'candidate' })).groups[0]?.examples ?? [];
    // Its JSON text is two characters longer (the quotes): cut to its first MAX_EXAMPLE_ID_CHARACTERS and an ellipsis.
    expect(example?.resourceId).toBe(`${JSON.stringify(id).slice(0, MAX_EXAMPLE_ID_CHARACTERS)}…`);
    expect(example?.userId).toBe(1);
  }, 60_000);

  it("decides a tenant's decisions with its custom roles from a folder store, given --tenant-roles", async () => {
    const store = join(folder, 'tenant-roles');
    const admin = fileTenantRolesAdmin(store, { policy: candidateTables() });
    await admin.publish('acme', { definitions: [{ roles: ['AUDITOR'], resource: 'note', grant: ['read:any'] }] }, { note: 'auditors' });
    await admin.close();
    const file = join(folder, 'tenants.jsonl');
    writeFileSync(
      file,
      [
        event({ roles: ['AUDITOR'], action: 'read', granted: true, tenant: 'acme' }),
        event({ roles: ['AUDITOR'], action: 'read', granted: true, tenant: 'globex' }),
      ].join('\n'),
    );
    const withRoles = await replayDecisions(decisionsOfJsonLines(file), { candidate: candidateTables(), label: 'candidate', tenantRoles: store });
    expect([withRoles.unchanged, withRoles.grantedToRefused, withRoles.inTenantsWithoutCustomRoles]).toEqual([1, 1, 0]);
    expect(withRoles.groups.map((group) => group.examples.map((example) => example.tenant))).toEqual([['globex']]);
    const without = await replayDecisions(decisionsOfJsonLines(file), { candidate: candidateTables(), label: 'candidate' });
    expect([without.unchanged, without.grantedToRefused, without.inTenantsWithoutCustomRoles]).toEqual([0, 2, 2]);
  });

  const databaseUrl = process.env['TEST_DATABASE_URL'];
  (databaseUrl === undefined ? it.skip : it)(
    "reads the decision log's PostgreSQL table, in fetches, inside one read-only transaction",
    async () => {
      const url = databaseUrl as string;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const schema = `replay_${process.pid}`;
      try {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query(`CREATE TABLE "${schema}".decision_log (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, event jsonb)`);
        // More rows than one fetch holds: 12,001 copies of a change, then the log's lines.
        await client.query(`INSERT INTO "${schema}".decision_log (event) SELECT $1::jsonb FROM generate_series(1, 12001)`, [LOG[1]]);
        for (const line of LOG.filter((line) => line.startsWith('{"callId"')))
          await client.query(`INSERT INTO "${schema}".decision_log (event) VALUES ($1::jsonb)`, [line]);
        await client.query(`INSERT INTO "${schema}".decision_log (event) VALUES (NULL)`);
        const run = io();
        expect(await main(['replay', '--candidate', candidate, '--decisions', url, '--table', `${schema}.decision_log`, '--format', 'json'], run.io)).toBe(1);
        const report = JSON.parse(run.out.join('\n')) as ReplayReport;
        expect([report.decisions, report.grantedToRefused, report.refusedToGranted, report.undecided, report.unreadable]).toEqual([
          12001 + 11,
          12001 + 4,
          1,
          1,
          1,
        ]);
        expect(report.unreadableExamples).toEqual([{ line: 12001 + 12, problem: "the row's event is null" }]);
        const missing = io();
        expect(await main(['replay', '--candidate', candidate, '--decisions', url, '--table', `${schema}.nowhere`], missing.io)).toBe(2);
        expect(missing.err.join('\n')).toContain('does not exist');
        expect(await main(['replay', '--candidate', candidate, '--decisions', url, '--table', 'x; DROP TABLE y'], io().io)).toBe(2);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
    60_000,
  );

  (databaseUrl === undefined ? it.skip : it)(
    'never prints the password of the --decisions URL',
    async () => {
      const url = new URL(databaseUrl as string);
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      const schema = `replay_password_${process.pid}`;
      try {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query(`CREATE TABLE "${schema}".decision_log (event text)`);
        await client.query(`INSERT INTO "${schema}".decision_log (event) VALUES ('not json')`);
        const shown = url.href;
        // The test server trusts its clients, so a password in the URL is sent and ignored.
        url.username ||= 'postgres';
        url.password = 'S3cretPassw0rd';
        url.searchParams.set('sslpassword', 'S3cretKey');
        const run = io();
        expect(await main(['replay', '--candidate', candidate, '--decisions', url.href, '--table', `${schema}.decision_log`], run.io)).toBe(2);
        const printed = new URL(shown);
        printed.username ||= 'postgres';
        expect(run.err).toEqual([
          `typed-permissions: replay: no line of ${printed.href} is a logged decision (1 unreadable): give a JSON Lines log of decision events, uncompressed.`,
        ]);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
    60_000,
  );
});

describe('connectionStringForMessages', () => {
  it('leaves out the password of a URL, and shows only the server of a key-value string', () => {
    expect(connectionStringForMessages('postgres://app:secret@db.internal:5432/app?sslpassword=key&sslmode=require')).toBe(
      'postgres://app@db.internal:5432/app?sslmode=require',
    );
    expect(connectionStringForMessages('host=db.internal password=secret')).toBe('the configured server');
  });
});
