/**
 * The precomputed grant tables: plain, serialisable data that the table builder makes from
 * definitions and that both `Permissions.build()` and the compiler's generated code load.
 */
import type { AttributePlanJson } from './attribute-plan.js';

/** The three ownership hooks. */
export type HookKind = 'isOwner' | 'listOwned' | 'limitOwned';

/** One hook: its kind and the ownership-service method it names (or a label for an in-process function). */
export interface HookRef {
  readonly kind: HookKind;
  readonly name: string;
}

/** An ownership group: the hooks of one definition (identical triples are shared). Indexes into `hooks`; `definitions` indexes the definitions that use it. */
export interface OwnerGroup {
  readonly isOwner: number;
  readonly listOwned?: number;
  readonly limitOwned?: number;
  readonly definitions: readonly number[];
}

/** Where a definition came from and what it says it is for; `definition` in cells indexes this list. */
export interface DefinitionSummary {
  readonly index: number;
  readonly source?: string;
  readonly descr?: string;
}

/**
 * One cell: what one role may do with one action on one resource.
 * `[resource, action, role, anyPlan, own, owners, sources]`: indexes into the name lists and `plans`;
 * `anyPlan` is -1 when the action is not granted as `any`; `own` is a flat list of
 * `ownerGroup, plan` pairs (the own attributes each ownership group grants); `owners` are the
 * ownership groups whose hooks decide ownership for this cell (from grants in either possession);
 * `sources` says which definitions reached the cell, as `definition * 2 + (own ? 1 : 0)`, for `explain`.
 */
export type GrantCell = readonly [
  resource: number,
  action: number,
  role: number,
  anyPlan: number,
  own: readonly number[],
  owners: readonly number[],
  sources: readonly number[],
];

/** Everything `build()` and the compiler precompute. Sorted and free of functions, so it serialises deterministically. */
export interface GrantTables {
  readonly format: 1;
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly actions: readonly string[];
  readonly plans: readonly AttributePlanJson[];
  readonly hooks: readonly HookRef[];
  readonly owners: readonly OwnerGroup[];
  readonly cells: readonly GrantCell[];
  readonly definitions: readonly DefinitionSummary[];
}
