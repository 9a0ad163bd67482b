/**
 * Shared by the policy-test tests: a throw-away definitions folder holding the articles fixture (three roles, one
 * resource with number ids, isOwner + listOwned for authors, limitOwned + ownedAmong for reviewers) and the test files
 * a test writes, and the command line run in-process with its output collected.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { collectIo, makeTempDir, repoRoot } from '../compiler/helpers.js';

/** The articles fixture: definitions only. */
export const ARTICLES = join(repoRoot, 'test', 'fixtures', 'policy-tests', 'articles');

/** The users, ownership and records most test files of the articles fixture share, as JSON text (a fixed number of lines: 6). */
export const ARTICLE_WORLD = [
  '"users": { "ann": { "id": 1, "roles": ["AUTHOR"] }, "eve": { "id": 2, "roles": ["EDITOR"] }, "rex": { "id": 3, "roles": ["REVIEWER", "AUTHOR"] } },',
  '"ownership": { "isAuthor": { "ann": [1], "rex": [3] }, "listAuthored": { "ann": [1], "rex": [3] }, "limitToAssigned": { "rex": [1] } },',
  '"records": {',
  '  "article": { "1": { "id": 1, "title": "T1", "body": "B1", "secret": "S1" }, "3": { "id": 3, "title": "T3", "body": "B3", "secret": "S3" } }',
  '},',
  '"tests": [',
].join('\n  ');

/**
 * A test file of the articles fixture: {@link ARTICLE_WORLD}, then one test a line. The first test stands on line 8, column 5.
 *
 * @example
 * ```ts
 * articleTests('{ "user": "ann", "action": "read", "resource": "article", "resourceId": 1, "expect": "granted" }');
 * ```
 */
export function articleTests(...tests: string[]): string {
  return `{\n  ${ARTICLE_WORLD}\n${tests.map((test) => `    ${test}`).join(',\n')}\n  ]\n}\n`;
}

/** A test of the articles fixture as one line of JSON. */
export function articleTest(user: string, action: string, resourceId: number | undefined, expect: 'granted' | 'denied', attributes?: string[]): string {
  return JSON.stringify({
    user,
    action,
    resource: 'article',
    ...(resourceId === undefined ? {} : { resourceId }),
    expect,
    ...(attributes === undefined ? {} : { attributes }),
  });
}

/**
 * A fresh folder (inside the repository, removed by the caller with removeTempDir) with the definitions of `from` and `files`.
 *
 * @example
 * ```ts
 * const dir = folderWith({ 'a.permissions.test.json': articleTests(...) });
 * ```
 */
export function folderWith(files: Readonly<Record<string, string>>, from = ARTICLES): string {
  const dir = makeTempDir('policy-tests');
  cpSync(from, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs the command line in-process: its exit code and every line it wrote. */
export async function run(...argv: string[]): Promise<{ code: number; logs: string[]; errors: string[] }> {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  return { code, logs, errors };
}
