/**
 * The protected documents controller. The guard decides before the handler runs (the action is the
 * handler's name, the id the `id` path parameter); the handler only applies the Permit. Reading, renaming,
 * deleting and reviewing one document all go through it, so the example page's buttons act through it too.
 */
import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Patch,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { parseTitleChange } from './document-title-change.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { Action, DocumentsGuard } from './example-permissions.js';
import { EXAMPLE_OWNERSHIP_RULES } from './example.constants.js';
import { parseDocumentId } from './extract-user.js';
import { announceNextPage, pageRequestFromQuery, type HeaderResponse } from './page-request.pipe.js';

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

/**
 * @example
 * ```sh
 * curl -X PATCH -H 'x-user-id: 4' -H 'content-type: application/json' -d '{"title":"Budget 2025"}' http://127.0.0.1:3000/documents-protected-simple/50
 * curl -X POST -H 'x-user-id: 2' http://127.0.0.1:3000/documents-protected-simple/40/review
 * ```
 */
@Controller('documents-protected-simple')
@UseGuards(DocumentsGuard)
export class DocumentsProtectedSimpleController {
  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(EXAMPLE_OWNERSHIP_RULES) private readonly ownershipRules: KyselyOwnershipSource,
  ) {}

  /**
   * 200 with a page of the documents this user may list (`?limit=&after=`, a `Link` header to the next page), each
   * reduced to its allowed attributes; 403 when 'list' is not granted; 400 for a malformed page request. The
   * records the permit may list are a condition of the page's query (every record for a role with 'list:any', the
   * rules' records for one with 'list:own' only), so a page is one statement and its rows are all listable.
   */
  @Get()
  @Action('document')
  async list(
    @GetPermit() permit: DocumentPermit,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: HeaderResponse,
  ): Promise<Partial<DocumentRow>[]> {
    const request = pageRequestFromQuery(query);
    const page = await this.documents.findPage(this.ownershipRules.where(permit), request);
    announceNextPage(response, '/documents-protected-simple', request, page.next);
    return permit.filterPick(page.rows);
  }

  /** 200 with one document reduced to the allowed attributes; 403 (from the guard) when not owned and no any-access. */
  @Get(':id')
  @Action('document')
  async read(@Param('id') id: string, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    const document = await this.documents.findById(parseDocumentId(id));
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document);
  }

  /**
   * Renames the document (body `{"title": "…"}`): 200 with the renamed document reduced to the update attributes;
   * 403 (from the guard) when 'update' is not granted on it, or when the grant's attributes leave out the title;
   * 400 for any other body; 404 when there is no such document.
   */
  @Patch(':id')
  @Action('document')
  async update(@Param('id') id: string, @Body() body: unknown, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    const { title } = parseTitleChange(body);
    const documentId = parseDocumentId(id);
    // The attributes of a grant bound writes as well as reads: a title the caller may not see, they may not set.
    if (!Object.hasOwn(await permit.pick({ id: documentId, title }), 'title')) throw new ForbiddenException('update of title on document is not granted');
    const document = await this.documents.updateTitle(documentId, title);
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document);
  }

  /** Deletes the document: 200 with it as it was, reduced to the delete attributes; 403 (from the guard) when not granted; 404 when missing. */
  @Delete(':id')
  @Action('document')
  async delete(@Param('id') id: string, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    const documentId = parseDocumentId(id);
    const document = await this.documents.findById(documentId);
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    // Picked while the row exists: an ownership hook asked after the delete would find nothing to own.
    const picked = await permit.pick(document);
    if ((await this.documents.deleteById(documentId)) === undefined) throw new NotFoundException(`No document ${id}.`);
    return picked;
  }

  /**
   * Approves the document (its status becomes `approved`): 200 with it reduced to the review attributes; 403 (from the
   * guard) when not granted; 404 when missing.
   */
  @Post(':id/review')
  @HttpCode(200)
  @Action('document')
  async review(@Param('id') id: string, @GetPermit() permit: DocumentPermit): Promise<Partial<DocumentRow>> {
    const document = await this.documents.setStatus(parseDocumentId(id), 'approved');
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document);
  }
}
