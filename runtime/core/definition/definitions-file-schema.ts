/**
 * The zod schema of a definitions file's top level — a plain array of definitions, or
 * `{ "$schema"?: string, "definitions": [...] }` — and the check of a parsed file against it. The
 * runtime (`parseDefinitionsJson`) and the compiler decide a file's shape with this one schema, and
 * the compiler emits `definitions.schema.json` from it. Made from zod when first asked for
 * (`loadZod`): nothing here loads zod at import.
 */
import type { core as ZodCore, ZodType } from 'zod';
import { loadZod, type ZodModule } from './zod-loader.js';

/** A problem with the top level of a definitions file (its shape, not its definitions). */
export interface DefinitionsFileProblem {
  /** Path inside the file's value: `['rules']`, `['definitions']`, or `[]` for the value as a whole. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

/** The outcome of {@link definitionsOfFileValue}: the definitions (when there is an array) and every problem of the file's shape. */
export interface DefinitionsFileShape {
  readonly definitions: readonly unknown[] | undefined;
  /** Path of the definitions array inside the file's value: `[]` or `['definitions']`. */
  readonly path: readonly (string | number)[];
  readonly problems: readonly DefinitionsFileProblem[];
}

/** Makes the schema of each definition in the file, with the given zod. */
export type DefinitionItemSchema = (z: ZodModule) => ZodType;

const SHAPE_FIX = 'A definitions file holds a JSON array of definitions, or { "$schema"?: "…", "definitions": [...] }.';
const SCHEMA_FIX = 'Write "$schema": "../generated/definitions.schema.json", or leave it out.';

/**
 * What a value is, for a message: `null`, `an array`, `an object`, `a number`.
 *
 * @example
 * ```ts
 * kindOf([1]); // 'an array'
 * ```
 */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The schema of a definitions file. Its messages are those a user reads; a definition inside is
 * described by `definition` (one call per place it appears, so that the emitted JSON Schema spells
 * each out in place).
 *
 * @param definition the schema of one definition: by default anything, which checks the file's shape only
 *   (definitions are validated one by one later, where each problem can name its definition).
 * @example
 * ```ts
 * z.toJSONSchema(definitionsFileSchema(() => definitionSchema('names')), { target: 'draft-2020-12' });
 * ```
 */
export function definitionsFileSchema(definition: DefinitionItemSchema = (z) => z.unknown()) {
  const z = loadZod();
  return z.union(
    [
      z.array(definition(z)),
      z.strictObject({
        $schema: z
          .string({ error: (issue) => `Field "$schema" holds ${kindOf(issue.input)}; it must be a string (the path or URL of the JSON Schema).` })
          .optional(),
        definitions: z.array(definition(z), {
          error: (issue) =>
            issue.input === undefined ? 'Field "definitions" is missing.' : `Field "definitions" holds ${kindOf(issue.input)}, not an array of definitions.`,
        }),
      }),
    ],
    { error: (issue) => `The file holds ${kindOf(issue.input)}, not definitions.` },
  );
}

let shapeSchema: ReturnType<typeof definitionsFileSchema> | undefined;

/**
 * The issues of the one form the value was meant as: an object is a wrapper that went wrong, not an
 * array that went wrong. When neither form fits at all, the union's own issue says what the value is.
 */
function issuesOfMeantForm(issues: readonly ZodCore.$ZodIssue[]): ZodCore.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue];
    const meant = issue.errors.find((form) => form.some((inner) => inner.path.length > 0 || inner.code === 'unrecognized_keys'));
    return meant ?? [issue];
  });
}

/** The problems of zod's issues, unknown fields first (each on its own), then the fields in the order of the schema. */
function problemsOf(issues: readonly ZodCore.$ZodIssue[]): DefinitionsFileProblem[] {
  const unknown: DefinitionsFileProblem[] = [];
  const fields: DefinitionsFileProblem[] = [];
  for (const issue of issuesOfMeantForm(issues)) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unknown.push({ path: [key], message: `Unknown field ${JSON.stringify(key)} at the top of the file.`, fix: SHAPE_FIX });
      continue;
    }
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    fields.push({ path, message: issue.message, fix: path[0] === '$schema' ? SCHEMA_FIX : SHAPE_FIX });
  }
  return [...unknown, ...fields];
}

/**
 * The array of definitions a value holds, whatever else is wrong with it, and where it stands. Loads no zod: what
 * counts a document's definitions before checking it (a limit) reads them here.
 *
 * @example
 * ```ts
 * definitionsArrayOf({ definitions: [{}, {}] }); // { definitions: [{}, {}], path: ['definitions'] }
 * definitionsArrayOf([{}]); // { definitions: [{}], path: [] }
 * ```
 */
export function definitionsArrayOf(value: unknown): Pick<DefinitionsFileShape, 'definitions' | 'path'> {
  if (Array.isArray(value)) return { definitions: value, path: [] };
  if (typeof value !== 'object' || value === null) return { definitions: undefined, path: [] };
  const definitions = (value as { definitions?: unknown }).definitions;
  return { definitions: Array.isArray(definitions) ? definitions : undefined, path: ['definitions'] };
}

/**
 * The definitions a parsed definitions file holds, checked against {@link definitionsFileSchema}: the
 * value itself when it is an array, or its `definitions` field when it is
 * `{ "$schema"?: string, "definitions": [...] }`; every other shape, extra field or non-string
 * `$schema` is a problem. Definitions are returned (for further checks) whenever there is an array of
 * them, even beside a problem.
 *
 * @example
 * ```ts
 * definitionsOfFileValue({ definitions: [], rules: [] }).problems; // [{ path: ['rules'], message: 'Unknown field "rules" at the top of the file.', … }]
 * ```
 */
export function definitionsOfFileValue(value: unknown): DefinitionsFileShape {
  shapeSchema ??= definitionsFileSchema();
  const result = shapeSchema.safeParse(value);
  return { ...definitionsArrayOf(value), problems: result.success ? [] : problemsOf(result.error.issues) };
}
