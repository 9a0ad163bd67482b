/**
 * The precomputed grant tables: plain, serialisable data that the table builder makes from
 * definitions and that both `Permissions.build()` and the compiler's generated code load.
 */
import type { AttributePlanJson } from '../projection/attribute-plan.js';
import type { OwnershipCondition, RelationDeclaration, TenantIdType, UserAttributeType } from '../ownership-rules/ownership-rule.js';

/** The id types a resource may declare (`"idType"` in its `*.resource.json`, or the `resourceIdTypes` option). */
export type ResourceIdType = 'number' | 'string';

/**
 * The ownership hooks: the three of a definition, and `ownedAmong`, a resource's executor that runs
 * one limitOwned filter over given ids (so that ownership can be computed from limitOwned).
 */
export type HookKind = 'isOwner' | 'listOwned' | 'limitOwned' | 'ownedAmong';

/** One hook: its kind and the ownership-service method it names (or a label for an in-process function). */
export interface HookRef {
  readonly kind: HookKind;
  readonly name: string;
}

/**
 * An ownership group: the hooks of one definition (identical triples are shared), or the ownership rule it names.
 * Indexes into `hooks` (or `ownershipRules.rules`); `definitions` indexes the definitions that use it.
 */
export interface OwnerGroup {
  /** Absent when ownership is computed: membership in listOwned, or limitOwned run by the resource's ownedAmong. */
  readonly isOwner?: number;
  readonly listOwned?: number;
  readonly limitOwned?: number;
  /** The ownership rule that decides, in place of hooks: an index into `ownershipRules.rules`. */
  readonly rule?: number;
  readonly definitions: readonly number[];
}

/** One ownership rule a definition names: its resource, its name, its condition and the user attributes it may read. */
export interface RuleTable {
  readonly resource: string;
  readonly name: string;
  readonly condition: OwnershipCondition;
  /** The user attributes declared beside the rule (in its resource's file), with their types. */
  readonly userAttributes: Readonly<Record<string, UserAttributeType>>;
  /** How its resource's records hold the tenant id (`"tenantIdType"` of its file): present only as `"number"`. */
  readonly tenantIdType?: TenantIdType;
}

/** The ownership rules definitions name, and the relations of every resource they may walk through. */
export interface OwnershipRulesTable {
  readonly rules: readonly RuleTable[];
  /** Per resource, its to-one relations by name. */
  readonly relations: Readonly<Record<string, Readonly<Record<string, RelationDeclaration>>>>;
  /**
   * Per resource that only relations reach (no definition names it, so `idTypes` has no place for it), the id type
   * its `*.resource.json` declares: what the ids of its records in policy tests are checked against. Absent: none
   * declares one.
   */
  readonly relatedIdTypes?: Readonly<Record<string, ResourceIdType>>;
}

/**
 * How an ownership group decides that one record is owned, as explanations and the permission
 * matrix name it: its isOwner; else its listOwned; else its limitOwned run by the resource's
 * ownedAmong (`limitToCreator via ownedDocumentsAmong`).
 *
 * @example
 * ```ts
 * ownershipLabel({ limitOwned: 'limitToCreator', ownedAmong: 'ownedDocumentsAmong' }); // 'limitToCreator via ownedDocumentsAmong'
 * ownershipLabel({ rule: 'creator' }); // 'rule creator'
 * ```
 */
export function ownershipLabel(names: {
  readonly rule?: string | undefined;
  readonly isOwner?: string | undefined;
  readonly listOwned?: string | undefined;
  readonly limitOwned?: string | undefined;
  readonly ownedAmong?: string | undefined;
}): string {
  if (names.rule !== undefined) return `rule ${names.rule}`;
  if (names.isOwner !== undefined) return names.isOwner;
  if (names.listOwned !== undefined) return names.listOwned;
  return names.ownedAmong === undefined ? (names.limitOwned ?? '') : `${names.limitOwned ?? ''} via ${names.ownedAmong}`;
}

/**
 * {@link ownershipLabel} of group `group` for resource `resource` (an index), from the tables.
 *
 * @example
 * ```ts
 * groupOwnershipLabel(tables, 0, 0); // 'isCreator'
 * ```
 */
export function groupOwnershipLabel(tables: GrantTables, group: number, resource: number): string {
  const owner = tables.owners[group];
  const name = (hook: number | undefined) => (hook === undefined || hook === -1 ? undefined : tables.hooks[hook]?.name);
  return ownershipLabel({
    rule: owner?.rule === undefined ? undefined : tables.ownershipRules?.rules[owner.rule]?.name,
    isOwner: name(owner?.isOwner),
    listOwned: name(owner?.listOwned),
    limitOwned: name(owner?.limitOwned),
    ownedAmong: owner?.limitOwned === undefined ? undefined : name(tables.ownedAmong?.[resource]),
  });
}

/**
 * The actions of resource number `resource` that grants may name and queries may ask: the ones it declares, or
 * every action of the tables when it declares none.
 *
 * @example
 * ```ts
 * resourceActionIndexes(tables, 0); // [0, 3]: 'approve' and 'read', which the resource declares
 * ```
 */
export function resourceActionIndexes(tables: GrantTables, resource: number): readonly number[] {
  return tables.declaredActions?.[resource] ?? tables.actions.map((_, i) => i);
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
  /** Per resource (same order as `resources`), the index in `hooks` of its ownedAmong executor, or -1. Absent: none has one. */
  readonly ownedAmong?: readonly number[];
  /** Per resource (same order as `resources`), its declared id type, or null. Absent: none declares one. */
  readonly idTypes?: readonly (ResourceIdType | null)[];
  /**
   * Per resource (same order as `resources`), the indexes in `actions` of the actions it declares, ascending, or
   * null when it declares none (any action may be asked of it). Absent: none declares its actions.
   */
  readonly declaredActions?: readonly (readonly number[] | null)[];
  /**
   * Per resource (same order as `resources`), the attributes it declares (dotted for nested ones), sorted and each
   * once, or null when it declares none (grants may name any attribute of it). An empty list declares that it has
   * none a grant may name. Absent: none declares its attributes.
   */
  readonly attributes?: readonly (readonly string[] | null)[];
  /** The ownership rules that ownership groups name. Absent: no definition names a rule. */
  readonly ownershipRules?: OwnershipRulesTable;
  readonly cells: readonly GrantCell[];
  readonly definitions: readonly DefinitionSummary[];
}
