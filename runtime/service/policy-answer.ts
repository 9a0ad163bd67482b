/**
 * The answer of `GET /v1/policy`: the active version and the vocabulary checks are validated against —
 * resources with their id types (and declared actions), actions — the names of the ownership methods the active version uses,
 * and its ownership rules with the relations they walk (so a client can evaluate them). Nothing about roles or what they are granted.
 */
import { declaredActionsOf, type Vocabulary } from '../core/tables/vocabulary.js';
import type { GrantTables, HookKind, OwnershipRulesTable } from '../core/tables/grant-tables.js';

/** What `GET /v1/policy` answers. */
export interface PolicyAnswer {
  readonly policyVersion: string;
  /**
   * The resources checks may name, with their id types (null: numbers or strings), and, for a resource that declares
   * its actions in the active version, those actions: the only ones checks may name on it.
   */
  readonly resources: readonly { readonly name: string; readonly idType: 'number' | 'string' | null; readonly actions?: readonly string[] }[];
  /** The actions checks may name. */
  readonly actions: readonly string[];
  /** The methods of the ownership service the active version names, by kind, sorted. */
  readonly ownershipMethods: { readonly [K in HookKind]: readonly string[] };
  /** The ownership rules the active version names (sorted by resource and name), and the relations of every resource. */
  readonly ownershipRules: OwnershipRulesTable;
}

/**
 * The policy answer of `tables` (the active version) within `vocabulary` (what checks are validated against).
 *
 * @example
 * ```ts
 * policyAnswer(permissions.tables, permissions.policyVersion, vocabulary);
 * // { policyVersion: '7056…', resources: [{ name: 'document', idType: 'number' }], actions: ['create', …], ownershipMethods: { isOwner: [...], … },
 * //   ownershipRules: { rules: [{ resource: 'document', name: 'creator', condition: { … }, userAttributes: { id: 'number' } }], relations: {} } }
 * ```
 */
export function policyAnswer(tables: GrantTables, policyVersion: string, vocabulary: Vocabulary): PolicyAnswer {
  const methods: Record<HookKind, Set<string>> = { isOwner: new Set(), listOwned: new Set(), limitOwned: new Set(), ownedAmong: new Set() };
  for (const hook of tables.hooks) methods[hook.kind]?.add(hook.name);
  const sorted = (names: Iterable<string>) => [...names].sort();
  const declared = declaredActionsOf(tables);
  return {
    policyVersion,
    resources: sorted(vocabulary.resources).map((name) => {
      const actions = declared.get(name);
      return {
        name,
        idType: (vocabulary.idTypes.get(name) ?? null) as 'number' | 'string' | null,
        ...(actions === undefined ? {} : { actions: sorted(actions) }),
      };
    }),
    actions: sorted(vocabulary.actions),
    ownershipMethods: {
      isOwner: sorted(methods.isOwner),
      listOwned: sorted(methods.listOwned),
      limitOwned: sorted(methods.limitOwned),
      ownedAmong: sorted(methods.ownedAmong),
    },
    ownershipRules: {
      rules: [...(tables.ownershipRules?.rules ?? [])]
        .sort((a, b) => (a.resource === b.resource ? (a.name < b.name ? -1 : 1) : a.resource < b.resource ? -1 : 1))
        .map(({ resource, name, condition, userAttributes, tenantIdType }) =>
          tenantIdType === undefined ? { resource, name, condition, userAttributes } : { resource, name, condition, userAttributes, tenantIdType },
        ),
      relations: tables.ownershipRules?.relations ?? {},
    },
  };
}
