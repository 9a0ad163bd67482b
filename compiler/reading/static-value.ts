/**
 * Reads literal values out of a TypeScript syntax tree without running anything, and remembers where every value
 * stands, so that a problem at `grant[2]` can name its line and column. `*.permissions.ts` files go through this
 * reader; JSON files through the runtime's JSON scanner (read-json-file.ts), with the same positions and problems.
 */
import type { ts } from 'ts-morph';
import type { ValuePath } from '../problems/compile-problem.js';
import { typescriptParser, type TypeScript } from './typescript-parser.js';
import { CappedList, MAX_PROBLEMS_PER_FILE } from '../problems/problem-cap.js';
import { duplicateKeyProblem, OffsetPositions, type Place, type Position, type StaticValue, type StaticValueProblem } from './value-positions.js';

function unwrap(typescript: TypeScript, node: ts.Node): ts.Node {
  let current = node;
  while (
    typescript.isParenthesizedExpression(current) ||
    typescript.isAsExpression(current) ||
    typescript.isSatisfiesExpression(current) ||
    typescript.isTypeAssertionExpression(current)
  )
    current = current.expression;
  return current;
}

function propertyName(typescript: TypeScript, name: ts.PropertyName): string | undefined {
  if (
    typescript.isIdentifier(name) ||
    typescript.isStringLiteral(name) ||
    typescript.isNumericLiteral(name) ||
    typescript.isNoSubstitutionTemplateLiteral(name)
  )
    return name.text;
  return undefined;
}

/** What an object member that is not `key: value` is called in a message. */
function constructName(typescript: TypeScript, property: ts.ObjectLiteralElementLike): string {
  if (typescript.isShorthandPropertyAssignment(property)) return 'A shorthand property';
  if (typescript.isSpreadAssignment(property)) return 'A spread (...)';
  if (typescript.isMethodDeclaration(property)) return 'A method';
  return 'A computed property';
}

/** Returned by {@link scalarValue} for a node that is not a scalar literal: a symbol, which no literal can be mistaken for. */
const NOT_SCALAR = Symbol('not a scalar');

/** The literal value of a scalar node (string, number, negative number, boolean, null), or `NOT_SCALAR`. */
function scalarValue(typescript: TypeScript, node: ts.Node): unknown {
  const { SyntaxKind } = typescript;
  if (typescript.isStringLiteral(node) || typescript.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (typescript.isNumericLiteral(node)) return Number(node.text);
  if (typescript.isPrefixUnaryExpression(node) && node.operator === SyntaxKind.MinusToken && typescript.isNumericLiteral(node.operand))
    return -Number(node.operand.text);
  if (node.kind === SyntaxKind.TrueKeyword) return true;
  if (node.kind === SyntaxKind.FalseKeyword) return false;
  if (node.kind === SyntaxKind.NullKeyword) return null;
  return NOT_SCALAR;
}

/** One read of a literal: the positions and problems it collects as it walks the tree. */
class StaticReader {
  readonly positions: OffsetPositions;
  // A file of a million spreads is a million problems: the first are kept, the others counted.
  readonly problems = new CappedList<StaticValueProblem>(MAX_PROBLEMS_PER_FILE);

  constructor(
    private readonly typescript: TypeScript,
    private readonly sourceFile: ts.SourceFile,
  ) {
    this.positions = new OffsetPositions(sourceFile.text, sourceFile.getLineStarts());
  }

  /** The value at `path` (whose parent value's place is `parent`, none for the root). */
  read(raw: ts.Node, path: ValuePath, parent: Place | undefined): unknown {
    const { typescript } = this;
    const node = unwrap(typescript, raw);
    const start = node.getStart(this.sourceFile);
    const place = parent === undefined ? this.positions.placeRoot(start) : this.positions.place(parent, path[path.length - 1] as string | number, start);
    const scalar = scalarValue(typescript, node);
    if (scalar !== NOT_SCALAR) return scalar;
    if (typescript.isArrayLiteralExpression(node)) return this.readArray(node, path, place);
    if (typescript.isObjectLiteralExpression(node)) return this.readObject(node, path, place);
    this.problems.push({
      code: 'not-static',
      path,
      position: this.at(node),
      message:
        typescript.isArrowFunction(node) || typescript.isFunctionExpression(node)
          ? 'A function is not a static value.'
          : `${typescript.SyntaxKind[node.kind]} is not a static value.`,
      fix: 'Definition files are read without running them: write literals only, and name hooks with method-name strings of the ownership service.',
    });
    return undefined;
  }

  private at(node: ts.Node): Position {
    return this.positions.at(node.getStart(this.sourceFile));
  }

  private readArray(node: ts.ArrayLiteralExpression, path: ValuePath, place: Place): unknown[] {
    return node.elements.map((element, i) => {
      if (!this.typescript.isSpreadElement(element)) return this.read(element, [...path, i], place);
      this.problems.push({
        code: 'not-static',
        path: [...path, i],
        position: this.at(element),
        message: 'A spread (...) is not a static value.',
        fix: 'Write the elements out: definition files are read without running them.',
      });
      return undefined;
    });
  }

  private readObject(node: ts.ObjectLiteralExpression, path: ValuePath, place: Place): Record<string, unknown> {
    const { typescript } = this;
    // Built with defineProperty: a key named "__proto__" must stay a plain key, never set the prototype.
    const object: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const property of node.properties) {
      const name = typescript.isPropertyAssignment(property) ? propertyName(typescript, property.name) : undefined;
      if (!typescript.isPropertyAssignment(property) || name === undefined) {
        this.problems.push({
          code: 'not-static',
          path,
          position: this.at(property),
          message: `${constructName(typescript, property)} is not a static value.`,
          fix: 'Write `key: literal`; hooks are method-name strings, for example isOwner: "isCreator".',
        });
      } else if (seen.has(name)) {
        this.problems.push(duplicateKeyProblem([...path, name], this.at(property)));
      } else {
        seen.add(name);
        Object.defineProperty(object, name, {
          value: this.read(property.initializer, [...path, name], place),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return object;
  }
}

/**
 * Reads the literal at `node`: objects, arrays, strings, numbers, booleans and null; `as const`,
 * `satisfies` and parentheses are looked through. Anything else (a variable, a call, a function,
 * a spread) is reported, because definitions are read statically and never executed.
 *
 * @example
 * ```ts
 * const file = ts.createSourceFile('a.ts', 'export default [{ roles: "A" }]', ts.ScriptTarget.Latest, true);
 * readStaticValue(file, expression).value; // [{ roles: 'A' }]
 * ```
 */
export function readStaticValue(sourceFile: ts.SourceFile, root: ts.Node): StaticValue {
  const reader = new StaticReader(typescriptParser(), sourceFile);
  const value = reader.read(root, [], undefined);
  return { value, positions: reader.positions, problems: reader.problems.kept, unlisted: reader.problems.unlisted };
}
