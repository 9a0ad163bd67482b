/**
 * Expected response bodies of the example app, built from example-data.ts alone (never from the
 * database or the permissions library), so that the e2e tests compare whole bodies with `toEqual`.
 */
import { exampleDocuments, type ExampleDocument } from '../../examples/documents/example-data.js';

export type DocumentField = keyof ExampleDocument;

/** Every document id, ascending: the order in which the example app lists documents. */
export const ALL_DOCUMENT_IDS: readonly number[] = exampleDocuments.map((document) => document.id).sort((a, b) => a - b);

/** The seeded document `id`, with every field. */
export function documentWithId(id: number): ExampleDocument {
  const found = exampleDocuments.find((document) => document.id === id);
  if (found === undefined) throw new Error(`example-data.ts has no document ${id}`);
  return found;
}

/** Document `id` without the given fields (what an own-attribute rule such as `['*', '!confidential']` leaves). */
export function documentWithout(id: number, ...hidden: readonly DocumentField[]): Partial<ExampleDocument> {
  const copy: Partial<Record<DocumentField, unknown>> = { ...documentWithId(id) };
  for (const field of hidden) delete copy[field];
  return copy as Partial<ExampleDocument>;
}

/** Document `id` with only the given fields (what an attribute list such as `['title', 'date']` leaves). */
export function documentOnly(id: number, ...shown: readonly DocumentField[]): Partial<ExampleDocument> {
  const full = documentWithId(id);
  return Object.fromEntries(shown.map((field) => [field, full[field]]));
}

/** The ids of the documents user `userId` created, ascending. */
export function idsCreatedBy(...userIds: readonly number[]): number[] {
  return exampleDocuments
    .filter((document) => userIds.includes(document.creatorId))
    .map((document) => document.id)
    .sort((a, b) => a - b);
}

/**
 * The documents an EMPLOYEE (user `userId`) gets from the protected list: their own documents with
 * every field but `confidential`, every other one with `title` and `date` only (example check 4).
 */
export function employeeListFor(userId: number): Partial<ExampleDocument>[] {
  return ALL_DOCUMENT_IDS.map((id) => (documentWithId(id).creatorId === userId ? documentWithout(id, 'confidential') : documentOnly(id, 'title', 'date')));
}

/** Every document in full, in list order. */
export function allDocumentsInFull(): ExampleDocument[] {
  return ALL_DOCUMENT_IDS.map(documentWithId);
}
