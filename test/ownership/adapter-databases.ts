/**
 * The databases the ownership adapters are tested on: embedded PGlite always, and the PostgreSQL server of CI when
 * TEST_DATABASE_URL names one (in a schema of its own, dropped after). Each opens the same two tables — documents
 * whose creator is a user, users whose manager is a user — and hands the three ways in: SQL text, kysely, Drizzle,
 * each logging the statements it runs, and the driver adapter a Prisma client runs on.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { DrizzlePgDatabase } from '../../runtime/drizzle/index.js';
import { emptyTestPGlite } from '../example/test-databases.js';

/** The Drizzle table objects of the two tables. */
export const documentsTable = pgTable('documents', {
  id: integer('id').primaryKey(),
  creatorId: integer('creatorId'),
  status: text('status'),
  personal: boolean('personal'),
});
export const usersTable = pgTable('users', {
  id: integer('id').primaryKey(),
  companyId: integer('companyId'),
  managerId: integer('managerId'),
  team: text('team'),
  flag: boolean('flag'),
});

export const DOCUMENT_COLUMNS = ['id', 'creatorId', 'status', 'personal'] as const;
export const USER_COLUMNS = ['id', 'companyId', 'managerId', 'team', 'flag'] as const;

const SCHEMA = `
  CREATE TABLE users ("id" integer PRIMARY KEY, "companyId" integer, "managerId" integer, "team" text, "flag" boolean);
  CREATE TABLE documents ("id" integer PRIMARY KEY, "creatorId" integer, "status" text, "personal" boolean);
`;

/** A statement a way in ran: its text and parameters. */
export interface RanStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** One open database and the three ways in, each recording into `statements`. */
export interface AdapterDatabase {
  readonly query: (text: string, values: readonly unknown[]) => Promise<readonly object[]>;
  readonly kysely: Kysely<Record<string, Record<string, unknown>>>;
  readonly drizzle: DrizzlePgDatabase;
  /** The driver adapter a generated PrismaClient runs on over this database. */
  readonly prismaAdapter: PrismaPg | PrismaPGlite;
  /** Every statement the three ways in ran since the last `statements.length = 0`. */
  readonly statements: RanStatement[];
  /** Replaces the rows of a table, every value a parameter. */
  fill(table: 'documents' | 'users', rows: readonly Readonly<Record<string, unknown>>[]): Promise<void>;
  close(): Promise<void>;
}

export interface AdapterTarget {
  readonly name: string;
  open(): Promise<AdapterDatabase>;
}

function filler(run: (text: string, values: readonly unknown[]) => Promise<unknown>) {
  return async (table: 'documents' | 'users', rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> => {
    const columns = table === 'documents' ? DOCUMENT_COLUMNS : USER_COLUMNS;
    await run(`DELETE FROM ${table}`, []);
    if (rows.length === 0) return;
    const tuples = rows.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    await run(
      `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
      rows.flatMap((row) => columns.map((column) => row[column] ?? null)),
    );
  };
}

const pglite: AdapterTarget = {
  name: 'embedded PGlite',
  async open() {
    const engine = await emptyTestPGlite();
    await engine.exec(SCHEMA);
    const statements: RanStatement[] = [];
    return {
      statements,
      query: async (text, values) => {
        statements.push({ text, values });
        return (await engine.query<object>(text, [...values])).rows;
      },
      kysely: new Kysely({
        dialect: new PGliteDialect(engine),
        log: (event) => void statements.push({ text: event.query.sql, values: event.query.parameters }),
      }),
      drizzle: drizzlePglite({ client: engine, logger: { logQuery: (text, values) => void statements.push({ text, values }) } }),
      prismaAdapter: new PrismaPGlite(engine),
      fill: filler((text, values) => engine.query(text, [...values])),
      close: () => engine.close(),
    };
  },
};

function server(url: string): AdapterTarget {
  return {
    name: 'a PostgreSQL server (TEST_DATABASE_URL)',
    async open() {
      const schema = `ownership_adapters_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      // Every connection of the pool reads and writes the test's own schema only.
      const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}`, connectionTimeoutMillis: 10_000 });
      await pool.query(SCHEMA);
      const statements: RanStatement[] = [];
      return {
        statements,
        query: async (text, values) => {
          statements.push({ text, values });
          return (await pool.query(text, [...values])).rows as object[];
        },
        kysely: new Kysely({
          dialect: new PostgresDialect({ pool }),
          log: (event) => void statements.push({ text: event.query.sql, values: event.query.parameters }),
        }),
        drizzle: drizzleNodePostgres({ client: pool, logger: { logQuery: (text, values) => void statements.push({ text, values }) } }),
        prismaAdapter: new PrismaPg({ connectionString: url, max: 1 }, { schema }),
        fill: filler((text, values) => pool.query(text, [...values])),
        async close() {
          await pool.end();
          await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
          await admin.end();
        },
      };
    },
  };
}

/** Embedded PGlite always; a PostgreSQL server as well when TEST_DATABASE_URL names one. */
export const ADAPTER_TARGETS: readonly AdapterTarget[] = [pglite, ...(process.env['TEST_DATABASE_URL'] ? [server(process.env['TEST_DATABASE_URL'])] : [])];
