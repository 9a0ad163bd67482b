/** Every emitter, run over one model: the output files of a compile, in memory, sorted by path. */
import type { CompiledModel } from '../model/compile-model.js';
import type { EmitContext, EmittedFile } from './emit-context.js';
import { emitIndex } from './emit-index.js';
import { emitJsonSchemas } from './emit-json-schema.js';
import { emitMatrix } from './emit-matrix.js';
import { emitOwnership } from './emit-ownership.js';
import { emitPermissions } from './emit-permissions.js';
import { emitPolicy } from './emit-policy.js';
import { emitTables } from './emit-tables.js';
import { emitTypes } from './emit-types.js';

/**
 * Emits every output file of a model, in memory.
 *
 * @example
 * ```ts
 * const files = await emitAll(model, { runtimeImport: 'typed-permissions', definitionsLabel: 'definitions' });
 * ```
 */
export async function emitAll(model: CompiledModel, options: Omit<EmitContext, 'model'>): Promise<EmittedFile[]> {
  const context: EmitContext = { model, ...options };
  const [types, ownership, [tables, descriptions], permissions] = await Promise.all([
    emitTypes(context),
    emitOwnership(context),
    emitTables(context),
    emitPermissions(context),
  ]);
  const modules = [types, ownership, tables, permissions];
  // The descriptions are not re-exported: the index would import them with everything else, which is what their module avoids.
  const index = await emitIndex(
    context,
    modules.map((file) => file.path),
  );
  const docs = [emitMatrix(context), emitPolicy(context), ...(await emitJsonSchemas(context))];
  return [...modules, descriptions, index, ...docs].sort((a, b) => (a.path < b.path ? -1 : 1));
}
