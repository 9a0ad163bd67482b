/**
 * Why a permit is what it is, in one typed word: granted on any record, granted as own, or refused — and why it
 * was refused. Every place a decision travels (the permit, the decision log, the decision service's answers, remote
 * permissions, the browser client, the integrations' 403 bodies) says it with these words.
 */
import type { Explanation } from './explain.js';

/**
 * Why a permit was granted or refused.
 *
 * - `'granted-any'`: granted on any record (possession `any`).
 * - `'granted-own'`: granted on the user's own records — the record asked about is owned, or no record was asked
 *   about and some role grants the action as own.
 * - `'not-owner'`: the roles grant the action as own only, and the record asked about is not the user's (an
 *   ownership hook or rule said so — as it does for a record that does not exist).
 * - `'no-grant'`: no definition grants the action on the resource to any of the user's roles that exist.
 * - `'unknown-role'`: none of the user's roles exists in the policy (nor among the tenant's custom roles); it wins
 *   over `'no-grant'` only when every role is unknown: one known role makes the refusal `'no-grant'`.
 * - `'unknown-tenant'`: like `'unknown-role'`, asked in a tenant that has no custom roles kept (the tenant roles
 *   source holds none for it, or none is followed): the user's roles could only have been that tenant's. A tenant
 *   whose custom roles are kept is known, even when the roles asked are not among them (`'unknown-role'`).
 * - `'unknown-resource'`: no definition names the resource.
 * - `'unknown-action'`: no definition grants the action on any resource (an action a resource that declares its
 *   actions does not declare is no refusal: `grantPermit` throws a PermissionsUsageError).
 *
 * A refusal names the first of these that holds, in this order: `'not-owner'`, `'unknown-resource'`,
 * `'unknown-action'`, `'unknown-tenant'`, `'unknown-role'`, `'no-grant'`.
 */
export type PermitReason = 'granted-any' | 'granted-own' | 'not-owner' | 'no-grant' | 'unknown-role' | 'unknown-tenant' | 'unknown-resource' | 'unknown-action';

/** The reasons of a refusal that owning the record would not change: about the roles, the resource or the action. */
export type RefusalReason = Extract<PermitReason, 'no-grant' | 'unknown-role' | 'unknown-tenant' | 'unknown-resource' | 'unknown-action'>;

/** Every reason, in the order of the type's documentation (the decision service's OpenAPI document lists them so). */
export const PERMIT_REASONS: readonly PermitReason[] = Object.freeze([
  'granted-any',
  'granted-own',
  'not-owner',
  'no-grant',
  'unknown-role',
  'unknown-tenant',
  'unknown-resource',
  'unknown-action',
]);

/** The definition that decided a permit: its source (the file, or the `addPermissions` label) and its index there. */
export interface ReasonSource {
  readonly source: string;
  readonly index: number;
}

/**
 * Whether `value` is one of the reason words (for answers read from elsewhere: the decision service's).
 *
 * @example
 * ```ts
 * isPermitReason('not-owner'); // true
 * isPermitReason('denied'); // false
 * ```
 */
export function isPermitReason(value: unknown): value is PermitReason {
  return typeof value === 'string' && (PERMIT_REASONS as readonly string[]).includes(value);
}

/**
 * The reason of a decision from its three flags and the reason a refusal has regardless of ownership (looked up
 * only when it is needed: a grant or a `'not-owner'` refusal never asks).
 *
 * @example
 * ```ts
 * reasonOf(false, false, true, () => 'no-grant'); // 'not-owner': own granted, the record not owned
 * ```
 */
export function reasonOf(granted: boolean, anyGranted: boolean, ownActionGranted: boolean, refusal: () => RefusalReason): PermitReason {
  if (granted) return anyGranted ? 'granted-any' : 'granted-own';
  return ownActionGranted ? 'not-owner' : refusal();
}

/**
 * The refusal reason of a question from its explanation (which names unknown roles, resource and action), in the
 * order {@link PermitReason} states; `tenantKnown`: the question's tenant has custom roles kept (true without a
 * tenant).
 *
 * @example
 * ```ts
 * refusalOfExplanation(explainGrant(tables, ['GHOST'], 'document', 'read'), true); // 'unknown-role'
 * ```
 */
export function refusalOfExplanation(explanation: Explanation, tenantKnown: boolean): RefusalReason {
  if (explanation.unknownResource) return 'unknown-resource';
  if (explanation.unknownAction) return 'unknown-action';
  const { roles, unknownRoles } = explanation;
  if (roles.length === 0 || roles.some((role) => !unknownRoles.includes(role))) return 'no-grant';
  return tenantKnown ? 'unknown-role' : 'unknown-tenant';
}

/**
 * The definition that decided, for a reason that has one: for `'granted-any'` the first definition (by source,
 * then index) granting the action as any to one of the roles; for `'granted-own'` and `'not-owner'` the first
 * granting it as own. Undefined for every other reason (nothing decided), and when the explanation names none.
 *
 * @example
 * ```ts
 * reasonSourceOf(explainGrant(tables, ['EMPLOYEE'], 'document', 'read'), 'granted-own'); // { source: 'document.permissions.json', index: 2 }
 * ```
 */
export function reasonSourceOf(explanation: Explanation, reason: PermitReason): ReasonSource | undefined {
  const possession = reason === 'granted-any' ? 'any' : reason === 'granted-own' || reason === 'not-owner' ? 'own' : undefined;
  if (possession === undefined) return undefined;
  let first: ReasonSource | undefined;
  for (const role of explanation.byRole) {
    for (const definition of role.definitions) {
      if (definition.possession !== possession) continue;
      const source = definition.source ?? 'definitions';
      if (first === undefined || source < first.source || (source === first.source && definition.index < first.index))
        first = { source, index: definition.index };
    }
  }
  return first === undefined ? undefined : Object.freeze(first);
}
