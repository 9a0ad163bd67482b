/**
 * One resource's cells as packed numbers (see packed-numbers.ts): the distinct bodies of its cells once each, then
 * every cell as its action, role and body number. Actions and roles are written as differences from the cell
 * before (cells are sorted by action, then role), and a body's sources as differences from the source before, so
 * that most numbers take one or two characters. Reading makes the cells, unchecked: the caller checks them as
 * it checks any tables, so a text that decodes to wrong indexes is refused by the same rules.
 */
import { PackedNumberReader, PackedTextError, packNumbers } from './packed-numbers.js';

/** The part of a cell that many cells of a resource share: `[anyPlan, own, owners, sources]`. */
export type CellBody = readonly [anyPlan: number, own: readonly number[], owners: readonly number[], sources: readonly number[]];

/** A signed difference as an unsigned number: 0, -1, 1, -2 … → 0, 1, 2, 3 …. */
const zigzag = (difference: number): number => (difference >= 0 ? 2 * difference : -2 * difference - 1);
/**
 * A number written by `zigzag` as the signed difference it stands for. A packed number is below 2^30 (six characters
 * of five bits), so integer operations do it and keep it a small integer.
 *
 * @example
 * ```ts
 * unzigzag(3); // -2
 * ```
 */
export const unzigzag = (number: number): number => (number >>> 1) ^ -(number & 1);

/**
 * Packs a resource's distinct `bodies` and its cells' `entries` (action, role and body number per cell, in the
 * tables' order: by action, then role).
 *
 * @example
 * ```ts
 * packCells([[0, [], [], [8]]], [1, 0, 0, 1, 2, 0]); // '11001G2100020'
 * ```
 */
export function packCells(bodies: readonly CellBody[], entries: readonly number[]): string {
  const numbers: number[] = [bodies.length];
  let source = 0;
  for (const [anyPlan, own, owners, sources] of bodies) {
    numbers.push(anyPlan + 1, own.length, ...own, owners.length, ...owners, sources.length);
    for (const next of sources) {
      numbers.push(zigzag(next - source));
      source = next;
    }
  }
  numbers.push(entries.length / 3);
  let action = 0;
  let role = 0;
  for (let i = 0; i < entries.length; i += 3) {
    const [nextAction, nextRole, body] = [entries[i] as number, entries[i + 1] as number, entries[i + 2] as number];
    const sameAction = nextAction === action && i > 0;
    // Sorted cells never step back; were they not, the pack would throw rather than write other cells.
    numbers.push(nextAction - action, sameAction ? nextRole - role : nextRole, body);
    action = nextAction;
    role = nextRole;
  }
  return packNumbers(numbers);
}

/**
 * A list of `count` numbers read from `reader`, its length bounded by what the text still holds. Made by pushing
 * onto an empty list, so that it is a packed array like every list the builder makes: the lists end up in the
 * combinations the decision path reads, which stays fast only while it sees one kind of array.
 */
function list(reader: PackedNumberReader): number[] {
  const numbers: number[] = [];
  for (let count = reader.next(); count > 0; count--) numbers.push(reader.next());
  return numbers;
}

/**
 * The cells of resource number `resource` from their packed text, unchecked (a body number past the bodies
 * gives a cell without its body's fields). Throws a PackedTextError when the text is not packed numbers in this
 * layout.
 *
 * @example
 * ```ts
 * unpackCells('11001G2100020', 2); // [[2, 1, 0, 0, [], [], [8]], [2, 1, 2, 0, [], [], [8]]]
 * ```
 */
export function unpackCells(text: string, resource: number): unknown[] {
  const reader = new PackedNumberReader(text);
  const bodies: CellBody[] = [];
  let source = 0;
  for (let count = reader.next(); count > 0; count--) {
    const anyPlan = reader.next() - 1;
    const own = list(reader);
    const owners = list(reader);
    // Each source is the difference from the one before: summed in place.
    const sources = list(reader);
    for (let i = 0; i < sources.length; i++) sources[i] = source += unzigzag(sources[i] as number);
    bodies.push([anyPlan, own, owners, sources]);
  }
  const cells: unknown[] = [];
  let action = 0;
  let role = 0;
  for (let count = reader.next(); count > 0; count--) {
    const step = reader.next();
    action += step;
    role = step === 0 && cells.length > 0 ? role + reader.next() : reader.next();
    const body = bodies[reader.next()];
    cells.push(body === undefined ? [resource, action, role] : [resource, action, role, body[0], body[1], body[2], body[3]]);
  }
  if (!reader.atEnd) throw new PackedTextError('it goes on after the last cell');
  return cells;
}
