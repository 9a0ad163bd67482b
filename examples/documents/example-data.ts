/**
 * The data of the example documents app: nine users, the documents they created, who manages
 * whom, and which company each user belongs to. Plain, deterministic data (no clock, no randomness)
 * so that tests can state exact expected values and the example database can be seeded from it.
 *
 * @example
 * ```ts
 * const mine = exampleDocuments.filter((document) => document.creatorId === 1); // documents 1, 10 and 100
 * ```
 */

/**
 * The roles the example app assigns. QA_MANAGER and GOD have no permission definitions; ANONYMOUS is the placeholder user's
 * role, defined in definitions/session.permissions.json with nothing on documents. QA_MANAGER is the role a company
 * may define for itself, as a custom role of its tenant (examples/documents/custom-roles/qa-manager.json).
 */
export type ExampleRole = 'EMPLOYEE' | 'EMPLOYEE_MANAGER' | 'QA_MANAGER' | 'COMPANY_ADMIN' | 'SUPER_ADMIN' | 'GOD' | 'ANONYMOUS';

/**
 * A user of the example app: the id the `x-user-id` header names, its roles, the company it works for (at most
 * one; null for none) and the users it manages directly — the attributes the ownership rules read.
 */
export interface ExampleUser {
  readonly id: number;
  readonly roles: readonly ExampleRole[];
  readonly companyId: number | null;
  readonly managedUserIds: readonly number[];
}

/** The review state of a document. */
export type ExampleDocumentStatus = 'draft' | 'review' | 'approved';

/** A document. `personal` and `confidential` are the attributes that some roles must not see. */
export interface ExampleDocument {
  readonly id: number;
  /** Always `'Document Title <id>'`. */
  readonly title: string;
  /** An ISO calendar date, `YYYY-MM-DD`. */
  readonly date: string;
  readonly status: ExampleDocumentStatus;
  readonly personal: string;
  readonly confidential: string;
  /** The id of the user who created the document: the EMPLOYEE owner. */
  readonly creatorId: number;
}

/** One management relation: `managerId` manages `managedId`. */
export interface ExampleManagement {
  readonly managerId: number;
  readonly managedId: number;
}

/** One company membership: user `userId` works for company `companyId` (a user works for at most one). */
export interface ExampleCompanyMembership {
  readonly userId: number;
  readonly companyId: number;
}

/** The placeholder user of requests without an `x-user-id` header: no company, manages nobody. */
export const exampleAnonymousUser: ExampleUser = { id: 0, roles: ['ANONYMOUS'], companyId: null, managedUserIds: [] };

/**
 * The users, ids 1 to 9. Users 7 and 8 hold two roles each, to show how roles combine. Users 1, 2, 3 and 7 work for
 * company 1; 4, 5, 6 and 9 for company 2; user 8 for none. 2 manages 1 and 4; 3 manages 2 and 5; 7 manages 5 and 6.
 * Users 3 and 9 are QA managers of two companies: a custom role that company 1 defines for its tenant reaches user 3
 * only. User 9 created no documents.
 */
export const exampleUsers: readonly ExampleUser[] = [
  { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] },
  { id: 2, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [1, 4] },
  { id: 3, roles: ['QA_MANAGER'], companyId: 1, managedUserIds: [2, 5] },
  { id: 4, roles: ['COMPANY_ADMIN'], companyId: 2, managedUserIds: [] },
  { id: 5, roles: ['SUPER_ADMIN'], companyId: 2, managedUserIds: [] },
  { id: 6, roles: ['GOD'], companyId: 2, managedUserIds: [] },
  { id: 7, roles: ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN'], companyId: 1, managedUserIds: [5, 6] },
  { id: 8, roles: ['EMPLOYEE', 'SUPER_ADMIN'], companyId: null, managedUserIds: [] },
  { id: 9, roles: ['QA_MANAGER'], companyId: 2, managedUserIds: [] },
];

/**
 * The documents: user *u* created documents *u*, 10·*u* and 100·*u*. The date is 2024-01-01 plus
 * (id − 1) days; the status follows the id's size: below 10 `draft`, below 100 `review`, else `approved`.
 */
export const exampleDocuments: readonly ExampleDocument[] = [
  {
    id: 1,
    title: 'Document Title 1',
    date: '2024-01-01',
    status: 'draft',
    personal: 'Personal note of user 1 on document 1',
    confidential: 'Confidential figures of document 1',
    creatorId: 1,
  },
  {
    id: 10,
    title: 'Document Title 10',
    date: '2024-01-10',
    status: 'review',
    personal: 'Personal note of user 1 on document 10',
    confidential: 'Confidential figures of document 10',
    creatorId: 1,
  },
  {
    id: 100,
    title: 'Document Title 100',
    date: '2024-04-09',
    status: 'approved',
    personal: 'Personal note of user 1 on document 100',
    confidential: 'Confidential figures of document 100',
    creatorId: 1,
  },
  {
    id: 2,
    title: 'Document Title 2',
    date: '2024-01-02',
    status: 'draft',
    personal: 'Personal note of user 2 on document 2',
    confidential: 'Confidential figures of document 2',
    creatorId: 2,
  },
  {
    id: 20,
    title: 'Document Title 20',
    date: '2024-01-20',
    status: 'review',
    personal: 'Personal note of user 2 on document 20',
    confidential: 'Confidential figures of document 20',
    creatorId: 2,
  },
  {
    id: 200,
    title: 'Document Title 200',
    date: '2024-07-18',
    status: 'approved',
    personal: 'Personal note of user 2 on document 200',
    confidential: 'Confidential figures of document 200',
    creatorId: 2,
  },
  {
    id: 3,
    title: 'Document Title 3',
    date: '2024-01-03',
    status: 'draft',
    personal: 'Personal note of user 3 on document 3',
    confidential: 'Confidential figures of document 3',
    creatorId: 3,
  },
  {
    id: 30,
    title: 'Document Title 30',
    date: '2024-01-30',
    status: 'review',
    personal: 'Personal note of user 3 on document 30',
    confidential: 'Confidential figures of document 30',
    creatorId: 3,
  },
  {
    id: 300,
    title: 'Document Title 300',
    date: '2024-10-26',
    status: 'approved',
    personal: 'Personal note of user 3 on document 300',
    confidential: 'Confidential figures of document 300',
    creatorId: 3,
  },
  {
    id: 4,
    title: 'Document Title 4',
    date: '2024-01-04',
    status: 'draft',
    personal: 'Personal note of user 4 on document 4',
    confidential: 'Confidential figures of document 4',
    creatorId: 4,
  },
  {
    id: 40,
    title: 'Document Title 40',
    date: '2024-02-09',
    status: 'review',
    personal: 'Personal note of user 4 on document 40',
    confidential: 'Confidential figures of document 40',
    creatorId: 4,
  },
  {
    id: 400,
    title: 'Document Title 400',
    date: '2025-02-03',
    status: 'approved',
    personal: 'Personal note of user 4 on document 400',
    confidential: 'Confidential figures of document 400',
    creatorId: 4,
  },
  {
    id: 5,
    title: 'Document Title 5',
    date: '2024-01-05',
    status: 'draft',
    personal: 'Personal note of user 5 on document 5',
    confidential: 'Confidential figures of document 5',
    creatorId: 5,
  },
  {
    id: 50,
    title: 'Document Title 50',
    date: '2024-02-19',
    status: 'review',
    personal: 'Personal note of user 5 on document 50',
    confidential: 'Confidential figures of document 50',
    creatorId: 5,
  },
  {
    id: 500,
    title: 'Document Title 500',
    date: '2025-05-14',
    status: 'approved',
    personal: 'Personal note of user 5 on document 500',
    confidential: 'Confidential figures of document 500',
    creatorId: 5,
  },
  {
    id: 6,
    title: 'Document Title 6',
    date: '2024-01-06',
    status: 'draft',
    personal: 'Personal note of user 6 on document 6',
    confidential: 'Confidential figures of document 6',
    creatorId: 6,
  },
  {
    id: 60,
    title: 'Document Title 60',
    date: '2024-02-29',
    status: 'review',
    personal: 'Personal note of user 6 on document 60',
    confidential: 'Confidential figures of document 60',
    creatorId: 6,
  },
  {
    id: 600,
    title: 'Document Title 600',
    date: '2025-08-22',
    status: 'approved',
    personal: 'Personal note of user 6 on document 600',
    confidential: 'Confidential figures of document 600',
    creatorId: 6,
  },
  {
    id: 7,
    title: 'Document Title 7',
    date: '2024-01-07',
    status: 'draft',
    personal: 'Personal note of user 7 on document 7',
    confidential: 'Confidential figures of document 7',
    creatorId: 7,
  },
  {
    id: 70,
    title: 'Document Title 70',
    date: '2024-03-10',
    status: 'review',
    personal: 'Personal note of user 7 on document 70',
    confidential: 'Confidential figures of document 70',
    creatorId: 7,
  },
  {
    id: 700,
    title: 'Document Title 700',
    date: '2025-11-30',
    status: 'approved',
    personal: 'Personal note of user 7 on document 700',
    confidential: 'Confidential figures of document 700',
    creatorId: 7,
  },
  {
    id: 8,
    title: 'Document Title 8',
    date: '2024-01-08',
    status: 'draft',
    personal: 'Personal note of user 8 on document 8',
    confidential: 'Confidential figures of document 8',
    creatorId: 8,
  },
  {
    id: 80,
    title: 'Document Title 80',
    date: '2024-03-20',
    status: 'review',
    personal: 'Personal note of user 8 on document 80',
    confidential: 'Confidential figures of document 80',
    creatorId: 8,
  },
  {
    id: 800,
    title: 'Document Title 800',
    date: '2026-03-10',
    status: 'approved',
    personal: 'Personal note of user 8 on document 800',
    confidential: 'Confidential figures of document 800',
    creatorId: 8,
  },
];

/** Who manages whom, as rows of the `managers` table (from {@link exampleUsers}): 2 manages 1 and 4; 3 manages 2 and 5; 7 manages 5 and 6. */
export const exampleManagers: readonly ExampleManagement[] = exampleUsers.flatMap((user) =>
  user.managedUserIds.map((managedId) => ({ managerId: user.id, managedId })),
);

/** Company memberships (from {@link exampleUsers}): users 1, 2, 3 and 7 work for company 1; 4, 5 and 6 for company 2; user 8 for none. */
export const exampleCompanies: readonly ExampleCompanyMembership[] = exampleUsers.flatMap((user) =>
  user.companyId === null ? [] : [{ userId: user.id, companyId: user.companyId }],
);
