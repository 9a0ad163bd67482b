/**
 * The protected documents over GraphQL: the same guard as the REST controller decides before the
 * resolver runs (action from `@Permission`, id from the `id` argument), and the resolver only applies the
 * permit — attributes it does not allow are missing from the picked object, so they resolve to null.
 */
import { Inject, NotFoundException, UseGuards } from '@nestjs/common';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import { DocumentModel } from './document.model.js';
import type { DocumentFilter } from './document-filter.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { EXAMPLE_OWNERSHIP_RULES } from './example.constants.js';
import { DocumentsGuard, Permission } from './example-permissions.js';
import { pageRequestFromQuery } from './page-request.pipe.js';

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

/**
 * `document(id)` and `documents`, checked as `read` and `list` on `document`.
 *
 * @example
 * ```graphql
 * { documents { id title date } } # EMPLOYEE: own documents in full, others with title and date only
 * ```
 */
@Resolver(() => DocumentModel)
@UseGuards(DocumentsGuard)
export class DocumentsResolver {
  constructor(
    private readonly repository: DocumentsRepository,
    @Inject(EXAMPLE_OWNERSHIP_RULES) private readonly ownershipRules: KyselyOwnershipSource,
  ) {}

  /** One document reduced to the allowed attributes; FORBIDDEN (from the guard) when not owned and no any-access, NOT_FOUND when missing. */
  @Query(() => DocumentModel, { nullable: true, description: 'One document; its hidden fields are null.' })
  @Permission({ action: 'read' })
  async document(@Args('id', { type: () => Int }) id: number, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    // The guard has already refused ids that are not positive integers (BAD_USER_INPUT), as REST does.
    const document = await this.repository.findById(id);
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document);
  }

  /**
   * The documents this user may see, each reduced to its allowed attributes (one ownership query per
   * ownership group, whatever the selection); FORBIDDEN when 'list' is not granted.
   */
  @Query(() => [DocumentModel], {
    description:
      'A page of the documents the caller may list, in id order: at most `limit` (1 to 100, default 100) with an id above `after`; hidden fields are null.',
  })
  // A list has no record id: its integer arguments are the page's, not a document's.
  @Permission({ action: 'list', resourceIdParam: null })
  async documents(
    @GetPermit() permit: DocumentPermit,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number | null,
    @Args('after', { type: () => Int, nullable: true }) after?: number | null,
  ): Promise<Partial<DocumentRow>[]> {
    const page = await this.repository.findPage(this.ownershipRules.where(permit), pageRequestFromQuery({ limit, after }));
    return permit.filterPick(page.rows);
  }
}
