/**
 * The zod schemas of the ownership fields of a `*.resource.json` file — "relations", "userAttributes", "ownership"
 * and "tenantIdType" — which the resource metadata schema (`definition/resource-metadata-schema.ts`) includes. They take
 * the zod module as an argument, so that nothing here loads zod. A rule's shape is checked by the hand-written
 * parser (bounded, with exact messages); zod's recursive union after it is what editors see in the JSON Schema.
 */
import type * as Zod from 'zod';
import { quoteForMessage } from '../common/printable-text.js';
import {
  OWNERSHIP_LIMITS,
  TENANT_ID_TYPES,
  USER_ATTRIBUTE_TYPES,
  type OwnershipCondition,
  type RelationDeclaration,
  type TenantIdType,
  type UserAttributeType,
} from './ownership-rule.js';
import { ownershipConditionProblems, ownershipNameProblem, type OwnershipProblem } from './ownership-rule-parser.js';

type ZodModule = typeof Zod;

/** The fixes of the three fields, for problems that bring none of their own. */
export const OWNERSHIP_FIELD_FIXES = {
  relations: 'Write "relations": { "creator": { "resource": "user", "on": "creatorId" } }, or leave it out.',
  userAttributes: 'Write "userAttributes": { "id": "number", "managedUserIds": "number[]" }, or leave it out.',
  ownership: 'Write "ownership": { "creator": { "attribute": "creatorId", "equals": { "user": "id" } } }, or leave it out.',
} as const;

/** The singular of what each field declares, for messages. */
const DECLARED: Readonly<Record<keyof typeof OWNERSHIP_FIELD_FIXES, string>> = {
  relations: 'relation',
  userAttributes: 'user attribute',
  ownership: 'ownership rule',
};

/** A map of names to values: its names and size are checked on the raw value by {@link ownershipNamesProblems}. */
function namedMap<Value extends Zod.ZodType>(z: ZodModule, field: keyof typeof OWNERSHIP_FIELD_FIXES, value: Value) {
  return z
    .record(z.string(), value, { error: `Field "${field}" must be an object of ${DECLARED[field]}s by name.` })
    .meta({ maxProperties: OWNERSHIP_LIMITS.maxDeclarations, propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' } });
}

/**
 * The problems of the names the three fields declare, and of their number (at most 64 each), read from the raw
 * value: zod drops a `"__proto__"` key without a word, and a wrong entry would hide a wrong name from a refinement.
 *
 * @example
 * ```ts
 * ownershipNamesProblems({ relations: { 'bad name': { resource: 'user', on: 'creatorId' } } });
 * // [{ path: ['relations', 'bad name'], message: 'The relation name "bad name" must start with a letter or "_" …', fix: … }]
 * ```
 */
export function ownershipNamesProblems(value: unknown): OwnershipProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const problems: OwnershipProblem[] = [];
  for (const field of Object.keys(OWNERSHIP_FIELD_FIXES) as (keyof typeof OWNERSHIP_FIELD_FIXES)[]) {
    const map: unknown = Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    const what = DECLARED[field];
    const names = Object.keys(map);
    if (names.length > OWNERSHIP_LIMITS.maxDeclarations) {
      problems.push({
        path: [field],
        message: `Field "${field}" declares ${names.length} ${what}s; at most ${OWNERSHIP_LIMITS.maxDeclarations} are allowed.`,
        fix: `Keep at most ${OWNERSHIP_LIMITS.maxDeclarations} ${what}s in one resource file.`,
      });
      continue;
    }
    for (const name of names) {
      const problem = ownershipNameProblem(name);
      if (problem !== undefined)
        problems.push({
          path: [field, name],
          message: `The ${what} name ${quoteForMessage(name)} ${problem}.`,
          fix: `Name the ${what} with letters, digits and "_", starting with a letter.`,
        });
    }
    if (field === 'userAttributes') problems.push(...userFieldProblems(map as Record<string, unknown>));
  }
  return problems;
}

/**
 * The types the user's own fields have on every user: a rule may read them, declared as what they are. Another type
 * would make the generated user type ask for an id or roles no user can have (`roles` a number and a list at once).
 */
const USER_FIELD_TYPES: Readonly<Record<string, readonly string[]>> = { id: ['number', 'string'], roles: ['string[]'] };

function userFieldProblems(declared: Record<string, unknown>): OwnershipProblem[] {
  return Object.entries(USER_FIELD_TYPES).flatMap(([name, types]) => {
    const type = Object.hasOwn(declared, name) ? declared[name] : undefined;
    // A type that is none of the user attribute types is the schema's to say.
    if (!(USER_ATTRIBUTE_TYPES as readonly unknown[]).includes(type) || types.includes(type as string)) return [];
    const allowed = types.map((one) => `"${one}"`).join(' or ');
    return [
      {
        path: ['userAttributes', name],
        message:
          `User attribute ${quoteForMessage(name)} is the user's own ${name === 'id' ? 'id' : 'list of role names'}, ` +
          `declared ${typeof type === 'string' ? quoteForMessage(type) : 'as something else'}.`,
        fix: `Declare it ${allowed}, as every user holds it, or read an attribute of another name.`,
      },
    ];
  });
}

/**
 * "relations": to-one relations by name.
 *
 * @example
 * ```ts
 * relationsSchema(z).parse({ creator: { resource: 'user', on: 'creatorId' } });
 * ```
 */
export function relationsSchema(z: ZodModule) {
  const relation = z.strictObject(
    {
      resource: z
        .string({ error: 'Field "resource" of a relation must name a resource.' })
        .min(1, { error: 'Field "resource" of a relation must name a resource.' }),
      on: z
        .string({ error: 'Field "on" of a relation must name an attribute of this resource.' })
        .min(1, { error: 'Field "on" of a relation must name an attribute of this resource.' }),
    },
    { error: 'A relation is written { "resource": "<resource>", "on": "<attribute holding its id>" }.' },
  );
  return namedMap(z, 'relations', relation).describe(
    'To-one relations: the record\'s attribute "on" holds the id of one record of "resource", whose *.resource.json declares its attributes.',
  );
}

/**
 * "userAttributes": the user attributes the rules read, with their types.
 *
 * @example
 * ```ts
 * userAttributesSchema(z).parse({ id: 'number', managedUserIds: 'number[]' });
 * ```
 */
export function userAttributesSchema(z: ZodModule) {
  const type = z.enum(USER_ATTRIBUTE_TYPES as [UserAttributeType, ...UserAttributeType[]], {
    error: `A user attribute's type must be one of ${USER_ATTRIBUTE_TYPES.map((one) => `"${one}"`).join(', ')}.`,
  });
  return namedMap(z, 'userAttributes', type).describe(
    'The attributes of the user that ownership rules read, with their types: a scalar may be null at run time (it then equals nothing), ' +
      'a list is a list of values.',
  );
}

/** The fix of a "tenantIdType" that is neither type. */
export const TENANT_ID_TYPE_FIX = 'Write "tenantIdType": "number" when the records hold the tenant id in a number column, or leave it out (a string).';

/**
 * "tenantIdType": how the records hold the tenant id that `{ "tenant": "id" }` conditions compare with.
 *
 * @example
 * ```ts
 * tenantIdTypeSchema(z).parse('number');
 * ```
 */
export function tenantIdTypeSchema(z: ZodModule) {
  return z
    .enum(TENANT_ID_TYPES as [TenantIdType, ...TenantIdType[]], {
      error: `Field "tenantIdType" must be ${TENANT_ID_TYPES.map((one) => `"${one}"`).join(' or ')}.`,
    })
    .describe(
      'How the records hold the tenant id that { "tenant": "id" } conditions compare with: "string" (the default) compares the id as it is; ' +
        '"number" reads it as a canonical integer ("12", not "012" or "1e1"), and an id that is not one selects no record.',
    );
}

/** The recursive union editors see; the parser before it has already refused anything it would not accept. */
function conditionShape(z: ZodModule): Zod.ZodType<OwnershipCondition> {
  const user = z.strictObject({ user: z.string() });
  const tenant = z.strictObject({ tenant: z.literal('id') });
  const literal = z.union([z.string(), z.number(), z.boolean()]);
  const condition: Zod.ZodType<OwnershipCondition> = z.lazy(() =>
    z.union([
      z.strictObject({ attribute: z.string(), equals: z.union([user, tenant]) }),
      z.strictObject({ attribute: z.string(), in: z.union([z.array(literal).max(OWNERSHIP_LIMITS.maxInLiterals), user]) }),
      z.strictObject({ all: z.array(condition).min(1) }),
      z.strictObject({ any: z.array(condition).min(1) }),
    ]),
  );
  return condition;
}

/**
 * "ownership": named rules, each a condition.
 *
 * @example
 * ```ts
 * ownershipSchema(z).parse({ creator: { attribute: 'creatorId', equals: { user: 'id' } } });
 * ```
 */
export function ownershipSchema(z: ZodModule) {
  const rule = z
    .unknown()
    .superRefine((value, ctx) => {
      for (const { path, message, fix } of ownershipConditionProblems(value, []))
        ctx.addIssue({ code: 'custom', message, input: value, path: [...path], params: { fix } });
    })
    .pipe(conditionShape(z))
    .meta({ description: RULE_DESCRIPTION });
  return namedMap(z, 'ownership', rule).describe(
    "Named ownership rules: who owns a record, as a condition over its attributes, its relations' attributes and the user's attributes.",
  );
}

/** What editors show of a rule. */
const RULE_DESCRIPTION =
  'A condition: { "attribute", "equals": { "user" } or { "tenant": "id" } }, { "attribute", "in": [literals] or { "user" } }, ' +
  '{ "all": [conditions] } or { "any": [conditions] }. ' +
  '"attribute" names an attribute of the record, or a path through its relations ("creator.companyId").';

/** The three fields as a valid file holds them. */
export interface OwnershipDeclarations {
  readonly relations?: Readonly<Record<string, RelationDeclaration>> | undefined;
  readonly userAttributes?: Readonly<Record<string, UserAttributeType>> | undefined;
  readonly ownership?: Readonly<Record<string, OwnershipCondition>> | undefined;
  readonly tenantIdType?: TenantIdType | undefined;
}
