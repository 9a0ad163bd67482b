/**
 * The zod schema of a policy test file (`*.permissions.test.json`): the one description of its format, from
 * which the compiler checks each file (every problem with its path, so with its line and column) and emits
 * `permissions-test.schema.json` for editors. What a file names — users, ownership methods, resources,
 * actions, records — is checked afterwards, against the compiled policy (the runtime's reference check).
 */
import type { core as ZodCore } from 'zod';
import {
  loadZod,
  MAX_POLICY_TEST_USER_LIST,
  MAX_STRING_ID_LENGTH,
  POLICY_TEST_EXPECTATIONS,
  POLICY_TEST_ID_RULE,
  quoteForMessage,
  zodMaxRefused,
} from 'typed-permissions/internal';

type ZodModule = ReturnType<typeof loadZod>;

/** A problem of a test file's format: where in it, what, and how to fix it. */
export interface TestFileProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

const ID_MESSAGE = `an id must be ${POLICY_TEST_ID_RULE}`;

/**
 * An id. Its length is the runtime's, in UTF-16 code units: zod's `max` (which also reaches the emitted JSON Schema)
 * counts code points, and would let an id of 129 to 256 emoji through that the engine refuses.
 */
function idSchema(z: ZodModule) {
  const error = { error: ID_MESSAGE };
  const text = z
    .string(error)
    .min(1, error)
    .max(MAX_STRING_ID_LENGTH, error)
    .superRefine((value, ctx) => {
      // What zod's max refused is said once, by it.
      if (value.length > MAX_STRING_ID_LENGTH && !zodMaxRefused(value, MAX_STRING_ID_LENGTH))
        ctx.addIssue({ code: 'custom', message: ID_MESSAGE, input: value });
    });
  return z.union([z.int(error), text], error);
}

/** A value an ownership rule may read of a user: a string, finite number, boolean or null, or a list of strings or numbers. */
function userAttributeSchema(z: ZodModule) {
  const error = { error: 'a user attribute must be a string, a number, true, false, null, or a list of strings or numbers' };
  return z.union(
    [z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]), error).max(MAX_POLICY_TEST_USER_LIST, error)],
    error,
  );
}

function testSchema(z: ZodModule) {
  const name = (field: string) => z.string({ error: `"${field}" must be a name (a string)` }).min(1, { error: `"${field}" must not be empty` });
  return z
    .strictObject({
      user: name('user').describe('A user of "users".'),
      action: name('action').describe('The action asked.'),
      resource: name('resource').describe('The resource asked about.'),
      resourceId: idSchema(z).optional().describe('The record asked about; without it, the test asks about the resource as a whole.'),
      expect: z.enum(POLICY_TEST_EXPECTATIONS, { error: '"expect" must be "granted" or "denied"' }).describe('The decision the test expects.'),
      attributes: z
        .array(z.string({ error: 'an attribute must be a name (a string)' }), { error: '"attributes" must be an array of attribute names' })
        .optional()
        .describe('The exact set of top-level keys pick keeps of the record records[resource][resourceId].'),
      tenant: name('tenant').optional().describe('The tenant the question is asked in: one of "tenants", whose custom roles the user\'s roles may name.'),
    })
    .describe('One grant query and what it should decide.');
}

function buildTestFileSchema(z: ZodModule) {
  const user = z
    .strictObject({
      id: idSchema(z).describe('The user id a grant query carries.'),
      roles: z
        .array(z.string({ error: 'a role must be a name (a string)' }), { error: '"roles" must be an array of role names' })
        .describe("The user's roles."),
      attributes: z
        .record(z.string(), userAttributeSchema(z), { error: '"attributes" must be an object: attribute name → value' })
        .superRefine((attributes, ctx) => {
          for (const own of ['id', 'roles'])
            if (Object.hasOwn(attributes, own))
              ctx.addIssue({ code: 'custom', path: [own], message: `"${own}" is the user's own field: write it beside "attributes", not in it` });
        })
        .optional()
        .describe('What ownership rules read of the user besides its id, such as its company or the users it manages.'),
    })
    .describe('A user: id, roles, and the attributes ownership rules read.');
  return z.strictObject(
    {
      $schema: z.string({ error: '"$schema" must be a string (the path or URL of the JSON Schema)' }).optional(),
      users: z.record(z.string(), user, { error: '"users" must be an object: user name → { "id", "roles" }' }).describe('The users the tests name, by name.'),
      ownership: z
        .record(
          z.string(),
          z.record(z.string(), z.array(idSchema(z), { error: 'the owned ids must be an array of ids' }), {
            error: 'the ownership of a method must be an object: user name → owned ids',
          }),
          { error: '"ownership" must be an object: ownership method → user name → owned ids' },
        )
        .optional()
        .describe('Per ownership method the definitions name (isOwner, listOwned, limitOwned or ownedAmong) and per user: the ids that method owns.'),
      records: z
        .record(
          z.string(),
          z.record(z.string(), z.record(z.string(), z.unknown(), { error: 'a record must be an object' }), {
            error: 'the records of a resource must be an object: id → record',
          }),
          { error: '"records" must be an object: resource → id → record' },
        )
        .optional()
        .describe('Per resource and id: the records tests pick attributes from. Each carries its "id".'),
      tenants: z
        .record(z.string(), z.unknown(), { error: '"tenants" must be an object: tenant id → its custom roles { "definitions": [ … ] }' })
        .optional()
        .describe('Per tenant: its custom roles, { "definitions": [ … ] } as in a *.permissions.json file, checked against the policy.'),
      tests: z.array(testSchema(z), { error: '"tests" must be an array of tests' }).describe('The tests.'),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'a test file must be an object { "users", "ownership"?, "records"?, "tenants"?, "tests" }' : undefined,
    },
  );
}

let schema: ReturnType<typeof buildTestFileSchema> | undefined;

/**
 * The schema of a policy test file, made once, on first use.
 *
 * @example
 * ```ts
 * z.toJSONSchema(testFileSchema(), { target: 'draft-2020-12' });
 * ```
 */
export function testFileSchema(): ReturnType<typeof buildTestFileSchema> {
  schema ??= buildTestFileSchema(loadZod());
  return schema;
}

/** The fix of a problem, by the field it is in. */
function fixOf(path: readonly (string | number)[]): string {
  const field = path[0] === 'tests' ? path[2] : path[0];
  switch (field) {
    case undefined:
      return path[0] === 'tests'
        ? 'Write each test as { "user", "action", "resource", "resourceId"?, "expect", "attributes"?, "tenant"? }.'
        : 'Write { "users": {…}, "tests": […] }.';
    case 'users':
      return 'Write "users": { "alice": { "id": 1, "roles": ["EMPLOYEE"] } }.';
    case 'ownership':
      return 'Write "ownership": { "isCreator": { "alice": [1, 10] } }.';
    case 'records':
      return 'Write "records": { "document": { "1": { "id": 1, "title": "T" } } }.';
    case 'tenants':
      return 'Write "tenants": { "acme": { "definitions": [ … ] } }.';
    case 'tenant':
      return 'Write "tenant": one of "tenants".';
    case 'resourceId':
      return 'Write the id as the resource has it: 10, or "a1".';
    case 'expect':
      return 'Write "expect": "granted" or "expect": "denied".';
    case 'attributes':
      return 'Write "attributes": ["id", "title"].';
    case 'user':
      return 'Write "user": the name of one of "users".';
    case 'action':
      return 'Write "action": the action asked, such as "read".';
    case 'resource':
      return 'Write "resource": the resource asked about, such as "document".';
    case '$schema':
      return 'Write "$schema": "../generated/permissions-test.schema.json", or leave it out.';
    default:
      return typeof field === 'string'
        ? `Write "${field}" as the test file format says (see permissions-test.schema.json).`
        : 'Check the test against the format.';
  }
}

function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return text.endsWith('.') ? text : `${text}.`;
}

/** Each unknown field on its own; otherwise one problem per place (a union's failure is one mistake). */
function problemsOf(issues: readonly ZodCore.$ZodIssue[]): TestFileProblem[] {
  const problems: TestFileProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const [where, fields] =
        path.length === 0
          ? ['the test file', '"$schema", "users", "ownership", "records", "tenants" and "tests"']
          : path[0] === 'tests'
            ? ['a test', '"user", "action", "resource", "resourceId", "expect", "attributes" and "tenant"']
            : ['a user', '"id" and "roles"'];
      for (const key of issue.keys)
        problems.push({ path: [...path, key], message: `Unknown field ${quoteForMessage(key)} in ${where}.`, fix: `Use only ${fields}.` });
      continue;
    }
    const key = JSON.stringify(path);
    if (seen.has(key)) continue;
    seen.add(key);
    const missing = issue.code === 'invalid_type' && issue.input === undefined && path.length > 0;
    problems.push({ path, message: missing ? `Field "${String(path.at(-1))}" is missing.` : sentence(issue.message), fix: fixOf(path) });
  }
  return problems;
}

/**
 * Checks the parsed value of a test file against {@link testFileSchema}: its problems, none when its format is right.
 *
 * @example
 * ```ts
 * testFileProblems({ users: {}, tests: [{ user: 'a' }] });
 * // [{ path: ['tests', 0, 'action'], message: 'Field "action" is missing.', fix: … }, …]
 * ```
 */
export function testFileProblems(value: unknown): TestFileProblem[] {
  const result = testFileSchema().safeParse(value, { reportInput: true });
  return result.success ? [] : problemsOf(result.error.issues);
}
