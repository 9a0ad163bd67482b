import { Injectable } from '@nestjs/common';
import type { PermissionsOwnershipService } from '../generated/index.js';
import { DocumentsRepository, type Document } from './documents.repository.js';
import type { AppUser } from './users.js';

/** The documents a user owns, as a test of one document (with a database, it would be a where-clause). */
export type DocumentFilter = (document: Document) => boolean;

/** The ownership methods the definitions name; one missing or misspelt does not compile. */
@Injectable()
export class DocumentOwnership implements PermissionsOwnershipService<AppUser, DocumentFilter> {
  constructor(private readonly documents: DocumentsRepository) {}

  /** An employee owns the documents they wrote. */
  limitToAuthor({ user }: { user: AppUser }): DocumentFilter {
    return (document) => document.authorId === user.id;
  }

  /** Which of `resourceIds` pass `filter`: how the guard decides whether one document is owned. */
  ownedDocumentsAmong({ filter, resourceIds }: { filter: DocumentFilter; resourceIds: readonly number[] }): number[] {
    return resourceIds.filter((id) => {
      const document = this.documents.findById(id);
      return document !== undefined && filter(document);
    });
  }
}
