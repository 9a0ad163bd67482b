/**
 * Reads documents from the example database. Permission checks do not happen here: callers pass
 * the restriction their permit gives them (`permit.limitOwn()`) to {@link DocumentsRepository.findWhere}.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { DocumentFilter } from './document-filter.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { DocumentRow, ExampleDatabase } from './example-database.js';

/**
 * The documents table, read-only. Every list is ordered by id, ascending.
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
  async findWhere(filter: DocumentFilter): Promise<DocumentRow[]> {
    return this.db.selectFrom('documents').selectAll('documents').where(filter).orderBy('documents.id').execute();
  }
}
