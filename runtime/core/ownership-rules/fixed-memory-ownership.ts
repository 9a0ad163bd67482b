/**
 * Ownership rules over records that never change while they are asked about: a policy test file's. Kept apart from
 * memoryOwnership so that a page, which loads that, does not load this (policy tests are loaded when first run).
 */
import { checkedOwnershipIds } from './ownership-ids.js';
import { ownershipPredicate, type OwnershipRecord } from './in-memory-ownership.js';
import { idOf, memoryOwnership, recordsIn } from './memory-ownership.js';
import type { OwnershipQuestion, OwnershipRuleSource } from './ownership-rule-source.js';

/** A rule source over records that never change, and the record it finds by resource and id. */
export interface FixedMemoryOwnership extends OwnershipRuleSource<(record: OwnershipRecord) => boolean> {
  /** The record of `resource` whose `id` is `id` (compared with `===`, as every question compares), or undefined. */
  record(resource: string, id: unknown): OwnershipRecord | undefined;
}

/**
 * A rule source over records that never change (a policy test file's): each resource's records are indexed by id
 * once, so a question reads the records it names rather than every record of the resource, which memoryOwnership
 * must do on every question since its lists may change between questions. A resource without records here is a
 * PermissionsUsageError naming it, as there.
 *
 * @example
 * ```ts
 * const rules = fixedMemoryOwnership({ document: [{ id: 1, creatorId: 7 }], user: [] });
 * rules.record('document', 1); // { id: 1, creatorId: 7 }
 * rules.record('document', '1'); // undefined: ids are compared with ===
 * ```
 */
export function fixedMemoryOwnership(records: Readonly<Record<string, readonly OwnershipRecord[]>>): FixedMemoryOwnership {
  const source = memoryOwnership(records);
  const indexes = new Map<string, Map<unknown, OwnershipRecord>>();
  const indexOf = (resource: string): Map<unknown, OwnershipRecord> => {
    let index = indexes.get(resource);
    if (index === undefined) indexes.set(resource, (index = new Map(recordsIn(records, resource).map((record) => [idOf(record), record]))));
    return index;
  };
  const predicate = ({ scope, context, user, tenant }: OwnershipQuestion) =>
    ownershipPredicate(scope, context, user, (resource, id) => indexOf(resource).get(id), tenant);
  return {
    filter: predicate,
    ownedAmong: (question, ids) => {
      const asked = new Set<unknown>(checkedOwnershipIds(ids));
      const owns = predicate(question);
      const index = indexOf(question.context.resource);
      return Promise.resolve(
        [...asked].filter((id) => {
          const record = index.get(id);
          return record !== undefined && owns(record);
        }),
      );
    },
    listOwned: (question) => source.listOwned(question),
    record: (resource, id) => indexOf(resource).get(id),
  };
}
