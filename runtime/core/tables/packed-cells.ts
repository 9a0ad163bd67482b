/**
 * One resource's cells as packed numbers (see packed-numbers.ts), grouped by role: the distinct shapes of its cells
 * (`[anyPlan, own, owners]`) once each, then every role that has cells, each with its groups — the cells of the
 * role that share a shape and the definitions they come from, written as the shape's number, the set of their
 * actions (bits), and those definitions. A role's cells on a resource mostly come from one definition and share a
 * shape, so they are one group: a role with four actions costs about as much as one with one. Roles are written
 * as differences from the role before, definitions as differences from the definition before (zigzag-signed), so
 * that most numbers take one or two characters. Reading makes the cells in the tables' order (by action, then
 * role), unchecked: the caller checks them as it checks any tables, so a text that decodes to wrong indexes is
 * refused by the same rules. What reading makes is bounded by the tables' actions and roles, whatever the text.
 */
import { PackedNumberReader, PackedTextError, packNumbers } from './packed-numbers.js';

/** What a cell holds beyond its action and role, as the tables hold it: `[anyPlan, own, owners, sources]`. */
export type CellBody = readonly [anyPlan: number, own: readonly number[], owners: readonly number[], sources: readonly number[]];

/** Actions per number of an action set: a packed number holds 30 bits. */
export const ACTIONS_PER_WORD = 30;

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

/** The cells of one role on the resource: per body number, the bits of its actions. */
type RoleGroups = Map<number, number[]>;

/**
 * Packs a resource's distinct `bodies` and its cells' `entries` (action, role and body number per cell). Throws a
 * RangeError for a cell written twice (an action and role met again), which the packed form cannot hold, and for
 * a body number past the bodies.
 *
 * @example
 * ```ts
 * packCells([[0, [], [], [8]]], [1, 0, 0, 1, 2, 0]); // '11002101021G210210'
 * ```
 */
export function packCells(bodies: readonly CellBody[], entries: readonly number[]): string {
  const shapeNumbers = new Map<string, number>();
  const shapes: number[][] = [];
  const shapeOf = bodies.map(([anyPlan, own, owners]) => {
    const numbers = [anyPlan + 1, own.length, ...own, owners.length, ...owners];
    const key = numbers.join(',');
    let number = shapeNumbers.get(key);
    if (number === undefined) shapeNumbers.set(key, (number = shapes.push(numbers) - 1));
    return number;
  });
  let words = 0;
  const roles = new Map<number, RoleGroups>();
  for (let i = 0; i < entries.length; i += 3) {
    const [action, role, body] = [entries[i] as number, entries[i + 1] as number, entries[i + 2] as number];
    if (!(body in shapeOf)) throw new RangeError(`the cell of action ${action} and role ${role} names body ${body}, past the ${bodies.length} bodies`);
    const [word, bit] = [Math.floor(action / ACTIONS_PER_WORD), 1 << (action % ACTIONS_PER_WORD)];
    words = Math.max(words, word + 1);
    let groups = roles.get(role);
    if (groups === undefined) roles.set(role, (groups = new Map<number, number[]>()));
    for (const bits of groups.values())
      if (((bits[word] ?? 0) & bit) !== 0) throw new RangeError(`the cell of action ${action} and role ${role} is written twice`);
    let bits = groups.get(body);
    if (bits === undefined) groups.set(body, (bits = []));
    bits[word] = (bits[word] ?? 0) | bit;
  }
  const numbers: number[] = [shapes.length, ...shapes.flat(), roles.size];
  if (roles.size > 0) numbers.push(words);
  let [previousRole, source] = [0, 0];
  for (const role of [...roles.keys()].sort((a, b) => a - b)) {
    const groups = roles.get(role) as RoleGroups;
    numbers.push(role - previousRole, groups.size);
    previousRole = role;
    for (const body of [...groups.keys()].sort((a, b) => a - b)) {
      const bits = groups.get(body) as number[];
      const sources = (bodies[body] as CellBody)[3];
      numbers.push(shapeOf[body] as number);
      for (let word = 0; word < words; word++) numbers.push(bits[word] ?? 0);
      numbers.push(sources.length);
      for (const next of sources) {
        numbers.push(zigzag(next - source));
        source = next;
      }
    }
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

/** The bounds of what packed cells may name: the tables' actions and roles. */
export interface PackedCellLimits {
  readonly actions: number;
  readonly roles: number;
}

/**
 * The cells of resource number `resource` from their packed text, unchecked (a shape number past the shapes gives
 * cells without a body's fields), in the tables' order. Throws a PackedTextError when the text is not packed
 * cells in this layout, or makes more cells than `limits` allow a resource (every role with every action): what
 * reading makes stays bounded whatever the text.
 *
 * @example
 * ```ts
 * unpackCells('11002101021G210210', 2, { actions: 2, roles: 3 }); // [[2, 1, 0, 0, [], [], [8]], [2, 1, 2, 0, [], [], [8]]]
 * ```
 */
export function unpackCells(text: string, resource: number, limits: PackedCellLimits): unknown[] {
  const reader = new PackedNumberReader(text);
  const shapes: [anyPlan: number, own: number[], owners: number[]][] = [];
  for (let count = reader.next(); count > 0; count--) shapes.push([reader.next() - 1, list(reader), list(reader)]);
  const roles = reader.next();
  const words = roles > 0 ? reader.next() : 0;
  const byAction: unknown[][] = [];
  let [made, role, source] = [0, 0, 0];
  for (let r = 0; r < roles; r++) {
    role = r === 0 ? reader.next() : role + reader.next();
    for (let groups = reader.next(); groups > 0; groups--) {
      const shape = shapes[reader.next()];
      const bits: number[] = [];
      for (let word = 0; word < words; word++) bits.push(reader.next());
      // Each source is the difference from the one before: summed in place.
      const sources = list(reader);
      for (let i = 0; i < sources.length; i++) sources[i] = source += unzigzag(sources[i] as number);
      for (let action = 0; action < words * ACTIONS_PER_WORD; action++) {
        if (((bits[Math.floor(action / ACTIONS_PER_WORD)] as number) & (1 << (action % ACTIONS_PER_WORD))) === 0) continue;
        if (++made > limits.actions * limits.roles) throw new PackedTextError(`it holds more cells than ${limits.roles} roles with ${limits.actions} actions`);
        (byAction[action] ??= []).push(shape === undefined ? [resource, action, role] : [resource, action, role, shape[0], shape[1], shape[2], sources]);
      }
    }
  }
  if (!reader.atEnd) throw new PackedTextError('it goes on after the last cell');
  const cells: unknown[] = [];
  for (const group of byAction) if (group !== undefined) for (const cell of group) cells.push(cell);
  return cells;
}
