/**
 * A hand-written shape check of policy tests in their normalized form, run before a bundle's tests are decided
 * (and by the compiler on what it normalized, for the limits). A bundle is data from a file, a URL or a store: it
 * may be hand-edited, cut short or from another version, and a bad field must become a reason to refuse it, not
 * a crash or a wrong answer. Written by hand rather than with zod, so that checking a bundle's tests needs no zod;
 * linear in the size of the tests, and it stops reading a collection that is over its limit.
 */
import { nameProblem } from '../definition/names.js';
import { quoteForMessage } from '../common/printable-text.js';
import { describeValue } from '../common/describe-value.js';
import { MAX_STRING_ID_LENGTH } from '../decision/resource-id.js';
import {
  MAX_POLICY_TEST_ATTRIBUTES,
  MAX_POLICY_TEST_FILES,
  MAX_POLICY_TEST_OWNED_IDS,
  MAX_POLICY_TEST_RECORDS,
  MAX_POLICY_TEST_ROLES,
  MAX_POLICY_TEST_USERS,
  MAX_POLICY_TESTS,
  MAX_POLICY_TESTS_PER_FILE,
} from './policy-test-limits.js';
import type { PolicyTestId, PolicyTestProblem, PolicyTestProblemCode } from './policy-test-types.js';

type Path = readonly (string | number)[];

/** What an id may be, for messages. */
export const POLICY_TEST_ID_RULE = `an integer within ±9007199254740991, or a non-empty string of at most ${MAX_STRING_ID_LENGTH} characters`;

const FILE_FIELDS: ReadonlySet<string> = new Set(['file', 'users', 'ownership', 'records', 'tests']);
const USER_FIELDS: ReadonlySet<string> = new Set(['id', 'roles']);
const TEST_FIELDS: ReadonlySet<string> = new Set(['user', 'action', 'resource', 'resourceId', 'expect', 'attributes', 'line', 'column']);
const TESTS_FIELDS: ReadonlySet<string> = new Set(['format', 'files']);

/**
 * Whether `value` can be a resource id of a test: an integer within ±2⁵³−1, or a non-empty string of bounded length.
 *
 * @example
 * ```ts
 * isPolicyTestId(10); // true
 * isPolicyTestId(1e300); // false: not a safe integer
 * ```
 */
export function isPolicyTestId(value: unknown): value is PolicyTestId {
  return (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && value.length > 0 && value.length <= MAX_STRING_ID_LENGTH);
}

/**
 * Whether `value` is a plain object (not null, not an array).
 *
 * @example
 * ```ts
 * isObject({ id: 1 }); // true
 * isObject([1]); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a message shows it: a number or boolean as written, a string quoted, anything else by its kind. */
const shown = (value: unknown): string => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : describeValue(value));

const isPositiveInteger = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** The problems of one file, gathered as it is read. */
class FileCheck {
  constructor(
    private readonly file: string,
    readonly problems: PolicyTestProblem[],
  ) {}

  add(path: Path, code: PolicyTestProblemCode, message: string, fix: string): void {
    this.problems.push({ file: this.file, path, code, message, fix });
  }

  /** `value` as an object, or a problem at `path`. */
  object(value: unknown, path: Path, what: string, fix: string): Record<string, unknown> | undefined {
    if (isObject(value)) return value;
    this.add(path, 'invalid-test-file', `${what} is ${shown(value)}, not an object.`, fix);
    return undefined;
  }

  unknownFields(value: Record<string, unknown>, known: ReadonlySet<string>, path: Path, where: string): void {
    for (const key of Object.keys(value))
      if (!known.has(key))
        this.add([...path, key], 'invalid-test-file', `Unknown field ${quoteForMessage(key)} in ${where}.`, `Use only ${[...known].join(', ')}.`);
  }

  /** Whether `count` entries at `path` are within `limit`; a problem at the first one past it otherwise. */
  within(count: number, limit: number, path: Path, firstPast: string | number, what: string, fix: string): boolean {
    if (count <= limit) return true;
    this.add([...path, firstPast], 'too-large', `${what}: ${count}, more than the limit of ${limit}.`, fix);
    return false;
  }

  id(value: unknown, path: Path, what: string): void {
    if (!isPolicyTestId(value))
      this.add(path, 'invalid-id', `${what} is ${shown(value)}, not ${POLICY_TEST_ID_RULE}.`, 'Write the id as the resource has it: 10, or "a1".');
  }

  name(value: string, path: Path, what: string): void {
    const problem = nameProblem(value);
    if (problem !== undefined)
      this.add(path, 'invalid-name', `The ${what} name ${quoteForMessage(value)} ${problem}.`, `Name the ${what} with printable text.`);
  }

  users(value: unknown): void {
    const users = this.object(value, ['users'], 'Field "users"', 'Write "users": { "alice": { "id": 1, "roles": ["EMPLOYEE"] } }.');
    if (users === undefined) return;
    const names = Object.keys(users);
    if (
      !this.within(
        names.length,
        MAX_POLICY_TEST_USERS,
        ['users'],
        names[MAX_POLICY_TEST_USERS] ?? '',
        'Users in one file',
        'Split the tests over several files.',
      )
    )
      return;
    for (const name of names) {
      const path = ['users', name];
      this.name(name, path, 'user');
      const user = this.object(users[name], path, `User ${quoteForMessage(name)}`, 'Write { "id": 1, "roles": ["EMPLOYEE"] }.');
      if (user === undefined) continue;
      this.unknownFields(user, USER_FIELDS, path, `user ${quoteForMessage(name)}`);
      this.id(user['id'], [...path, 'id'], `The id of user ${quoteForMessage(name)}`);
      const roles = user['roles'];
      if (!Array.isArray(roles)) {
        this.add(
          [...path, 'roles'],
          'invalid-test-file',
          `The roles of user ${quoteForMessage(name)} are ${shown(roles)}, not an array.`,
          'Write "roles": ["EMPLOYEE"].',
        );
        continue;
      }
      if (
        !this.within(
          roles.length,
          MAX_POLICY_TEST_ROLES,
          [...path, 'roles'],
          MAX_POLICY_TEST_ROLES,
          `Roles of user ${quoteForMessage(name)}`,
          'Give the user fewer roles.',
        )
      )
        continue;
      roles.forEach((role: unknown, i) => {
        if (typeof role === 'string') this.name(role, [...path, 'roles', i], 'role');
        else this.add([...path, 'roles', i], 'invalid-test-file', `A role is ${shown(role)}, not a role name.`, 'Write role names as strings.');
      });
    }
  }

  ownership(value: unknown): void {
    const ownership = this.object(value, ['ownership'], 'Field "ownership"', 'Write "ownership": { "isCreator": { "alice": [1, 10] } }.');
    if (ownership === undefined) return;
    for (const [method, byUser] of Object.entries(ownership)) {
      const users = this.object(byUser, ['ownership', method], `Ownership by ${quoteForMessage(method)}`, 'Write { "alice": [1, 10] }: user name → owned ids.');
      if (users === undefined) continue;
      for (const [user, ids] of Object.entries(users)) {
        const path = ['ownership', method, user];
        if (!Array.isArray(ids)) {
          this.add(
            path,
            'invalid-test-file',
            `The ids ${quoteForMessage(method)} owns for ${quoteForMessage(user)} are ${shown(ids)}, not an array.`,
            'Write [1, 10].',
          );
          continue;
        }
        if (
          this.within(
            ids.length,
            MAX_POLICY_TEST_OWNED_IDS,
            path,
            MAX_POLICY_TEST_OWNED_IDS,
            `Ids ${quoteForMessage(method)} owns for ${quoteForMessage(user)}`,
            'List fewer ids.',
          )
        )
          ids.forEach((id: unknown, i) => this.id(id, [...path, i], 'An owned id'));
      }
    }
  }

  records(value: unknown): void {
    const records = this.object(value, ['records'], 'Field "records"', 'Write "records": { "document": { "1": { "id": 1, "title": "T" } } }.');
    if (records === undefined) return;
    const byResource = Object.entries(records);
    const count = byResource.reduce((sum, [, byId]) => sum + (isObject(byId) ? Object.keys(byId).length : 0), 0);
    if (!this.within(count, MAX_POLICY_TEST_RECORDS, [], 'records', 'Records in one file', 'Split the tests over several files.')) return;
    for (const [resource, byId] of byResource) {
      const ids = this.object(
        byId,
        ['records', resource],
        `The records of ${quoteForMessage(resource)}`,
        'Write { "1": { "id": 1, "title": "T" } }: id → record.',
      );
      if (ids === undefined) continue;
      const keys = Object.keys(ids);
      for (const key of keys) {
        const path = ['records', resource, key];
        const record = this.object(
          ids[key],
          path,
          `Record ${quoteForMessage(key)} of ${quoteForMessage(resource)}`,
          'Write the record as an object with its "id".',
        );
        if (record === undefined) continue;
        const id = record['id'];
        if (!Object.hasOwn(record, 'id') || !isPolicyTestId(id) || String(id) !== key)
          this.add(
            Object.hasOwn(record, 'id') ? [...path, 'id'] : path,
            'invalid-id',
            `Record ${quoteForMessage(key)} of ${quoteForMessage(resource)} has ${Object.hasOwn(record, 'id') ? `the id ${shown(id)}` : 'no "id"'}; ` +
              'pick reads a record’s id from its "id", which must be the key it stands under.',
            `Write "id": ${/^(?:0|-?[1-9][0-9]*)$/.test(key) ? key : JSON.stringify(key)} in the record.`,
          );
      }
    }
  }

  tests(value: unknown): void {
    if (!Array.isArray(value)) {
      this.add(['tests'], 'invalid-test-file', `Field "tests" is ${shown(value)}, not an array.`, 'Write "tests": [{ "user": "alice", "action": "read", … }].');
      return;
    }
    // A file without tests would make a run of nothing look like a pass.
    if (value.length === 0) {
      this.add(['tests'], 'no-tests', 'The file has no tests: "tests" is empty, so it checks nothing.', 'Add a test to "tests", or remove the file.');
      return;
    }
    if (!this.within(value.length, MAX_POLICY_TESTS_PER_FILE, ['tests'], MAX_POLICY_TESTS_PER_FILE, 'Tests in one file', 'Split the tests over several files.'))
      return;
    value.forEach((entry: unknown, i) => this.test(entry, ['tests', i]));
  }

  private test(entry: unknown, path: Path): void {
    const test = this.object(entry, path, 'A test', 'Write { "user": "alice", "action": "read", "resource": "document", "expect": "granted" }.');
    if (test === undefined) return;
    this.unknownFields(test, TEST_FIELDS, path, 'a test');
    for (const field of ['user', 'action', 'resource'] as const)
      if (typeof test[field] !== 'string' || test[field] === '')
        this.add([...path, field], 'invalid-test-file', `The test's ${field} is ${shown(test[field])}, not a name.`, `Write "${field}" as a non-empty string.`);
    if (test['resourceId'] !== undefined) this.id(test['resourceId'], [...path, 'resourceId'], "The test's resourceId");
    if (test['expect'] !== 'granted' && test['expect'] !== 'denied')
      this.add([...path, 'expect'], 'invalid-test-file', `The test expects ${shown(test['expect'])}.`, 'Write "expect": "granted" or "expect": "denied".');
    for (const field of ['line', 'column'] as const)
      if (!isPositiveInteger(test[field]))
        this.add([...path, field], 'invalid-test-file', `The test's ${field} is ${shown(test[field])}, not a positive integer.`, 'Compile the tests again.');
    const attributes = test['attributes'];
    if (attributes === undefined) return;
    if (!Array.isArray(attributes)) {
      this.add(
        [...path, 'attributes'],
        'invalid-test-file',
        `The test's attributes are ${shown(attributes)}, not an array.`,
        'Write "attributes": ["id", "title"].',
      );
      return;
    }
    if (
      !this.within(
        attributes.length,
        MAX_POLICY_TEST_ATTRIBUTES,
        [...path, 'attributes'],
        MAX_POLICY_TEST_ATTRIBUTES,
        'Attributes of one test',
        'Name fewer attributes.',
      )
    )
      return;
    const seen = new Set<string>();
    attributes.forEach((attribute: unknown, i) => {
      if (typeof attribute !== 'string')
        this.add([...path, 'attributes', i], 'invalid-test-file', `An attribute is ${shown(attribute)}, not a name.`, 'Write attribute names as strings.');
      else if (seen.has(attribute))
        this.add([...path, 'attributes', i], 'invalid-test-file', `Attribute ${quoteForMessage(attribute)} is named twice.`, 'Name each attribute once.');
      else seen.add(attribute);
    });
  }
}

/**
 * The problems of one normalized test file, without the policy: its shape and its limits. Empty when it is well formed.
 *
 * @example
 * ```ts
 * policyTestFileShapeProblems({ file: 'a.permissions.test.json', users: {}, ownership: {}, records: {}, tests: [{}] });
 * // [{ file: 'a.permissions.test.json', path: ['tests', 0, 'user'], code: 'invalid-test-file', … }, …]
 * ```
 */
export function policyTestFileShapeProblems(value: unknown, label = 'tests'): PolicyTestProblem[] {
  const file = isObject(value) && typeof value['file'] === 'string' && value['file'] !== '' ? value['file'] : label;
  const check = new FileCheck(file, []);
  const object = check.object(value, [], 'The test file', 'Write { "users": {…}, "tests": […] }.');
  if (object === undefined) return check.problems;
  check.unknownFields(object, FILE_FIELDS, [], 'a test file');
  if (typeof object['file'] !== 'string' || object['file'] === '')
    check.add(['file'], 'invalid-test-file', `The file name is ${shown(object['file'])}.`, 'Compile the tests again.');
  check.users(object['users']);
  check.ownership(object['ownership']);
  check.records(object['records']);
  check.tests(object['tests']);
  return check.problems;
}

/**
 * The problems of a bundle's `"tests"` (`{ format: 1, files: [...] }`), without the policy: its shape, each file's,
 * and the limits of a policy (files, and tests over every file). Empty when it is well formed.
 *
 * @example
 * ```ts
 * policyTestsShapeProblems({ format: 2, files: [] }); // [{ file: 'tests', path: ['format'], code: 'invalid-test-file', … }]
 * ```
 */
export function policyTestsShapeProblems(value: unknown): PolicyTestProblem[] {
  const check = new FileCheck('tests', []);
  if (!isObject(value)) {
    check.add([], 'invalid-test-file', `The tests are ${shown(value)}, not an object { format, files }.`, 'Compile the tests again.');
    return check.problems;
  }
  const tests = value;
  check.unknownFields(tests, TESTS_FIELDS, [], 'the tests');
  if (tests['format'] !== 1)
    check.add(
      ['format'],
      'invalid-test-file',
      `The tests have format ${shown(tests['format'])}, not 1.`,
      'Compile them with this version of typed-permissions.',
    );
  const files = tests['files'];
  if (!Array.isArray(files)) {
    check.add(['files'], 'invalid-test-file', `The tests' files are ${shown(files)}, not an array.`, 'Compile the tests again.');
    return check.problems;
  }
  // "tests" with no file would have a version pass as tested when nothing checked it.
  if (files.length === 0) {
    check.add(
      ['files'],
      'no-tests',
      'The tests hold no test file, so they check nothing.',
      'Compile the policy again: a definitions folder without test files gives a bundle without "tests".',
    );
    return check.problems;
  }
  if (files.length > MAX_POLICY_TEST_FILES) {
    const past = files[MAX_POLICY_TEST_FILES] as unknown;
    const name = isObject(past) && typeof past['file'] === 'string' ? past['file'] : `files[${MAX_POLICY_TEST_FILES}]`;
    check.problems.push({
      file: name,
      path: [],
      code: 'too-large',
      message: `Test files in one policy: ${files.length}, more than the limit of ${MAX_POLICY_TEST_FILES}.`,
      fix: 'Merge test files.',
    });
    return check.problems;
  }
  let total = 0;
  files.forEach((file: unknown, i) => {
    const problems = policyTestFileShapeProblems(file, `files[${i}]`);
    check.problems.push(...problems);
    const count = isObject(file) && Array.isArray(file['tests']) ? file['tests'].length : 0;
    if (problems.length === 0 && total + count > MAX_POLICY_TESTS)
      check.problems.push(policyTestsLimitProblem(String((file as { file: string }).file), MAX_POLICY_TESTS - total));
    total += count;
  });
  return check.problems;
}

/**
 * The problem of a policy whose tests pass the limit of {@link MAX_POLICY_TESTS}, at the first test past it.
 *
 * @example
 * ```ts
 * policyTestsLimitProblem('b.permissions.test.json', 120); // at ['tests', 120] of that file
 * ```
 */
export function policyTestsLimitProblem(file: string, firstPast: number): PolicyTestProblem {
  return {
    file,
    path: ['tests', firstPast],
    code: 'too-large',
    message: `Tests in one policy: more than the limit of ${MAX_POLICY_TESTS}.`,
    fix: 'Keep the tests that say most about the policy.',
  };
}
