/**
 * The vocabulary of a policy: its resources, its actions and each resource's id type — what code compiled
 * against it is written against. A live version must stay within the vocabulary of the running code.
 */
import type { GrantTables } from './grant-tables.js';

/** What the running code is written against: the resources, the actions, and each resource's id type. */
export interface Vocabulary {
  readonly resources: ReadonlySet<string>;
  readonly actions: ReadonlySet<string>;
  readonly idTypes: ReadonlyMap<string, string | null>;
}

/**
 * The vocabulary of tables.
 *
 * @example
 * ```ts
 * const vocabulary = vocabularyOf(grantTables); // { resources: Set { 'document' }, actions: Set { 'create', … }, idTypes: Map { 'document' => 'number' } }
 * ```
 */
export function vocabularyOf(tables: GrantTables): Vocabulary {
  return {
    resources: new Set(tables.resources),
    actions: new Set(tables.actions),
    idTypes: new Map(tables.resources.map((resource, i) => [resource, tables.idTypes?.[i] ?? null])),
  };
}
