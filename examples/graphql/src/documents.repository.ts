import { Injectable } from '@nestjs/common';

export interface Document {
  readonly id: number;
  readonly title: string;
  readonly content: string;
  readonly authorId: number;
}

/** The documents a user owns, as a test of one document (with a database, it would be a where-clause). */
export type DocumentFilter = (document: Document) => boolean;

/** The documents, in memory: a database is not what this example is about. */
@Injectable()
export class DocumentsRepository {
  private readonly documents = new Map<number, Document>([
    [1, { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1 }],
    [2, { id: 2, title: 'Team offsite', content: 'The offsite moves to May.', authorId: 2 }],
  ]);

  findAll(): Document[] {
    return [...this.documents.values()];
  }

  findById(id: number): Document | undefined {
    return this.documents.get(id);
  }
}
