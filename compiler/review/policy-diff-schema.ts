/**
 * The JSON Schema of `typed-permissions diff --format json`: one zod definition of {@link PolicyDiff}, from which
 * `docs/policy-diff.schema.json` is written (`policyDiffJsonSchema`), and which tests parse the command's output
 * with. A type check keeps the schema and the `PolicyDiff` type the same shape.
 */
import type { core as ZodCore } from 'zod';
import { loadZod } from 'typed-permissions/internal';
import type { PolicyDiff } from './policy-diff.js';

type ZodModule = ReturnType<typeof loadZod>;

function buildPolicyDiffSchema(z: ZodModule) {
  const names = z.array(z.string()).readonly();
  const possession = z.enum(['any', 'own']).describe('any: granted on every record; own: on the records the user owns.');
  const place = {
    role: z.string(),
    resource: z.string(),
    action: z.string(),
  };
  const nameChanges = z.strictObject({ added: names, removed: names }).readonly();
  const count = z.number().int().min(0);
  return z
    .strictObject({
      format: z.literal(1),
      before: z.string().describe('The first side, as named on the command line.'),
      after: z.string().describe('The second side, as named on the command line.'),
      roles: nameChanges,
      resources: nameChanges,
      actions: nameChanges,
      cells: z
        .array(
          z
            .strictObject({
              change: z.enum(['gained', 'lost']),
              ...place,
              possession,
              attributes: names.describe('The attribute patterns of the side that grants the cell.'),
              ownership: names.describe('For own cells, how ownership is decided ("rule <name>" or hook methods).'),
            })
            .readonly(),
        )
        .readonly()
        .describe('Every cell one side grants and the other does not.'),
      attributes: z
        .array(
          z
            .strictObject({
              ...place,
              possession,
              change: z.enum(['widened', 'narrowed', 'changed']),
              basis: z.enum(['declared', 'patterns']).describe('declared: added/removed are declared attributes; patterns: canonical patterns.'),
              added: names,
              removed: names,
              before: names,
              after: names,
              ownership: z.string().optional().describe('For an own cell of several ownership groups: the group whose records show other attributes.'),
            })
            .readonly(),
        )
        .readonly()
        .describe('Cells both sides grant whose visible attributes differ.'),
      ownership: z
        .array(
          z
            .strictObject({
              ...place,
              before: names.describe('The labels of the ownership groups ("rule <name>", or the hook method that names the group).'),
              after: names,
              added: names,
              removed: names,
              redefined: names.describe('Labels both sides have whose rule or hooks changed: the same name decides otherwise.'),
              definitionsBefore: names.describe('How each group decides, in full: the rule in words, or every hook by kind and name.'),
              definitionsAfter: names,
            })
            .readonly(),
        )
        .readonly()
        .describe('Own cells both sides grant whose ownership differs (another rule or hooks, or the same names redefined).'),
      declarations: z
        .array(
          z
            .strictObject({
              resource: z.string(),
              idType: z
                .strictObject({ before: z.string().nullable(), after: z.string().nullable() })
                .readonly()
                .optional()
                .describe('Its id type on each side (null: none declared); absent when the same.'),
              actions: z
                .strictObject({ before: names.nullable(), after: names.nullable(), added: names, removed: names })
                .readonly()
                .optional()
                .describe('The actions it declares on each side (null: none declared, any action may be asked); absent when the same.'),
            })
            .readonly(),
        )
        .readonly()
        .describe('Resources both sides have whose id type or declared actions differ.'),
      summary: z
        .strictObject({
          cellsGained: count,
          cellsLost: count,
          attributesWidened: count,
          attributesNarrowed: count,
          attributesChanged: count,
          ownershipChanged: count,
          declarationsChanged: count,
          rolesAdded: count,
          rolesRemoved: count,
          resourcesAdded: count,
          resourcesRemoved: count,
          actionsAdded: count,
          actionsRemoved: count,
          changed: z.boolean(),
        })
        .readonly(),
    })
    .readonly();
}

type PolicyDiffSchema = ReturnType<typeof buildPolicyDiffSchema>;

/** Both ways assignable: the schema's type and {@link PolicyDiff} are the same shape (checked by `tsc`). */
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameShape<ZodCore.output<PolicyDiffSchema>, PolicyDiff> = true;
void schemaMatchesType;

let schema: PolicyDiffSchema | undefined;

/**
 * The zod schema of a policy diff's JSON, made once, on first use.
 *
 * @example
 * ```ts
 * policyDiffSchema().parse(JSON.parse(output)); // a PolicyDiff, or a ZodError saying where it is not one
 * ```
 */
export function policyDiffSchema(): PolicyDiffSchema {
  schema ??= buildPolicyDiffSchema(loadZod());
  return schema;
}

/**
 * The JSON Schema (draft 2020-12) of a policy diff's JSON, as `docs/policy-diff.schema.json` holds it.
 *
 * @example
 * ```ts
 * writeFileSync('docs/policy-diff.schema.json', JSON.stringify(policyDiffJsonSchema(), null, 2));
 * ```
 */
export function policyDiffJsonSchema(): Record<string, unknown> {
  const z = loadZod();
  return {
    $comment: 'Generated by typed-permissions from its definition of a policy diff — do not edit.',
    title: 'typed-permissions policy diff (typed-permissions diff --format json)',
    ...z.toJSONSchema(policyDiffSchema(), { target: 'draft-2020-12' }),
  };
}
