/**
 * Reads a definitions folder: `*.permissions.json` and `*.permissions.ts` (definitions) and
 * `*.resource.json` (per-resource metadata), statically, with the position of every value. JSON
 * files are accepted or refused by the runtime's own strict reader (runtime/core/definitions-file.ts),
 * so that a file the compiler accepts also loads at run time; the TypeScript parser only tells where
 * each value stands (and finds keys written twice, which `JSON.parse` cannot see).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import {
  definitionsOfFileValue,
  hookNameProblem,
  isSyntaxProblem,
  MAX_DEFINITIONS_FILE_LENGTH,
  MAX_NAME_LENGTH,
  nameProblem,
  parseAttributePattern,
  parseStrictJson,
  quoteForMessage,
} from 'typed-permissions/internal';
import type { CompileProblem } from './compile-problem.js';
import { positionOf, readStaticValue, type Position, type StaticValue, type ValuePath } from './static-value.js';

/** One definition as read from a file, not validated yet. */
export interface ReadDefinition {
  readonly value: unknown;
  /** File name relative to the definitions folder, e.g. `document.permissions.json`. */
  readonly file: string;
  /** Index of the definition in its file. */
  readonly index: number;
  /** Path of the definition inside the file's value (`[3]` or `['definitions', 3]`). */
  readonly path: ValuePath;
  readonly positions: ReadonlyMap<string, Position>;
}

/** A resource's declared metadata. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly idType: 'number' | 'string';
  readonly attributes: readonly string[] | undefined;
  /** The method of the ownership service that runs this resource's limitOwned filters over given ids (issue 12's R2 ownership). */
  readonly ownedAmong: string | undefined;
  readonly file: string;
  readonly positions: ReadonlyMap<string, Position>;
}

/** Everything read from a definitions folder. */
export interface ReadResult {
  readonly definitions: readonly ReadDefinition[];
  readonly resources: readonly ResourceMetadata[];
  readonly problems: readonly CompileProblem[];
  /** Every file read, for `--watch` and error messages. */
  readonly files: readonly string[];
}

const DEFINITION_FILE = /\.permissions\.(json|ts)$/;
const RESOURCE_FILE = /\.resource\.json$/;

/** Syntax errors of a parsed file (TypeScript keeps them on the source file). */
/** A problem of a file as a whole, reported at its start. */
function wholeFileProblem(file: string, code: CompileProblem['code'], message: string, fix: string): CompileProblem {
  return { file, line: 1, column: 1, path: [], code, message, fix };
}

/** What reading a file gives when it cannot be read: no value, one problem. */
function unread(problem: CompileProblem): { read: undefined; problems: CompileProblem[] } {
  return { read: undefined, problems: [problem] };
}

function syntaxProblems(file: string, sourceFile: ts.SourceFile): CompileProblem[] {
  const diagnostics = (sourceFile as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  return diagnostics.map((diagnostic) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start);
    return {
      file,
      line: line + 1,
      column: character + 1,
      path: [],
      code: 'syntax-error',
      message: `Syntax error: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/\.$/, '')}.`,
      fix: 'Fix the syntax of the file.',
    };
  });
}

function fromStatic(file: string, read: StaticValue): CompileProblem[] {
  return read.problems.map((p) => ({ file, ...p.position, path: p.path, code: p.code, message: p.message, fix: p.fix }));
}

function readJson(directory: string, file: string): { read: StaticValue | undefined; problems: CompileProblem[] } {
  const parsed = parseStrictJson(readFileSync(join(directory, file), 'utf8'));
  if (!parsed.ok) {
    const { line, column, description, fix } = parsed.issue;
    return { read: undefined, problems: [{ file, line, column, path: [], code: 'syntax-error', message: `Syntax error: ${description}.`, fix }] };
  }
  // Strict JSON is also valid for TypeScript's JSON parser, which knows where every value stands.
  const sourceFile = ts.parseJsonText(file, parsed.text);
  const statement = sourceFile.statements[0];
  if (statement === undefined)
    return unread(wholeFileProblem(file, 'invalid-file', 'The file holds no JSON value.', 'Write a JSON array of definitions, or { "definitions": [...] }.'));
  const located = readStaticValue(sourceFile, statement.expression);
  const read: StaticValue = { value: parsed.value, positions: located.positions, problems: located.problems };
  return { read, problems: fromStatic(file, read) };
}

/** An export that carries the definitions, as the reader understands them. */
interface DefinitionsExport {
  readonly form: string;
  readonly node: ts.Node;
  readonly expression: ts.Expression;
}

const EXPORT_FORMS_FIX =
  'Export the definitions once, as `export default [ ... ] satisfies PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.';

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
}

function bindsName(name: ts.BindingName, wanted: string): boolean {
  if (ts.isIdentifier(name)) return name.text === wanted;
  return name.elements.some((element) => !ts.isOmittedExpression(element) && bindsName(element.name, wanted));
}

/**
 * The one export of a `*.permissions.ts` file that carries its definitions. Two of them (two
 * `export default`, or one beside `export const definitions`), or an export form the static reader
 * does not follow but that could carry definitions (`export =`, `export { x as default }`,
 * `export * from`, `export default function`…), is a problem naming the line: a file must never
 * mean something else than what is read.
 */
function findDefinitionsExport(file: string, sourceFile: ts.SourceFile): { expression: ts.Expression | undefined; problems: CompileProblem[] } {
  const problems: CompileProblem[] = [];
  const exports: DefinitionsExport[] = [];
  const at = (node: ts.Node) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    return { line: line + 1, column: character + 1 };
  };
  const unsupported = (node: ts.Node, form: string) =>
    problems.push({
      file,
      ...at(node),
      path: [],
      code: 'unsupported-export',
      message: `${form} is not read: definitions files are read statically, and only \`export default [...]\` or \`export const definitions = [...]\` count.`,
      fix: EXPORT_FORMS_FIX,
    });
  for (const statement of sourceFile.statements) {
    if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) unsupported(statement, '`export =`');
      else exports.push({ form: '`export default`', node: statement, expression: statement.expression });
    } else if (ts.isVariableStatement(statement) && hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!bindsName(declaration.name, 'definitions')) continue;
        if (!ts.isIdentifier(declaration.name)) unsupported(declaration, 'A destructuring export of `definitions`');
        else if (declaration.initializer === undefined) unsupported(declaration, 'An export of `definitions` without a value');
        else exports.push({ form: '`export const definitions`', node: declaration, expression: declaration.initializer });
      }
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      const kind = ts.isFunctionDeclaration(statement) ? 'function' : 'class';
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) unsupported(statement, `\`export default ${kind}\``);
      else if (statement.name?.text === 'definitions') unsupported(statement, `An exported ${kind} named \`definitions\``);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      if (clause === undefined) unsupported(statement, '`export * from`');
      else if (ts.isNamespaceExport(clause)) {
        if (clause.name.text === 'default' || clause.name.text === 'definitions') unsupported(statement, `\`export * as ${clause.name.text}\``);
      } else {
        for (const element of clause.elements) {
          if (!element.isTypeOnly && (element.name.text === 'default' || element.name.text === 'definitions'))
            unsupported(element, `\`export { ${element.getText(sourceFile)} }\``);
        }
      }
    }
  }
  const [first, ...others] = exports;
  for (const other of others) {
    problems.push({
      file,
      ...at(other.node),
      path: [],
      code: 'duplicate-export',
      message:
        `${other.form} exports definitions a second time ` +
        `(${first?.form} on line ${first === undefined ? 0 : at(first.node).line}); only one export can count.`,
      fix: 'Keep one export of the definitions: merge the arrays into one `export default [...]` or one `export const definitions = [...]`.',
    });
  }
  return { expression: problems.length === 0 ? first?.expression : undefined, problems };
}

function readTypeScript(directory: string, file: string): { read: StaticValue | undefined; problems: CompileProblem[] } {
  const text = readFileSync(join(directory, file), 'utf8');
  if (text.length > MAX_DEFINITIONS_FILE_LENGTH) {
    return unread(
      wholeFileProblem(
        file,
        'syntax-error',
        `The file has ${text.length} characters, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH}.`,
        'Split the definitions over several files, one per resource.',
      ),
    );
  }
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems = syntaxProblems(file, sourceFile);
  if (problems.length > 0) return { read: undefined, problems };
  const found = findDefinitionsExport(file, sourceFile);
  if (found.problems.length > 0) return { read: undefined, problems: found.problems };
  if (found.expression === undefined) {
    return unread(
      wholeFileProblem(
        file,
        'invalid-file',
        'The file exports no definitions.',
        'Write `export default [ ... ] satisfies PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.',
      ),
    );
  }
  const read = readStaticValue(sourceFile, found.expression);
  return { read, problems: fromStatic(file, read) };
}

/**
 * Reads every definition and metadata file of `directory` (sorted by name, so output is stable).
 *
 * @example
 * ```ts
 * const { definitions, resources, problems } = readDefinitionsFolder('definitions');
 * ```
 */
export function readDefinitionsFolder(directory: string): ReadResult {
  const problems: CompileProblem[] = [];
  const definitions: ReadDefinition[] = [];
  const resources: ResourceMetadata[] = [];
  let names: string[];
  try {
    names = readdirSync(directory).sort();
  } catch (error) {
    return {
      definitions,
      resources,
      files: [],
      problems: [
        {
          file: directory,
          path: [],
          code: 'invalid-file',
          message: `Cannot read the definitions folder: ${(error as Error).message}.`,
          fix: 'Pass an existing folder: typed-permissions compile <definitionsDir>.',
        },
      ],
    };
  }
  const files = names.filter((name) => DEFINITION_FILE.test(name) || RESOURCE_FILE.test(name));
  for (const file of files) {
    const isJson = file.endsWith('.json');
    let outcome: { read: StaticValue | undefined; problems: CompileProblem[] };
    try {
      // UTF-8 takes at most 4 bytes a character: a file larger than this is over the limit without reading it.
      const bytes = statSync(join(directory, file)).size;
      if (bytes > MAX_DEFINITIONS_FILE_LENGTH * 4) {
        problems.push(
          wholeFileProblem(
            file,
            'syntax-error',
            `The file has ${bytes} bytes, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH} characters.`,
            'Split the definitions over several files, one per resource.',
          ),
        );
        continue;
      }
      outcome = isJson ? readJson(directory, file) : readTypeScript(directory, file);
    } catch (error) {
      // The TypeScript parser and the literal reader recurse; absurd nesting must be a problem, not a crash.
      if (!(error instanceof RangeError)) throw error;
      outcome = unread(wholeFileProblem(file, 'invalid-file', 'The file is nested too deeply to read.', 'Definitions are flat objects: remove the nesting.'));
    }
    const { read, problems: fileProblems } = outcome;
    problems.push(...fileProblems);
    if (read === undefined) continue;
    if (RESOURCE_FILE.test(file)) {
      const metadata = readResourceMetadata(file, read, problems);
      if (metadata !== undefined) resources.push(metadata);
      continue;
    }
    const where = (path: ValuePath) => ({ file, ...(positionOf(read.positions, path) ?? { line: 1, column: 1 }) });
    let list: readonly unknown[];
    let base: ValuePath = [];
    if (isJson) {
      // The runtime's parseDefinitionsJson decides the file's shape with this same function.
      const shape = definitionsOfFileValue(read.value);
      for (const problem of shape.problems)
        problems.push({ ...where(problem.path), path: problem.path, code: 'invalid-file', message: problem.message, fix: problem.fix });
      if (shape.definitions === undefined) continue;
      list = shape.definitions;
      base = shape.path;
    } else if (Array.isArray(read.value)) list = read.value;
    else {
      problems.push({ ...where([]), path: [], code: 'invalid-file', message: 'The definitions are not an array.', fix: 'Export an array of definitions.' });
      continue;
    }
    list.forEach((value, index) => definitions.push({ value, file, index, path: [...base, index], positions: read.positions }));
  }
  return { definitions, resources, problems, files };
}

function readResourceMetadata(file: string, read: StaticValue, problems: CompileProblem[]): ResourceMetadata | undefined {
  const value = read.value as Record<string, unknown> | null;
  const where = (path: ValuePath) => ({ file, ...(positionOf(read.positions, path) ?? { line: 1, column: 1 }), path });
  const before = problems.length;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({
      ...where([]),
      code: 'invalid-metadata',
      message: 'Resource metadata must be an object.',
      fix: 'Write { "resource": "document", "idType": "number", "attributes": ["id", "title"] }.',
    });
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!['$schema', 'resource', 'idType', 'attributes', 'ownedAmong'].includes(key))
      problems.push({
        ...where([key]),
        code: 'invalid-metadata',
        message: `Unknown field ${quoteForMessage(key)} in resource metadata.`,
        fix: 'Use only "resource", "idType", "attributes" and "ownedAmong".',
      });
  }
  const { resource, idType, attributes, ownedAmong } = value;
  const executorProblem = ownedAmong === undefined ? undefined : typeof ownedAmong !== 'string' ? 'must be a method name' : hookNameProblem(ownedAmong);
  if (executorProblem !== undefined)
    problems.push({
      ...where(['ownedAmong']),
      code: 'invalid-metadata',
      message: `Field "ownedAmong" ${executorProblem}.`,
      fix: 'Name the method of the ownership service that runs a limitOwned filter over given ids, for example "ownedDocumentsAmong".',
    });
  if (typeof resource !== 'string' || resource.length === 0 || resource === '*')
    problems.push({
      ...where(['resource']),
      code: 'invalid-metadata',
      message: 'Field "resource" must name one resource.',
      fix: 'Write "resource": "document".',
    });
  else if (nameProblem(resource) !== undefined)
    problems.push({
      ...where(['resource']),
      code: 'invalid-metadata',
      message: `The resource name ${quoteForMessage(resource)} ${nameProblem(resource)}.`,
      fix: `Name the resource with printable text of at most ${MAX_NAME_LENGTH} characters, as its definitions do.`,
    });
  if (idType !== 'number' && idType !== 'string')
    problems.push({
      ...where(['idType']),
      code: 'invalid-metadata',
      message: 'Field "idType" must be "number" or "string".',
      fix: 'Write "idType": "number" for numeric ids, "string" for uuids and slugs.',
    });
  if (attributes !== undefined && !(Array.isArray(attributes) && attributes.every((a) => typeof a === 'string' && a.length > 0))) {
    problems.push({
      ...where(['attributes']),
      code: 'invalid-metadata',
      message: 'Field "attributes" must be an array of attribute names.',
      fix: 'Write "attributes": ["id", "title", "address.city"], or leave it out.',
    });
  }
  if (Array.isArray(attributes)) {
    attributes.forEach((attribute: unknown, i) => {
      if (typeof attribute !== 'string' || attribute.length === 0) return;
      const parsed = parseAttributePattern(attribute);
      const problem = isSyntaxProblem(parsed)
        ? parsed.message
        : !parsed.allow || parsed.path.length === 0
          ? `Attribute ${quoteForMessage(attribute)} is a pattern, not a name.`
          : undefined;
      if (problem !== undefined)
        problems.push({
          ...where(['attributes', i]),
          code: 'invalid-metadata',
          message: problem,
          fix: 'List attribute names, dotted for nested ones ("address.city"), without "*" or "!".',
        });
    });
  }
  if (problems.length > before) return undefined;
  return {
    resource: resource as string,
    idType: idType as 'number' | 'string',
    attributes: attributes as string[] | undefined,
    ownedAmong: ownedAmong as string | undefined,
    file,
    positions: read.positions,
  };
}
