/**
 * What an adapter's `where(permit)` reads of a permit: the records it may list, as an ownership question.
 */
import type { OwnershipQuestion } from '../core/ownership-rules/ownership-rule-source.js';

/**
 * Anything that says which records it may list: a `Permit` (`permit.ownershipScope()`: every record when granted
 * as `any`, none when nothing applies, else the records its roles' rules select).
 *
 * @example
 * ```ts
 * const scoped: OwnershipScoped = { ownershipScope: () => ({ scope: 'everything', context, user }) };
 * ```
 */
export interface OwnershipScoped {
  ownershipScope(): OwnershipQuestion;
}
