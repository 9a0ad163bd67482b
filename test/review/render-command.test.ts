/**
 * `typed-permissions render`: the site written for the example, its folder refused when it is not empty and not an
 * earlier render (the compiler's generated/ included), a second render over the first, `--before` with a
 * definitions folder and with a policy.json (read as `diff` reads a side: the store's versions are tested in
 * test/review/diff-command.test.ts and test/live/policy-publish-diff.test.ts), and every refusal with its exit code.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { collectIo, repoRoot } from '../compiler/helpers.js';
import { writeEarlierDefinitions } from './earlier-definitions.js';

const DEFINITIONS = join(repoRoot, 'definitions');
const SITE_FILES = [
  'index.html',
  'resource-1-decision.html',
  'resource-2-document.html',
  'resource-3-session.html',
  'role-1-anonymous.html',
  'role-2-company-admin.html',
  'role-3-employee.html',
  'role-4-employee-manager.html',
  'role-5-super-admin.html',
  'styles.css',
  'typed-permissions-render.json',
];

let temp: string;
beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'render-command-'));
  writeEarlierDefinitions(join(temp, 'before'));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; logs: string[]; errors: string[] }> {
  const { io, logs, errors } = collectIo();
  const code = await main(['render', ...argv], io);
  return { code, logs, errors };
}

const readSite = (folder: string) => Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));

describe('render writes the review page of a definitions folder', () => {
  it('writes every page, says where, and writes the same bytes again over its own earlier render', async () => {
    const out = join(temp, 'site');
    expect(await run(DEFINITIONS, '--out', out)).toEqual({
      code: 0,
      logs: [`Wrote the review page of definitions/ to ${out}/ (9 pages; open ${out}/index.html)`],
      errors: [],
    });
    expect(readdirSync(out).sort()).toEqual(SITE_FILES);
    const first = readSite(out);
    expect((await run(DEFINITIONS, '--out', out)).code).toBe(0);
    expect(readSite(out)).toEqual(first);
    expect(first['index.html']).toContain('<p class="sentence">EMPLOYEE may list any document, seeing only date and title.');
  }, 60_000);

  it('with --before a definitions folder, highlights the changes and says them', async () => {
    const out = join(temp, 'compared');
    const before = join(temp, 'before');
    const result = await run(DEFINITIONS, '--out', out, '--before', before);
    expect(result).toEqual({
      code: 0,
      logs: [
        `Wrote the review page of definitions/ to ${out}/ (10 pages; open ${out}/index.html), compared with ${before}: ` +
          '1 permission added. 1 permission removed. 1 attribute set widened (more attributes shown). Roles removed: CONTRACTOR.',
      ],
      errors: [],
    });
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    expect(index).toContain('<p class="mark widened"><strong>Widened</strong>: any: now also shows date</p>');
    expect(index).toContain('<p class="mark added"><strong>Added</strong>: own (rule creatorOrManaged), all attributes except confidential and personal</p>');
    expect(index).toContain('<p class="mark removed"><strong>Removed</strong>: any, only title</p>');
    expect(existsSync(join(out, 'role-3-contractor.html'))).toBe(true);
  }, 60_000);

  it('with --before the policy.json compile wrote for the same definitions: compared, nothing changed', async () => {
    const out = join(temp, 'from-bundle');
    const result = await run(DEFINITIONS, '--out', out, '--before', join(repoRoot, 'generated', 'policy.json'));
    expect(result.code).toBe(0);
    expect(result.logs[0]).toContain('compared with');
    expect(result.logs[0]).toMatch(/policy\.json: nothing changed$/);
  }, 60_000);
});

describe('render refuses what it must not overwrite or cannot read', () => {
  it('a folder that is not empty and not an earlier render: nothing is written', async () => {
    const out = join(temp, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'keep me');
    const result = await run(DEFINITIONS, '--out', out);
    expect(result.code).toBe(1);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain('[unsafe-output]');
    expect(result.errors[0]).toContain('1 entry the compiler did not write: notes.txt');
    expect(readdirSync(out)).toEqual(['notes.txt']);
  }, 60_000);

  it("a folder holding the user's own web pages, even beside a render's marker: only files render wrote are replaced", async () => {
    const out = join(temp, 'own-pages');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), '<!doctype html><title>My site</title>');
    writeFileSync(join(out, 'styles.css'), 'body { color: red; }');
    writeFileSync(join(out, 'typed-permissions-render.json'), readFileSync(join(temp, 'site', 'typed-permissions-render.json')));
    const result = await run(DEFINITIONS, '--out', out);
    expect(result.code).toBe(1);
    expect(result.errors[0]).toContain('2 entries the compiler did not write: index.html, styles.css');
    expect(readdirSync(out).sort()).toEqual(['index.html', 'styles.css', 'typed-permissions-render.json']);
  }, 60_000);

  it("the compiler's generated/ folder (generated files, but no render marker)", async () => {
    const out = join(temp, 'generated-copy');
    mkdirSync(out);
    writeFileSync(join(out, 'PERMISSIONS.md'), readFileSync(join(repoRoot, 'generated', 'PERMISSIONS.md')));
    const result = await run(DEFINITIONS, '--out', out);
    expect(result.code).toBe(1);
    expect(result.errors).toEqual([
      `${out} [unsafe-output] The folder ${out} is not empty and is not a review site render wrote (it has no typed-permissions-render.json); ` +
        'render replaces its folder as a whole and would delete what it holds. Fix: Pass a new or empty folder for --out, for example --out policy-site.',
    ]);
    expect(readdirSync(out)).toEqual(['PERMISSIONS.md']);
  }, 60_000);

  it('the definitions folder itself', async () => {
    const result = await run(join(temp, 'before'), '--out', join(temp, 'before'));
    expect(result.code).toBe(1);
    expect(result.errors.join('\n')).toContain('The output folder is the definitions folder');
  }, 60_000);

  it('a --before that does not exist, is not JSON, or is not a policy bundle: read and refused as diff reads a side', async () => {
    const out = join(temp, 'refused');
    const missing = join(temp, 'nowhere');
    expect(await run(DEFINITIONS, '--out', out, '--before', missing)).toEqual({
      code: 1,
      logs: [],
      errors: [`typed-permissions: ${missing} does not exist: give a definitions folder, a policy.json bundle, store:<sequence>, store:active or tenant:<id>.`],
    });
    const notJson = join(temp, 'not.json');
    writeFileSync(notJson, '{ "format": 1,');
    const bad = await run(DEFINITIONS, '--out', out, '--before', notJson);
    expect(bad.code).toBe(1);
    expect(bad.errors[0]).toMatch(/^typed-permissions: The policy bundle of file .*not\.json is not JSON/);
    const wrongShape = join(temp, 'wrong.json');
    writeFileSync(wrongShape, JSON.stringify({ format: 1, version: 'x', tables: {} }));
    expect((await run(DEFINITIONS, '--out', out, '--before', wrongShape)).errors).toEqual([
      `typed-permissions: file ${wrongShape} has no version (64 hexadecimal digits of SHA-256).`,
    ]);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('a --before in a store needs the store: store:active without a database is a usage error', async () => {
    const saved = process.env['DATABASE_URL'];
    delete process.env['DATABASE_URL'];
    try {
      const result = await run(DEFINITIONS, '--out', join(temp, 'no-store'), '--before', 'store:active');
      expect([result.code, result.errors[0]]).toEqual([
        2,
        expect.stringMatching(/^typed-permissions: store:active needs --database-url <url> \(or DATABASE_URL\)\./),
      ]);
    } finally {
      if (saved !== undefined) process.env['DATABASE_URL'] = saved;
    }
    expect(existsSync(join(temp, 'no-store'))).toBe(false);
  }, 60_000);

  it('definitions with problems: printed at file:line:column, exit 1', async () => {
    const broken = join(temp, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'a.permissions.json'), '{ "definitions": [ { "roles": ["A"], "resource": "r", "grant": { "read": 3 } } ] }');
    const result = await run(broken, '--out', join(temp, 'broken-site'));
    expect(result.code).toBe(1);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toBe(
      `${join(broken, 'a.permissions.json')}:1:64 $.definitions[0].grant [invalid-shape] ` +
        'Grant must be an array of actions or an object of action → attribute patterns. ' +
        "Fix: Set grant to an array of actions (['read', 'list:any']) or an object of action → attribute patterns ({ 'read:own': ['*', '!confidential'] }).",
    );
    expect(existsSync(join(temp, 'broken-site'))).toBe(false);
  }, 60_000);

  it('refuses a --store that does not exist for --before tenant:<id>: exit 2, naming it', async () => {
    const missing = join(temp, 'tenant-rolez');
    const policy = join(repoRoot, 'generated', 'policy.json');
    const result = await run(DEFINITIONS, '--out', join(temp, 'x'), '--before', 'tenant:acme', '--store', missing, '--policy', policy);
    expect(result.code).toBe(2);
    expect(result.errors[0]?.split('\n')[0]).toBe(
      `typed-permissions: tenant:acme --store: ${missing} does not exist: give the folder of a tenant roles store.`,
    );
  }, 60_000);

  it('usage errors exit 2: no --out, an empty --before, two folders, an empty --store', async () => {
    for (const argv of [
      [DEFINITIONS],
      [DEFINITIONS, '--out', join(temp, 'x'), '--before', ''],
      ['a', 'b', '--out', join(temp, 'x')],
      [DEFINITIONS, '--out', join(temp, 'x'), '--before', 'tenant:acme', '--store', ''],
    ]) {
      const result = await run(...argv);
      expect(result.code).toBe(2);
      const usage =
        /^typed-permissions: (render needs --out <folder>|render --before needs|render takes one definitions folder|render: --store needs the path)/;
      expect(result.errors[0]).toMatch(usage);
    }
  }, 60_000);
});
