export interface Document {
  readonly id: number;
  readonly title: string;
  readonly content: string;
  readonly authorId: number;
}

/** The documents, in memory: a database is not what this example is about. */
export const documents = new Map<number, Document>([
  [1, { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1 }],
  [2, { id: 2, title: 'Team offsite', content: 'The offsite moves to May.', authorId: 2 }],
]);

/** The documents a user owns, as a test of one document (with a database, it would be a where-clause). */
export type DocumentFilter = (document: Document) => boolean;
