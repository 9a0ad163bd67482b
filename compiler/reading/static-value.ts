/**
 * Reads literal values out of a TypeScript (or JSON) syntax tree without running anything, and
 * remembers where every value stands, so that a problem at `grant[2]` can name its line and column.
 * JSON files and `*.permissions.ts` files go through this one reader.
 */
import { ts } from 'ts-morph';
import type { ValuePath } from '../problems/compile-problem.js';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A problem met while reading a literal: something that is not a static value, or a duplicate key. */
export interface StaticValueProblem {
  readonly code: 'not-static' | 'duplicate-key';
  readonly path: ValuePath;
  readonly position: Position;
  readonly message: string;
  readonly fix: string;
}

/** Where each path of a value stands, by {@link pathKey}. */
export interface Positions {
  get(key: string): Position | undefined;
}

/** A value read from source, with the position of every path in it. */
export interface StaticValue {
  readonly value: unknown;
  readonly positions: Positions;
  readonly problems: readonly StaticValueProblem[];
}

/**
 * The key under which a path's position is stored.
 *
 * @example
 * ```ts
 * positions.get(pathKey(['definitions', 0]));
 * ```
 */
export function pathKey(path: ValuePath): string {
  return JSON.stringify(path);
}

/**
 * The position of `path`, or of its nearest ancestor that exists (a missing field points at its object).
 *
 * @example
 * ```ts
 * positionOf(read.positions, [0, 'roles']); // where definition 0 stands, when it has no roles
 * ```
 */
export function positionOf(positions: Positions, path: ValuePath): Position | undefined {
  for (let length = path.length; length >= 0; length--) {
    const found = positions.get(pathKey(path.slice(0, length)));
    if (found !== undefined) return found;
  }
  return undefined;
}

function unwrap(node: ts.Node): ts.Node {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current))
    current = current.expression;
  return current;
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

/** What an object member that is not `key: value` is called in a message. */
function constructName(property: ts.ObjectLiteralElementLike): string {
  if (ts.isShorthandPropertyAssignment(property)) return 'A shorthand property';
  if (ts.isSpreadAssignment(property)) return 'A spread (...)';
  if (ts.isMethodDeclaration(property)) return 'A method';
  return 'A computed property';
}

/** Returned by {@link scalarValue} for a node that is not a scalar literal: a symbol, which no literal can be mistaken for. */
const NOT_SCALAR = Symbol('not a scalar');

/** The literal value of a scalar node (string, number, negative number, boolean, null), or `NOT_SCALAR`. */
function scalarValue(node: ts.Node): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  return NOT_SCALAR;
}

/**
 * The positions of a file's values, kept as offsets and turned into a line and column only when asked: a large folder
 * has millions of values, and only those with a problem are ever placed.
 */
class SourcePositions implements Positions {
  readonly starts = new Map<string, number>();
  private readonly lineStarts: readonly number[];

  constructor(sourceFile: ts.SourceFile) {
    this.lineStarts = sourceFile.getLineStarts();
  }

  get(key: string): Position | undefined {
    const start = this.starts.get(key);
    if (start === undefined) return undefined;
    // The last line that starts at or before the offset.
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lineStarts[middle] as number) <= start) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: start - (this.lineStarts[low] as number) + 1 };
  }
}

/** One read of a literal: the positions and problems it collects as it walks the tree. */
class StaticReader {
  readonly positions: SourcePositions;
  readonly problems: StaticValueProblem[] = [];

  constructor(private readonly sourceFile: ts.SourceFile) {
    this.positions = new SourcePositions(sourceFile);
  }

  read(raw: ts.Node, path: ValuePath): unknown {
    const node = unwrap(raw);
    this.positions.starts.set(pathKey(path), node.getStart(this.sourceFile));
    const scalar = scalarValue(node);
    if (scalar !== NOT_SCALAR) return scalar;
    if (ts.isArrayLiteralExpression(node)) return this.readArray(node, path);
    if (ts.isObjectLiteralExpression(node)) return this.readObject(node, path);
    this.problems.push({
      code: 'not-static',
      path,
      position: this.at(node),
      message:
        ts.isArrowFunction(node) || ts.isFunctionExpression(node) ? 'A function is not a static value.' : `${ts.SyntaxKind[node.kind]} is not a static value.`,
      fix: 'Definition files are read without running them: write literals only, and name hooks with method-name strings of the ownership service.',
    });
    return undefined;
  }

  private at(node: ts.Node): Position {
    const { line, character } = this.sourceFile.getLineAndCharacterOfPosition(node.getStart(this.sourceFile));
    return { line: line + 1, column: character + 1 };
  }

  private readArray(node: ts.ArrayLiteralExpression, path: ValuePath): unknown[] {
    return node.elements.map((element, i) => {
      if (!ts.isSpreadElement(element)) return this.read(element, [...path, i]);
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

  private readObject(node: ts.ObjectLiteralExpression, path: ValuePath): Record<string, unknown> {
    // Built with defineProperty: a key named "__proto__" must stay a plain key, never set the prototype.
    const object: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const property of node.properties) {
      const name = ts.isPropertyAssignment(property) ? propertyName(property.name) : undefined;
      if (!ts.isPropertyAssignment(property) || name === undefined) {
        this.problems.push({
          code: 'not-static',
          path,
          position: this.at(property),
          message: `${constructName(property)} is not a static value.`,
          fix: 'Write `key: literal`; hooks are method-name strings, for example isOwner: "isCreator".',
        });
      } else if (seen.has(name)) {
        this.problems.push({
          code: 'duplicate-key',
          path: [...path, name],
          position: this.at(property),
          message: `Key ${JSON.stringify(name)} appears twice in the same object; only one can count.`,
          fix: 'Remove one of the two keys, or merge their values.',
        });
      } else {
        seen.add(name);
        Object.defineProperty(object, name, { value: this.read(property.initializer, [...path, name]), enumerable: true, writable: true, configurable: true });
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
export function readStaticValue(sourceFile: ts.SourceFile, root: ts.Node, rootPath: ValuePath = []): StaticValue {
  const reader = new StaticReader(sourceFile);
  const value = reader.read(root, rootPath);
  return { value, positions: reader.positions, problems: reader.problems };
}
