/**
 * Checking a resource's packed cells (packed-cells.ts) without making them: a tenant's compiled custom roles are
 * checked whole when they are read, and making every cell only to check it would allocate what a decision then
 * decodes again (and what the collector pauses for, on every cold tenant). Only the tenant's chunk imports it.
 */
import { ACTIONS_PER_WORD, unzigzag } from './packed-cells.js';
import { PackedNumberReader, PackedTextError } from './packed-numbers.js';

/** What each number of a table's packed cells may be: for {@link packedCellsFit}. */
export interface PackedCellBounds {
  /** The tables' actions. */
  readonly actions: number;
  readonly roles: number;
  readonly plans: number;
  readonly owners: number;
  /** The bound of a source: twice the definitions (each reached as any or own). */
  readonly sources: number;
  /** Whether resource number `resource` takes action number `action` (one of the tables' actions, and one it declares if it declares them). */
  takes(resource: number, action: number): boolean;
  /** Whether ownership group `group` (below `owners`) can decide ownership of the records of resource number `resource`. */
  decides(group: number, resource: number): boolean;
}

/**
 * Whether a resource's packed cells are well formed within `bounds` — every shape, every role in order, each
 * cell once — read without making them: what a tenant's compiled custom roles are checked with when they are read
 * (a check that makes the cells would allocate what a decision then decodes again). It says yes or no only; the
 * cells' check after `unpackCells` says where a text is wrong. Stricter than that check in two ways: a shape no
 * cell uses must be well formed too, and a role has no group without actions.
 *
 * @example
 * ```ts
 * packedCellsFit('11002101021G210210', 2, bounds); // true
 * ```
 */
export function packedCellsFit(text: string, resource: number, bounds: PackedCellBounds): boolean {
  const reader = new PackedNumberReader(text);
  try {
    const shapes = reader.next();
    for (let s = 0; s < shapes; s++) {
      const anyPlan = reader.next() - 1;
      if (anyPlan >= bounds.plans) return false;
      const own = reader.next();
      if (own % 2 !== 0) return false;
      for (let k = 0; k < own; k++) if (reader.next() >= (k % 2 === 0 ? bounds.owners : bounds.plans)) return false;
      for (let k = reader.next(); k > 0; k--) {
        const group = reader.next();
        if (group >= bounds.owners || !bounds.decides(group, resource)) return false;
      }
    }
    const roles = reader.next();
    const words = roles > 0 ? reader.next() : 0;
    if (words > Math.ceil(bounds.actions / ACTIONS_PER_WORD)) return false;
    // The actions each role has so far, a word of bits per number: each cell comes once.
    const seen = new Array<number>(words);
    let role = 0;
    let source = 0;
    for (let r = 0; r < roles; r++) {
      const step = reader.next();
      if (r > 0 && step === 0) return false;
      role = r === 0 ? step : role + step;
      if (role >= bounds.roles) return false;
      seen.fill(0);
      const groups = reader.next();
      if (groups === 0) return false;
      for (let g = 0; g < groups; g++) {
        if (reader.next() >= shapes) return false;
        let any = 0;
        for (let word = 0; word < words; word++) {
          const bits = reader.next();
          if ((bits & (seen[word] as number)) !== 0) return false;
          seen[word] = (seen[word] as number) | bits;
          any |= bits;
          for (let bit = 0; bit < ACTIONS_PER_WORD; bit++)
            if ((bits & (1 << bit)) !== 0 && !bounds.takes(resource, word * ACTIONS_PER_WORD + bit)) return false;
        }
        if (any === 0) return false;
        for (let k = reader.next(); k > 0; k--) {
          source += unzigzag(reader.next());
          if (source < 0 || source >= bounds.sources) return false;
        }
      }
    }
    return reader.atEnd;
  } catch (error) {
    if (error instanceof PackedTextError) return false;
    throw error;
  }
}
