/**
 * The shape of ownership declarations in a `*.resource.json` value: each wrong node gets one exact problem at its
 * path, and every limit (nesting depth, conditions per rule, literals per list, relations per path, declarations
 * per file) is accepted at its value and refused one past it. Hostile nesting is refused without recursion.
 */
import { describe, expect, it } from '@jest/globals';
import { validateResourceMetadata } from '../../runtime/core/definition/resource-metadata-schema.js';
import { OWNERSHIP_LIMITS } from '../../runtime/core/ownership-rules/ownership-rule.js';

const CONDITION_FIX =
  'Write { "attribute": "creatorId", "equals": { "user": "id" } }, { "attribute": "companyId", "equals": { "tenant": "id" } }, ' +
  '{ "attribute": "status", "in": ["draft"] }, ' +
  '{ "attribute": "creatorId", "in": { "user": "managedUserIds" } }, { "all": [ … ] } or { "any": [ … ] }.';
const FORM_MESSAGE = 'A condition must be one of: { "attribute", "equals" }, { "attribute", "in" }, { "all" } or { "any" }, with no other field.';
const LITERAL_FIX = 'List strings, finite numbers or booleans, all of one kind: ["draft", "review"].';
const PATH_FIX = 'Name a declared attribute ("creatorId"), or a path through declared relations ("creator.companyId").';
const USER_FIX = 'Write { "user": "id" }, naming a user attribute declared in "userAttributes".';
const EQUALS_FIX = 'Write { "user": "id" } for a user attribute declared in "userAttributes", or { "tenant": "id" } for the id of the tenant asked in.';
const EQUALS_MESSAGE = 'The value of "equals" is written { "user": "<name>" } or { "tenant": "id" }.';

const EQUALS = { attribute: 'creatorId', equals: { user: 'id' } };

function problemsOf(fields: Record<string, unknown>): unknown {
  const checked = validateResourceMetadata({ resource: 'document', idType: 'number', attributes: ['id', 'creatorId'], ...fields });
  return checked.ok ? [] : checked.problems;
}

/** A rule nesting `all` `depth` levels deep around one comparison. */
function nested(depth: number): unknown {
  let rule: unknown = EQUALS;
  for (let i = 0; i < depth; i += 1) rule = { all: [rule] };
  return rule;
}

/** A record of `count` entries named a0, a1, … */
function named<T>(count: number, value: T): Record<string, T> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`a${i}`, value]));
}

describe('the shape of ownership rules', () => {
  it('accepts each form of condition', () => {
    expect(
      problemsOf({
        relations: { creator: { resource: 'user', on: 'creatorId' } },
        userAttributes: { id: 'number', companyId: 'number', managedUserIds: 'number[]' },
        ownership: {
          creator: EQUALS,
          draft: { attribute: 'status', in: ['draft', 'review'] },
          managed: { attribute: 'creatorId', in: { user: 'managedUserIds' } },
          sameCompany: { attribute: 'creator.companyId', equals: { user: 'companyId' } },
          ofTenant: { attribute: 'companyId', equals: { tenant: 'id' } },
          creatorOfTenant: { attribute: 'creator.companyId', equals: { tenant: 'id' } },
          nothing: { attribute: 'status', in: [] },
          both: { any: [EQUALS, { all: [EQUALS, { attribute: 'personal', in: [true] }] }] },
        },
      }),
    ).toEqual([]);
  });

  it.each([
    ['a node with a missing field', { attribute: 'creatorId' }, [{ path: ['ownership', 'r'], message: FORM_MESSAGE, fix: CONDITION_FIX }]],
    ['a node with an extra field', { ...EQUALS, in: [1] }, [{ path: ['ownership', 'r'], message: FORM_MESSAGE, fix: CONDITION_FIX }]],
    ['a node that is not an object', [EQUALS], [{ path: ['ownership', 'r'], message: FORM_MESSAGE, fix: CONDITION_FIX }]],
    [
      'an empty "all"',
      { all: [] },
      [
        {
          path: ['ownership', 'r', 'all'],
          message: 'Field "all" must be a non-empty array of conditions.',
          fix: 'Write { "all": [ { "attribute": "creatorId", "equals": { "user": "id" } }, … ] }.',
        },
      ],
    ],
    [
      'a nested node that is wrong, at its own path',
      { any: [EQUALS, { all: [EQUALS, { attribute: 'x', equals: 'id' }] }] },
      [{ path: ['ownership', 'r', 'any', 1, 'all', 1, 'equals'], message: EQUALS_MESSAGE, fix: EQUALS_FIX }],
    ],
    [
      'an "equals" of a misspelt "tenant"',
      { attribute: 'companyId', equals: { tenat: 'id' } },
      [{ path: ['ownership', 'r', 'equals'], message: `${EQUALS_MESSAGE} Did you mean "tenant"?`, fix: EQUALS_FIX }],
    ],
    [
      'an "equals" of both the user and the tenant',
      { attribute: 'companyId', equals: { user: 'id', tenant: 'id' } },
      [{ path: ['ownership', 'r', 'equals'], message: EQUALS_MESSAGE, fix: EQUALS_FIX }],
    ],
    [
      'a tenant value other than its id',
      { attribute: 'companyId', equals: { tenant: 'ID' } },
      [
        {
          path: ['ownership', 'r', 'equals', 'tenant'],
          message: 'A rule reads the tenant\'s id only: write { "tenant": "id" }, not "ID". Did you mean "id"?',
          fix: 'Write { "tenant": "id" }.',
        },
      ],
    ],
    [
      'a tenant value that is not a string',
      { attribute: 'companyId', equals: { tenant: 1 } },
      [
        {
          path: ['ownership', 'r', 'equals', 'tenant'],
          message: 'A rule reads the tenant\'s id only: write { "tenant": "id" }, not a value that is not a string.',
          fix: 'Write { "tenant": "id" }.',
        },
      ],
    ],
    [
      'an "in" of the tenant',
      { attribute: 'companyId', in: { tenant: 'id' } },
      [
        {
          path: ['ownership', 'r', 'in'],
          message: '"in" cannot read the tenant: the tenant is one id, not a list. Compare with "equals": { "tenant": "id" }.',
          fix: 'Write { "attribute": "companyId", "equals": { "tenant": "id" } }.',
        },
      ],
    ],
    [
      'an attribute that is not a name',
      { attribute: 'creator id', equals: { user: 'id' } },
      [
        {
          path: ['ownership', 'r', 'attribute'],
          message: 'Attribute path "creator id": "creator id" must start with a letter or "_" and hold only letters, digits and "_".',
          fix: PATH_FIX,
        },
      ],
    ],
    [
      'a path with an empty step',
      { attribute: 'creator..companyId', equals: { user: 'id' } },
      [
        {
          path: ['ownership', 'r', 'attribute'],
          message: 'Attribute path "creator..companyId": "" must start with a letter or "_" and hold only letters, digits and "_".',
          fix: PATH_FIX,
        },
      ],
    ],
    [
      '"__proto__" as a user attribute',
      { attribute: 'creatorId', equals: { user: '__proto__' } },
      [
        {
          path: ['ownership', 'r', 'equals', 'user'],
          message: 'User attribute "__proto__" is reserved: it is the prototype of every JavaScript object.',
          fix: USER_FIX,
        },
      ],
    ],
    [
      'literals of several kinds, and one that is not a literal',
      { attribute: 'status', in: ['draft', 1, null] },
      [
        { path: ['ownership', 'r', 'in', 1], message: 'An "in" list holds values of one kind: this number follows a string.', fix: LITERAL_FIX },
        { path: ['ownership', 'r', 'in', 2], message: 'An "in" list holds only strings, finite numbers and booleans.', fix: LITERAL_FIX },
      ],
    ],
    [
      'a number that is not finite',
      { attribute: 'status', in: [Number.POSITIVE_INFINITY] },
      [{ path: ['ownership', 'r', 'in', 0], message: 'An "in" list holds only strings, finite numbers and booleans.', fix: LITERAL_FIX }],
    ],
    // PERMISSIONS.md showed "\u202Eevil" as " evil": a rule read as another.
    [
      'text with a character that does not show',
      { attribute: 'status', in: ['draft', 'a\nb', '\u202Eevil', '\u200Bx', 'a\uD800'] },
      [1, 2, 3, 4].map((index) => ({
        path: ['ownership', 'r', 'in', index],
        message:
          `The "in" list value ${JSON.stringify(['', 'a\\u000ab', '\\u202eevil', '\\u200bx', 'a\\ud800'][index])} ` +
          'holds a control, format or line-separator character, which does not show.',
        fix: 'Write the value with characters that show.',
      })),
    ],
  ])('refuses %s', (_what, rule, problems) => {
    expect(problemsOf({ ownership: { r: rule } })).toEqual(problems);
  });

  it('refuses a relation, a user attribute type and a rule name that are wrong, each at its path', () => {
    expect(
      problemsOf({
        relations: { creator: { resource: 'user' }, 'bad name': { resource: 'user', on: 'creatorId' } },
        userAttributes: { id: 'integer' },
        ownership: JSON.parse('{ "__proto__": { "attribute": "creatorId", "equals": { "user": "id" } } }') as unknown,
      }),
    ).toEqual([
      {
        path: ['relations', 'creator', 'on'],
        message: 'Field "on" of a relation must name an attribute of this resource.',
        fix: 'Write "relations": { "creator": { "resource": "user", "on": "creatorId" } }, or leave it out.',
      },
      {
        path: ['userAttributes', 'id'],
        message: 'A user attribute\'s type must be one of "string", "number", "boolean", "string[]", "number[]".',
        fix: 'Write "userAttributes": { "id": "number", "managedUserIds": "number[]" }, or leave it out.',
      },
      {
        path: ['relations', 'bad name'],
        message: 'The relation name "bad name" must start with a letter or "_" and hold only letters, digits and "_".',
        fix: 'Name the relation with letters, digits and "_", starting with a letter.',
      },
      {
        path: ['ownership', '__proto__'],
        message: 'The ownership rule name "__proto__" is reserved: it is the prototype of every JavaScript object.',
        fix: 'Name the ownership rule with letters, digits and "_", starting with a letter.',
      },
    ]);
  });

  it(`accepts ${OWNERSHIP_LIMITS.maxDepth} levels of nesting and refuses ${OWNERSHIP_LIMITS.maxDepth + 1}`, () => {
    expect(problemsOf({ ownership: { r: nested(OWNERSHIP_LIMITS.maxDepth) } })).toEqual([]);
    expect(problemsOf({ ownership: { r: nested(OWNERSHIP_LIMITS.maxDepth + 1) } })).toEqual([
      {
        path: ['ownership', 'r', 'all', 0, 'all', 0, 'all', 0, 'all', 0, 'all', 0, 'all', 0, 'all', 0, 'all', 0],
        message: 'The rule nests "all" and "any" more than 8 levels deep.',
        fix: 'Flatten the rule: an "all" inside an "all" (or an "any" inside an "any") can be one list.',
      },
    ]);
  });

  it('refuses hostile nesting 100,000 levels deep with the same one problem, without exhausting the stack', () => {
    const problems = problemsOf({ ownership: { r: nested(100_000) } }) as readonly { message: string }[];
    expect(problems.map((problem) => problem.message)).toEqual(['The rule nests "all" and "any" more than 8 levels deep.']);
  });

  it(`accepts ${OWNERSHIP_LIMITS.maxNodes} conditions in a rule and refuses ${OWNERSHIP_LIMITS.maxNodes + 1}`, () => {
    // One "any" node and its children: 1 + (maxNodes - 1) nodes, then one more.
    const rule = (children: number) => ({ any: Array.from({ length: children }, () => EQUALS) });
    expect(problemsOf({ ownership: { r: rule(OWNERSHIP_LIMITS.maxNodes - 1) } })).toEqual([]);
    expect(problemsOf({ ownership: { r: rule(OWNERSHIP_LIMITS.maxNodes) } })).toEqual([
      {
        path: ['ownership', 'r'],
        message: 'The rule has more than 64 conditions; at most 64 are allowed.',
        fix: 'Split the rule, or use an "in" list instead of many "any" branches.',
      },
    ]);
  });

  it(`accepts ${OWNERSHIP_LIMITS.maxInLiterals} literals in a list and refuses ${OWNERSHIP_LIMITS.maxInLiterals + 1}`, () => {
    const rule = (count: number) => ({ attribute: 'id', in: Array.from({ length: count }, (_, i) => i) });
    expect(problemsOf({ ownership: { r: rule(OWNERSHIP_LIMITS.maxInLiterals) } })).toEqual([]);
    expect(problemsOf({ ownership: { r: rule(OWNERSHIP_LIMITS.maxInLiterals + 1) } })).toEqual([
      {
        path: ['ownership', 'r', 'in'],
        message: 'The "in" list holds 101 values; at most 100 are allowed.',
        fix: 'Shorten the list, or keep the values in a list user attribute: { "user": "allowedIds" }.',
      },
    ]);
  });

  it(`accepts a path through ${OWNERSHIP_LIMITS.maxPathSteps} relations and refuses one through ${OWNERSHIP_LIMITS.maxPathSteps + 1}`, () => {
    expect(problemsOf({ ownership: { r: { attribute: 'a.b.c.id', equals: { user: 'id' } } } })).toEqual([]);
    expect(problemsOf({ ownership: { r: { attribute: 'a.b.c.d.id', equals: { user: 'id' } } } })).toEqual([
      {
        path: ['ownership', 'r', 'attribute'],
        message: 'Attribute path "a.b.c.d.id" goes through 4 relations; at most 3 are allowed.',
        fix: 'Shorten the path, or declare a relation that reaches the record in fewer steps.',
      },
    ]);
  });

  it.each([
    ['relations', 'relation', { resource: 'user', on: 'creatorId' }],
    ['userAttributes', 'user attribute', 'number'],
    ['ownership', 'ownership rule', EQUALS],
  ])(`accepts ${OWNERSHIP_LIMITS.maxDeclarations} entries in "%s" and refuses ${OWNERSHIP_LIMITS.maxDeclarations + 1}`, (field, what, value) => {
    expect(problemsOf({ [field]: named(OWNERSHIP_LIMITS.maxDeclarations, value) })).toEqual([]);
    expect(problemsOf({ [field]: named(OWNERSHIP_LIMITS.maxDeclarations + 1, value) })).toEqual([
      {
        path: [field],
        message: `Field "${field}" declares 65 ${what}s; at most 64 are allowed.`,
        fix: `Keep at most 64 ${what}s in one resource file.`,
      },
    ]);
  });
  it('accepts "tenantIdType" "string" and "number", and refuses another type or a misspelt field with a "did you mean"', () => {
    const rule = { ownership: { ofTenant: { attribute: 'creatorId', equals: { tenant: 'id' } } } };
    expect(problemsOf({ ...rule, tenantIdType: 'string' })).toEqual([]);
    expect(problemsOf({ ...rule, tenantIdType: 'number' })).toEqual([]);
    expect(problemsOf({ ...rule, tenantIdType: 'integer' })).toEqual([
      {
        path: ['tenantIdType'],
        message: 'Field "tenantIdType" must be "string" or "number".',
        fix: 'Write "tenantIdType": "number" when the records hold the tenant id in a number column, or leave it out (a string).',
      },
    ]);
    expect(problemsOf({ ...rule, tenantIDType: 'number' })).toEqual([
      {
        path: ['tenantIDType'],
        message: 'Unknown field "tenantIDType" in resource metadata. Did you mean "tenantIdType"?',
        fix: 'Use only "resource", "idType", "attributes", "actions", "ownedAmong", "relations", "userAttributes", "ownership" and "tenantIdType".',
      },
    ]);
  });
});
