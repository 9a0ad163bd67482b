/**
 * Finds the one export of a `*.permissions.ts` file that carries its definitions. Two of them (two
 * `export default`, or one beside `export const definitions`), or an export form the static reader
 * does not follow but that could carry definitions (`export =`, `export { x as default }`,
 * `export * from`, `export default function`…), is a problem naming the line: a file must never
 * mean something else than what is read.
 */
import type { ts } from 'ts-morph';
import type { CompileProblem } from '../problems/compile-problem.js';
import { typescriptParser, type TypeScript } from './typescript-parser.js';
import { OffsetPositions, type Position } from './value-positions.js';

/** An export that carries the definitions, as the reader understands them. */
interface DefinitionsExport {
  readonly form: string;
  readonly node: ts.Node;
  readonly expression: ts.Expression;
}

const EXPORT_FORMS_FIX =
  'Export the definitions once, as `export default [ ... ] satisfies PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.';

function hasModifier(typescript: TypeScript, node: ts.Node, kind: ts.SyntaxKind): boolean {
  return typescript.canHaveModifiers(node) && (typescript.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
}

function bindsName(typescript: TypeScript, name: ts.BindingName, wanted: string): boolean {
  if (typescript.isIdentifier(name)) return name.text === wanted;
  return name.elements.some((element) => !typescript.isOmittedExpression(element) && bindsName(typescript, element.name, wanted));
}

/** The keyword a variable statement declares with: `const`, `let`, `var`, `using` or `await using`. */
function declarationKeyword(typescript: TypeScript, list: ts.VariableDeclarationList): string {
  const { NodeFlags } = typescript;
  const keywords = new Map<number, string>([
    [NodeFlags.Const, 'const'],
    [NodeFlags.Let, 'let'],
    [NodeFlags.Using, 'using'],
    [NodeFlags.AwaitUsing, 'await using'],
  ]);
  return keywords.get(list.flags & NodeFlags.BlockScoped) ?? 'var';
}

/** Whether `identifier` names the binding in code that runs: not a property's or member's name, not a name in a type. */
function isReference(typescript: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  if (typescript.isPropertyAccessExpression(parent) && parent.name === identifier) return false;
  if (typescript.isQualifiedName(parent) || typescript.isTypeReferenceNode(parent) || typescript.isTypeQueryNode(parent)) return false;
  const named = parent as ts.Node & { readonly name?: ts.Node };
  const nameOfMember =
    typescript.isPropertyAssignment(parent) ||
    typescript.isPropertySignature(parent) ||
    typescript.isPropertyDeclaration(parent) ||
    typescript.isMethodDeclaration(parent) ||
    // A declaration's own name: a second export is its own problem (duplicate-export, unsupported-export).
    typescript.isVariableDeclaration(parent) ||
    typescript.isFunctionDeclaration(parent) ||
    typescript.isClassDeclaration(parent);
  return !(nameOfMember && named.name === identifier);
}

/** The exports of one file, as they are found statement by statement. */
class ExportSearch {
  readonly exports: DefinitionsExport[] = [];
  readonly problems: CompileProblem[] = [];

  private readonly typescript = typescriptParser();
  private readonly positions: OffsetPositions;

  constructor(
    private readonly file: string,
    private readonly sourceFile: ts.SourceFile,
  ) {
    this.positions = new OffsetPositions(sourceFile.text, sourceFile.getLineStarts());
  }

  at(node: ts.Node): Position {
    return this.positions.at(node.getStart(this.sourceFile));
  }

  visit(statement: ts.Statement): void {
    const { typescript } = this;
    if (typescript.isExportAssignment(statement)) {
      if (statement.isExportEquals) this.unsupported(statement, '`export =`');
      else this.exports.push({ form: '`export default`', node: statement, expression: statement.expression });
    } else if (typescript.isVariableStatement(statement) && hasModifier(typescript, statement, typescript.SyntaxKind.ExportKeyword)) {
      this.visitVariables(statement);
    } else if (
      (typescript.isFunctionDeclaration(statement) || typescript.isClassDeclaration(statement)) &&
      hasModifier(typescript, statement, typescript.SyntaxKind.ExportKeyword)
    ) {
      const kind = typescript.isFunctionDeclaration(statement) ? 'function' : 'class';
      if (hasModifier(typescript, statement, typescript.SyntaxKind.DefaultKeyword)) this.unsupported(statement, `\`export default ${kind}\``);
      else if (statement.name?.text === 'definitions') this.unsupported(statement, `An exported ${kind} named \`definitions\``);
    } else if (typescript.isExportDeclaration(statement) && !statement.isTypeOnly) {
      this.visitExportDeclaration(statement);
    }
  }

  private visitVariables(statement: ts.VariableStatement): void {
    const { typescript } = this;
    const keyword = declarationKeyword(typescript, statement.declarationList);
    for (const declaration of statement.declarationList.declarations) {
      if (!bindsName(typescript, declaration.name, 'definitions')) continue;
      // The module may assign or push to a `let` or `var` later: what it exports would not be the literal read here.
      if (keyword !== 'const') this.unsupported(declaration, `\`export ${keyword} definitions\` (which the file can assign again)`);
      else if (!typescript.isIdentifier(declaration.name)) this.unsupported(declaration, 'A destructuring export of `definitions`');
      else if (declaration.initializer === undefined) this.unsupported(declaration, 'An export of `definitions` without a value');
      else this.exports.push({ form: '`export const definitions`', node: declaration, expression: declaration.initializer });
    }
  }

  /**
   * Every use of the name `definitions` outside its own declaration, as a problem: a const array can still be
   * changed (`definitions.push(...)`, a function that receives it), so what the module exports would not be the
   * literal read here.
   */
  checkUses(): void {
    const { typescript } = this;
    const visit = (node: ts.Node): void => {
      if (typescript.isIdentifier(node) && node.text === 'definitions' && isReference(typescript, node)) {
        this.problems.push({
          file: this.file,
          ...this.at(node),
          path: [],
          code: 'unsupported-export',
          message:
            '`definitions` is used again here: a const array can still be changed (a push, a function that receives it), ' +
            'so what the module exports could differ from the literal read.',
          fix: 'Write every definition in the literal of `export const definitions = [...]`, and use the name nowhere else in the file.',
        });
        return;
      }
      typescript.forEachChild(node, visit);
    };
    typescript.forEachChild(this.sourceFile, visit);
  }

  private visitExportDeclaration(statement: ts.ExportDeclaration): void {
    const { typescript } = this;
    const clause = statement.exportClause;
    if (clause === undefined) this.unsupported(statement, '`export * from`');
    else if (typescript.isNamespaceExport(clause)) {
      if (clause.name.text === 'default' || clause.name.text === 'definitions') this.unsupported(statement, `\`export * as ${clause.name.text}\``);
    } else {
      for (const element of clause.elements) {
        if (!element.isTypeOnly && (element.name.text === 'default' || element.name.text === 'definitions'))
          this.unsupported(element, `\`export { ${element.getText(this.sourceFile)} }\``);
      }
    }
  }

  private unsupported(node: ts.Node, form: string): void {
    this.problems.push({
      file: this.file,
      ...this.at(node),
      path: [],
      code: 'unsupported-export',
      message: `${form} is not read: definitions files are read statically, and only \`export default [...]\` or \`export const definitions = [...]\` count.`,
      fix: EXPORT_FORMS_FIX,
    });
  }
}

/**
 * The expression a `*.permissions.ts` file exports its definitions with, or the problems that make
 * it ambiguous; `expression` is `undefined` when there is a problem or no export at all.
 *
 * @example
 * ```ts
 * const { expression, problems } = findDefinitionsExport('document.permissions.ts', sourceFile);
 * ```
 */
export function findDefinitionsExport(file: string, sourceFile: ts.SourceFile): { expression: ts.Expression | undefined; problems: CompileProblem[] } {
  const search = new ExportSearch(file, sourceFile);
  for (const statement of sourceFile.statements) search.visit(statement);
  const { problems } = search;
  const [first, ...others] = search.exports;
  if (first?.form === '`export const definitions`') search.checkUses();
  for (const other of others) {
    problems.push({
      file,
      ...search.at(other.node),
      path: [],
      code: 'duplicate-export',
      message:
        `${other.form} exports definitions a second time ` +
        `(${first?.form} on line ${first === undefined ? 0 : search.at(first.node).line}); only one export can count.`,
      fix: 'Keep one export of the definitions: merge the arrays into one `export default [...]` or one `export const definitions = [...]`.',
    });
  }
  return { expression: problems.length === 0 ? first?.expression : undefined, problems };
}
