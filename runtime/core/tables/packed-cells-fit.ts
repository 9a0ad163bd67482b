/**
 * Checking a resource's packed cells (packed-cells.ts) without making them: a tenant's compiled custom roles are
 * checked whole when they are read, and making every cell only to check it would allocate what a decision then
 * decodes again (and what the collector pauses for, on every cold tenant). Only the tenant's chunk imports it.
 */
import { unzigzag } from './packed-cells.js';
import { PackedNumberReader, PackedTextError } from './packed-numbers.js';

/** What each number of a table's packed cells may be: for {@link packedCellsFit}. */
export interface PackedCellBounds {
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
 * Whether a resource's packed cells are well formed within `bounds` — every body and every cell, in order, each
 * once — read without making them: what a tenant's compiled custom roles are checked with when they are read (a
 * check that makes the cells would allocate what a decision then decodes again). It says yes or no only; the cells'
 * check after `unpackCells` says where a text is wrong. Stricter than that check in one way: a body no cell
 * uses must be well formed too.
 *
 * @example
 * ```ts
 * packedCellsFit('11001G2100020', 2, bounds); // true
 * ```
 */
export function packedCellsFit(text: string, resource: number, bounds: PackedCellBounds): boolean {
  const reader = new PackedNumberReader(text);
  try {
    const bodies = reader.next();
    let source = 0;
    for (let b = 0; b < bodies; b++) {
      const anyPlan = reader.next() - 1;
      if (anyPlan >= bounds.plans) return false;
      const own = reader.next();
      if (own % 2 !== 0) return false;
      for (let k = 0; k < own; k++) if (reader.next() >= (k % 2 === 0 ? bounds.owners : bounds.plans)) return false;
      for (let k = reader.next(); k > 0; k--) {
        const group = reader.next();
        if (group >= bounds.owners || !bounds.decides(group, resource)) return false;
      }
      for (let k = reader.next(); k > 0; k--) {
        source += unzigzag(reader.next());
        if (source < 0 || source >= bounds.sources) return false;
      }
    }
    let action = 0;
    let role = 0;
    for (let count = reader.next(), first = true; count > 0; count--, first = false) {
      const step = reader.next();
      action += step;
      if (step === 0 && !first) {
        // The same action: the role steps forward, so that no cell comes twice.
        const roleStep = reader.next();
        if (roleStep === 0) return false;
        role += roleStep;
      } else role = reader.next();
      if (!bounds.takes(resource, action) || role >= bounds.roles || reader.next() >= bodies) return false;
    }
    return reader.atEnd;
  } catch (error) {
    if (error instanceof PackedTextError) return false;
    throw error;
  }
}
