/**
 * Reads a `*.permissions.ts` file statically: parsed by TypeScript (loaded for the first such file), never run. Its definitions are
 * the literal of its one export of them (definitions-export.ts), read with the position of every value.
 */
import type { ts } from 'ts-morph';
import { MAX_DEFINITIONS_FILE_LENGTH } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { findDefinitionsExport } from './definitions-export.js';
import { readFrom, unread, wholeFileProblem, type FileRead } from './read-file-result.js';
import { readStaticValue } from './static-value.js';
import { utf8FileText } from './source-file.js';
import { OffsetPositions } from './value-positions.js';
import { typescriptParser } from './typescript-parser.js';
import { MAX_PROBLEMS_PER_FILE } from '../problems/problem-cap.js';

/** Syntax errors of a parsed file (TypeScript keeps them on the source file): the first a file lists, and how many others there are. */
function syntaxProblems(file: string, sourceFile: ts.SourceFile): { problems: CompileProblem[]; unlisted: number } {
  const diagnostics = (sourceFile as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  const positions = new OffsetPositions(sourceFile.text, sourceFile.getLineStarts());
  const problems = diagnostics.slice(0, MAX_PROBLEMS_PER_FILE).map((diagnostic) => {
    return {
      file,
      ...positions.at(diagnostic.start),
      path: [],
      code: 'syntax-error',
      message: `Syntax error: ${typescriptParser().flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/\.$/, '')}.`,
      fix: 'Fix the syntax of the file.',
    };
  });
  return { problems, unlisted: diagnostics.length - problems.length };
}

/**
 * Reads the definitions `file` of `directory` exports, with the position of every value.
 *
 * @example
 * ```ts
 * const { read, problems } = readTypeScriptFile('definitions', 'document.permissions.ts');
 * ```
 */
export function readTypeScriptFile(directory: string, file: string): FileRead {
  const read = utf8FileText(directory, file);
  if ('problem' in read) return unread(read.problem);
  const { text } = read;
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
  const typescript = typescriptParser();
  const sourceFile = typescript.createSourceFile(file, text, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
  const syntax = syntaxProblems(file, sourceFile);
  if (syntax.problems.length > 0) return { read: undefined, ...syntax };
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
  return readFrom(file, readStaticValue(sourceFile, found.expression));
}
