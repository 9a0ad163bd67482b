/**
 * Lists only the documents the caller owns, by adding `permit.limitOwn()` to the SQL query as an
 * extra AND condition: the database returns only owned rows, nothing is filtered in memory.
 */
import { Controller, Get, UseGuards } from '@nestjs/common';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { Action, DocumentsGuard } from './example-permissions.js';

@Controller('documents-owned')
@UseGuards(DocumentsGuard)
export class DocumentsOwnedController {
  constructor(private readonly documents: DocumentsRepository) {}

  /** 200 with the owned documents (own attributes of the definition that owns each); 403 when 'list' is not granted. */
  @Get()
  @Action('document')
  async list(@GetPermit() permit: Permit<AppUser, number, DocumentFilter>): Promise<Partial<DocumentRow>[]> {
    const owned = await this.documents.findWhere(permit.limitOwn());
    return permit.filterPick(owned);
  }
}
