/**
 * The ownership service of the example app: the methods that the hook strings of
 * definitions/document.permissions.json name, answered by real queries against the example
 * database.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { PermissionsOwnershipService } from '../../generated/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';

export { limitOwnReduce } from './limit-own-reduce.js';

/**
 * Decides which documents a user owns, in three ways, one per role of the example definitions:
 *
 * - EMPLOYEE — the creator: `isCreator` / `limitToCreator`;
 * - EMPLOYEE_MANAGER — the creator or a direct manager of the creator:
 *   `isCreatorOrManagerOfCreator` / `limitToCreatorOrManagedCreators`;
 * - COMPANY_ADMIN — anyone in a company the creator also belongs to (the creator included, when
 *   they belong to a company): `isCreatedInSameCompany` / `listCreatedInSameCompany`.
 *
 * Each `isX` question runs the very condition its list or limit hook configures, restricted to one
 * document, so the answers of a pair cannot drift apart.
 *
 * @example
 * ```ts
 * const ownership = new DocumentOwnershipService(db);
 * await ownership.isCreator({ user: { id: 1, roles: ['EMPLOYEE'] }, resourceId: 10 }); // true
 * ```
 */
@Injectable()
export class DocumentOwnershipService implements PermissionsOwnershipService<AppUser, DocumentFilter> {
  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  /**
   * Whether `user` created document `resourceId`. False for a document that does not exist.
   *
   * @example
   * ```ts
   * await ownership.isCreator({ user: { id: 1, roles: ['EMPLOYEE'] }, resourceId: 2 }); // false
   * ```
   */
  async isCreator({ user, resourceId }: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.someDocumentMatches(resourceId, this.limitToCreator({ user }));
  }

  /**
   * The documents `user` created, as a where-clause factory. Configures; never queries.
   *
   * @example
   * ```ts
   * const filter = ownership.limitToCreator({ user });
   * const mine = await db.selectFrom('documents').selectAll().where(filter).execute();
   * ```
   */
  limitToCreator({ user }: { user: AppUser }): DocumentFilter {
    return (eb) => eb('documents.creatorId', '=', user.id);
  }

  /**
   * Whether `user` created document `resourceId` or directly manages its creator. Management is
   * not transitive: a manager of a manager owns nothing through it.
   *
   * @example
   * ```ts
   * await ownership.isCreatorOrManagerOfCreator({ user: { id: 2, roles: ['EMPLOYEE_MANAGER'] }, resourceId: 1 }); // true: 2 manages 1
   * ```
   */
  async isCreatorOrManagerOfCreator({ user, resourceId }: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.someDocumentMatches(resourceId, this.limitToCreatorOrManagedCreators({ user }));
  }

  /**
   * The documents `user` created or whose creator `user` directly manages, as a where-clause
   * factory. Configures; never queries.
   *
   * @example
   * ```ts
   * const filter = ownership.limitToCreatorOrManagedCreators({ user: { id: 2, roles: ['EMPLOYEE_MANAGER'] } });
   * await db.selectFrom('documents').select('id').where(filter).execute(); // documents of users 1, 2 and 4
   * ```
   */
  limitToCreatorOrManagedCreators({ user }: { user: AppUser }): DocumentFilter {
    return (eb) =>
      eb.or([
        eb('documents.creatorId', '=', user.id),
        eb.exists(
          eb
            .selectFrom('managers')
            .select((sub) => sub.lit(1).as('found'))
            .where('managers.managerId', '=', user.id)
            .whereRef('managers.managedId', '=', 'documents.creatorId'),
        ),
      ]);
  }

  /**
   * Whether document `resourceId` was created by someone who shares a company with `user`. A user
   * who belongs to no company owns nothing this way, not even their own documents.
   *
   * @example
   * ```ts
   * await ownership.isCreatedInSameCompany({ user: { id: 4, roles: ['COMPANY_ADMIN'] }, resourceId: 50 }); // true: 4 and 5 are in company 2
   * ```
   */
  async isCreatedInSameCompany({ user, resourceId }: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.someDocumentMatches(resourceId, this.createdInSameCompany(user));
  }

  /**
   * The ids of the documents created by someone who shares a company with `user`, ascending.
   *
   * @example
   * ```ts
   * await ownership.listCreatedInSameCompany({ user: { id: 4, roles: ['COMPANY_ADMIN'] } }); // [4, 5, 6, 40, 50, 60, 400, 500, 600]
   * ```
   */
  async listCreatedInSameCompany({ user }: { user: AppUser }): Promise<readonly number[]> {
    const rows = await this.db.selectFrom('documents').select('documents.id').where(this.createdInSameCompany(user)).orderBy('documents.id').execute();
    return rows.map((row) => row.id);
  }

  private createdInSameCompany(user: AppUser): DocumentFilter {
    return (eb) =>
      eb.exists(
        eb
          .selectFrom('companyMembers as mine')
          .innerJoin('companyMembers as theirs', 'theirs.companyId', 'mine.companyId')
          .select((sub) => sub.lit(1).as('found'))
          .where('mine.userId', '=', user.id)
          .whereRef('theirs.userId', '=', 'documents.creatorId'),
      );
  }

  /**
   * The ownedAmong executor of `document` (ownership computed from limitOwned): which of `resourceIds` the limitOwned
   * `filter` owns, in one statement — `select id from documents where id = any($1) and <filter>` —
   * so that deciding ownership of a page of documents is one query, not one per document. The ids
   * go in one array parameter: PostgreSQL takes at most 65,535 bind parameters, an `in (…)` list of
   * that many ids would not run. This is what lets EMPLOYEE and EMPLOYEE_MANAGER go without isOwner.
   *
   * @example
   * ```ts
   * await ownership.ownedDocumentsAmong({ user, filter: ownership.limitToCreator({ user }), resourceIds: [1, 2, 10] }); // [1, 10] for user 1
   * ```
   */
  async ownedDocumentsAmong({ filter, resourceIds }: { user: AppUser; filter: DocumentFilter; resourceIds: readonly number[] }): Promise<readonly number[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('documents')
      .select('documents.id')
      .where((eb) => eb('documents.id', '=', eb.fn.any(eb.val([...resourceIds]))))
      .where(filter)
      .execute();
    return rows.map((row) => row.id);
  }

  /** `select 1 from documents where id = $resourceId and <filter> limit 1`, as a boolean. */
  private async someDocumentMatches(resourceId: number, filter: DocumentFilter): Promise<boolean> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => eb.lit(1).as('found'))
      .where('documents.id', '=', resourceId)
      .where(filter)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
