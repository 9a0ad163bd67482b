/**
 * Shared by the compiler tests: where the fixtures are, throw-away folders inside the repository
 * (generated code imports runtime/core by a relative path, so it must live inside the repo to
 * type-check), reading an output folder back, collecting CLI output, and type-checking files with
 * the TypeScript compiler API under the repository's own compiler options.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { unpackGrantTables } from '../../runtime/permissions/index.js';

/** The repository root (the folder of package.json). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The compiler fixtures: one folder per good fixture, and `bad/<case>/` for the bad-definitions corpus. */
export const compilerFixtures = join(repoRoot, 'test', 'fixtures', 'compiler');

/** The path of a good fixture folder. */
export function fixture(name: string): string {
  return join(compilerFixtures, name);
}

/** The names of the good fixture folders (every folder except the bad corpus). */
export function goodFixtureNames(): string[] {
  return readdirSync(compilerFixtures)
    .filter((name) => name !== 'bad' && statSync(join(compilerFixtures, name)).isDirectory())
    .sort();
}

/** The eleven files every compile writes. */
export const EMITTED_FILES = [
  'PERMISSIONS.md',
  'definitions.schema.json',
  'descriptions.ts',
  'index.ts',
  'ownership.ts',
  'permissions-test.schema.json',
  'permissions.ts',
  'policy.json',
  'resource.schema.json',
  'tables.ts',
  'types.ts',
] as const;

/**
 * Creates a fresh folder `test/.tmp-<label>-<random>`. Inside the repository, so that generated
 * code resolves `../../../runtime/permissions/precompiled.js`; a dot folder, so that neither `tsc -p .` nor jest
 * ever picks it up. Remove it with {@link removeTempDir}.
 */
export function makeTempDir(label: string): string {
  return mkdtempSync(join(repoRoot, 'test', `.tmp-${label}-`));
}

/** Removes a folder made by {@link makeTempDir}. */
export function removeTempDir(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/** Every file of a flat folder, by name (sorted), as raw bytes. */
export function readFolderBytes(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name))] as const),
  );
}

/** Every file of a flat folder, by name (sorted), as text. */
export function readFolderText(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, bytes] of readFolderBytes(dir)) files[name] = bytes.toString('utf8');
  return files;
}

/** Whether two folders hold the same file names with byte-identical contents. */
export function sameBytes(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, bytes] of a) {
    const other = b.get(name);
    if (other === undefined || !bytes.equals(other)) return false;
  }
  return true;
}

/** An `io` for the CLI's `main` that keeps every line instead of printing it. */
export interface CollectedIo {
  readonly logs: string[];
  readonly errors: string[];
  readonly io: { log: (line: string) => void; error: (line: string) => void };
}

/** Creates a {@link CollectedIo}. */
export function collectIo(): CollectedIo {
  const logs: string[] = [];
  const errors: string[] = [];
  return { logs, errors, io: { log: (line) => void logs.push(line), error: (line) => void errors.push(line) } };
}

let repoOptions: ts.CompilerOptions | undefined;

/** The compiler options of the repository's tsconfig.json (strict, nodenext, exactOptionalPropertyTypes, …), without emitting. */
export function repoCompilerOptions(): ts.CompilerOptions {
  if (repoOptions === undefined) {
    const configPath = join(repoRoot, 'tsconfig.json');
    const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
    if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot, undefined, configPath);
    repoOptions = { ...parsed.options, noEmit: true, declaration: false, sourceMap: false, typeRoots: [join(repoRoot, 'node_modules', '@types')] };
  }
  return repoOptions;
}

/** The result of {@link typeCheck}: the program, and every diagnostic's flattened text grouped by file (absolute path; `<global>` for none). */
export interface TypeCheckResult {
  readonly program: ts.Program;
  readonly byFile: ReadonlyMap<string, readonly string[]>;
  readonly count: number;
}

/**
 * Type-checks `rootNames` in one program with the repository's options: the diagnostics of those files, and the
 * program's global and option diagnostics. What they import is read and used to check them, but its own
 * diagnostics are `npm run typecheck`'s business (the runtime's sources are checked there, once).
 * Pass the previous program as `reuse` to share its parsed files (lib files, generated code).
 */
export function typeCheck(rootNames: readonly string[], reuse?: ts.Program): TypeCheckResult {
  const program = ts.createProgram({ rootNames, options: repoCompilerOptions(), ...(reuse === undefined ? {} : { oldProgram: reuse }) });
  const byFile = new Map<string, string[]>();
  const diagnostics: ts.Diagnostic[] = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const name of rootNames) {
    const source = program.getSourceFile(name);
    if (source === undefined) throw new Error(`${name} is not in the program`);
    diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
  }
  for (const diagnostic of diagnostics) {
    const file = diagnostic.file?.fileName ?? '<global>';
    const list = byFile.get(file) ?? [];
    let where = '';
    if (diagnostic.file !== undefined && diagnostic.start !== undefined) {
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      where = `${line + 1}:${character + 1} `;
    }
    list.push(`${where}TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    byFile.set(file, list);
  }
  return { program, byFile, count: diagnostics.length };
}

/** Formats diagnostics for a failure message. */
export function formatDiagnostics(byFile: ReadonlyMap<string, readonly string[]>): string {
  return [...byFile].map(([file, messages]) => `${file}\n  ${messages.join('\n  ')}`).join('\n');
}

/**
 * The grant tables a generated `tables.ts` holds: the string arguments of its `unpackGrantTables(header,
 * definitions, [cells…])` call, unpacked by the runtime as the generated code does, as plain JSON.
 */
export function tablesFromGenerated(tablesFile: string): unknown {
  const source = ts.createSourceFile(tablesFile, readFileSync(tablesFile, 'utf8'), ts.ScriptTarget.Latest, true);
  let texts: { header: string; definitions: string; cells: string[] } | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText(source) === 'unpackGrantTables') {
      const [header, definitions, cells] = node.arguments;
      if (
        header !== undefined &&
        ts.isStringLiteral(header) &&
        definitions !== undefined &&
        ts.isStringLiteral(definitions) &&
        cells !== undefined &&
        ts.isArrayLiteralExpression(cells)
      )
        texts = {
          header: header.text,
          definitions: definitions.text,
          cells: cells.elements.map((element) => (ts.isStringLiteral(element) ? element.text : '')),
        };
    }
    if (texts === undefined) ts.forEachChild(node, visit);
  };
  visit(source);
  if (texts === undefined) throw new Error(`${tablesFile} holds no unpackGrantTables('…', '…', ['…'], …) of the tables`);
  // The descriptions are the string that descriptions.ts, beside tables.ts, exports.
  const descriptionsFile = join(dirname(tablesFile), 'descriptions.ts');
  const descriptionsSource = ts.createSourceFile(descriptionsFile, readFileSync(descriptionsFile, 'utf8'), ts.ScriptTarget.Latest, true);
  let descriptions: string | undefined;
  const find = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(descriptionsSource) === 'definitionDescriptions' && node.initializer !== undefined)
      descriptions = ts.isStringLiteral(node.initializer) ? node.initializer.text : undefined;
    if (descriptions === undefined) ts.forEachChild(node, find);
  };
  find(descriptionsSource);
  if (descriptions === undefined) throw new Error(`${descriptionsFile} exports no definitionDescriptions string`);
  return JSON.parse(JSON.stringify(unpackGrantTables(texts.header, texts.definitions, texts.cells, descriptions))) as unknown;
}

/** Waits until `condition` holds, polling every `intervalMs`; throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 3000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
