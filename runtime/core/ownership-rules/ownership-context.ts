/**
 * What every evaluator needs besides the rule: the resource the rule is about, the relations of every resource,
 * and the declared user attributes.
 */
import type { ResourceRelations, TenantIdType, UserAttributeType } from './ownership-rule.js';

/**
 * The declarations a rule is evaluated with.
 *
 * @example
 * ```ts
 * const context: OwnershipContext = {
 *   resource: 'document',
 *   relations: new Map([['document', { creator: { resource: 'user', on: 'creatorId' } }]]),
 *   userAttributes: { id: 'number', companyId: 'number' },
 * };
 * ```
 */
export interface OwnershipContext {
  readonly resource: string;
  readonly relations: ResourceRelations;
  readonly userAttributes: Readonly<Record<string, UserAttributeType>>;
  /** How the resource's records hold the tenant id (`"tenantIdType"` of its file): a string when left out. */
  readonly tenantIdType?: TenantIdType | undefined;
}
