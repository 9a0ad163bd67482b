/** A document of one company: `tenantId` is the tenant (the company) it belongs to. */
export interface Document {
  readonly id: number;
  readonly title: string;
  readonly content: string;
  readonly authorId: number;
  readonly tenantId: string;
}

/** The documents of every company, in memory: a database is not what this example is about. */
export const documents = new Map<number, Document>([
  [1, { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1, tenantId: 'acme' }],
  [2, { id: 2, title: 'Budget 2027', content: 'Travel costs fall by a tenth.', authorId: 1, tenantId: 'acme' }],
  [3, { id: 3, title: 'Roadmap', content: 'The new plant opens in March.', authorId: 3, tenantId: 'globex' }],
]);

/** The documents a user owns, as a test of one document (with a database, it would be a where-clause). */
export type DocumentFilter = (document: Document) => boolean;
