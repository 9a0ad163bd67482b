/**
 * `typed-permissions test [definitionsDir] [--coverage] [--reporter junit <file>]`, run in-process: the exact lines
 * for passing and failing files (each failure with file:line:column, expected vs decided and the explanation), the
 * closing `N passed, N failed`, exit 0 / 1 / 2, the JUnit report, and the list of grants no test exercised.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDir, repoRoot } from '../compiler/helpers.js';
import { articleTest, articleTests, folderWith, run } from './policy-test-folders.js';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

function folder(files: Readonly<Record<string, string>>): string {
  const dir = folderWith(files);
  folders.push(dir);
  return dir;
}

/** Nine tests, every one right, exercising every grant of the articles fixture. */
const passing = articleTests(
  articleTest('ann', 'read', 1, 'granted', ['id', 'title', 'body', 'secret']),
  articleTest('ann', 'read', 2, 'denied'),
  articleTest('ann', 'update', 1, 'granted'),
  articleTest('ann', 'list', undefined, 'granted'),
  articleTest('eve', 'read', 1, 'granted', ['id', 'title', 'body']),
  articleTest('eve', 'publish', undefined, 'granted'),
  articleTest('rex', 'read', 1, 'granted', ['id', 'title']),
  articleTest('rex', 'read', 3, 'granted', ['id', 'title', 'body', 'secret']),
  articleTest('rex', 'review', 1, 'granted'),
);

/** Five tests, four of them wrong: on lines 8 to 12. */
const failing = articleTests(
  articleTest('ann', 'read', 2, 'granted'),
  articleTest('eve', 'read', 1, 'granted', ['id', 'title', 'body', 'secret']),
  // rex reviews article 1 and wrote none: the author's attributes must not reach it (the per-role attribute fix).
  articleTest('rex', 'read', 1, 'granted', ['id', 'title', 'body', 'secret']),
  articleTest('eve', 'update', undefined, 'granted'),
  articleTest('ann', 'list', undefined, 'granted'),
);

/** The failure lines of {@link failing} in `dir`. */
function failingLines(dir: string): string[] {
  const file = `${dir}/articles.permissions.test.json`;
  return [
    `FAIL ${file}:8:5 ann read article 2`,
    '  expected granted, got denied',
    '  read on article for roles AUTHOR: NOT GRANTED for id 2',
    '    - AUTHOR: own (when isAuthor says so), attributes *',
    '        from article.permissions.json #0 ("authors edit their own") as own',
    '    - id 2: isAuthor answered not owned.',
    '    - id 2 refused: no ownership hook matched.',
    `FAIL ${file}:9:5 eve read article 1`,
    '  expected attributes body, id, secret, title; pick kept body, id, title (missing: secret)',
    '  read on article for roles EDITOR: GRANTED for id 1',
    '    - EDITOR: any, attributes * !secret',
    '        from article.permissions.json #1 ("editors read all but secrets") as any',
    '    - id 1: granted as any, ownership not needed.',
    `FAIL ${file}:10:5 rex read article 1`,
    '  expected attributes body, id, secret, title; pick kept id, title (missing: body, secret)',
    '  read on article for roles REVIEWER, AUTHOR: GRANTED for id 1',
    '    - REVIEWER: own (when limitToAssigned via articlesAmong says so), attributes id title',
    '        from article.permissions.json #2 ("reviewers see what they review") as own',
    '    - AUTHOR: own (when isAuthor says so), attributes *',
    '        from article.permissions.json #0 ("authors edit their own") as own',
    '    - id 1: isAuthor answered not owned.',
    '    - id 1: limitToAssigned via articlesAmong answered owned.',
    `FAIL ${file}:11:5 eve update article`,
    '  expected granted, got denied',
    '  update on article for roles EDITOR: NOT GRANTED',
    '    - no definition grants update on article to EDITOR.',
  ];
}

describe('typed-permissions test', () => {
  it('passing tests: only the count, exit 0', async () => {
    expect(await run('test', folder({ 'articles.permissions.test.json': passing }))).toEqual({ code: 0, logs: ['9 passed, 0 failed'], errors: [] });
  });

  it("the example's tests pass (the five example checks, the managers, the users with two roles, the decision log)", async () => {
    expect(await run('test', join(repoRoot, 'definitions'))).toEqual({ code: 0, logs: ['64 passed, 0 failed'], errors: [] });
  });

  it('failing tests: each with its place, expectation, decision and explanation, then the count; exit 1', async () => {
    const dir = folder({ 'articles.permissions.test.json': failing });
    expect(await run('test', dir)).toEqual({ code: 1, logs: [...failingLines(dir), '1 passed, 4 failed'], errors: [] });
  });

  it('several files: failures in file order, one count', async () => {
    const dir = folder({ 'b.permissions.test.json': failing, 'a.permissions.test.json': passing });
    const lines = failingLines(dir).map((line) => line.replace('articles.permissions.test.json', 'b.permissions.test.json'));
    expect(await run('test', dir)).toEqual({ code: 1, logs: [...lines, '10 passed, 4 failed'], errors: [] });
  });

  it('--coverage lists the grants no test exercised, sorted, before the count', async () => {
    const dir = folder({ 'articles.permissions.test.json': failing });
    expect((await run('test', dir, '--coverage')).logs.slice(-6)).toEqual([
      'Grants no test exercised (4 of 7):',
      '  AUTHOR article read:own',
      '  AUTHOR article update:own',
      '  EDITOR article publish:any',
      '  REVIEWER article review:own',
      '1 passed, 4 failed',
    ]);
    const full = folder({ 'articles.permissions.test.json': passing });
    expect(await run('test', full, '--coverage')).toEqual({
      code: 0,
      logs: ['Every grant is exercised by a test (7 grants).', '9 passed, 0 failed'],
      errors: [],
    });
  });

  it('--reporter junit <file> writes one suite per file and one case per test, failures with their explanation', async () => {
    const dir = folder({
      'articles.permissions.test.json': articleTests(articleTest('ann', 'read', 1, 'granted'), articleTest('eve', 'update', undefined, 'granted')),
    });
    const report = join(dir, 'report.xml');
    expect(await run('test', dir, '--reporter', 'junit', report)).toEqual({
      code: 1,
      logs: [
        `FAIL ${dir}/articles.permissions.test.json:9:5 eve update article`,
        '  expected granted, got denied',
        '  update on article for roles EDITOR: NOT GRANTED',
        '    - no definition grants update on article to EDITOR.',
        `typed-permissions: wrote the JUnit report to ${report}.`,
        '1 passed, 1 failed',
      ],
      errors: [],
    });
    const file = `${dir}/articles.permissions.test.json`;
    expect(readFileSync(report, 'utf8')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="typed-permissions policy tests" tests="2" failures="1" errors="0" skipped="0">',
        `  <testsuite name="${file}" tests="2" failures="1" errors="0" skipped="0">`,
        `    <testcase classname="${file}" name="ann read article 1: granted" file="${file}"/>`,
        `    <testcase classname="${file}" name="eve update article: granted" file="${file}">`,
        `      <failure message="${file}:9:5: expected granted, got denied"><![CDATA[update on article for roles EDITOR: NOT GRANTED`,
        '  - no definition grants update on article to EDITOR.]]></failure>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
      ].join('\n'),
    );
    // The same report with `--reporter=junit` and the options in another order.
    expect((await run('test', '--reporter=junit', report, dir)).code).toBe(1);
  });

  it('a JUnit report that cannot be written: one line, exit 1', async () => {
    const dir = folder({ 'articles.permissions.test.json': passing });
    const report = join(dir, 'missing', 'report.xml');
    expect(await run('test', dir, '--reporter', 'junit', report)).toEqual({
      code: 1,
      logs: [],
      errors: [`typed-permissions: cannot write the JUnit report to ${report} (ENOENT: no such file or directory, open '${report}').`],
    });
  });

  it('a folder without test files, or with problems: exit 1, no test runs', async () => {
    const empty = folder({});
    expect(await run('test', empty)).toEqual({
      code: 1,
      logs: [],
      errors: [`typed-permissions: ${empty} has no policy tests (*.permissions.test.json files).`],
    });
    const broken = folder({ 'articles.permissions.test.json': articleTests(articleTest('bob', 'read', 1, 'granted')) });
    expect(await run('test', broken)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `${broken}/articles.permissions.test.json:8:13 $.tests[0].user [unknown-user] User "bob" is not one of the file's users. ` +
          'Fix: Add "bob" to "users", or name one of "ann", "eve", "rex".',
        `typed-permissions: 1 problem in ${broken}; no test ran.`,
      ],
    });
  });

  it.each<[string, string[], string]>([
    ['another reporter', ['--reporter', 'tap', 'out.txt'], '--reporter takes junit and the file to write: --reporter junit <file>, got "tap".'],
    ['a reporter without its file', ['--reporter', 'junit'], '--reporter takes junit and the file to write: --reporter junit <file>; the file is missing.'],
    [
      'a reporter whose file is an option',
      ['--reporter', 'junit', '--coverage'],
      '--reporter takes junit and the file to write: --reporter junit <file>; the file is missing.',
    ],
    ['a reporter given twice', ['--reporter', 'junit', 'a.xml', '--reporter', 'junit', 'b.xml'], '--reporter is given twice.'],
    ['two folders', ['definitions', 'other'], 'test takes one definitions folder, got 2.'],
    [
      'an option of another command',
      ['--out', 'generated'],
      "Unknown option '--out'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--out\"",
    ],
  ])('%s: exit 2 with the usage', async (_label, argv, says) => {
    const { code, logs, errors } = await run('test', ...argv);
    expect([code, logs, errors.length]).toEqual([2, [], 1]);
    const [message, usage] = (errors[0] as string).split('\n\n');
    expect(message).toBe(`typed-permissions: ${says}`);
    expect(usage).toContain('\n  typed-permissions test [definitionsDir] [--coverage] [--reporter junit <file>]\n');
  });

  it('the help names the command and its options', async () => {
    const { code, logs } = await run('--help');
    expect(code).toBe(0);
    expect(logs[0]?.split('\n').filter((line) => /\btest\b|--coverage|--reporter|publish runs/.test(line))).toEqual([
      '  typed-permissions test [definitionsDir] [--coverage] [--reporter junit <file>]',
      '  definitionsDir   folder of *.permissions.json, *.permissions.ts, *.resource.json and *.permissions.test.json (default: definitions)',
      '  test             run the policy tests (*.permissions.test.json) against the compiled tables; exit 1 when one fails',
      '  --coverage       with test: also list the grants (role, resource, action:possession) that no test exercised',
      '  --reporter junit <file>',
      '                   with test: also write the results to <file> as a JUnit XML report',
      '                   publish runs the policy tests first and publishes nothing when one fails, then prints the diff',
    ]);
  });
});
