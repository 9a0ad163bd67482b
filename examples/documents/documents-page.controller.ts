/**
 * The data of the example page (`GET /`): every document the caller may list or read, each with the
 * attributes the server allows and the ownership groups of the caller that own it, so that the browser
 * client can enable exactly the buttons the server would grant. Both endpoints are guarded like the
 * rest of the app; a user who may not list (COMPANY_ADMIN) still gets the documents they may read.
 */
import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './example-database.js';
import { EXAMPLE_OWNERSHIP_RULES } from './example.constants.js';
import { DocumentsGuard, Permission } from './example-permissions.js';

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

/** One document of the page: its visible attributes, and which of the caller's ownership groups own it. */
export interface PageDocument {
  readonly document: Partial<DocumentRow>;
  readonly ownedBy: readonly number[];
}

/** The visible documents of `rows`, in order, with the caller's groups that own each (one batch per group). */
async function withOwners(permit: DocumentPermit, rows: readonly DocumentRow[]): Promise<PageDocument[]> {
  const owners = await permit.owningGroups(rows.map((row) => row.id));
  // Ownership is known now for every row, so these picks call no hook.
  const picked = await Promise.all(rows.map((row) => permit.pick(row)));
  return rows.flatMap((_, i) => (Object.keys(picked[i] ?? {}).length === 0 ? [] : [{ document: picked[i] as Partial<DocumentRow>, ownedBy: owners[i] ?? [] }]));
}

/**
 * @example
 * ```sh
 * curl -H 'x-user-id: 4' http://127.0.0.1:3000/documents-page/readable # COMPANY_ADMIN: the documents of their company, in full
 * ```
 */
@Controller('documents-page')
@UseGuards(DocumentsGuard)
export class DocumentsPageController {
  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(EXAMPLE_OWNERSHIP_RULES) private readonly ownershipRules: KyselyOwnershipSource,
  ) {}

  /** The documents the caller may list, each reduced to the list attributes (403 when 'list' is not granted). */
  @Get('listed')
  @Permission({ action: 'list' })
  async listed(@GetPermit() permit: DocumentPermit): Promise<PageDocument[]> {
    return withOwners(permit, await this.documents.findWhere(this.ownershipRules.where(permit)));
  }

  /**
   * The documents the caller may read: all of them with any-access, else those the ownership rules of their roles
   * select — one condition in the query (an OR of the rules) — each reduced to the read attributes (403 when 'read'
   * is not granted at all).
   */
  @Get('readable')
  @Permission({ action: 'read' })
  async readable(@GetPermit() permit: DocumentPermit): Promise<PageDocument[]> {
    return withOwners(permit, await this.documents.findWhere(this.ownershipRules.where(permit)));
  }
}
