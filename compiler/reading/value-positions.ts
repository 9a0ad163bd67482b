/**
 * Where the values of a file stand: a path into the value (keys and indexes) to its line and column. Both readers
 * (JSON and TypeScript) keep offsets and turn one into a line and column only when a problem is placed there.
 */
import type { ValuePath } from '../problems/compile-problem.js';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where each path of a value stands, by {@link pathKey}. */
export interface Positions {
  get(key: string): Position | undefined;
}

/** A problem met while reading a literal: something that is not a static value, or a duplicate key. */
export interface StaticValueProblem {
  readonly code: 'not-static' | 'duplicate-key';
  readonly path: ValuePath;
  readonly position: Position;
  readonly message: string;
  readonly fix: string;
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

/**
 * The problem of a key written twice in one object (`path` ends with the key), at the second one.
 *
 * @example
 * ```ts
 * duplicateKeyProblem(['definitions', 0, 'roles'], { line: 4, column: 5 });
 * ```
 */
export function duplicateKeyProblem(path: ValuePath, position: Position): StaticValueProblem {
  return {
    code: 'duplicate-key',
    path,
    position,
    message: `Key ${JSON.stringify(path[path.length - 1])} appears twice in the same object; only one can count.`,
    fix: 'Remove one of the two keys, or merge their values.',
  };
}

/**
 * The positions of a file's values, kept as offsets and turned into a line and column only when asked: a large folder
 * has millions of values, and only those with a problem are ever placed.
 *
 * @example
 * ```ts
 * const positions = new OffsetPositions(lineStarts(text));
 * positions.starts.set(pathKey([0]), 2);
 * positions.get(pathKey([0])); // { line: 1, column: 3 }
 * ```
 */
export class OffsetPositions implements Positions {
  readonly starts = new Map<string, number>();

  /** `lineStarts`: the offset at which each line of the file starts, ascending (the first is 0). */
  constructor(private readonly lineStarts: readonly number[]) {}

  get(key: string): Position | undefined {
    const start = this.starts.get(key);
    return start === undefined ? undefined : this.at(start);
  }

  /** The line and column of `offset`. */
  at(offset: number): Position {
    // The last line that starts at or before the offset.
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lineStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (this.lineStarts[low] as number) + 1 };
  }
}
