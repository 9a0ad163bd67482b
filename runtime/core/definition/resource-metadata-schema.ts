/**
 * The zod schema of a `*.resource.json` metadata file (a resource's id type, declared attributes, declared
 * actions, ownedAmong executor, and its ownership declarations: relations, user attributes and rules) and the check
 * of a parsed file against it. The compiler validates metadata
 * files and emits `resource.schema.json` from this one schema. Made from zod when first asked for
 * (`loadZod`): nothing here loads zod at import.
 */
import type { core as ZodCore } from 'zod';
import { kindOf } from './definitions-file-schema.js';
import { DECLARED_ACTIONS_FIX, DECLARED_ACTIONS_MESSAGE, declaredActionsProblems, MAX_DECLARED_ACTIONS } from './declared-actions.js';
import { attributeNameProblem } from './declared-attributes.js';
import { hookNameProblem, MAX_NAME_LENGTH, nameProblem } from './names.js';
import { quoteForMessage } from '../common/printable-text.js';
import { loadZod, type ZodModule } from './zod-loader.js';
import {
  OWNERSHIP_FIELD_FIXES,
  ownershipNamesProblems,
  ownershipSchema,
  relationsSchema,
  TENANT_ID_TYPE_FIX,
  tenantIdTypeSchema,
  userAttributesSchema,
} from '../ownership-rules/ownership-metadata-schema.js';
import { didYouMean } from '../common/nearest-name.js';

/** A problem of a metadata file: where in it, what, and how to fix it. */
export interface ResourceMetadataProblem {
  /** Path inside the file's value: `['idType']`, `['attributes', 2]`, or `[]` for the value as a whole. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESOURCE_MESSAGE = 'Field "resource" must name one resource.';
const ATTRIBUTES_MESSAGE = 'Field "attributes" must be an array of attribute names.';

/** The fix of a problem with the value as a whole. */
const WHOLE_FIX = 'Write { "resource": "document", "idType": "number", "attributes": ["id", "title"] }.';
/** The fix of a problem with each field, unless the problem brings its own. */
const FIXES: Readonly<Record<string, string>> = {
  $schema: 'Write "$schema": "../generated/resource.schema.json", or leave it out.',
  resource: 'Write "resource": "document".',
  idType: 'Write "idType": "number" for numeric ids, "string" for uuids and slugs.',
  attributes: 'Write "attributes": ["id", "title", "address.city"], or leave it out.',
  actions: DECLARED_ACTIONS_FIX,
  ownedAmong: 'Name the method of the ownership service that runs a limitOwned filter over given ids, for example "ownedDocumentsAmong".',
  ...OWNERSHIP_FIELD_FIXES,
  tenantIdType: TENANT_ID_TYPE_FIX,
};
const UNKNOWN_FIELD_FIX =
  'Use only "resource", "idType", "attributes", "actions", "ownedAmong", "relations", "userAttributes", "ownership" and "tenantIdType".';

/** One resource, named as its definitions name it: printable and bounded, and not `*` (every resource, in a definition): metadata describe one. */
function resourceSchema(z: ZodModule) {
  return z
    .string({ error: RESOURCE_MESSAGE })
    .min(1, { error: RESOURCE_MESSAGE })
    .superRefine((value, ctx) => {
      if (value === '*') ctx.addIssue({ code: 'custom', message: RESOURCE_MESSAGE, input: value });
      const problem = value.length === 0 || value === '*' ? undefined : nameProblem(value);
      if (problem !== undefined)
        ctx.addIssue({
          code: 'custom',
          message: `The resource name ${quoteForMessage(value)} ${problem}.`,
          input: value,
          params: { fix: `Name the resource with printable text of at most ${MAX_NAME_LENGTH} characters, as its definitions do.` },
        });
    });
}

/** An attribute name, dotted for nested ones: what an attribute pattern without `*` or `!` names. */
function attributeSchema(z: ZodModule) {
  return z
    .string({ error: ATTRIBUTES_MESSAGE })
    .min(1, { error: ATTRIBUTES_MESSAGE })
    .superRefine((value, ctx) => {
      if (value.length === 0) return;
      const problem = attributeNameProblem(value);
      if (problem !== undefined)
        ctx.addIssue({
          code: 'custom',
          message: problem,
          input: value,
          params: { fix: 'List attribute names, dotted for nested ones ("address.city"), without "*" or "!".' },
        });
    });
}

/**
 * The declared actions: zod checks the types (with the message of the shared rule) and says to editors what it
 * can (non-empty, bounded, unique, no `*` and no possession); the shared rule of `declared-actions.ts` says the rest.
 */
function actionsSchema(z: ZodModule) {
  return z
    .array(z.string({ error: DECLARED_ACTIONS_MESSAGE }).meta({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: '^(?!\\*$)[^:\\s]+$' }), {
      error: DECLARED_ACTIONS_MESSAGE,
    })
    .meta({ minItems: 1, maxItems: MAX_DECLARED_ACTIONS, uniqueItems: true })
    .superRefine((value, ctx) => {
      for (const { path, message, fix } of declaredActionsProblems(value))
        ctx.addIssue({ code: 'custom', message, input: value, path: [...path], params: { fix } });
    });
}

/** The ownedAmong executor: a method name a hook could have (the regular expression is what editors see; hookNameProblem says why). */
function ownedAmongSchema(z: ZodModule) {
  return z
    .string({ error: 'Field "ownedAmong" must be a method name.' })
    .regex(IDENTIFIER, { error: (issue) => `Field "ownedAmong" ${hookNameProblem(String(issue.input))}.` })
    .superRefine((value, ctx) => {
      const problem = IDENTIFIER.test(value) ? hookNameProblem(value) : undefined;
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `Field "ownedAmong" ${problem}.`, input: value });
    });
}

function buildResourceMetadataSchema(z: ZodModule) {
  return z.strictObject(
    {
      // Checked as in a definitions file: a $schema that is not a string is a mistake an editor cannot follow either.
      $schema: z
        .string({ error: (issue) => `Field "$schema" holds ${kindOf(issue.input)}; it must be a string (the path or URL of the JSON Schema).` })
        .optional(),
      resource: resourceSchema(z).describe('The resource these metadata describe.'),
      idType: z.enum(['number', 'string'], { error: 'Field "idType" must be "number" or "string".' }).describe('The type of the resource ids.'),
      attributes: z
        .array(attributeSchema(z), { error: ATTRIBUTES_MESSAGE })
        .optional()
        .describe('The attribute names (dotted for nested) that attribute patterns may name.'),
      actions: actionsSchema(z)
        .optional()
        .describe("The resource's actions: grants may name only these, and '*' expands to them. Without it, any action is accepted."),
      ownedAmong: ownedAmongSchema(z)
        .optional()
        .describe('The ownership-service method that runs a limitOwned filter over given ids: with it, definitions need no isOwner with limitOwned.'),
      relations: relationsSchema(z).optional(),
      userAttributes: userAttributesSchema(z).optional(),
      ownership: ownershipSchema(z).optional(),
      tenantIdType: tenantIdTypeSchema(z).optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'Resource metadata must be an object.' : undefined) },
  );
}

let schema: ReturnType<typeof buildResourceMetadataSchema> | undefined;

/**
 * The schema of a `*.resource.json` file, made once, on first use.
 *
 * @example
 * ```ts
 * z.toJSONSchema(resourceMetadataSchema(), { target: 'draft-2020-12' });
 * ```
 */
export function resourceMetadataSchema(): ReturnType<typeof buildResourceMetadataSchema> {
  schema ??= buildResourceMetadataSchema(loadZod());
  return schema;
}

/** A valid metadata file, as the schema returns it. */
export type ResourceMetadataFile = ZodCore.output<ReturnType<typeof buildResourceMetadataSchema>>;

/**
 * The problems of zod's issues: an unknown field each on its own; a wrong type once per field, at
 * the field (an attribute list with three numbers is one mistake); a problem with one name where it stands.
 */
function problemsOf(issues: readonly ZodCore.$ZodIssue[]): ResourceMetadataProblem[] {
  const unknown: ResourceMetadataProblem[] = [];
  const fields: ResourceMetadataProblem[] = [];
  const typeProblemAt = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        unknown.push({
          path: [key],
          message: `Unknown field ${quoteForMessage(key)} in resource metadata.${didYouMean(key, Object.keys(resourceMetadataSchema().shape))}`,
          fix: UNKNOWN_FIELD_FIX,
        });
      continue;
    }
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : '';
    const fix = FIXES[field] ?? WHOLE_FIX;
    if (issue.code === 'custom') {
      const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
      fields.push({ path, message: issue.message, fix: typeof issue.params?.['fix'] === 'string' ? issue.params['fix'] : fix });
    } else {
      // Inside the ownership fields a wrong type is one entry's (a relation, a user attribute), not the field's.
      const path = field in OWNERSHIP_FIELD_FIXES ? issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol') : [field];
      const key = JSON.stringify(path);
      if (typeProblemAt.has(key)) continue;
      typeProblemAt.add(key);
      fields.push({ path: field === '' ? [] : path, message: issue.message, fix });
    }
  }
  return [...unknown, ...fields];
}

/**
 * Checks a parsed `*.resource.json` value against {@link resourceMetadataSchema}.
 *
 * @example
 * ```ts
 * validateResourceMetadata({ resource: 'document', idType: 'uuid' });
 * // { ok: false, problems: [{ path: ['idType'], message: 'Field "idType" must be "number" or "string".', fix: … }] }
 * ```
 */
export function validateResourceMetadata(
  value: unknown,
): { readonly ok: true; readonly metadata: ResourceMetadataFile } | { readonly ok: false; readonly problems: readonly ResourceMetadataProblem[] } {
  const result = resourceMetadataSchema().safeParse(value);
  const names = ownershipNamesProblems(value);
  if (result.success && names.length === 0) return { ok: true, metadata: result.data };
  return { ok: false, problems: [...(result.success ? [] : problemsOf(result.error.issues)), ...names] };
}
