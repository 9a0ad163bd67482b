/**
 * A run of no tests is not a pass. A test file whose "tests" is empty is a `no-tests` problem at its place, the same
 * for every command that reads a definitions folder: `test` exits 1 without running anything (never
 * "0 passed, 0 failed"), `compile` writes nothing (so no bundle carries an empty set as if it were tested), and
 * `policy publish` publishes nothing, before any connection. A folder without test files stays untested, as before.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDir } from '../compiler/helpers.js';
import { ARTICLE_WORLD, articleTest, articleTests, folderWith, run } from './policy-test-folders.js';

/** Nothing listens on port 1 of loopback: a connection would be refused at once. */
const UNREACHABLE = 'postgres://user:secret@127.0.0.1:1/none';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

function folder(files: Readonly<Record<string, string>>): string {
  const dir = folderWith(files);
  folders.push(dir);
  return dir;
}

/** A test file with its users, ownership and records, and no test: "tests" stands on line 7, its value at column 12. */
const noTests = `{\n  ${ARTICLE_WORLD.replace(/"tests": \[$/, '"tests": []')}\n}\n`;
const passing = articleTests(articleTest('ann', 'read', 1, 'granted'), articleTest('eve', 'publish', undefined, 'granted'));

const problemLine = (dir: string, file: string) =>
  `${dir}/${file}:7:12 $.tests [no-tests] The file has no tests: "tests" is empty, so it checks nothing. Fix: Add a test to "tests", or remove the file.`;

describe('a test file without tests', () => {
  it('typed-permissions test: the file named as a problem, no test runs, exit 1', async () => {
    const dir = folder({ 'articles.permissions.test.json': noTests });
    expect(await run('test', dir)).toEqual({
      code: 1,
      logs: [],
      errors: [problemLine(dir, 'articles.permissions.test.json'), `typed-permissions: 1 problem in ${dir}; no test ran.`],
    });
  });

  it('typed-permissions test: beside a file whose tests pass, still exit 1 and nothing runs', async () => {
    const dir = folder({ 'a.permissions.test.json': passing, 'b.permissions.test.json': noTests });
    expect(await run('test', dir, '--coverage')).toEqual({
      code: 1,
      logs: [],
      errors: [problemLine(dir, 'b.permissions.test.json'), `typed-permissions: 1 problem in ${dir}; no test ran.`],
    });
  });

  it('"tests": [] written on one line is the same problem, at its place', async () => {
    const dir = folder({ 'one.permissions.test.json': '{ "users": {}, "tests": [] }\n' });
    expect((await run('test', dir)).errors[0]).toBe(
      `${dir}/one.permissions.test.json:1:25 $.tests [no-tests] The file has no tests: "tests" is empty, so it checks nothing. ` +
        'Fix: Add a test to "tests", or remove the file.',
    );
  });

  it('compile: the same problem, and nothing is written (no bundle carries an empty set of tests)', async () => {
    const dir = folder({ 'articles.permissions.test.json': noTests });
    const out = join(dir, '..', `${dir.split('/').at(-1)}-out`);
    folders.push(out);
    expect(await run('compile', dir, '--out', out)).toEqual({
      code: 1,
      logs: [],
      errors: [problemLine(dir, 'articles.permissions.test.json'), `typed-permissions: 1 problem in ${dir}; ${out} was not changed.`],
    });
    expect(() => readFileSync(join(out, 'policy.json'))).toThrow(/ENOENT/);
  });

  it('policy publish: the same problem, nothing published, before any connection', async () => {
    const dir = folder({ 'articles.permissions.test.json': noTests });
    expect(await run('policy', 'publish', '--yes', dir, '--database-url', UNREACHABLE)).toEqual({
      code: 1,
      logs: [],
      errors: [problemLine(dir, 'articles.permissions.test.json'), `typed-permissions: ${dir} has problems; nothing was published.`],
    });
  });
});
