/**
 * `typed-permissions diff <before> <after>`, run in-process: the text, Markdown and JSON of a change between two
 * definitions folders (exact), a bundle against a folder, exit codes 0 (no change), 1 (a change) and 2 (a side that
 * cannot be read), hostile inputs (missing folders, a bundle that is not JSON or not a bundle, definitions with
 * problems, names with Markdown and HTML characters), the JSON against its published schema, and a large policy.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { main } from '../../compiler/commands/main.js';
import { formatDiffMarkdown, MAX_MARKDOWN_LENGTH, MAX_MARKDOWN_ROWS } from '../../compiler/review/diff-markdown.js';
import { diffPolicies } from '../../compiler/review/policy-diff.js';
import { buildGrantTables } from '../../runtime/core/table-building/table-builder.js';
import { policyDiffJsonSchema } from '../../compiler/review/policy-diff-schema.js';
import { collectIo, fixture, repoRoot } from '../compiler/helpers.js';
import { writeScaleDefinitions } from '../compiler/scale-definitions.js';

let temp: string;

async function run(...argv: string[]) {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  return { code, logs, errors };
}

/** A definitions folder of one definitions file (and, when given, one resource file declaring `note`'s attributes). */
function folder(name: string, definitions: readonly object[], noteAttributes?: readonly string[]): string {
  const dir = join(temp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.permissions.json'), JSON.stringify({ definitions }, null, 2));
  if (noteAttributes !== undefined)
    writeFileSync(join(dir, 'note.resource.json'), JSON.stringify({ resource: 'note', idType: 'number', attributes: noteAttributes }));
  return dir;
}

const ownership = { isOwner: 'isAuthor', listOwned: 'listAuthored' };
const before = [
  { roles: ['READER'], resource: 'note', grant: { 'read:any': ['title', 'body'] } },
  { roles: ['AUTHOR'], resource: 'note', possession: 'own', grant: ['update', 'delete'], ...ownership },
];
const after = [
  { roles: ['READER'], resource: 'note', grant: { 'read:any': ['title', 'body', 'author'] } },
  { roles: ['AUTHOR'], resource: 'note', possession: 'own', grant: ['update'], isOwner: 'isEditor', listOwned: 'listEdited' },
  { roles: ['EDITOR'], resource: 'note', grant: ['publish:any'] },
];

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'policy-diff-'));
});
afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

describe('typed-permissions diff between two definitions folders', () => {
  let a: string;
  let b: string;
  beforeAll(() => {
    a = folder('a', before, ['author', 'body', 'title']);
    b = folder('b', after, ['author', 'body', 'title']);
  });

  it('prints every change as text and exits 1', async () => {
    expect(await run('diff', a, b)).toEqual({
      code: 1,
      logs: [
        [
          `Policy diff ${a} -> ${b}: +1 −1 cells, 1 attribute set widened, 1 ownership change, roles +1 −0, actions +1 −0`,
          'roles added: "EDITOR"',
          'actions added: "publish"',
          'note:',
          '  - AUTHOR delete:own, attributes * (ownership: isAuthor)',
          '  + EDITOR publish:any, attributes *',
          '  ~ READER read:any, attributes widened (declared attributes +author): body title -> author body title',
          '  ~ AUTHOR update:own, ownership isAuthor -> isEditor',
        ].join('\n'),
      ],
      errors: [],
    });
  });

  it('prints Markdown for a pull-request comment', async () => {
    const { code, logs } = await run('diff', a, b, '--format', 'markdown');
    expect(code).toBe(1);
    expect(logs.join('\n')).toBe(
      [
        `**Policy diff** ${a} → ${b}: +1 −1 cells, 1 attribute set widened, 1 ownership change, roles +1 −0, actions +1 −0`,
        '',
        '- Roles added: EDITOR',
        '- Actions added: publish',
        '',
        '#### note: 4 changes',
        '',
        '| Change | Role | Action | Possession | Attributes | Ownership |',
        '| --- | --- | --- | --- | --- | --- |',
        '| lost | AUTHOR | delete | own | \\* | isAuthor |',
        '| gained | EDITOR | publish | any | \\* |  |',
        '| attributes widened | READER | read | any | +author (body title → author body title) |  |',
        '| ownership changed | AUTHOR | update | own |  | isAuthor → isEditor |',
      ].join('\n'),
    );
  });

  it('prints JSON that its published schema accepts, and the schema file is the one the definition makes', async () => {
    const { code, logs } = await run('diff', a, b, '--format', 'json');
    expect(code).toBe(1);
    const published = JSON.parse(readFileSync(join(repoRoot, 'docs', 'policy-diff.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(published).toEqual(policyDiffJsonSchema());
    const schema = z.fromJSONSchema(published);
    const diff = JSON.parse(logs.join('\n')) as Record<string, unknown>;
    expect(schema.safeParse(diff).success).toBe(true);
    expect(diff['summary']).toMatchObject({ cellsGained: 1, cellsLost: 1, attributesWidened: 1, ownershipChanged: 1, rolesAdded: 1, changed: true });
    // The schema refuses what is not a diff: an unknown key, a change of another kind.
    expect(schema.safeParse({ ...diff, extra: 1 }).success).toBe(false);
    expect(schema.safeParse({ ...diff, cells: [{ ...(diff['cells'] as object[])[0], change: 'granted' }] }).success).toBe(false);
  });

  it('exits 0 and says so when nothing changes, in each format', async () => {
    expect(await run('diff', a, a)).toEqual({ code: 0, logs: [`Policy diff ${a} -> ${a}: no change`], errors: [] });
    expect((await run('diff', a, a, '--format', 'markdown')).logs).toEqual([`**Policy diff** ${a} → ${a}: no change`]);
    const json = await run('diff', a, a, '--format', 'json');
    expect([json.code, (JSON.parse(json.logs.join('\n')) as { summary: { changed: boolean } }).summary.changed]).toEqual([0, false]);
  });

  it('compares a policy.json bundle with the folder it was compiled from: no change', async () => {
    const out = join(temp, 'compiled');
    expect((await run('compile', b, '--out', out)).code).toBe(0);
    expect(await run('diff', join(out, 'policy.json'), b)).toEqual({
      code: 0,
      logs: [`Policy diff ${join(out, 'policy.json')} -> ${b}: no change`],
      errors: [],
    });
    expect((await run('diff', join(out, 'policy.json'), a)).code).toBe(1);
  });
});

describe('typed-permissions diff refuses what it cannot read (exit 2)', () => {
  it('a side that does not exist', async () => {
    const missing = join(temp, 'missing');
    expect(await run('diff', missing, join(repoRoot, 'definitions'))).toEqual({
      code: 2,
      logs: [],
      errors: [`typed-permissions: ${missing} does not exist: give a definitions folder, a policy.json bundle, store:<sequence>, store:active or tenant:<id>.`],
    });
  });

  it('a bundle that is not JSON, or JSON that is not a bundle', async () => {
    const notJson = join(temp, 'not-json.json');
    writeFileSync(notJson, '{"format": 1,');
    const result = await run('diff', notJson, join(repoRoot, 'definitions'));
    expect([result.code, result.logs]).toEqual([2, []]);
    expect(result.errors).toEqual([
      expect.stringMatching(new RegExp(`^typed-permissions: The policy bundle of file ${notJson} is not JSON \\(.*\\); it is not loaded\\.$`)),
    ]);
    const wrongShape = join(temp, 'wrong-shape.json');
    writeFileSync(wrongShape, JSON.stringify({ format: 1, version: 'a'.repeat(64), tables: { roles: 'all' } }));
    const shaped = await run('diff', wrongShape, join(repoRoot, 'definitions'));
    expect([shaped.code, shaped.logs]).toEqual([2, []]);
    expect(shaped.errors).toEqual([
      expect.stringMatching(/^typed-permissions: file .*wrong-shape\.json has tables that are not grant tables of this version of typed-permissions: /),
    ]);
    const array = join(temp, 'array.json');
    writeFileSync(array, '[]');
    expect((await run('diff', array, array)).errors).toEqual([`typed-permissions: file ${array} is not an object { format, version, tables }.`]);
  });

  it('definitions with problems, at file:line:column as compile prints them', async () => {
    const bad = fixture('bad/empty-grant');
    const result = await run('diff', join(repoRoot, 'definitions'), bad);
    expect([result.code, result.logs]).toEqual([2, []]);
    expect(result.errors[0]).toBe(
      `${join(bad, 'document.permissions.json')}:2:59 $[0].grant [empty-grant] grant is empty, so the definition grants nothing. ` +
        "Fix: List at least one action, for example ['read'] or { 'read:own': ['*'] }.",
    );
    expect(result.errors.at(-1)).toBe(`typed-permissions: ${bad} has problems.`);
  });

  it('wrong arguments: exit 2 with the usage', async () => {
    for (const [argv, says] of [
      [['diff', 'definitions'], 'diff takes two sides, got 1'],
      [['diff', 'a', 'b', '--format', 'html'], 'diff --format takes text, markdown or json, got "html".'],
      [['diff', 'store:active', 'definitions'], 'store:active needs --database-url <url> (or DATABASE_URL).'],
      [['diff', 'store:x', 'definitions', '--database-url', 'postgres://127.0.0.1:1/none'], 'store:x: a store side is store:active or store:<sequence>'],
      [['diff', 'tenant:acme', 'definitions', '--store', 'tenant-roles'], 'tenant:acme with --store <folder> needs --policy <policy.json>'],
      [['diff', 'tenant:acme', 'definitions', '--store', ''], 'diff: --store needs the path of a folder.'],
    ] as const) {
      const saved = process.env['DATABASE_URL'];
      delete process.env['DATABASE_URL'];
      const result = await run(...argv);
      if (saved !== undefined) process.env['DATABASE_URL'] = saved;
      expect([result.code, result.logs]).toEqual([2, []]);
      expect(result.errors).toEqual([expect.stringContaining(`typed-permissions: ${says}`)]);
    }
  });

  it('a database that cannot be reached: one line, no password', async () => {
    const result = await run('diff', 'store:active', 'definitions', '--database-url', 'postgres://user:secret@127.0.0.1:1/none');
    expect([result.code, result.logs]).toEqual([2, []]);
    expect(result.errors).toEqual([expect.stringMatching(/^typed-permissions: cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(/)]);
    expect(result.errors[0]).not.toContain('secret');
  });
});

describe("typed-permissions diff of a tenant's effective policy", () => {
  it("shows what a tenant's custom roles add to the policy, from a folder store", async () => {
    const store = join(temp, 'tenant-roles');
    const policy = join(repoRoot, 'generated', 'policy.json');
    const roles = join(repoRoot, 'examples', 'documents', 'custom-roles', 'qa-manager.json');
    expect((await run('tenant', 'publish', '1', roles, '--store', store, '--policy', policy)).code).toBe(0);
    expect(await run('diff', policy, 'tenant:1', '--store', store, '--policy', policy)).toEqual({
      code: 1,
      logs: [
        [
          `Policy diff ${policy} -> tenant:1: +2 −0 cells, roles +1 −0`,
          'roles added: "QA_MANAGER"',
          'document:',
          '  + QA_MANAGER read:own, attributes * !confidential (ownership: rule sameCompany)',
          '  + QA_MANAGER review:own, attributes * !confidential (ownership: rule sameCompany)',
        ].join('\n'),
      ],
      errors: [],
    });
    // A tenant without custom roles decides with the policy alone.
    expect((await run('diff', policy, 'tenant:2', '--store', store, '--policy', policy)).code).toBe(0);
  });

  it('refuses a --store that does not exist or is not a folder: a mistyped store is not a store without custom roles', async () => {
    const policy = join(repoRoot, 'generated', 'policy.json');
    const missing = join(temp, 'tenant-rolez');
    for (const [store, says] of [
      [missing, `${missing} does not exist`],
      [policy, `${policy} is not a folder`],
    ] as const) {
      const result = await run('diff', policy, 'tenant:1', '--store', store, '--policy', policy);
      expect([result.code, result.logs]).toEqual([2, []]);
      expect(result.errors[0]?.split('\n')[0]).toBe(`typed-permissions: tenant:1 --store: ${says}: give the folder of a tenant roles store.`);
    }
  });
});

describe('typed-permissions diff escapes names in Markdown', () => {
  it('shows roles, resources and attributes with |, <, backticks and link syntax as written, in their cells', async () => {
    const odd = 'R|<b>`x`</b>*[a](https://e.com)';
    const a = folder('odd-a', [{ roles: ['READER'], resource: 'n|<i>', grant: { 'read:any': ['title'] } }]);
    const b = folder('odd-b', [
      { roles: ['READER'], resource: 'n|<i>', grant: { 'read:any': ['title'] } },
      { roles: [odd], resource: 'n|<i>', grant: { 'read:any': ['a|b', '`c`'] } },
    ]);
    const { code, logs } = await run('diff', a, b, '--format', 'markdown');
    expect(code).toBe(1);
    const markdown = logs.join('\n');
    const row = markdown.split('\n').find((line) => line.startsWith('| gained'));
    expect(row).toBe('| gained | R&#124;&lt;b&gt;&#96;x&#96;&lt;/b&gt;\\*\\[a\\](https\\://e.com) | read | any | &#96;c&#96; a&#124;b |  |');
    // Six columns: no name adds one.
    expect(row?.split(/(?<!\\)\|/).length).toBe(8);
    expect(markdown).toContain('#### n&#124;&lt;i&gt;: 1 change');
    expect(markdown).not.toMatch(/<(?!\/?(details|summary)>)/);
  });
});

describe('typed-permissions diff collapses a long resource', () => {
  it('in <details>, its name escaped as HTML in the summary (Markdown is not read there)', async () => {
    const a = folder('long-a', [{ roles: ['R0'], resource: 'n*_|<i>', grant: ['read:any'] }]);
    const roles = Array.from({ length: 11 }, (_, i) => `R${i + 1}`);
    const b = folder('long-b', [{ roles: ['R0', ...roles], resource: 'n*_|<i>', grant: ['read:any'] }]);
    const markdown = (await run('diff', a, b, '--format', 'markdown')).logs.join('\n');
    expect(markdown).toContain('<details>\n<summary>n*_&#124;&lt;i&gt;: 11 changes</summary>\n\n| Change | Role |');
    expect(markdown.endsWith('| gained | R9 | read | any | \\* |  |\n\n</details>')).toBe(true);
  });
});

describe('typed-permissions diff of a large policy', () => {
  it('keeps the Markdown within its length when thousands of long names are added and removed', () => {
    const names = (prefix: string) => Array.from({ length: 2000 }, (_, i) => `${prefix}_${'X'.repeat(100)}_${String(i).padStart(4, '0')}`);
    const changes = (prefix: string) => ({ added: names(`${prefix}_NEW`), removed: names(`${prefix}_OLD`) });
    const diff = {
      ...diffPolicies(buildGrantTables([]).tables, buildGrantTables([]).tables, { before: 'main', after: 'branch' }),
      roles: changes('ROLE'),
      resources: changes('RESOURCE'),
      actions: changes('ACTION'),
    };
    const markdown = formatDiffMarkdown(diff);
    expect(markdown.length).toBeLessThanOrEqual(60_000);
    const lines = markdown.split('\n').filter((line) => line.startsWith('- '));
    expect(lines.map((line) => line.replace(/: .*, and \d+ more$/, ': … more'))).toEqual(
      ['Roles', 'Resources', 'Actions'].flatMap((what) => [`- ${what} added: … more`, `- ${what} removed: … more`]),
    );
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(5000);
      // The names listed and the count of the rest make the 2,000 names of each list.
      expect(line.split(', ').length - 1 + Number(/and (\d+) more$/.exec(line)?.[1])).toBe(2000);
    }
  });

  it('counts the headings of long names within the length, and says that the length was reached, not the rows', () => {
    // Names of ampersands: each shows as a five-character entity, so headings are as long as rows.
    const long = (tag: string) => '&'.repeat(128 - tag.length) + tag;
    const definitions = Array.from({ length: 60 }, (_, i) => ({ roles: [long(`R${i}`)], resource: long(`S${i}`), grant: [`${long(`A${i}`)}:any`] }));
    const before = buildGrantTables([]).tables;
    const after = buildGrantTables(definitions.map((definition, index) => ({ definition, location: { index } }))).tables;
    const markdown = formatDiffMarkdown(diffPolicies(before, after, { before: 'main', after: 'branch' }));
    expect(markdown.length).toBeLessThanOrEqual(MAX_MARKDOWN_LENGTH);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| gained')).length;
    expect(rows).toBeLessThan(MAX_MARKDOWN_ROWS);
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      `${60 - rows} more changes are not shown (at most 60,000 characters fit a comment); ` +
        '`npx typed-permissions diff <before> <after> --format json` lists every change.',
    );
  });

  it('walks every cell of 120 roles × 60 resources, and keeps the Markdown within its limits', async () => {
    const small = writeScaleDefinitions(join(temp, 'scale-small'), { roles: 120, resources: 60, actions: 8 });
    writeScaleDefinitions(join(temp, 'scale-large'), { roles: 120, resources: 60, actions: 8, share: 0.2 });
    expect(small.definitions).toBeGreaterThan(0);
    const json = await run('diff', join(temp, 'scale-small'), join(temp, 'scale-large'), '--format', 'json');
    expect(json.code).toBe(1);
    const diff = JSON.parse(json.logs.join('\n')) as { cells: unknown[]; attributes: unknown[]; ownership: unknown[] };
    const changes = diff.cells.length + diff.attributes.length + diff.ownership.length;
    expect(changes).toBeGreaterThan(MAX_MARKDOWN_ROWS);
    const markdown = (await run('diff', join(temp, 'scale-small'), join(temp, 'scale-large'), '--format', 'markdown')).logs.join('\n');
    expect(markdown.length).toBeLessThanOrEqual(60_000);
    const rows = markdown.split('\n').filter((line) => /^\| (gained|lost|attributes|ownership)/.test(line)).length;
    expect(rows).toBeLessThanOrEqual(MAX_MARKDOWN_ROWS);
    expect(markdown).toContain(`${changes - rows} more changes are not shown (at most ${MAX_MARKDOWN_ROWS} rows fit a comment)`);
    expect(markdown).toContain('<details>\n<summary>');
  }, 180_000);
});
