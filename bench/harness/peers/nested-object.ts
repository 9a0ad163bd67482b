/**
 * The practical floor: a hand-written nested object `table[role][resource][action]` for decisions
 * (several roles: a loop), and hand-written projection functions for the pinned attribute rules.
 */
import type { FillerRecord, Showcase } from '../scenario.js';
import type { CountingOwnership } from './counting-ownership.js';
import type { Decider, DecisionQuery, FilterPicker, Picker, PickFunction } from './peer.js';
import type { PeerRule } from './rules.js';

/** `table[role][resource][action] === true` when granted in some possession. */
export type NestedTable = Record<string, Record<string, Record<string, true>>>;

/**
 * The nested object of expanded rules.
 *
 * @example
 * ```ts
 * const table = nestedTable(flattenRules(scenario.definitions, { expand: true }));
 * table['EMPLOYEE']?.['document']?.['read']; // true
 * ```
 */
export function nestedTable(rules: readonly PeerRule[]): NestedTable {
  const table: NestedTable = {};
  for (const { role, resource, action } of rules) ((table[role] ??= {})[resource] ??= {})[action] = true;
  return table;
}

/**
 * The nested-object lookup as a decider.
 *
 * @example
 * ```ts
 * const check = await nestedObjectDecider(nestedTable(expandedRules)).prepare(queries);
 * check(0); // query 0 granted?
 * ```
 */
export function nestedObjectDecider(table: NestedTable): Decider {
  return {
    name: 'nested object (baseline)',
    crudOnly: false,
    prepare: (queries) =>
      Promise.resolve((i: number) => {
        const { user, resource, action } = queries[i] as DecisionQuery;
        const roles = user.roles;
        for (let r = 0; r < roles.length; r++) if (table[roles[r] as string]?.[resource]?.[action] === true) return true;
        return false;
      }),
  };
}

/**
 * `['*', '!secret', '!notes']`, written out.
 *
 * @example
 * ```ts
 * projectExclude(fillerRecord(42, 1)); // every field but secret and notes
 * ```
 */
export const projectExclude = (r: FillerRecord) => ({
  id: r.id,
  name: r.name,
  status: r.status,
  ownerId: r.ownerId,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  amount: r.amount,
  tags: r.tags,
});
/**
 * `['id', 'name', 'status', 'createdAt', 'amount']`, written out.
 *
 * @example
 * ```ts
 * projectInclude(fillerRecord(42, 1)); // { id, name, status, createdAt, amount }
 * ```
 */
export const projectInclude = (r: FillerRecord) => ({ id: r.id, name: r.name, status: r.status, createdAt: r.createdAt, amount: r.amount });
/**
 * `['*', '!secret']` (own read), written out.
 *
 * @example
 * ```ts
 * projectOwnedRead(fillerRecord(42, 1)); // every field but secret
 * ```
 */
export const projectOwnedRead = (r: FillerRecord) => ({
  id: r.id,
  name: r.name,
  status: r.status,
  ownerId: r.ownerId,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  amount: r.amount,
  tags: r.tags,
  notes: r.notes,
});
/**
 * `['id', 'name', 'status']` (any read), written out.
 *
 * @example
 * ```ts
 * projectAnyRead(fillerRecord(42, 1)); // { id, name, status }
 * ```
 */
export const projectAnyRead = (r: FillerRecord) => ({ id: r.id, name: r.name, status: r.status });

/**
 * The hand-written projection for each pinned pick case.
 *
 * @example
 * ```ts
 * const pick = await handWrittenPicker(scenario.showcase).prepare(pickCase);
 * pick(record); // an object literal of the allowed fields
 * ```
 */
export function handWrittenPicker(showcase: Showcase): Picker {
  return {
    name: 'hand-written projection (baseline)',
    prepare: ({ resource }): Promise<PickFunction> => {
      if (resource === showcase.pickExclude.resource) return Promise.resolve(projectExclude);
      if (resource === showcase.pickInclude.resource) return Promise.resolve(projectInclude);
      return Promise.reject(new Error(`no hand-written projection for ${resource}`));
    },
  };
}

/**
 * The hand-written list: one listOwned query, then a projection per item by ownership.
 *
 * @example
 * ```ts
 * const filterPick = await handWrittenFilterPicker(ownership).prepare(pickCase);
 * await filterPick(records); // the visible records, each projected
 * ```
 */
export function handWrittenFilterPicker(ownership: CountingOwnership): FilterPicker {
  return {
    name: 'hand-written (baseline)',
    prepare: ({ user }) =>
      Promise.resolve((items: readonly FillerRecord[]) => {
        const owned = new Set(ownership.listOwnedRecords({ user }));
        return items.map((item) => (owned.has(item.id) ? projectOwnedRead(item) : projectAnyRead(item)));
      }),
  };
}
