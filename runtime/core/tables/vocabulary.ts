/**
 * The vocabulary of a policy: its resources, its actions, each resource's id type and the actions of the
 * resources that declare theirs — what code compiled against it is written against. A live version must stay
 * within the vocabulary of the running code.
 */
import type { GrantTables } from './grant-tables.js';

/** What the running code is written against: the resources, the actions, each resource's id type and declared actions. */
export interface Vocabulary {
  readonly resources: ReadonlySet<string>;
  readonly actions: ReadonlySet<string>;
  readonly idTypes: ReadonlyMap<string, string | null>;
  /** The actions of each resource that declares them: the only ones code compiled against it may ask there. */
  readonly declaredActions: ReadonlyMap<string, ReadonlySet<string>>;
}

const declaredOfTables = new WeakMap<GrantTables, ReadonlyMap<string, ReadonlySet<string>>>();

/**
 * The actions of each resource of `tables` that declares them, made once per tables.
 *
 * @example
 * ```ts
 * declaredActionsOf(grantTables).get('document'); // Set { 'approve', 'read' }; undefined for a resource that declares none
 * ```
 */
export function declaredActionsOf(tables: GrantTables): ReadonlyMap<string, ReadonlySet<string>> {
  let declared = declaredOfTables.get(tables);
  if (declared === undefined) {
    const made = new Map<string, ReadonlySet<string>>();
    tables.declaredActions?.forEach(
      (indexes, i) => indexes === null || made.set(tables.resources[i] as string, new Set(indexes.map((a) => tables.actions[a] as string))),
    );
    declaredOfTables.set(tables, (declared = made));
  }
  return declared;
}

/**
 * The vocabulary of tables.
 *
 * @example
 * ```ts
 * const vocabulary = vocabularyOf(grantTables);
 * // { resources: Set { 'document' }, actions: Set { 'create', … }, idTypes: Map { 'document' => 'number' }, declaredActions: Map {} }
 * ```
 */
export function vocabularyOf(tables: GrantTables): Vocabulary {
  return {
    resources: new Set(tables.resources),
    actions: new Set(tables.actions),
    idTypes: new Map(tables.resources.map((resource, i) => [resource, tables.idTypes?.[i] ?? null])),
    declaredActions: declaredActionsOf(tables),
  };
}
