/**
 * typed-permissions/drizzle — ownership rules as Drizzle conditions (PostgreSQL): `drizzleOwnership(db, { tables })`
 * is the source of every ownership answer through the application's Drizzle database, and `where(permit)` the
 * condition for its own queries. drizzle-orm is an optional peer: only this entry needs it.
 */
export { drizzleOwnership, type DrizzleOwnershipOptions, type DrizzleOwnershipSource, type DrizzlePgDatabase } from './drizzle-ownership.js';
