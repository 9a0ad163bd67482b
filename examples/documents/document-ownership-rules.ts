/**
 * Where the records behind the example's ownership rules live: the rules themselves (creator; creator or a user the
 * creator's manager is; the creator's company) are declared in definitions/document.resource.json, and every
 * ownership answer — one document, a page of documents, the filter of a list — is derived from them.
 */
import type { Kysely } from 'kysely';
import { kyselyOwnership, type KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import type { ExampleDatabase } from './example-database.js';

/**
 * The example's ownership rule source: documents in `documents`, the users a rule reaches through `creator` in
 * `users`. Queries go through `db`, so its CamelCasePlugin maps `creatorId` to `creator_id` as everywhere else.
 *
 * @example
 * ```ts
 * const ownershipRules = documentOwnershipRules(db);
 * const permissions = createPermissions<AppUser, KyselyOwnershipFilter>({ ownershipRules });
 * const page = await db.selectFrom('documents').selectAll().where(ownershipRules.where(permit)).execute();
 * ```
 */
export function documentOwnershipRules(db: Kysely<ExampleDatabase>): KyselyOwnershipSource {
  return kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
}
