/** Emits `tables.ts`: the grant tables the runtime's table builder made, serialised. */
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * The tables are emitted as one JSON string: JSON.parse is faster to load than an object literal of
 * the same size, and the type checker does not have to infer the type of a large literal.
 *
 * @example
 * ```ts
 * const file = await emitTables(context); // export const grantTables: GrantTables = JSON.parse('…');
 * ```
 */
export function emitTables(context: EmitContext): Promise<EmittedFile> {
  return emitTypeScript(context, 'tables.ts', (file) => {
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: ['GrantTables'] });
    file.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ['The precomputed grant tables (roles, resources and actions interned; every `*` expanded).'],
      declarations: [{ name: 'grantTables', type: 'GrantTables', initializer: `JSON.parse(${JSON.stringify(JSON.stringify(context.model.tables))}) as GrantTables` }],
    });
  });
}
