/**
 * An in-memory ownership service for the bench: every hook method the scenario names, answered
 * from plain maps, and a counter of calls per method (filterPick must call a listOwned hook once).
 */
import { exampleCompanies, exampleManagers } from '../../../examples/documents/example-data.js';
import type { BenchUser } from './peer.js';

/** A record with an id and an owner: filler records (ownerId) and documents (creatorId). */
export interface OwnedRecord {
  readonly id: number;
  readonly ownerId: number;
}

/** A predicate over records, the shape the limit hooks configure here. */
export type RecordFilter = (record: { readonly ownerId?: number; readonly creatorId?: number }) => boolean;

const managedBy = new Map<number, number[]>();
for (const { managerId, managedId } of exampleManagers) managedBy.set(managerId, [...(managedBy.get(managerId) ?? []), managedId]);

/**
 * The users of the same company as `userId` (none when the user belongs to no company).
 *
 * @example
 * ```ts
 * companyColleagues(4); // the users of user 4's company, user 4 included
 * ```
 */
export function companyColleagues(userId: number): number[] {
  const companies = new Set(exampleCompanies.filter((m) => m.userId === userId).map((m) => m.companyId));
  return exampleCompanies.filter((m) => companies.has(m.companyId)).map((m) => m.userId);
}

/**
 * The users whose documents `userId` owns as a manager: themselves and the users they manage.
 *
 * @example
 * ```ts
 * selfAndManaged(2); // [2, 1, 4]: user 2 and the users they manage
 * ```
 */
export function selfAndManaged(userId: number): number[] {
  return [userId, ...(managedBy.get(userId) ?? [])];
}

/**
 * The ownership service. Filler records and documents are registered with {@link CountingOwnership.setRecords}
 * and {@link CountingOwnership.setDocuments}; lists are precomputed per user so that a listOwned call
 * costs what a cached query would.
 *
 * @example
 * ```ts
 * const ownership = new CountingOwnership();
 * ownership.setRecords(records);
 * ownership.calls.get('listOwnedRecords'); // after a filterPick: 1
 * ```
 */
export class CountingOwnership {
  readonly calls = new Map<string, number>();
  private recordOwner = new Map<number, number>();
  private recordsByOwner = new Map<number, number[]>();
  private documentCreator = new Map<number, number>();

  private count(name: string): void {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
  }

  /** Forgets the counted calls. */
  resetCalls(): void {
    this.calls.clear();
  }

  /** Total calls of every method. */
  totalCalls(): number {
    let total = 0;
    for (const n of this.calls.values()) total += n;
    return total;
  }

  setRecords(records: readonly OwnedRecord[]): void {
    this.recordOwner = new Map(records.map((record) => [record.id, record.ownerId]));
    this.recordsByOwner = new Map();
    for (const record of records) this.recordsByOwner.set(record.ownerId, [...(this.recordsByOwner.get(record.ownerId) ?? []), record.id]);
  }

  setDocuments(documents: readonly { readonly id: number; readonly creatorId: number }[]): void {
    this.documentCreator = new Map(documents.map((document) => [document.id, document.creatorId]));
  }

  isRecordOwner({ user, resourceId }: { user: BenchUser; resourceId: number }): boolean {
    this.count('isRecordOwner');
    return this.recordOwner.get(resourceId) === user.id;
  }

  listOwnedRecords({ user }: { user: BenchUser }): readonly number[] {
    this.count('listOwnedRecords');
    return this.recordsByOwner.get(user.id) ?? [];
  }

  limitToOwnedRecords({ user }: { user: BenchUser }): RecordFilter {
    this.count('limitToOwnedRecords');
    return (record) => record.ownerId === user.id;
  }

  isCreator({ user, resourceId }: { user: BenchUser; resourceId: number }): boolean {
    this.count('isCreator');
    return this.documentCreator.get(resourceId) === user.id;
  }

  limitToCreator({ user }: { user: BenchUser }): RecordFilter {
    this.count('limitToCreator');
    return (document) => document.creatorId === user.id;
  }

  isCreatorOrManagerOfCreator({ user, resourceId }: { user: BenchUser; resourceId: number }): boolean {
    this.count('isCreatorOrManagerOfCreator');
    return selfAndManaged(user.id).includes(this.documentCreator.get(resourceId) ?? -1);
  }

  limitToCreatorOrManagedCreators({ user }: { user: BenchUser }): RecordFilter {
    this.count('limitToCreatorOrManagedCreators');
    const creators = selfAndManaged(user.id);
    return (document) => creators.includes(document.creatorId ?? -1);
  }

  /**
   * The ownedAmong executor of `document`: which of `resourceIds` the limitOwned `filter` matches,
   * answered from the registered documents. Unknown ids match nothing, as a query would.
   *
   * @example
   * ```ts
   * ownership.ownedDocumentsAmong({ user, filter: ownership.limitToCreator({ user }), resourceIds: [1, 2, 10] }); // [1, 10] for user 1
   * ```
   */
  ownedDocumentsAmong({ filter, resourceIds }: { user: BenchUser; filter: RecordFilter; resourceIds: readonly number[] }): readonly number[] {
    this.count('ownedDocumentsAmong');
    return resourceIds.filter((id) => {
      const creatorId = this.documentCreator.get(id);
      return creatorId !== undefined && filter({ creatorId });
    });
  }

  isCreatedInSameCompany({ user, resourceId }: { user: BenchUser; resourceId: number }): boolean {
    this.count('isCreatedInSameCompany');
    return companyColleagues(user.id).includes(this.documentCreator.get(resourceId) ?? -1);
  }

  listCreatedInSameCompany({ user }: { user: BenchUser }): readonly number[] {
    this.count('listCreatedInSameCompany');
    const colleagues = new Set(companyColleagues(user.id));
    return [...this.documentCreator].filter(([, creator]) => colleagues.has(creator)).map(([id]) => id);
  }
}
