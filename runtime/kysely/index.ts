/**
 * typed-permissions/kysely — ownership rules as kysely conditions: `kyselyOwnership(db, { tables })` is the
 * source of every ownership answer through the application's kysely instance, and `where(permit)` the condition
 * for its own queries. kysely is an optional peer: only this entry needs it.
 */
export { kyselyOwnership, type KyselyOwnershipFilter, type KyselyOwnershipSource } from './kysely-ownership.js';
export { KYSELY_OWNERSHIP_LIMITS } from './kysely-condition-cache.js';
export type { KyselyOwnershipOptions } from './kysely-condition-template.js';
export { kyselyOwnershipCondition } from './kysely-ownership-condition.js';
