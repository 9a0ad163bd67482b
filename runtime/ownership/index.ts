/**
 * typed-permissions/ownership — the seam between ownership rules and the application's records, as
 * `typed-permissions/integration` is for web frameworks: the rule's types, the interface an adapter implements
 * (`OwnershipRuleSource`), the evaluators every adapter builds on (in memory, SQL text, and `writeOwnershipRule`
 * for another query language), and `sqlOwnership`, the adapter for any PostgreSQL driver that runs parameterised
 * text. The kysely, Drizzle and Prisma adapters are `typed-permissions/kysely`, `typed-permissions/drizzle` and
 * `typed-permissions/prisma`.
 */
export type { OwnershipContext } from '../core/ownership-rules/ownership-context.js';
export type {
  AllCondition,
  AnyCondition,
  EqualsCondition,
  InCondition,
  OwnershipCondition,
  OwnershipLiteral,
  OwnershipScope,
  RelationDeclaration,
  ResourceRelations,
  TenantIdReference,
  TenantIdType,
  UserAttributeReference,
  UserAttributeType,
} from '../core/ownership-rules/ownership-rule.js';
export { OWNERSHIP_LIMITS } from '../core/ownership-rules/ownership-rule.js';
export { tenantIdValue } from '../core/ownership-rules/ownership-compared-value.js';
export type { OwnershipQuestion, OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
export { memoryOwnership, type MemoryOwnership, type MemoryRecords } from '../core/ownership-rules/memory-ownership.js';
export {
  ownershipPredicate,
  type OwnershipRecord,
  type RecordTest as OwnershipRecordTest,
  type RelatedRecordLookup,
} from '../core/ownership-rules/in-memory-ownership.js';
export { sqlOwnershipCondition, type SqlCondition, type SqlOwnershipOptions } from '../core/ownership-rules/sql-ownership.js';
export {
  writeOwnershipRule,
  type OwnershipAttributePath,
  type OwnershipPathStep,
  type OwnershipRuleWriter,
} from '../core/ownership-rules/ownership-rule-fold.js';
export { checkedOwnershipIds, idsOfRows, OWNERSHIP_SOURCE_LIMITS, type OwnershipRecordId } from './owned-ids.js';
export type { OwnershipScoped } from './permit-scope.js';
export { sqlOwnership, type SqlOwnershipSource, type SqlOwnershipSourceOptions, type SqlQuery } from './sql-ownership-source.js';
