/**
 * Where the values of a file stand: a path into the value (keys and indexes) to its line and column. Both readers
 * (JSON and TypeScript) keep offsets and turn one into a line and column only when a problem is placed there.
 */
import { lineStarts } from 'typed-permissions/internal';
import type { ValuePath } from '../problems/compile-problem.js';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where each path of a value stands. */
export interface Positions {
  /** The position of the value at `path`, or of its nearest ancestor that has one; undefined when not even the root has. */
  nearest(path: ValuePath): Position | undefined;
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
  /** Problems met past the most a file lists (`MAX_PROBLEMS_PER_FILE`): counted, not kept. */
  readonly unlisted?: number;
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
  return positions.nearest(path);
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

/** Where one value starts, and the places of the values it holds, by key or index. */
export interface Place {
  readonly offset: number;
  children: Map<string | number, Place> | undefined;
}

const BYTE_ORDER_MARK = '\ufeff';

/**
 * The positions of a file's values: a tree of places along the value's own paths (so that a deep path or a long key
 * costs nothing per value below it), each an offset, turned into a line and column only when asked — a large folder
 * has millions of values, and only those with a problem are ever placed. It is also the one way the compiler turns an
 * offset of a file's text into a line and column: a leading byte order mark is no column (editors do not show it, and
 * the runtime's JSON reader does not count it), so line 1 reads the same with or without one.
 *
 * @example
 * ```ts
 * const positions = new OffsetPositions(text);
 * const root = positions.placeRoot(0);
 * positions.place(root, 0, 2);
 * positions.nearest([0, 'roles']); // { line: 1, column: 3 }
 * new OffsetPositions('\ufeff[1]').at(2); // { line: 1, column: 2 }
 * ```
 */
export class OffsetPositions implements Positions {
  private root: Place | undefined;
  /** Whether the text starts with a byte order mark, which the columns of line 1 do not count. */
  private readonly byteOrderMark: boolean;
  /** The offset at which each line of the text starts, ascending (the first is 0). */
  private readonly lineStarts: readonly number[];

  /** `starts`: the offsets at which the lines of `text` start, when already known (TypeScript keeps them on a source file). */
  constructor(text: string, starts: readonly number[] = lineStarts(text)) {
    this.byteOrderMark = text.startsWith(BYTE_ORDER_MARK);
    this.lineStarts = starts;
  }

  /** Records that the file's value (the root of every path) starts at `offset`; returns its place. */
  placeRoot(offset: number): Place {
    this.root = { offset, children: undefined };
    return this.root;
  }

  /**
   * Records that `parent`'s child `part` starts at `offset`, replacing what was recorded there (a key written twice:
   * the last counts, as in `JSON.parse`). Returns its place, the parent of its children.
   */
  place(parent: Place, part: string | number, offset: number): Place {
    const place: Place = { offset, children: undefined };
    (parent.children ??= new Map<string | number, Place>()).set(part, place);
    return place;
  }

  nearest(path: ValuePath): Position | undefined {
    let found = this.root;
    for (const part of path) {
      const child = found?.children?.get(part);
      if (child === undefined) break;
      found = child;
    }
    return found === undefined ? undefined : this.at(found.offset);
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
    const skipped = low === 0 && this.byteOrderMark && offset > 0 ? 1 : 0;
    return { line: low + 1, column: offset - (this.lineStarts[low] as number) + 1 - skipped };
  }
}
