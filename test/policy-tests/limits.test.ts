/**
 * The stated limits of policy tests, each tested at the limit (no problem) and one past it (a `too-large` problem at
 * the first entry past it, with its line and column): tests per file and per policy, test files per policy, users
 * per file, roles per user, ids per ownership method and user, records per file, attributes per test, custom-role
 * definitions of tenants per policy, and the size of a file (the definitions file limit).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import { MAX_DEFINITIONS_FILE_LENGTH } from '../../runtime/internal/index.js';
import {
  MAX_POLICY_TEST_ATTRIBUTES,
  MAX_POLICY_TEST_FILES,
  MAX_POLICY_TEST_OWNED_IDS,
  MAX_POLICY_TEST_RECORDS,
  MAX_POLICY_TEST_ROLES,
  MAX_POLICY_TEST_TENANT_DEFINITIONS,
  MAX_POLICY_TEST_USERS,
  MAX_POLICY_TESTS,
  MAX_POLICY_TESTS_PER_FILE,
} from '../../runtime/core/policy-test/policy-test-limits.js';
import { removeTempDir } from '../compiler/helpers.js';
import { articleTest, articleTests, folderWith } from './policy-test-folders.js';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

/** The sizes of one generated test file; each is 1 unless given. */
interface Sizes {
  readonly users?: number;
  readonly roles?: number;
  readonly ownedIds?: number;
  readonly records?: number;
  readonly attributes?: number;
  readonly tests?: number;
}

/**
 * A valid test file of the articles fixture with the given sizes, one user, record or test a line: users from line 3
 * (user i on line 3 + i), then the ownership of user u00000 (its roles are R0, R1, …), the records, then the tests (the
 * first names the attributes a0, a1, …).
 */
function limitFile({ users = 1, roles = 1, ownedIds = 1, records = 1, attributes = 1, tests = 1 }: Sizes): string {
  const name = (i: number) => `u${String(i).padStart(5, '0')}`;
  const lines = ['{', '  "users": {'];
  for (let i = 0; i < users; i++) {
    const roleList = i === 0 ? Array.from({ length: roles }, (_, k) => `"R${k}"`).join(', ') : '';
    lines.push(`    "${name(i)}": { "id": "${String(i).padStart(5, '0')}", "roles": [${roleList}] }${i === users - 1 ? '' : ','}`);
  }
  lines.push('  },', `  "ownership": { "isAuthor": { "${name(0)}": [${Array.from({ length: ownedIds }, (_, k) => k + 1).join(', ')}] } },`);
  lines.push('  "records": { "article": {');
  for (let i = 1; i <= records; i++) lines.push(`    "${i}": { "id": ${i} }${i === records ? '' : ','}`);
  lines.push('  } },', '  "tests": [');
  const attributeList = JSON.stringify(Array.from({ length: attributes }, (_, k) => `a${k}`));
  for (let i = 0; i < tests; i++) {
    const named = i === 0 ? `, "attributes": ${attributeList}` : '';
    lines.push(
      `    { "user": "${name(0)}", "action": "read", "resource": "article", "resourceId": 1, "expect": "granted"${named} }${i === tests - 1 ? '' : ','}`,
    );
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/** The problems of compiling the articles fixture with `files`, as the command line prints them (folder `dir`). */
function problemsOf(files: Readonly<Record<string, string>>): string[] {
  const dir = folderWith(files);
  folders.push(dir);
  const result = compileModel(dir);
  return result.ok ? [] : result.problems.map((problem) => formatCompileProblem(problem, 'dir'));
}

describe('limits of policy tests, at and past', () => {
  it('states them', () => {
    expect([
      MAX_POLICY_TESTS_PER_FILE,
      MAX_POLICY_TESTS,
      MAX_POLICY_TEST_FILES,
      MAX_POLICY_TEST_USERS,
      MAX_POLICY_TEST_ROLES,
      MAX_POLICY_TEST_OWNED_IDS,
      MAX_POLICY_TEST_RECORDS,
      MAX_POLICY_TEST_ATTRIBUTES,
      MAX_POLICY_TEST_TENANT_DEFINITIONS,
      MAX_DEFINITIONS_FILE_LENGTH,
    ]).toEqual([10_000, 50_000, 100, 1_000, 100, 10_000, 10_000, 1_000, 10_000, 8 * 1024 * 1024]);
  });

  it.each<[string, Sizes, Sizes, string]>([
    [
      'tests in one file',
      { tests: MAX_POLICY_TESTS_PER_FILE },
      { tests: MAX_POLICY_TESTS_PER_FILE + 1 },
      'dir/t.permissions.test.json:10010:5 $.tests[10000] [too-large] Tests in one file: 10001, more than the limit of 10000. Fix: Split the tests ' +
        'over several files.',
    ],
    [
      'users in one file',
      { users: MAX_POLICY_TEST_USERS },
      { users: MAX_POLICY_TEST_USERS + 1 },
      'dir/t.permissions.test.json:1003:15 $.users.u01000 [too-large] Users in one file: 1001, more than the limit of 1000. Fix: Split the tests ' +
        'over several files.',
    ],
    [
      'roles of one user',
      { roles: MAX_POLICY_TEST_ROLES },
      { roles: MAX_POLICY_TEST_ROLES + 1 },
      'dir/t.permissions.test.json:3:732 $.users.u00000.roles[100] [too-large] Roles of user "u00000": 101, more than the limit of 100. Fix: Give ' +
        'the user fewer roles.',
    ],
    [
      'ids one method owns for one user',
      { ownedIds: MAX_POLICY_TEST_OWNED_IDS },
      { ownedIds: MAX_POLICY_TEST_OWNED_IDS + 1 },
      'dir/t.permissions.test.json:5:58937 $.ownership.isAuthor.u00000[10000] [too-large] Ids "isAuthor" owns for "u00000": 10001, more than the ' +
        'limit of 10000. ' +
        'Fix: List fewer ids.',
    ],
    [
      'records in one file',
      { records: MAX_POLICY_TEST_RECORDS },
      { records: MAX_POLICY_TEST_RECORDS + 1 },
      'dir/t.permissions.test.json:6:14 $.records [too-large] Records in one file: 10001, more than the limit of 10000. Fix: Split the tests over ' +
        'several files.',
    ],
    [
      'attributes of one test',
      { attributes: MAX_POLICY_TEST_ATTRIBUTES },
      { attributes: MAX_POLICY_TEST_ATTRIBUTES + 1 },
      'dir/t.permissions.test.json:10:7009 $.tests[0].attributes[1000] [too-large] Attributes of one test: 1001, more than the limit of 1000. Fix: ' +
        'Name fewer attributes.',
    ],
  ])('%s', (_label, at, past, problem) => {
    expect(problemsOf({ 't.permissions.test.json': limitFile(at) })).toEqual([]);
    expect(problemsOf({ 't.permissions.test.json': limitFile(past) })).toEqual([problem]);
  });

  it('tests in one policy: 50,000 over five files; one more in a sixth file is past it', () => {
    const full = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.permissions.test.json`, limitFile({ tests: MAX_POLICY_TESTS_PER_FILE })]));
    expect(problemsOf(full)).toEqual([]);
    expect(problemsOf({ ...full, 'f5.permissions.test.json': limitFile({}) })).toEqual([
      'dir/f5.permissions.test.json:10:5 $.tests[0] [too-large] Tests in one policy: more than the limit of 50000. Fix: Keep the tests that say ' +
        'most about the policy.',
    ]);
  }, 120_000);

  it('test files in one policy: 100; a 101st is past it', () => {
    const files = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${String(i).padStart(3, '0')}.permissions.test.json`, limitFile({})]));
    expect(problemsOf(files(MAX_POLICY_TEST_FILES))).toEqual([]);
    expect(problemsOf(files(MAX_POLICY_TEST_FILES + 1))).toEqual([
      'dir/f100.permissions.test.json:1:1 $ [too-large] Test files in one policy: 101, more than the limit of 100. Fix: Merge test files.',
    ]);
  });

  it('custom-role definitions of tenants in one policy: 10,000 over two files; one more in a third file is past it', () => {
    // 1,000 definitions a tenant (a tenant's own limit), on one line each; no test names them, so none is built.
    const tenants = (names: string[], definitions = 1_000) =>
      Object.fromEntries(
        names.map((name) => [
          name,
          { definitions: Array.from({ length: definitions }, (_, i) => ({ roles: [`R${i % 100}`], resource: 'article', grant: ['read:any'] })) },
        ]),
      );
    const file = (names: string[], definitions?: number) =>
      `{\n  "tenants": ${JSON.stringify(tenants(names, definitions))},\n  ${articleTests(articleTest('ann', 'read', 1, 'granted')).slice(4)}`;
    const full = {
      'a.permissions.test.json': file(['t0', 't1', 't2', 't3', 't4']),
      'b.permissions.test.json': file(['t5', 't6', 't7', 't8', 't9']),
    };
    expect(problemsOf(full)).toEqual([]);
    expect(problemsOf({ ...full, 'c.permissions.test.json': file(['t10'], 1) })).toEqual([
      "dir/c.permissions.test.json:2:37 $.tenants.t10.definitions[0] [too-large] Custom-role definitions of the tenants of one policy's tests: " +
        'more than the limit of 10000. Fix: Give the tenants fewer definitions (a test needs only the roles it asks about), or remove tenants no test names.',
    ]);
  }, 60_000);

  it('the size of a file: the definitions file limit, in characters (a byte order mark not counted)', () => {
    const file = limitFile({});
    const padded = (length: number) => `\ufeff${file}${' '.repeat(length - file.length)}`;
    expect(problemsOf({ 't.permissions.test.json': padded(MAX_DEFINITIONS_FILE_LENGTH) })).toEqual([]);
    expect(problemsOf({ 't.permissions.test.json': padded(MAX_DEFINITIONS_FILE_LENGTH + 1) })).toEqual([
      'dir/t.permissions.test.json:1:1 $ [too-large] The file has 8388609 characters, more than the limit of 8388608. Fix: Split the tests over several files.',
    ]);
  });
});
