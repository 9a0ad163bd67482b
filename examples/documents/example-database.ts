/**
 * The typed schema of the example documents database, as kysely sees it.
 *
 * Tables and columns are snake_case in SQL (`user_roles`, `creator_id`); kysely's `CamelCasePlugin`
 * (installed by `createDatabase`) maps every identifier, so TypeScript code uses the camelCase names
 * below (`userRoles`, `creatorId`) and the SQL stays conventional.
 */
import type { Generated, Selectable } from 'kysely';
import type { ExampleDocument } from './example-data.js';

/** A user. Roles live in `user_roles`, one row per role; who they manage in `managers`. */
export interface UsersTable {
  readonly id: number;
  readonly name: string;
  /** The company the user works for; null for a user of no company. */
  readonly companyId: number | null;
}

/** One role of one user. */
export interface UserRolesTable {
  readonly userId: number;
  readonly role: string;
}

/**
 * A document: exactly the shape of the example data, so seeding and reading cannot drift apart.
 * `date` is a SQL `date`, read back as an ISO `YYYY-MM-DD` string (never a JS `Date`).
 */
export type DocumentsTable = ExampleDocument;

/** `managerId` manages `managedId` (direct management only; it is not transitive). */
export interface ManagersTable {
  readonly managerId: number;
  readonly managedId: number;
}

/**
 * One decision of the permissions library (its decision log's event), kept by the example's decision log:
 * the columns it is looked up by, and the whole event as JSON. `id` orders them as they were written.
 */
export interface DecisionLogTable {
  readonly id: Generated<number>;
  readonly callId: string;
  readonly time: string;
  readonly granted: boolean;
  readonly event: string;
}

/**
 * The whole schema, keyed by table name, for `Kysely<ExampleDatabase>`.
 *
 * @example
 * ```ts
 * const titles = await db.selectFrom('documents').select('title').where('creatorId', '=', 1).execute();
 * ```
 */
export interface ExampleDatabase {
  users: UsersTable;
  userRoles: UserRolesTable;
  documents: DocumentsTable;
  managers: ManagersTable;
  decisionLog: DecisionLogTable;
}

/** A document row as the repositories return it. */
export type DocumentRow = Selectable<DocumentsTable>;
