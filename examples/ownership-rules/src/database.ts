import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';

/** The tables: users (with their company), who manages whom, and documents (with who wrote them). */
export interface Database {
  users: { id: number; name: string; role: string; companyId: number | null };
  managers: { managerId: number; managedId: number };
  documents: { id: number; title: string; content: string; creatorId: number };
}

const USERS = [
  { id: 1, name: 'Alice', role: 'EMPLOYEE', companyId: 1 },
  { id: 2, name: 'Bob', role: 'EMPLOYEE', companyId: 1 },
  { id: 3, name: 'Carol', role: 'MANAGER', companyId: 1 },
  { id: 4, name: 'Dan', role: 'COMPANY_ADMIN', companyId: 2 },
  { id: 5, name: 'Erin', role: 'EMPLOYEE', companyId: 2 },
];

/** Nine documents, written in turn by Alice, Bob and Erin. */
const DOCUMENTS = Array.from({ length: 9 }, (_, i) => ({
  id: i + 1,
  title: `Document ${i + 1}`,
  content: `The text of document ${i + 1}.`,
  creatorId: [1, 2, 5][i % 3] as number,
}));

/** An embedded PostgreSQL (PGlite, in memory) with the tables made and filled. */
export async function createDatabase(): Promise<Kysely<Database>> {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) });
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('companyId', 'integer')
    .execute();
  await db.schema
    .createTable('managers')
    .addColumn('managerId', 'integer', (column) => column.notNull().references('users.id'))
    .addColumn('managedId', 'integer', (column) => column.notNull().references('users.id'))
    .execute();
  await db.schema
    .createTable('documents')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('creatorId', 'integer', (column) => column.notNull().references('users.id'))
    .execute();
  // The rules filter on the creator: an index keeps a page one index scan.
  await db.schema.createIndex('documents_creator').on('documents').column('creatorId').execute();
  await db.insertInto('users').values(USERS).execute();
  await db.insertInto('managers').values({ managerId: 3, managedId: 1 }).execute();
  await db.insertInto('documents').values(DOCUMENTS).execute();
  return db;
}
