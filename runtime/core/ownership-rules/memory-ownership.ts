/**
 * Ownership rules over records held in memory: arrays of plain objects per resource. It is the rule source of
 * policy tests and of applications whose records fit in memory, and its filter is a predicate for `Array.filter`.
 */
import { checkedOwnershipIds } from './ownership-ids.js';
import { PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import { ownershipPredicate, type OwnershipRecord } from './in-memory-ownership.js';
import type { OwnershipQuestion, OwnershipRuleSource } from './ownership-rule-source.js';
import { RELATED_ID_ATTRIBUTE } from './ownership-rule.js';

/** The records of each resource a rule reads: an array, or a function that returns the current one. */
export type MemoryRecords = Readonly<Record<string, readonly OwnershipRecord[] | (() => readonly OwnershipRecord[])>>;

/** A rule source over records in memory; its filter is a predicate. */
export interface MemoryOwnership extends OwnershipRuleSource<(record: OwnershipRecord) => boolean> {
  /**
   * The predicate of the records `permit` may list (every one when granted as any; none when not granted).
   *
   * @example
   * ```ts
   * const visible = documents.filter(rules.where(permit));
   * ```
   */
  where(permit: { ownershipScope(): OwnershipQuestion }): (record: OwnershipRecord) => boolean;
}

/**
 * The id of a record: its own `id` attribute.
 *
 * @example
 * ```ts
 * idOf({ id: 3, creatorId: 1 }); // 3
 * ```
 */
export function idOf(record: OwnershipRecord): unknown {
  return Object.hasOwn(record, RELATED_ID_ATTRIBUTE) ? (record as Record<string, unknown>)[RELATED_ID_ATTRIBUTE] : undefined;
}

/**
 * The current records of `resource` in `records`; a resource without an array (or a function returning one) is a
 * PermissionsUsageError naming it.
 *
 * @example
 * ```ts
 * recordsIn({ document: () => documents }, 'document'); // documents
 * ```
 */
export function recordsIn(records: MemoryRecords, resource: string): readonly OwnershipRecord[] {
  const given = Object.hasOwn(records, resource) ? records[resource] : undefined;
  const list = typeof given === 'function' ? given() : given;
  if (!Array.isArray(list))
    throw new PermissionsUsageError(`memoryOwnership has no records of ${quoteForMessage(resource)}: give an array (or a function returning one) for it.`);
  return list as readonly OwnershipRecord[];
}

/**
 * A rule source over `records`: each resource's records by name (arrays, or functions returning the current
 * array). Records are found by their `id` attribute; a resource a rule reads that has no records here is a
 * PermissionsUsageError naming it.
 *
 * @example
 * ```ts
 * const rules = memoryOwnership({ document: () => documents, user: users });
 * const permissions = createPermissions({ ownershipRules: rules });
 * ```
 */
export function memoryOwnership(records: MemoryRecords): MemoryOwnership {
  const recordsOf = (resource: string) => recordsIn(records, resource);
  // Related records are indexed once per question (on first need): the lists may change between questions.
  const predicate = ({ scope, context, user, tenant }: OwnershipQuestion) => {
    const byId = new Map<string, Map<unknown, OwnershipRecord>>();
    const related = (resource: string, id: unknown) => {
      let index = byId.get(resource);
      if (index === undefined) byId.set(resource, (index = new Map(recordsOf(resource).map((record) => [idOf(record), record]))));
      return index.get(id);
    };
    return ownershipPredicate(scope, context, user, related, tenant);
  };
  const source: MemoryOwnership = {
    filter: predicate,
    ownedAmong: (question, ids) => {
      // Checked as the SQL sources check them: an id that is no id (NaN, an object) or too many ids are refused alike.
      const asked = new Set<unknown>(checkedOwnershipIds(ids));
      const owns = predicate(question);
      return Promise.resolve(recordsOf(question.context.resource).flatMap((record) => (asked.has(idOf(record)) && owns(record) ? [idOf(record)] : [])));
    },
    listOwned: (question) => {
      const owns = predicate(question);
      return Promise.resolve(recordsOf(question.context.resource).flatMap((record) => (owns(record) ? [idOf(record)] : [])));
    },
    where: (permit) => predicate(permit.ownershipScope()),
  };
  return source;
}
