/** The unprotected sibling: the same two GET shapes, without any permission check (for comparison). */
import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { parseDocumentId } from './extract-user.js';

@Controller('documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsRepository) {}

  @Get()
  list(): Promise<DocumentRow[]> {
    return this.documents.findAll();
  }

  @Get(':id')
  async read(@Param('id') id: string): Promise<DocumentRow> {
    const document = await this.documents.findById(parseDocumentId(id));
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return document;
  }
}
