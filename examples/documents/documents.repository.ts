/**
 * Reads and changes documents in the example database. Permission checks do not happen here: callers pass
 * the restriction their permit gives them (`permit.limitOwn()`) to {@link DocumentsRepository.findWhere}, and
 * call the changing methods only from handlers a guard has already granted.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { DocumentCondition } from './document-filter.js';
import type { DocumentPage, DocumentPageRequest } from './document-page.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDocumentStatus } from './example-data.js';
import type { DocumentRow, ExampleDatabase } from './example-database.js';

/**
 * The documents table. Every list is ordered by id, ascending; every change is one statement and answers
 * the row as it is afterwards (or `undefined` when no document has the id), so no read can race with it.
 *
 * @example
 * ```ts
 * const documents = new DocumentsRepository(db);
 * await documents.findById(10); // { id: 10, title: 'Document Title 10', … }
 * ```
 */
@Injectable()
export class DocumentsRepository {
  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  /**
   * Every document.
   *
   * @example
   * ```ts
   * const all = await documents.findAll(); // 24 documents
   * ```
   */
  async findAll(): Promise<DocumentRow[]> {
    return this.db.selectFrom('documents').selectAll('documents').orderBy('documents.id').execute();
  }

  /**
   * The document with this id, or `undefined` when there is none.
   *
   * @example
   * ```ts
   * await documents.findById(9); // undefined
   * ```
   */
  async findById(id: number): Promise<DocumentRow | undefined> {
    return this.db.selectFrom('documents').selectAll('documents').where('documents.id', '=', id).executeTakeFirst();
  }

  /**
   * The documents that satisfy `filter`, an extra where-clause such as the one `permit.limitOwn()`
   * returns (it is ANDed with nothing else here, but composes with any other condition).
   *
   * @example
   * ```ts
   * const owned = await documents.findWhere(permit.limitOwn());
   * ```
   */
  async findWhere(filter: DocumentCondition): Promise<DocumentRow[]> {
    return this.db.selectFrom('documents').selectAll('documents').where(filter).orderBy('documents.id').execute();
  }

  /**
   * One page of the documents `filter` selects, in id order: at most `request.limit` with an id above
   * `request.after`, and the cursor of the next page. One statement: the filter, the cursor and the limit are all
   * in the query (one row more than the page tells whether a next page exists).
   *
   * @example
   * ```ts
   * const { rows, next } = await repository.findPage(ownershipRules.where(permit), { limit: 2, after: 0 });
   * ```
   */
  async findPage(filter: DocumentCondition, request: DocumentPageRequest): Promise<DocumentPage<DocumentRow>> {
    const rows = await this.db
      .selectFrom('documents')
      .selectAll('documents')
      .where(filter)
      .where('documents.id', '>', request.after)
      .orderBy('documents.id')
      .limit(request.limit + 1)
      .execute();
    const page = rows.slice(0, request.limit);
    return { rows: page, next: rows.length > request.limit ? page.at(-1)?.id : undefined };
  }

  /**
   * Gives the document a new title; answers the changed row, or `undefined` when there is no such document.
   *
   * @example
   * ```ts
   * await documents.updateTitle(50, 'Budget 2025'); // { id: 50, title: 'Budget 2025', … }
   * ```
   */
  async updateTitle(id: number, title: string): Promise<DocumentRow | undefined> {
    return this.db.updateTable('documents').set({ title }).where('documents.id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Sets the document's review state; answers the changed row, or `undefined` when there is no such document.
   *
   * @example
   * ```ts
   * await documents.setStatus(40, 'approved'); // { id: 40, status: 'approved', … }
   * ```
   */
  async setStatus(id: number, status: ExampleDocumentStatus): Promise<DocumentRow | undefined> {
    return this.db.updateTable('documents').set({ status }).where('documents.id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Deletes the document; answers the deleted row, or `undefined` when there was no such document.
   *
   * @example
   * ```ts
   * await documents.deleteById(50); // { id: 50, … }
   * await documents.findById(50); // undefined
   * ```
   */
  async deleteById(id: number): Promise<DocumentRow | undefined> {
    return this.db.deleteFrom('documents').where('documents.id', '=', id).returningAll().executeTakeFirst();
  }
}
