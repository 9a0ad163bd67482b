/**
 * The CI recipe of docs/policy-review.md, as a reader copies it: its script block is run in a throwaway git
 * repository (a main branch and a feature branch that changes the definitions), against this repository's CLI, and
 * must print the exact Markdown of the change and exit 0; a failing policy test or definitions with problems fail
 * it (exit 1), and a branch that changes nothing reports no change.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docBlocks } from '../docs/doc-blocks.js';
import { repoRoot } from '../compiler/helpers.js';

let repo: string;

function sh(command: string, args: readonly string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function git(...args: string[]): void {
  const result = sh('git', args);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** The definitions folder: readers read notes with `attributes`, and a policy test that a reader reads note 1. */
function writeDefinitions(attributes: readonly string[], expectRead: 'granted' | 'denied' = 'granted', extra: object[] = []): void {
  const dir = join(repo, 'definitions');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'note.permissions.json'),
    JSON.stringify({ definitions: [{ roles: ['READER'], resource: 'note', grant: { 'read:any': attributes } }, ...extra] }, null, 2),
  );
  writeFileSync(join(dir, 'note.resource.json'), JSON.stringify({ resource: 'note', idType: 'number', attributes: ['body', 'secret', 'title'] }));
  writeFileSync(
    join(dir, 'notes.permissions.test.json'),
    JSON.stringify({
      users: { reader: { id: 1, roles: ['READER'] } },
      tests: [{ user: 'reader', action: 'read', resource: 'note', resourceId: 1, expect: expectRead }],
    }),
  );
}

function commit(message: string): void {
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

/** Runs the guide's script as CI would, on the checked-out branch. */
function review() {
  const result = sh('./policy-review.sh', [], { POLICY_BASE: 'main' });
  let report: string | undefined;
  try {
    report = readFileSync(join(repo, 'policy-diff.md'), 'utf8');
  } catch {
    report = undefined;
  }
  rmSync(join(repo, 'policy-diff.md'), { force: true });
  return { ...result, report };
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'policy-review-'));
  // `npx typed-permissions` finds the project's own command first: here, this repository's CLI from its sources.
  mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
  const command = join(repo, 'node_modules', '.bin', 'typed-permissions');
  writeFileSync(
    command,
    `#!/bin/sh\nexec "${join(repoRoot, 'node_modules', '.bin', 'tsx')}" --tsconfig "${join(repoRoot, 'tsconfig.json')}" ` +
      `"${join(repoRoot, 'compiler', 'bin.ts')}" "$@"\n`,
  );
  chmodSync(command, 0o755);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\ngenerated/\npolicy-diff.md\npolicy-review.sh\n');
  writeDefinitions(['title']);
  commit('readers read titles');
  // The guide's script block, pasted as a reader would.
  const block = docBlocks(repoRoot, 'docs/policy-review.md').find((one) => one.lang === 'sh' && one.code.startsWith('cat > policy-review.sh'));
  if (block === undefined) throw new Error('docs/policy-review.md has no sh block that writes policy-review.sh');
  const pasted = spawnSync('bash', ['-e'], { cwd: repo, input: block.code, encoding: 'utf8' });
  if (pasted.status !== 0) throw new Error(`the guide's script block failed: ${pasted.stderr}`);
  git('checkout', '-q', '-b', 'feature');
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe("docs/policy-review.md's CI script in a throwaway git repository", () => {
  it('prints the exact Markdown of what the branch changes, and passes (a change alone fails nothing)', () => {
    writeDefinitions(['title', 'body'], 'granted', [{ roles: ['EDITOR'], resource: 'note', grant: ['update:any'] }]);
    commit('readers read bodies; editors update');
    const result = review();
    expect([result.status, result.stderr.includes('typed-permissions:')]).toEqual([0, false]);
    const markdown = [
      '**Policy diff** .policy-review/main/definitions → definitions: +1 −0 cells, 1 attribute set widened, roles +1 −0',
      '',
      '- Roles added: EDITOR',
      '',
      '#### note: 2 changes',
      '',
      '| Change | Role | Action | Possession | Attributes | Ownership |',
      '| --- | --- | --- | --- | --- | --- |',
      '| attributes widened | READER | read | any | +body (title → body title) |  |',
      '| gained | EDITOR | update | any | \\* |  |',
      '',
    ].join('\n');
    expect(result.report).toBe(markdown);
    expect(result.stdout.endsWith(markdown)).toBe(true);
  }, 120_000);

  it('fails (exit 1) when a policy test fails, before any diff', () => {
    writeDefinitions(['title'], 'denied');
    commit('a test that fails');
    const result = review();
    expect(result.status).toBe(1);
    expect(result.report).toBeUndefined();
  }, 120_000);

  it('fails (exit 1) when the definitions have problems', () => {
    writeDefinitions(['title']);
    writeFileSync(join(repo, 'definitions', 'note.permissions.json'), '{ "definitions": [ { "roles": ["READER"], "resource": "note", "grant": [] } ] }');
    commit('an empty grant');
    const result = review();
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain('[empty-grant]');
  }, 120_000);

  it('reports no change for a branch whose policy grants the same', () => {
    writeDefinitions(['title']);
    commit('back to titles');
    const result = review();
    expect([result.status, result.report]).toEqual([0, '**Policy diff** .policy-review/main/definitions → definitions: no change\n']);
  }, 120_000);
});
