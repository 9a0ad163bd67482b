/**
 * typed-permissions/kysely — ownership rules as kysely conditions: `kyselyOwnership(db, { tables })` is the
 * source of every ownership answer through the application's kysely instance, and `where(permit)` the condition
 * for its own queries. kysely is an optional peer: only this entry needs it.
 */
export { kyselyOwnership, type KyselyOwnershipFilter, type KyselyOwnershipSource } from './kysely-ownership.js';
export { kyselyOwnershipCondition, type KyselyOwnershipOptions } from './kysely-ownership-condition.js';
