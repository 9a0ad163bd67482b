/**
 * Emits `tables.ts`, the grant tables the runtime's table builder made, serialised, and their version; and
 * `descriptions.ts`, the definitions' descriptions, which `tables.ts` imports only when they are first needed.
 */
import { packGrantTables, policyVersionOf } from 'typed-permissions/internal';
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * Stand for the packed tables' JSON texts while the files are built and formatted; replaced afterwards. Each holds a
 * letter past ASCII (Ω), which nothing else in the files can: the texts put in their place are ASCII (non-ASCII
 * escaped), and so is the header's folder name. A role, a file or a folder named like a placeholder therefore
 * never takes its place.
 */
const HEADER = '__TYPED_PERMISSIONS_TABLES_HEADER_Ω__';
const DEFINITIONS = '__TYPED_PERMISSIONS_TABLES_DEFINITIONS_Ω__';
const CELLS = '__TYPED_PERMISSIONS_TABLES_CELLS_Ω__';
const DESCRIPTIONS = '__TYPED_PERMISSIONS_TABLES_DESCRIPTIONS_Ω__';

/** `template` with its one `placeholder` replaced by `text`; a template that has it more or less than once is a bug here. */
function replaceOnce(template: string, placeholder: string, text: string): string {
  const at = template.indexOf(placeholder);
  if (at === -1 || template.indexOf(placeholder, at + 1) !== -1) throw new Error(`The emitted template holds ${placeholder} other than once.`);
  return template.slice(0, at) + text + template.slice(at + placeholder.length);
}

/** The module of the descriptions, as `tables.ts` imports it. */
export const DESCRIPTIONS_MODULE = 'descriptions.ts';

/**
 * A JSON text as a TypeScript string literal. JSON.stringify gives a valid one (U+2028/U+2029 included, since
 * ES2019); characters past ASCII are escaped too, so that no description or name makes the JavaScript engine read
 * the whole module as two-byte text.
 */
function asciiLiteral(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The tables are emitted packed: a header (names, plans, hooks, ownership groups) and where each definition comes
 * from as JSON strings, and each resource's cells as a text of packed numbers by role (13–19% of their JSON), which
 * `unpackGrantTables` decodes when they are first needed —
 * importing the file parses the header only, and an engine decodes a resource's cells on its first question about
 * it. The definitions' descriptions, which only explanations show, are the largest part of a large policy's text:
 * they are a module of their own, `descriptions.ts`, which `tables.ts` imports dynamically, so that the
 * JavaScript engine does not even read them until an explanation asks (a bundler makes it a chunk of its own).
 * JSON strings load faster than object literals of the same size, and the type checker does not have to infer the
 * type of a large literal. The strings are put in after formatting: they can be megabytes, which the formatter
 * would only copy.
 *
 * @example
 * ```ts
 * const [tables, descriptions] = await emitTables(context);
 * // tables.ts: export const grantTables: GrantTables = unpackGrantTables('…', '…', ['…', …], () => import('./descriptions.js'), policyVersion);
 * ```
 */
export async function emitTables(context: EmitContext): Promise<[tables: EmittedFile, descriptions: EmittedFile]> {
  const tablesFile = await emitTypeScript(context, 'tables.ts', (source) => {
    source.addImportDeclaration({ moduleSpecifier: context.runtimeImport, namedImports: ['unpackGrantTables', 'type GrantTables'] });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ['The version of these tables: the SHA-256 of their canonical JSON, as `policy.json` carries it.'],
      declarations: [{ name: 'policyVersion', type: 'string', initializer: JSON.stringify(policyVersionOf(context.model.tables)) }],
    });
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: [
        "The precomputed grant tables (roles, resources and actions interned; every `*` expanded); a resource's cells are decoded when first " +
          "needed, the definitions' descriptions imported when an explanation first needs them.",
      ],
      declarations: [
        {
          name: 'grantTables',
          type: 'GrantTables',
          initializer:
            `unpackGrantTables(${HEADER}, ${DEFINITIONS}, ${CELLS}, () => import('./${DESCRIPTIONS_MODULE.replace(/\.ts$/, '.js')}'), ` + 'policyVersion)',
        },
      ],
    });
  });
  const descriptionsFile = await emitTypeScript(context, DESCRIPTIONS_MODULE, (source) => {
    source.addVariableStatement({
      isExported: true,
      declarationKind: 'const' as never,
      docs: ["The definitions' descriptions, in the order of `grantTables.definitions` (null: none), as a JSON text; `tables.ts` imports it on demand."],
      declarations: [{ name: 'definitionDescriptions', type: 'string', initializer: DESCRIPTIONS }],
    });
  });
  const packed = packGrantTables(context.model.tables);
  const cells = `[\n${packed.cells.map((text) => `    ${asciiLiteral(text)},\n`).join('')}  ]`;
  return [
    {
      path: tablesFile.path,
      content: replaceOnce(
        replaceOnce(replaceOnce(tablesFile.content, HEADER, asciiLiteral(packed.header)), DEFINITIONS, asciiLiteral(packed.definitions)),
        CELLS,
        cells,
      ),
    },
    { path: descriptionsFile.path, content: replaceOnce(descriptionsFile.content, DESCRIPTIONS, asciiLiteral(packed.descriptions)) },
  ];
}
