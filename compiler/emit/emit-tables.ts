/** Emits `tables.ts`: the grant tables the runtime's table builder made, serialised, and their version. */
import { policyVersionOf } from 'typed-permissions/internal';
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/** Stands for the tables' JSON while the file is built and formatted; replaced afterwards. */
const PLACEHOLDER = '__TYPED_PERMISSIONS_GRANT_TABLES__';

/**
 * The tables are emitted as one JSON string: JSON.parse is faster to load than an object literal of
 * the same size, and the type checker does not have to infer the type of a large literal. The
 * string is put in after formatting: it can be megabytes, which the formatter would only copy.
 *
 * @example
 * ```ts
 * const file = await emitTables(context); // export const grantTables: GrantTables = JSON.parse('…');
 * ```
 */
export async function emitTables(context: EmitContext): Promise<EmittedFile> {
  const file = await emitTypeScript(context, 'tables.ts', (source) => {
    source.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: ['GrantTables'] });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ['The precomputed grant tables (roles, resources and actions interned; every `*` expanded).'],
      declarations: [{ name: 'grantTables', type: 'GrantTables', initializer: `JSON.parse(${PLACEHOLDER}) as GrantTables` }],
    });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ['The version of these tables: the SHA-256 of their canonical JSON, as `policy.json` carries it.'],
      declarations: [{ name: 'policyVersion', type: 'string', initializer: JSON.stringify(policyVersionOf(context.model.tables)) }],
    });
  });
  // A JSON string is a valid TypeScript string literal (U+2028/U+2029 included, since ES2019).
  return { path: file.path, content: file.content.replace(PLACEHOLDER, () => JSON.stringify(JSON.stringify(context.model.tables))) };
}
