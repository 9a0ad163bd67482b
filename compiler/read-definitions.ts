/**
 * Reads a definitions folder: `*.permissions.json` and `*.permissions.ts` (definitions) and
 * `*.resource.json` (per-resource metadata), statically, with the position of every value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
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
function syntaxProblems(file: string, sourceFile: ts.SourceFile): CompileProblem[] {
  const diagnostics = (sourceFile as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  return diagnostics.map((diagnostic) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start);
    return { file, line: line + 1, column: character + 1, path: [], code: 'syntax-error', message: `Syntax error: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/\.$/, '')}.`, fix: 'Fix the syntax of the file.' };
  });
}

function fromStatic(file: string, read: StaticValue): CompileProblem[] {
  return read.problems.map((p) => ({ file, ...p.position, path: p.path, code: p.code, message: p.message, fix: p.fix }));
}

function readJson(directory: string, file: string): { read: StaticValue | undefined; problems: CompileProblem[] } {
  const text = readFileSync(join(directory, file), 'utf8');
  const sourceFile = ts.parseJsonText(file, text);
  const problems = syntaxProblems(file, sourceFile);
  const statement = sourceFile.statements[0];
  if (problems.length > 0) return { read: undefined, problems };
  if (statement === undefined) return { read: undefined, problems: [{ file, line: 1, column: 1, path: [], code: 'invalid-file', message: 'The file is empty.', fix: 'Write a JSON array of definitions, or { "definitions": [...] }.' }] };
  const read = readStaticValue(sourceFile, statement.expression);
  return { read, problems: fromStatic(file, read) };
}

function readTypeScript(directory: string, file: string): { read: StaticValue | undefined; problems: CompileProblem[] } {
  const text = readFileSync(join(directory, file), 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems = syntaxProblems(file, sourceFile);
  if (problems.length > 0) return { read: undefined, problems };
  let expression: ts.Expression | undefined;
  for (const statement of sourceFile.statements) {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) expression = statement.expression;
    if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.name.text === 'definitions' && declaration.initializer !== undefined) expression = declaration.initializer;
      }
    }
  }
  if (expression === undefined) {
    return { read: undefined, problems: [{ file, line: 1, column: 1, path: [], code: 'invalid-file', message: 'The file exports no definitions.', fix: 'Write `export default [ ... ] satisfies PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.' }] };
  }
  const read = readStaticValue(sourceFile, expression);
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
    return { definitions, resources, files: [], problems: [{ file: directory, path: [], code: 'invalid-file', message: `Cannot read the definitions folder: ${(error as Error).message}.`, fix: 'Pass an existing folder: typed-permissions compile <definitionsDir>.' }] };
  }
  const files = names.filter((name) => DEFINITION_FILE.test(name) || RESOURCE_FILE.test(name));
  for (const file of files) {
    const isJson = file.endsWith('.json');
    let outcome: { read: StaticValue | undefined; problems: CompileProblem[] };
    try {
      outcome = isJson ? readJson(directory, file) : readTypeScript(directory, file);
    } catch (error) {
      // The TypeScript parser and the literal reader recurse; absurd nesting must be a problem, not a crash.
      if (!(error instanceof RangeError)) throw error;
      outcome = { read: undefined, problems: [{ file, line: 1, column: 1, path: [], code: 'invalid-file', message: 'The file is nested too deeply to read.', fix: 'Definitions are flat objects: remove the nesting.' }] };
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
    let list: unknown = read.value;
    let base: ValuePath = [];
    if (typeof list === 'object' && list !== null && !Array.isArray(list) && isJson) {
      const wrapper = list as Record<string, unknown>;
      for (const key of Object.keys(wrapper)) {
        if (key !== '$schema' && key !== 'definitions') problems.push({ ...where([key]), path: [key], code: 'invalid-file', message: `Unknown field ${JSON.stringify(key)} at the top of the file.`, fix: 'The file holds { "$schema"?, "definitions": [...] } or a plain array of definitions.' });
      }
      list = wrapper['definitions'];
      base = ['definitions'];
    }
    if (!Array.isArray(list)) {
      problems.push({ ...where(base), path: base, code: 'invalid-file', message: 'The definitions are not an array.', fix: isJson ? 'Write a JSON array of definitions, or { "definitions": [...] }.' : 'Export an array of definitions.' });
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
    problems.push({ ...where([]), code: 'invalid-metadata', message: 'Resource metadata must be an object.', fix: 'Write { "resource": "document", "idType": "number", "attributes": ["id", "title"] }.' });
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!['$schema', 'resource', 'idType', 'attributes'].includes(key)) problems.push({ ...where([key]), code: 'invalid-metadata', message: `Unknown field ${JSON.stringify(key)} in resource metadata.`, fix: 'Use only "resource", "idType" and "attributes".' });
  }
  const { resource, idType, attributes } = value;
  if (typeof resource !== 'string' || resource.length === 0 || resource === '*') problems.push({ ...where(['resource']), code: 'invalid-metadata', message: 'Field "resource" must name one resource.', fix: 'Write "resource": "document".' });
  if (idType !== 'number' && idType !== 'string') problems.push({ ...where(['idType']), code: 'invalid-metadata', message: 'Field "idType" must be "number" or "string".', fix: 'Write "idType": "number" for numeric ids, "string" for uuids and slugs.' });
  if (attributes !== undefined && !(Array.isArray(attributes) && attributes.every((a) => typeof a === 'string' && a.length > 0))) {
    problems.push({ ...where(['attributes']), code: 'invalid-metadata', message: 'Field "attributes" must be an array of attribute names.', fix: 'Write "attributes": ["id", "title", "address.city"], or leave it out.' });
  }
  if (problems.length > before) return undefined;
  return { resource: resource as string, idType: idType as 'number' | 'string', attributes: attributes as string[] | undefined, file, positions: read.positions };
}
