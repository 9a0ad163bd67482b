/**
 * Test files that name what the policy does not have, or break the format: every kind of problem, each with its
 * file, line, column and JSON path, from `typed-permissions test` and `compile` alike (nothing is written). And a
 * folder with valid test files: the definitions reader leaves them alone, `compile` embeds them in policy.json.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { readDefinitionsFolder } from '../../compiler/reading/read-definitions.js';
import { removeTempDir } from '../compiler/helpers.js';
import { articleTest, articleTests, folderWith, run } from './policy-test-folders.js';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

function folder(files: Readonly<Record<string, string>>): string {
  const dir = folderWith(files);
  folders.push(dir);
  return dir;
}

/** A file naming what the articles policy does not have: one mistake (or two) a line. */
const references = [
  '{',
  '  "users": { "ann": { "id": 1, "roles": ["AUTHOR"] }, "\\u202eeve": { "id": 2, "roles": ["EDITOR\\u0007"] } },',
  '  "ownership": { "isAuthor": { "ann": [1], "bob": [2] }, "isEditor": { "ann": [1] }, "listAuthored": { "ann": ["1"] } },',
  '  "records": { "article": { "1": { "id": 1, "title": "T" }, "2": { "id": 3 } }, "post": { "1": { "id": 1 } } },',
  '  "tests": [',
  '    { "user": "bob", "action": "read", "resource": "article", "expect": "granted" },',
  '    { "user": "ann", "action": "read", "resource": "post", "expect": "granted" },',
  '    { "user": "ann", "action": "approve", "resource": "article", "expect": "denied" },',
  '    { "user": "ann", "action": "read", "resource": "article", "resourceId": "1", "expect": "granted" },',
  '    { "user": "ann", "action": "read", "resource": "article", "resourceId": 4, "expect": "granted", "attributes": ["id"] },',
  '    { "user": "ann", "action": "read", "resource": "article", "expect": "granted", "attributes": ["id"] },',
  '    { "user": "ann", "action": "read", "resource": "article", "resourceId": 1, "expect": "denied", "attributes": ["id", "id"] }',
  '  ]',
  '}',
].join('\n');

/** A file breaking the format. */
const format = [
  '{',
  '  "users": { "ann": { "id": 1.5, "roles": "AUTHOR" }, "eve": { "id": 2, "roles": [] }, "eve": { "id": 3, "roles": [] } },',
  '  "tests": [',
  '    { "user": "ann", "action": "read", "resource": "article", "expect": "yes" },',
  '    { "user": "ann", "resource": "article", "expect": "granted", "because": "x" }',
  '  ],',
  '  "extra": true',
  '}',
].join('\n');

/** The problem lines of both files in `dir`. */
function problemLines(dir: string): string[] {
  const f = `${dir}/format.permissions.test.json`;
  const r = `${dir}/refs.permissions.test.json`;
  const users = 'Fix: Add "bob" to "users", or name one of "ann", "\\u202eeve".';
  return [
    `${f}:2:29 $.users.ann.id [invalid-test-file] An id must be an integer within ±9007199254740991, or a non-empty string of at most 256 characters. ` +
      'Fix: Write "users": { "alice": { "id": 1, "roles": ["EMPLOYEE"] } }.',
    `${f}:2:43 $.users.ann.roles [invalid-test-file] "roles" must be an array of role names. Fix: Write "users": { "alice": { "id": 1, "roles": ` +
      `["EMPLOYEE"] } }.`,
    `${f}:2:88 $.users.eve [duplicate-key] Key "eve" appears twice in the same object; only one can count. Fix: Remove one of the two keys, or ` +
      `merge their values.`,
    `${f}:4:73 $.tests[0].expect [invalid-test-file] "expect" must be "granted" or "denied". Fix: Write "expect": "granted" or "expect": "denied".`,
    `${f}:5:5 $.tests[1].action [invalid-test-file] Field "action" is missing. Fix: Write "action": the action asked, such as "read".`,
    `${f}:5:77 $.tests[1].because [invalid-test-file] Unknown field "because" in a test. ` +
      'Fix: Use only "user", "action", "resource", "resourceId", "expect", "attributes" and "tenant".',
    `${f}:7:12 $.extra [invalid-test-file] Unknown field "extra" in the test file. ` +
      'Fix: Use only "$schema", "users", "ownership", "records", "tenants" and "tests".',
    `${r}:2:68 $.users["\\u202eeve"] [invalid-name] The user name "\\u202eeve" contains the unprintable character U+202E. Fix: Name the user with ` +
      `printable text.`,
    `${r}:2:89 $.users["\\u202eeve"].roles[0] [invalid-name] The role name "EDITOR\\u0007" contains the unprintable character U+0007. ` +
      'Fix: Name the role with printable text.',
    `${r}:3:51 $.ownership.isAuthor.bob [unknown-user] User "bob" is not one of the file's users. ${users}`,
    `${r}:3:70 $.ownership.isEditor [unknown-method] "isEditor" is not an ownership method of the definitions. ` +
      'Fix: Name an isOwner, listOwned, limitOwned or ownedAmong method of the definitions: "articlesAmong", "isAuthor", "limitToAssigned", "listAuthored".',
    `${r}:3:112 $.ownership.listAuthored.ann[0] [invalid-id] "1" is not an id of "article": its ids are numbers. Fix: Write it as a number: 1.`,
    `${r}:4:74 $.records.article["2"].id [invalid-id] Record "2" of "article" has the id 3; pick reads a record’s id from its "id", ` +
      'which must be the key it stands under. Fix: Write "id": 2 in the record.',
    `${r}:4:89 $.records.post [unknown-resource] Resource "post" is not named by any definition. Fix: Name one of "article".`,
    `${r}:6:15 $.tests[0].user [unknown-user] User "bob" is not one of the file's users. ${users}`,
    `${r}:7:52 $.tests[1].resource [unknown-resource] Resource "post" is not named by any definition. Fix: Name one of "article".`,
    `${r}:8:32 $.tests[2].action [unknown-action] Action "approve" is not granted by any definition on any resource. ` +
      'Fix: Name one of "create", "delete", "list", "publish", "read", "review", "update".',
    `${r}:9:77 $.tests[3].resourceId [invalid-id] "1" is not an id of "article": its ids are numbers. Fix: Write it as a number: 1.`,
    `${r}:10:77 $.tests[4].resourceId [unknown-record] There is no record "4" of "article" in "records" to pick the attributes from. ` +
      'Fix: Add records["article"]["4"], or remove "attributes".',
    `${r}:11:98 $.tests[5].attributes [unknown-record] The test names attributes but no resourceId: attributes are what pick keeps of one record. ` +
      'Fix: Add the resourceId of a record in "records", or remove "attributes".',
    `${r}:12:114 $.tests[6].attributes [invalid-test-file] A denied request sees no attributes. Fix: Expect "granted", or remove "attributes".`,
    `${r}:12:121 $.tests[6].attributes[1] [invalid-test-file] Attribute "id" is named twice. Fix: Name each attribute once.`,
  ];
}

describe('problems of test files', () => {
  it('every kind, with file:line:column and JSON path; no test runs (exit 1)', async () => {
    const dir = folder({ 'refs.permissions.test.json': references, 'format.permissions.test.json': format });
    expect(await run('test', dir)).toEqual({ code: 1, logs: [], errors: [...problemLines(dir), `typed-permissions: 22 problems in ${dir}; no test ran.`] });
  });

  it('compile reports the same problems and writes nothing', async () => {
    const dir = folder({ 'refs.permissions.test.json': references, 'format.permissions.test.json': format });
    const out = join(dir, '..', `${dir.split('/').at(-1)}-out`);
    folders.push(out);
    expect(await run('compile', dir, '--out', out)).toEqual({
      code: 1,
      logs: [],
      errors: [...problemLines(dir), `typed-permissions: 22 problems in ${dir}; ${out} was not changed.`],
    });
    expect(() => readFileSync(join(out, 'policy.json'))).toThrow(/ENOENT/);
  });

  it('a record under a key that is no id of a resource whose ids are numbers is fixed by renaming the key, whatever its "id"', async () => {
    const records = '{ "01": { "id": 1 }, "002": { "id": "002" }, "x": { "id": "x" } }';
    const test = '{ "user": "ann", "action": "read", "resource": "article", "expect": "granted" }';
    const dir = folder({
      'keys.permissions.test.json': `{ "records": { "article": ${records} }, "users": { "ann": { "id": 1, "roles": ["AUTHOR"] } }, "tests": [${test}] }`,
    });
    const file = `${dir}/keys.permissions.test.json`;
    const notAnId = 'stands under a key that is not an id of it: its ids are numbers, written in decimal without leading zeros.';
    expect(await run('test', dir)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `${file}:1:35 $.records.article["01"] [invalid-id] Record "01" of "article" ${notAnId} Fix: Store the record under "1" instead, with "id": 1.`,
        `${file}:1:43 $.records.article["01"].id [invalid-id] Record "01" of "article" has the id 1; pick reads a record’s id from its "id", ` +
          'which must be the key it stands under. Fix: Store the record under "1" instead, its id.',
        `${file}:1:55 $.records.article["002"] [invalid-id] Record "002" of "article" ${notAnId} Fix: Store the record under "2" instead, with "id": 2.`,
        `${file}:1:77 $.records.article.x [invalid-id] Record "x" of "article" ${notAnId} ` +
          'Fix: Store the record under its id, a number written in decimal (such as "10"), with that number as its "id".',
        `typed-permissions: 4 problems in ${dir}; no test ran.`,
      ],
    });
  });

  it('what tests name is checked only once the definitions are valid (a broken policy would make every name unknown); their shape always', () => {
    const dir = folder({ 'refs.permissions.test.json': references, 'zz.permissions.json': '[{ "roles": ["X"], "resource": "article", "grant": [] }]' });
    const result = compileModel(dir);
    expect(result.ok ? [] : result.problems.map((problem) => `${problem.file} ${problem.code}`)).toEqual([
      'refs.permissions.test.json invalid-name',
      'refs.permissions.test.json invalid-name',
      'refs.permissions.test.json invalid-id',
      'refs.permissions.test.json invalid-test-file',
      'zz.permissions.json empty-grant',
    ]);
  });
});

describe('valid test files beside the definitions', () => {
  it('are not definitions: the definitions reader leaves them out', () => {
    const dir = folder({ 'articles.permissions.test.json': articleTests(articleTest('ann', 'read', 1, 'granted')) });
    const read = readDefinitionsFolder(dir);
    expect([read.files, read.definitions.length, read.problems]).toEqual([['article.permissions.json', 'article.resource.json'], 3, []]);
  });

  it('compile embeds them in policy.json beside format, version and tables; the version stays that of the tables', async () => {
    const tests = articleTests(
      articleTest('ann', 'read', 1, 'granted', ['id', 'title', 'body', 'secret']),
      articleTest('eve', 'publish', undefined, 'granted'),
    );
    const dir = folder({ 'articles.permissions.test.json': tests });
    const out = join(dir, '..', `${dir.split('/').at(-1)}-out`);
    const bare = join(dir, '..', `${dir.split('/').at(-1)}-bare`);
    folders.push(out, bare);
    expect((await run('compile', dir, '--out', out)).code).toBe(0);
    expect((await run('compile', folder({}), '--out', bare)).code).toBe(0);
    const bundle = JSON.parse(readFileSync(join(out, 'policy.json'), 'utf8')) as Record<string, unknown>;
    const without = JSON.parse(readFileSync(join(bare, 'policy.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(bundle)).toEqual(['$comment', 'format', 'version', 'tables', 'tests']);
    expect([bundle['version'], bundle['tables']]).toEqual([without['version'], without['tables']]);
    expect(Object.keys(without)).toEqual(['$comment', 'format', 'version', 'tables']);
    const file = JSON.parse(tests) as Record<string, unknown>;
    expect(bundle['tests']).toEqual({
      format: 1,
      files: [
        {
          file: 'articles.permissions.test.json',
          users: file['users'],
          ownership: file['ownership'],
          records: file['records'],
          tests: [
            {
              user: 'ann',
              action: 'read',
              resource: 'article',
              resourceId: 1,
              expect: 'granted',
              attributes: ['id', 'title', 'body', 'secret'],
              line: 8,
              column: 5,
            },
            { user: 'eve', action: 'publish', resource: 'article', expect: 'granted', line: 9, column: 5 },
          ],
        },
      ],
    });
  });
});
