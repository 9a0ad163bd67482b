/** Emits `definitions.schema.json` and `resource.schema.json`, derived from the runtime's zod schema, so editors validate definition files. */
import { z } from 'zod';
import { definitionSchema } from '../../runtime/core/definition-schema.js';
import { formatText, type EmitContext, type EmittedFile } from './emit-context.js';

/** A definitions file: a plain array, or `{ "$schema", "definitions": [...] }`. */
export const definitionsFileSchema = z.union([
  z.array(definitionSchema('names')),
  z.strictObject({ $schema: z.string().optional(), definitions: z.array(definitionSchema('names')) }),
]);

/** A `*.resource.json` metadata file. */
export const resourceMetadataSchema = z.strictObject({
  $schema: z.string().optional(),
  resource: z.string().min(1).describe('The resource these metadata describe.'),
  idType: z.enum(['number', 'string']).describe('The type of the resource ids.'),
  attributes: z.array(z.string().min(1)).optional().describe('The attribute names (dotted for nested) that attribute patterns may name.'),
});

/**
 * @example
 * ```ts
 * const [definitions, resource] = await emitJsonSchemas(context);
 * ```
 */
export async function emitJsonSchemas(_context: EmitContext): Promise<EmittedFile[]> {
  const toText = (schema: z.ZodType, title: string) => formatText(JSON.stringify({ ...z.toJSONSchema(schema, { target: 'draft-2020-12' }), title }), 'json');
  return [
    { path: 'definitions.schema.json', content: await toText(definitionsFileSchema, 'typed-permissions definitions file') },
    { path: 'resource.schema.json', content: await toText(resourceMetadataSchema, 'typed-permissions resource metadata') },
  ];
}
