/**
 * The database of the list-filter benchmark: the tables of the ownership-rules example — users with their company,
 * who manages whom, documents with their creator (indexed) — filled with seeded data, on the PostgreSQL server (in a
 * schema of its own, dropped after) or on embedded PGlite. It hands out the ways in that the benchmark compares: a
 * kysely instance, a Prisma client generated for the same tables, and raw statements (for EXPLAIN).
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { generatePrismaClient } from './prisma-client.js';
import { Random } from './random.js';

/** The tables, as kysely sees them. */
export interface ListFilterTables {
  users: { id: number; companyId: number | null };
  managers: { managerId: number; managedId: number };
  documents: { id: number; title: string; content: string; creatorId: number };
}

/** One row of a page, as every side returns it. */
export type DocumentRow = ListFilterTables['documents'];

/** Users per company: a company admin's rule selects the documents of this many users. */
export const USERS_PER_COMPANY = 20;
/** Every tenth user manages the nine after it: a manager's rule selects the documents of ten users. */
export const USERS_PER_TEAM = 10;

const SCHEMA = `
  CREATE TABLE users ("id" integer PRIMARY KEY, "companyId" integer);
  CREATE TABLE managers ("managerId" integer NOT NULL REFERENCES users ("id"), "managedId" integer NOT NULL REFERENCES users ("id"));
  CREATE TABLE documents ("id" integer PRIMARY KEY, "title" text NOT NULL, "content" text NOT NULL, "creatorId" integer NOT NULL REFERENCES users ("id"));
  CREATE INDEX documents_creator ON documents ("creatorId");
  CREATE INDEX managers_manager ON managers ("managerId");
  CREATE INDEX users_company ON users ("companyId");
`;

/** The same tables for Prisma (the managers table is read by kysely alone, when a user is loaded). */
const PRISMA_SCHEMA = `
generator client {
  provider = "prisma-client"
  output   = "./client"
}

datasource db {
  provider = "postgresql"
}

model User {
  id        Int        @id
  companyId Int?
  documents Document[]

  @@map("users")
}

model Document {
  id        Int    @id
  title     String
  content   String
  creatorId Int
  creator   User   @relation(fields: [creatorId], references: [id])

  @@map("documents")
}
`;

/** A query Prisma ran, as its query event gives it. */
export interface PrismaQueryEvent {
  readonly query: string;
  readonly params: string;
}

/** What the benchmark uses of the generated client. */
export interface ListFilterPrismaClient {
  readonly document: {
    findMany(args: { where: object; orderBy: { id: 'asc' }; take: number }): Promise<DocumentRow[]>;
  };
  $on(event: 'query', listener: (event: PrismaQueryEvent) => void): void;
  $disconnect(): Promise<void>;
}

type PrismaClientClass = new (options: { adapter: unknown; log: readonly { emit: 'event'; level: 'query' }[] }) => ListFilterPrismaClient;

/** The seeded data, kept in memory too: the expected pages are computed from it. */
export interface ListFilterData {
  readonly users: readonly ListFilterTables['users'][];
  readonly managers: readonly ListFilterTables['managers'][];
  readonly documents: readonly DocumentRow[];
}

/**
 * The data of one size: `documentCount` documents, one user per `documentsPerUser` of them, each document's creator
 * drawn at random (seeded; at least two companies' users), companies of {@link USERS_PER_COMPANY} users and teams of {@link USERS_PER_TEAM}.
 *
 * @example
 * ```ts
 * createListFilterData(10_000, 100).users.length; // 100
 * ```
 */
export function createListFilterData(documentCount: number, documentsPerUser: number): ListFilterData {
  // Two companies at least: the company admin measured is the first user of the second.
  const userCount = Math.max(2 * USERS_PER_COMPANY, Math.ceil(documentCount / documentsPerUser));
  const users = Array.from({ length: userCount }, (_, i) => ({ id: i + 1, companyId: Math.floor(i / USERS_PER_COMPANY) + 1 }));
  const managers = users
    .filter((user) => user.id % USERS_PER_TEAM !== 1)
    .map((user) => ({ managerId: user.id - ((user.id - 1) % USERS_PER_TEAM), managedId: user.id }));
  const random = new Random(documentCount);
  const documents = Array.from({ length: documentCount }, (_, i) => ({
    id: i + 1,
    title: `Document ${i + 1}`,
    content: `The text of document ${i + 1}.`,
    creatorId: random.below(userCount) + 1,
  }));
  return { users, managers, documents };
}

/** An open, filled database and its ways in. */
export interface ListFilterDatabase {
  /** Where it is, for the report. */
  readonly description: string;
  readonly kysely: Kysely<ListFilterTables>;
  readonly prisma: ListFilterPrismaClient;
  /** Runs one statement with `$n` parameters and returns its rows (EXPLAIN). */
  query(text: string, values: readonly unknown[]): Promise<readonly Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Fills the tables with one statement per table (arrays unnested), then gathers the planner's statistics. */
async function fill(query: ListFilterDatabase['query'], data: ListFilterData): Promise<void> {
  const column = <T>(rows: readonly T[], pick: (row: T) => unknown): unknown[] => rows.map(pick);
  await query(`INSERT INTO users SELECT * FROM unnest($1::integer[], $2::integer[])`, [
    column(data.users, (user) => user.id),
    column(data.users, (user) => user.companyId),
  ]);
  await query(`INSERT INTO managers SELECT * FROM unnest($1::integer[], $2::integer[])`, [
    column(data.managers, (row) => row.managerId),
    column(data.managers, (row) => row.managedId),
  ]);
  await query(`INSERT INTO documents SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::integer[])`, [
    column(data.documents, (document) => document.id),
    column(data.documents, (document) => document.title),
    column(data.documents, (document) => document.content),
    column(data.documents, (document) => document.creatorId),
  ]);
  await query('ANALYZE users, managers, documents', []);
}

const QUERY_LOG = [{ emit: 'event', level: 'query' }] as const;

/**
 * A new schema on the PostgreSQL server at `url`, filled with `data`; `close()` drops it. One connection for kysely
 * and one for Prisma, so that every page is one round trip on a warm connection.
 *
 * @example
 * ```ts
 * const database = await openServerDatabase(url, createListFilterData(10_000, 100), PrismaClient);
 * ```
 */
export async function openServerDatabase(url: string, data: ListFilterData, PrismaClient: PrismaClientClass): Promise<ListFilterDatabase> {
  const schema = `list_filters_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}`, connectionTimeoutMillis: 10_000 });
  const query: ListFilterDatabase['query'] = async (text, values) => (await pool.query(text, [...values])).rows as Record<string, unknown>[];
  try {
    await pool.query(SCHEMA);
    await fill(query, data);
  } catch (error) {
    await pool.end();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }, { schema }), log: QUERY_LOG });
  return {
    description: 'the PostgreSQL server (node-postgres for kysely, @prisma/adapter-pg for Prisma; one connection each)',
    kysely: new Kysely({ dialect: new PostgresDialect({ pool }) }),
    prisma,
    query,
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/**
 * An embedded PGlite filled with `data` (the smoke run: no server needed).
 *
 * @example
 * ```ts
 * const database = await openPgliteDatabase(createListFilterData(2_000, 100), PrismaClient);
 * ```
 */
export async function openPgliteDatabase(data: ListFilterData, PrismaClient: PrismaClientClass): Promise<ListFilterDatabase> {
  const engine = await PGlite.create();
  const query: ListFilterDatabase['query'] = async (text, values) => (await engine.query<Record<string, unknown>>(text, [...values])).rows;
  await engine.exec(SCHEMA);
  await fill(query, data);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(engine), log: QUERY_LOG });
  return {
    description: 'embedded PGlite (kysely-pglite-dialect, pglite-prisma-adapter)',
    kysely: new Kysely({ dialect: new PGliteDialect(engine) }),
    prisma,
    query,
    async close() {
      await prisma.$disconnect();
      await engine.close();
    },
  };
}

/**
 * Generates the Prisma client of the benchmark's tables into `folder`.
 *
 * @example
 * ```ts
 * const PrismaClient = await generateListFilterPrismaClient(join(dir, 'prisma'));
 * ```
 */
export function generateListFilterPrismaClient(folder: string): Promise<PrismaClientClass> {
  return generatePrismaClient<PrismaClientClass>(PRISMA_SCHEMA, folder);
}
