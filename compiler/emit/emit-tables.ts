/** Emits `tables.ts`: the grant tables the runtime's table builder made, serialised, and their version. */
import { packGrantTables, policyVersionOf } from 'typed-permissions/internal';
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/** Stand for the packed tables' JSON texts while the file is built and formatted; replaced afterwards. */
const HEADER = '__TYPED_PERMISSIONS_TABLES_HEADER__';
const DEFINITIONS = '__TYPED_PERMISSIONS_TABLES_DEFINITIONS__';
const CELLS = '__TYPED_PERMISSIONS_TABLES_CELLS__';

/**
 * The tables are emitted packed: a header (names, plans, hooks, ownership groups), the definitions' summaries and
 * each resource's cells as JSON strings, which `unpackGrantTables` parses when they are first needed — importing
 * the file parses the header only, and an engine decodes a resource's cells on its first question about it. JSON
 * strings load faster than object literals of the same size, and the type checker does not have to infer the type
 * of a large literal. The strings are put in after formatting: they can be megabytes, which the formatter would
 * only copy.
 *
 * @example
 * ```ts
 * const file = await emitTables(context); // export const grantTables: GrantTables = unpackGrantTables('…', '…', ['…', …]);
 * ```
 */
export async function emitTables(context: EmitContext): Promise<EmittedFile> {
  const file = await emitTypeScript(context, 'tables.ts', (source) => {
    source.addImportDeclaration({ moduleSpecifier: context.runtimeImport, namedImports: ['unpackGrantTables', 'type GrantTables'] });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ["The precomputed grant tables (roles, resources and actions interned; every `*` expanded); a resource's cells are decoded when first needed."],
      declarations: [{ name: 'grantTables', type: 'GrantTables', initializer: `unpackGrantTables(${HEADER}, ${DEFINITIONS}, ${CELLS})` }],
    });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ['The version of these tables: the SHA-256 of their canonical JSON, as `policy.json` carries it.'],
      declarations: [{ name: 'policyVersion', type: 'string', initializer: JSON.stringify(policyVersionOf(context.model.tables)) }],
    });
  });
  const packed = packGrantTables(context.model.tables);
  // A JSON string is a valid TypeScript string literal (U+2028/U+2029 included, since ES2019).
  const cells = `[\n${packed.cells.map((text) => `    ${JSON.stringify(text)},\n`).join('')}  ]`;
  return {
    path: file.path,
    content: file.content
      .replace(HEADER, () => JSON.stringify(packed.header))
      .replace(DEFINITIONS, () => JSON.stringify(packed.definitions))
      .replace(CELLS, () => cells),
  };
}
