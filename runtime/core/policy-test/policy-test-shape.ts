/**
 * The shape of policy tests in their normalized form, checked before a bundle's tests are decided (and by the
 * compiler on what it normalized, for the limits). A bundle is data from a file, a URL or a store: it may be
 * hand-edited, cut short or from another version, and a bad field must become a reason to refuse it, not a crash
 * or a wrong answer. Written with the runtime's shape checker, so that checking a bundle's tests needs no zod;
 * linear in the size of the tests, and it stops reading a collection that is over its limit.
 */
import { nameProblem } from '../definition/names.js';
import { quoteForMessage } from '../common/printable-text.js';
import { describeValue } from '../common/describe-value.js';
import { MAX_STRING_ID_LENGTH } from '../decision/resource-id.js';
import { tenantIdProblem } from '../decision/tenant-id.js';
import { definitionsArrayOf } from '../definition/definitions-file-schema.js';
import { both, isObject, issuesOf, list, object, record, report, valid, type Fields, type Limit, type Shape, type ShapePath } from '../shape/shape-check.js';
import {
  MAX_POLICY_TEST_ATTRIBUTES,
  MAX_POLICY_TEST_FILES,
  MAX_POLICY_TEST_OWNED_IDS,
  MAX_POLICY_TEST_RECORDS,
  MAX_POLICY_TEST_ROLES,
  MAX_POLICY_TEST_TENANT_DEFINITIONS,
  MAX_POLICY_TEST_TENANTS,
  MAX_POLICY_TEST_USER_ATTRIBUTES,
  MAX_POLICY_TEST_USER_LIST,
  MAX_POLICY_TEST_USERS,
  MAX_POLICY_TESTS,
  MAX_POLICY_TESTS_PER_FILE,
} from './policy-test-limits.js';
import type { PolicyTestId, PolicyTestProblem, PolicyTestProblemCode } from './policy-test-types.js';

export { isObject };

/** What an id may be, for messages. */
export const POLICY_TEST_ID_RULE = `an integer within ±9007199254740991, or a non-empty string of at most ${MAX_STRING_ID_LENGTH} characters`;

/** The decisions a test may expect. */
export const POLICY_TEST_EXPECTATIONS = ['granted', 'denied'] as const;

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

/** A value as a message shows it: a number or boolean as written, a string quoted, anything else by its kind. */
const shown = (value: unknown): string => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : describeValue(value));

const isPositiveInteger = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** The key a value stands under, quoted for a message (`path` ends with it, or has it `back` places from the end). */
const keyAt = (path: ShapePath, back = 1): string => quoteForMessage(String(path[path.length - back]));

/** A problem of the test file format: `message` and `fix`, coded `invalid-test-file` unless said otherwise. */
const problem = (
  message: (value: unknown, path: ShapePath) => string,
  fix: string | ((value: unknown, path: ShapePath) => string),
  code: PolicyTestProblemCode = 'invalid-test-file',
) => ({
  message,
  fix,
  code,
});

/** Not an object: `what` says which value, from its path. */
const notObject = (what: (path: ShapePath) => string, fix: string) => problem((value, path) => `${what(path)} is ${shown(value)}, not an object.`, fix);

/** More than `max` entries: `what` says of what, from the collection's path. */
const limit = (max: number, what: (path: ShapePath) => string, fix: string): Limit => ({
  max,
  tooMany: (count, path) => problem(() => `${what(path)}: ${count}, more than the limit of ${max}.`, fix, 'too-large'),
});

/** An object with known fields only, each unknown one a problem naming `where` and the fields (in `order`). */
function fieldsOf<F extends Fields>(
  fields: F,
  notAnObject: ReturnType<typeof notObject>,
  where: (path: ShapePath) => string,
  order: readonly (keyof F & string)[],
): Shape {
  return object(fields, {
    notObject: notAnObject,
    unknownKey: (key) => problem((_value, path) => `Unknown field ${quoteForMessage(key)} in ${where(path.slice(0, -1))}.`, `Use only ${order.join(', ')}.`),
  });
}

/** A resource id, or a problem naming `what`. */
const id = (what: (path: ShapePath) => string): Shape<PolicyTestId> =>
  valid(
    isPolicyTestId,
    problem(
      (value, path) => `${what(path)} is ${shown(value)}, not ${POLICY_TEST_ID_RULE}.`,
      'Write the id as the resource has it: 10, or "a1".',
      'invalid-id',
    ),
  );

/** A printable name (of a user or a role), or a problem. */
const printableName =
  (what: string): Shape<string> =>
  (value, path, issues) => {
    const wrong = nameProblem(value as string);
    return (
      wrong === undefined ||
      report(
        issues,
        path,
        value,
        problem(() => `The ${what} name ${quoteForMessage(value as string)} ${wrong}.`, `Name the ${what} with printable text.`, 'invalid-name'),
      )
    );
  };

/** A value an ownership rule may read of a user: a string, finite number, boolean or null, or a list of strings or numbers. */
function isUserAttributeValue(value: unknown): boolean {
  const scalar = (item: unknown) => typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item));
  if (value === null || scalar(value)) return true;
  return (
    Array.isArray(value) &&
    value.length <= MAX_POLICY_TEST_USER_LIST &&
    value.every((item) => typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item)))
  );
}

/** The attributes of a test user that ownership rules read; `id` and `roles` are the user's own fields. */
const userAttributesShape = record(
  (value, path, issues) => {
    const name = String(path.at(-1));
    if (name === 'id' || name === 'roles')
      return report(
        issues,
        path,
        value,
        problem(() => `User attribute ${quoteForMessage(name)} is the user's own field.`, `Write "${name}" beside "attributes", not in it.`),
      );
    return (
      isUserAttributeValue(value) ||
      report(
        issues,
        path,
        value,
        problem(
          (given) => `User attribute ${keyAt(path)} is ${shown(given)}, not a value an ownership rule reads.`,
          `Give a string, a finite number, true, false, null, or a list of at most ${MAX_POLICY_TEST_USER_LIST} strings or numbers.`,
        ),
      )
    );
  },
  notObject(() => 'Field "attributes"', 'Write "attributes": { "companyId": 1 }.'),
  limit(MAX_POLICY_TEST_USER_ATTRIBUTES, (path) => `Attributes of user ${keyAt(path, 2)}`, 'Give the user fewer attributes.'),
);

const userShape = fieldsOf(
  {
    id: id((path) => `The id of user ${keyAt(path, 2)}`),
    roles: list(
      (role, path, issues) =>
        typeof role === 'string'
          ? printableName('role')(role, path, issues)
          : report(
              issues,
              path,
              role,
              problem(() => `A role is ${shown(role)}, not a role name.`, 'Write role names as strings.'),
            ),
      problem((value, path) => `The roles of user ${keyAt(path, 2)} are ${shown(value)}, not an array.`, 'Write "roles": ["EMPLOYEE"].'),
      limit(MAX_POLICY_TEST_ROLES, (path) => `Roles of user ${keyAt(path, 2)}`, 'Give the user fewer roles.'),
    ),
    attributes: (value, path, issues) => value === undefined || userAttributesShape(value, path, issues),
  },
  notObject((path) => `User ${keyAt(path)}`, 'Write { "id": 1, "roles": ["EMPLOYEE"] }.'),
  (path) => `user ${keyAt(path)}`,
  ['id', 'roles', 'attributes'],
);

const usersShape = record(
  // The name is checked as well as the user: both are told.
  (user, path, issues) => [printableName('user')(String(path.at(-1)), path, issues), userShape(user, path, issues)].every(Boolean),
  notObject(() => 'Field "users"', 'Write "users": { "alice": { "id": 1, "roles": ["EMPLOYEE"] } }.'),
  limit(MAX_POLICY_TEST_USERS, () => 'Users in one file', 'Split the tests over several files.'),
);

const ownershipShape = record(
  record(
    list(
      id(() => 'An owned id'),
      problem((value, path) => `The ids ${keyAt(path, 2)} owns for ${keyAt(path)} are ${shown(value)}, not an array.`, 'Write [1, 10].'),
      limit(MAX_POLICY_TEST_OWNED_IDS, (path) => `Ids ${keyAt(path, 2)} owns for ${keyAt(path)}`, 'List fewer ids.'),
    ),
    notObject((path) => `Ownership by ${keyAt(path)}`, 'Write { "alice": [1, 10] }: user name → owned ids.'),
  ),
  notObject(() => 'Field "ownership"', 'Write "ownership": { "isCreator": { "alice": [1, 10] } }.'),
);

/**
 * The fix of a record whose numeric `id` is what its `key` spells in another way (`"01"`, `" 1"`): the key is what to
 * change, for writing the id as the key would make it a string, no id of a resource whose ids are numbers.
 */
function keyFix(key: string, id: unknown): string | undefined {
  return typeof id === 'number' && isPolicyTestId(id) && key.trim() !== '' && Number(key) === id
    ? `Store the record under "${id}" instead, its id.`
    : undefined;
}

/** A record stands under its id, and carries it as its "id" (pick reads it there). */
const recordShape: Shape = both(
  valid(
    isObject,
    notObject((path) => `Record ${keyAt(path)} of ${keyAt(path, 2)}`, 'Write the record as an object with its "id".'),
  ),
  (value, path, issues) => {
    const item = value as Record<string, unknown>;
    const key = String(path.at(-1));
    const has = Object.hasOwn(item, 'id');
    if (has && isPolicyTestId(item['id']) && String(item['id']) === key) return true;
    return report(
      issues,
      has ? [...path, 'id'] : path,
      item['id'],
      problem(
        () =>
          `Record ${keyAt(path)} of ${keyAt(path, 2)} has ${has ? `the id ${shown(item['id'])}` : 'no "id"'}; ` +
          'pick reads a record’s id from its "id", which must be the key it stands under.',
        keyFix(key, item['id']) ?? `Write "id": ${/^(?:0|-?[1-9][0-9]*)$/.test(key) ? key : JSON.stringify(key)} in the record.`,
        'invalid-id',
      ),
    );
  },
);

const recordsNotObject = notObject(() => 'Field "records"', 'Write "records": { "document": { "1": { "id": 1, "title": "T" } } }.');

const recordsShape: Shape = both(
  valid(isObject, recordsNotObject),
  // The records of every resource count together: the limit is checked before any record is read.
  (value, path, issues) => {
    const count = Object.values(value as Record<string, unknown>).reduce<number>((sum, byId) => sum + (isObject(byId) ? Object.keys(byId).length : 0), 0);
    const { tooMany } = limit(MAX_POLICY_TEST_RECORDS, () => 'Records in one file', 'Split the tests over several files.');
    return count <= MAX_POLICY_TEST_RECORDS || report(issues, path, count, tooMany(count, []));
  },
  record(
    record(
      recordShape,
      notObject((path) => `The records of ${keyAt(path)}`, 'Write { "1": { "id": 1, "title": "T" } }: id → record.'),
    ),
    recordsNotObject,
  ),
);

const attributesList = list(
  () => true,
  problem((value) => `The test's attributes are ${shown(value)}, not an array.`, 'Write "attributes": ["id", "title"].'),
  limit(MAX_POLICY_TEST_ATTRIBUTES, () => 'Attributes of one test', 'Name fewer attributes.'),
);

/** Attribute names, each once. */
const attributesShape: Shape = both(attributesList, (value, path, issues) => {
  const seen = new Set<string>();
  let ok = true;
  (value as unknown[]).forEach((attribute, i) => {
    if (typeof attribute !== 'string')
      ok = report(
        issues,
        [...path, i],
        attribute,
        problem(() => `An attribute is ${shown(attribute)}, not a name.`, 'Write attribute names as strings.'),
      );
    else if (seen.has(attribute))
      ok = report(
        issues,
        [...path, i],
        attribute,
        problem(() => `Attribute ${quoteForMessage(attribute)} is named twice.`, 'Name each attribute once.'),
      );
    else seen.add(attribute);
  });
  return ok;
});

/** A tenant id, by the rule every question follows. */
const tenantShape: Shape = valid(
  (value) => tenantIdProblem(value) === undefined,
  problem((value) => `The tenant ${shown(value)} ${tenantIdProblem(value) ?? ''}.`, 'Write a tenant id: 1 to 256 printable characters.', 'invalid-name'),
);

const tenantsNotObject = notObject(() => 'Field "tenants"', 'Write "tenants": { "acme": { "definitions": [ … ] } }.');

/** Tenants by id, each with a document of custom roles (its content is checked against the policy, with the references). */
const tenantsShape: Shape = both(
  valid(isObject, tenantsNotObject),
  record(
    () => true,
    tenantsNotObject,
    limit(MAX_POLICY_TEST_TENANTS, () => 'Tenants in one file', 'Split the tests over several files.'),
  ),
  (value, path, issues) => {
    let ok = true;
    for (const tenant of Object.keys(value as object)) ok = tenantShape(tenant, [...path, tenant], issues) && ok;
    return ok;
  },
);

const testName = (field: string): Shape<string> =>
  valid(
    (value) => typeof value === 'string' && value !== '',
    problem((value) => `The test's ${field} is ${shown(value)}, not a name.`, `Write "${field}" as a non-empty string.`),
  );

const position = (field: string): Shape<number> =>
  valid(
    isPositiveInteger,
    problem((value) => `The test's ${field} is ${shown(value)}, not a positive integer.`, 'Compile the tests again.'),
  );

const testShape = fieldsOf(
  {
    user: testName('user'),
    action: testName('action'),
    resource: testName('resource'),
    resourceId: (value, path, issues) => value === undefined || id(() => "The test's resourceId")(value, path, issues),
    expect: valid(
      (value) => (POLICY_TEST_EXPECTATIONS as readonly unknown[]).includes(value),
      problem((value) => `The test expects ${shown(value)}.`, 'Write "expect": "granted" or "expect": "denied".'),
    ),
    line: position('line'),
    column: position('column'),
    attributes: (value, path, issues) => value === undefined || attributesShape(value, path, issues),
    tenant: (value, path, issues) => value === undefined || tenantShape(value, path, issues),
  },
  notObject(() => 'A test', 'Write { "user": "alice", "action": "read", "resource": "document", "expect": "granted" }.'),
  () => 'a test',
  ['user', 'action', 'resource', 'resourceId', 'expect', 'attributes', 'tenant', 'line', 'column'],
);

const testsNotArray = problem((value) => `Field "tests" is ${shown(value)}, not an array.`, 'Write "tests": [{ "user": "alice", "action": "read", … }].');

const testsShape: Shape = both(
  valid(Array.isArray, testsNotArray),
  // A file without tests would make a run of nothing look like a pass.
  valid(
    (value) => (value as unknown[]).length > 0,
    problem(() => 'The file has no tests: "tests" is empty, so it checks nothing.', 'Add a test to "tests", or remove the file.', 'no-tests'),
  ),
  list(
    testShape,
    testsNotArray,
    limit(MAX_POLICY_TESTS_PER_FILE, () => 'Tests in one file', 'Split the tests over several files.'),
  ),
);

/** The shape of one normalized test file. */
const testFileShape = fieldsOf(
  {
    file: valid(
      (value) => typeof value === 'string' && value !== '',
      problem((value) => `The file name is ${shown(value)}.`, 'Compile the tests again.'),
    ),
    users: usersShape,
    ownership: ownershipShape,
    records: recordsShape,
    tenants: (value, path, issues) => value === undefined || tenantsShape(value, path, issues),
    tests: testsShape,
  },
  notObject(() => 'The test file', 'Write { "users": {…}, "tests": […] }.'),
  () => 'a test file',
  ['file', 'users', 'ownership', 'records', 'tenants', 'tests'],
);

/** The issues of `shape` on `value`, as problems of `file`. */
function problemsOf(shape: Shape, value: unknown, file: string): PolicyTestProblem[] {
  return issuesOf(shape, value).map(({ path, code, message, fix }) => ({ file, path, code: code as PolicyTestProblemCode, message, fix: fix as string }));
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
  return problemsOf(testFileShape, value, file);
}

/** The shape of a bundle's `"tests"` up to its files (each file is checked on its own, its problems under its name). */
const testsObjectShape = fieldsOf(
  {
    format: valid(
      (value) => value === 1,
      problem((value) => `The tests have format ${shown(value)}, not 1.`, 'Compile them with this version of typed-permissions.'),
    ),
    files: both(
      valid(
        Array.isArray,
        problem((value) => `The tests' files are ${shown(value)}, not an array.`, 'Compile the tests again.'),
      ),
      // "tests" with no file would have a version pass as tested when nothing checked it.
      valid(
        (value) => (value as unknown[]).length > 0,
        problem(
          () => 'The tests hold no test file, so they check nothing.',
          'Compile the policy again: a definitions folder without test files gives a bundle without "tests".',
          'no-tests',
        ),
      ),
    ),
  },
  problem((value) => `The tests are ${shown(value)}, not an object { format, files }.`, 'Compile the tests again.'),
  () => 'the tests',
  ['format', 'files'],
);

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
  const problems = problemsOf(testsObjectShape, value, 'tests');
  const files = isObject(value) ? value['files'] : undefined;
  if (!Array.isArray(files) || files.length === 0) return problems;
  if (files.length > MAX_POLICY_TEST_FILES) {
    const past = files[MAX_POLICY_TEST_FILES] as unknown;
    const name = isObject(past) && typeof past['file'] === 'string' ? past['file'] : `files[${MAX_POLICY_TEST_FILES}]`;
    problems.push({
      file: name,
      path: [],
      code: 'too-large',
      message: `Test files in one policy: ${files.length}, more than the limit of ${MAX_POLICY_TEST_FILES}.`,
      fix: 'Merge test files.',
    });
    return problems;
  }
  let total = 0;
  const definitions = new TenantDefinitionCount();
  files.forEach((file: unknown, i) => {
    const fileProblems = policyTestFileShapeProblems(file, `files[${i}]`);
    problems.push(...fileProblems);
    const count = isObject(file) && Array.isArray(file['tests']) ? file['tests'].length : 0;
    if (fileProblems.length === 0 && total + count > MAX_POLICY_TESTS)
      problems.push(policyTestsLimitProblem(String((file as { file: string }).file), MAX_POLICY_TESTS - total));
    total += count;
    if (fileProblems.length === 0) problems.push(...definitions.add(file as { file: string; tenants?: Record<string, unknown> }));
  });
  return problems;
}

/**
 * The custom-role definitions of the tenants of a policy's test files, counted file by file before any is built:
 * past {@link MAX_POLICY_TEST_TENANT_DEFINITIONS}, one problem at the first tenant's definition past it.
 */
class TenantDefinitionCount {
  private total = 0;

  /** Counts the definitions of `file`'s tenants; the problem of the first past the limit, or none. */
  add(file: { readonly file: string; readonly tenants?: Readonly<Record<string, unknown>> }): PolicyTestProblem[] {
    if (this.total > MAX_POLICY_TEST_TENANT_DEFINITIONS) return [];
    for (const [tenant, document] of Object.entries(file.tenants ?? {})) {
      const { definitions = [], path } = definitionsArrayOf(document);
      const left = MAX_POLICY_TEST_TENANT_DEFINITIONS - this.total;
      this.total += definitions.length;
      if (definitions.length > left)
        return [
          {
            file: file.file,
            path: ['tenants', tenant, ...path, left],
            code: 'too-large',
            message: `Custom-role definitions of the tenants of one policy's tests: more than the limit of ${MAX_POLICY_TEST_TENANT_DEFINITIONS}.`,
            fix: 'Give the tenants fewer definitions (a test needs only the roles it asks about), or remove tenants no test names.',
          },
        ];
    }
    return [];
  }
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
