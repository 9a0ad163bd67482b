/**
 * Lists only the documents the caller owns, a page at a time, by adding `permit.limitOwn()` (the ownership rules'
 * condition) to the SQL query as an extra AND condition: the database returns only owned rows, nothing is filtered
 * in memory.
 */
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { Action, DocumentsGuard } from './example-permissions.js';
import { announceNextPage, pageRequestFromQuery, type HeaderResponse } from './page-request.pipe.js';

@Controller('documents-owned')
@UseGuards(DocumentsGuard)
export class DocumentsOwnedController {
  constructor(private readonly documents: DocumentsRepository) {}

  /**
   * 200 with a page of the owned documents (`?limit=&after=`; own attributes of the definition that owns each, a
   * `Link` header to the next page); 403 when 'list' is not granted; 400 for a malformed page request.
   */
  @Get()
  @Action('document')
  async list(
    @GetPermit() permit: Permit<AppUser, number, DocumentFilter>,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: HeaderResponse,
  ): Promise<Partial<DocumentRow>[]> {
    const request = pageRequestFromQuery(query);
    const page = await this.documents.findPage(permit.limitOwn(), request);
    announceNextPage(response, '/documents-owned', request, page.next);
    return permit.filterPick(page.rows);
  }
}
