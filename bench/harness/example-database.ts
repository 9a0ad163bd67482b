/**
 * The example app's real data layer, for benchmarks that decide ownership on it: its seeded PGlite database grown to
 * any number of documents, and the hand-written ownership service over it (test/fixtures/example-hooks: the hook
 * methods the example had before its ownership became rules) with every call observed.
 */
import type { Kysely } from 'kysely';
import type { AppUser } from '../../examples/documents/app-user.js';
import type { DocumentFilter } from '../../examples/documents/document-filter.js';
import { DocumentOwnershipService } from '../../test/fixtures/example-hooks/document-ownership.service.js';
import { exampleDocuments } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';

/**
 * The hand-written ownership service, observed: calls per method and the most calls in flight at once.
 * Everything else is the service's code, unchanged.
 *
 * @example
 * ```ts
 * const ownership = new ObservedOwnershipService(db);
 * ownership.calls.get('ownedDocumentsAmong'); // after a filterPick with ownedAmong: 1
 * ```
 */
export class ObservedOwnershipService extends DocumentOwnershipService {
  readonly calls = new Map<string, number>();
  private inFlight = 0;
  private peak = 0;

  get peakInFlight(): number {
    return this.peak;
  }

  resetObservations(): void {
    this.calls.clear();
    this.peak = 0;
  }

  private async observe<T>(method: string, call: () => Promise<T>): Promise<T> {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    this.peak = Math.max(this.peak, ++this.inFlight);
    try {
      return await call();
    } finally {
      this.inFlight--;
    }
  }

  override isCreator(args: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.observe('isCreator', () => super.isCreator(args));
  }

  override isCreatorOrManagerOfCreator(args: { user: AppUser; resourceId: number }): Promise<boolean> {
    return this.observe('isCreatorOrManagerOfCreator', () => super.isCreatorOrManagerOfCreator(args));
  }

  override ownedDocumentsAmong(args: { user: AppUser; filter: DocumentFilter; resourceIds: readonly number[] }): Promise<readonly number[]> {
    return this.observe('ownedDocumentsAmong', () => super.ownedDocumentsAmong(args));
  }
}

/** First id of the documents the benchmark adds (the seeded ones go up to 800). */
const FIRST_EXTRA_ID = 1001;
/** Rows per insert: 7 parameters a row stays far below PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000;
const STATUSES = ['draft', 'review', 'approved'] as const;

/**
 * Adds documents until there are `total`: creators cycle through users 1…8, so one in eight is user 1's.
 *
 * @example
 * ```ts
 * await addDocuments(await createSeededDatabase(), 10_000); // documents 1001… added after the seeded ones
 * ```
 */
export async function addDocuments(db: Kysely<ExampleDatabase>, total: number): Promise<void> {
  const extra = Math.max(0, total - exampleDocuments.length);
  for (let start = 0; start < extra; start += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, extra - start) }, (_, i) => {
      const k = start + i;
      const id = FIRST_EXTRA_ID + k;
      return {
        id,
        title: `Document Title ${id}`,
        date: `2024-${String((k % 12) + 1).padStart(2, '0')}-${String((k % 28) + 1).padStart(2, '0')}`,
        status: STATUSES[k % STATUSES.length] as (typeof STATUSES)[number],
        personal: `Personal note on document ${id}`,
        confidential: `Confidential figures of document ${id}`,
        creatorId: (k % 8) + 1,
      };
    });
    await db.insertInto('documents').values(rows).execute();
  }
}
