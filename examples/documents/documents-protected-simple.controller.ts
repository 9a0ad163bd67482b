/**
 * The protected documents controller. The guard decides before the handler runs (the action is the
 * handler's name, the id the `id` path parameter); the handler only applies the Permit.
 */
import { Controller, Get, NotFoundException, Param, UseGuards } from '@nestjs/common';
import type { Permit } from '../../runtime/core/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { Action, DocumentsGuard } from './example-permissions.js';
import { parseDocumentId } from './extract-user.js';

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

@Controller('documents-protected-simple')
@UseGuards(DocumentsGuard)
export class DocumentsProtectedSimpleController {
  constructor(private readonly documents: DocumentsRepository) {}

  /** 200 with the documents this user may see, each reduced to its allowed attributes; 403 when 'list' is not granted. */
  @Get()
  @Action('document')
  async list(@GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>[]> {
    return permit.filterPick(await this.documents.findAll());
  }

  /** 200 with one document reduced to the allowed attributes; 403 (from the guard) when not owned and no any-access. */
  @Get(':id')
  @Action('document')
  async read(@Param('id') id: string, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    const document = await this.documents.findById(parseDocumentId(id));
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document);
  }
}
