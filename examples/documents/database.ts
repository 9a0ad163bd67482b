/**
 * The example app's database: an embedded PGlite (real PostgreSQL compiled to WASM, in memory) by
 * default, or a PostgreSQL server when a connection URL is given. Both are driven through kysely
 * with the same typed schema, so every query in the example runs unchanged on either.
 */
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, PostgresDialect, sql, type Dialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { exampleDocuments, exampleManagers, exampleUsers } from './example-data.js';
import type { ExampleDatabase } from './example-database.js';

/** Options of {@link createDatabase}. */
export interface CreateDatabaseOptions {
  /**
   * A PostgreSQL connection URL (`postgres://user:password@host:5432/name`). When absent or empty,
   * an in-memory PGlite is used. The example app passes `process.env.DATABASE_URL`.
   */
  readonly databaseUrl?: string | undefined;
  /**
   * A dump of an embedded database's data folder ({@link dumpEmbeddedDatabase}) to start the in-memory PGlite
   * from, instead of an empty one; ignored with `databaseUrl`. Starting from a dump skips PostgreSQL's `initdb`,
   * which costs seconds of CPU: tests that start many apps start each from one seeded dump.
   */
  readonly embeddedDataDir?: Blob | undefined;
}

/** The OID of PostgreSQL's `date` type. Both drivers would turn it into a JS `Date` at local midnight; we keep the ISO text. */
const DATE_TYPE_OID = pgliteTypes.DATE;
const keepIsoText = (value: string): string => value;
/** How pg turns a column's text into a value (pg types its parsers as returning `any`). */
type PgTypeParser = (value: string) => unknown;

function serverDialect(databaseUrl: string): Dialect {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    types: {
      getTypeParser: (oid, format): PgTypeParser => (Number(oid) === DATE_TYPE_OID ? keepIsoText : (pg.types.getTypeParser(oid, format) as PgTypeParser)),
    },
  });
  return new PostgresDialect({ pool });
}

/** The PGlite behind each embedded database, for {@link dumpEmbeddedDatabase}. */
const embeddedEngines = new WeakMap<Kysely<ExampleDatabase>, PGlite>();

async function createEmbeddedDatabase(dataDir: Blob | undefined): Promise<Kysely<ExampleDatabase>> {
  const pglite = await PGlite.create({ parsers: { [DATE_TYPE_OID]: keepIsoText }, ...(dataDir === undefined ? {} : { loadDataDir: dataDir }) });
  const db = new Kysely<ExampleDatabase>({ dialect: new PGliteDialect(pglite), plugins: [new CamelCasePlugin()] });
  embeddedEngines.set(db, pglite);
  return db;
}

/**
 * Opens the example database: a fresh in-memory PGlite, or the PostgreSQL server at `databaseUrl`.
 * The schema is not created here; call {@link migrate} (and {@link seed}) next, or use
 * {@link createSeededDatabase}. Close it with {@link closeDatabase}.
 *
 * @example
 * ```ts
 * const db = await createDatabase({ databaseUrl: process.env.DATABASE_URL });
 * await migrate(db);
 * await seed(db);
 * const documents = await db.selectFrom('documents').selectAll().execute(); // 24 rows
 * await closeDatabase(db);
 * ```
 */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<Kysely<ExampleDatabase>> {
  const { databaseUrl, embeddedDataDir } = options;
  if (databaseUrl === undefined || databaseUrl === '') return createEmbeddedDatabase(embeddedDataDir);
  return new Kysely<ExampleDatabase>({ dialect: serverDialect(databaseUrl), plugins: [new CamelCasePlugin()] });
}

/**
 * A dump of an embedded database's data folder (uncompressed tar), to start others from with
 * `createDatabase({ embeddedDataDir })`. Only an embedded database has one: a server's is refused.
 *
 * @example
 * ```ts
 * const seeded = await createSeededDatabase();
 * const dump = await dumpEmbeddedDatabase(seeded);
 * const copy = await createDatabase({ embeddedDataDir: dump }); // already migrated and seeded
 * ```
 */
export async function dumpEmbeddedDatabase(db: Kysely<ExampleDatabase>): Promise<Blob> {
  const pglite = embeddedEngines.get(db);
  if (pglite === undefined) throw new TypeError('dumpEmbeddedDatabase: this database is not an embedded PGlite made by createDatabase.');
  return pglite.dumpDataDir('none');
}

/** The advisory lock that makes instances starting at once on one server migrate and seed one after the other. */
const EXAMPLE_SCHEMA_LOCK = 7_146_021;

/** Holds {@link EXAMPLE_SCHEMA_LOCK} until `trx` ends: concurrent `create table if not exists` can otherwise collide. */
async function lockExampleSchema(trx: Kysely<ExampleDatabase>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${EXAMPLE_SCHEMA_LOCK})`.execute(trx);
}

/**
 * Creates the tables and indexes of the example schema when they do not exist yet. Safe to run at
 * every start. Runs in one transaction, so a failure leaves no half-made schema behind.
 *
 * @example
 * ```ts
 * await migrate(db);
 * await migrate(db); // a no-op
 * ```
 */
export async function migrate(db: Kysely<ExampleDatabase>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockExampleSchema(trx);
    const schema = trx.schema;
    await schema
      .createTable('users')
      .ifNotExists()
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('company_id', 'integer')
      .execute();
    // A database made before users had a company: the column is added, the old membership table goes.
    await sql`alter table users add column if not exists company_id integer`.execute(trx);
    await sql`drop table if exists company_members`.execute(trx);
    await schema
      .createTable('user_roles')
      .ifNotExists()
      .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('user_roles_pkey', ['user_id', 'role'])
      .execute();
    await schema
      .createTable('documents')
      .ifNotExists()
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('date', 'date', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('personal', 'text', (column) => column.notNull())
      .addColumn('confidential', 'text', (column) => column.notNull())
      .addColumn('creator_id', 'integer', (column) => column.notNull().references('users.id'))
      .addCheckConstraint('documents_status_check', sql`status in ('draft', 'review', 'approved')`)
      .execute();
    await schema.createIndex('documents_creator_id_index').ifNotExists().on('documents').column('creator_id').execute();
    await schema
      .createTable('managers')
      .ifNotExists()
      .addColumn('manager_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('managed_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('managers_pkey', ['manager_id', 'managed_id'])
      .execute();
    await schema
      .createTable('decision_log')
      .ifNotExists()
      .addColumn('id', 'integer', (column) => column.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('call_id', 'text', (column) => column.notNull())
      .addColumn('time', 'text', (column) => column.notNull())
      .addColumn('granted', 'boolean', (column) => column.notNull())
      .addColumn('event', 'jsonb', (column) => column.notNull())
      .execute();
  });
}

/**
 * Replaces the content of every example table with the data of `example-data.ts`, in one
 * transaction (truncate, then insert). Running it again gives the same database, so it is safe to
 * run at every start; it also discards any change made since, which is what a demo wants.
 *
 * @example
 * ```ts
 * await migrate(db);
 * await seed(db);
 * await db.selectFrom('users').select('id').execute(); // ids 1 to 9
 * ```
 */
export async function seed(db: Kysely<ExampleDatabase>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockExampleSchema(trx);
    await sql`truncate table decision_log, managers, documents, user_roles, users`.execute(trx);
    await trx
      .insertInto('users')
      .values(exampleUsers.map((user) => ({ id: user.id, name: `User ${user.id}`, companyId: user.companyId })))
      .execute();
    await trx
      .insertInto('userRoles')
      .values(exampleUsers.flatMap((user) => user.roles.map((role) => ({ userId: user.id, role }))))
      .execute();
    await trx
      .insertInto('documents')
      .values(exampleDocuments.map((document) => ({ ...document })))
      .execute();
    await trx
      .insertInto('managers')
      .values(exampleManagers.map((management) => ({ ...management })))
      .execute();
  });
}

/**
 * {@link createDatabase}, {@link migrate} and {@link seed} in one call: what the example app runs
 * at start.
 *
 * @example
 * ```ts
 * const db = await createSeededDatabase({ databaseUrl: process.env.DATABASE_URL });
 * ```
 */
export async function createSeededDatabase(options: CreateDatabaseOptions = {}): Promise<Kysely<ExampleDatabase>> {
  const db = await createDatabase(options);
  try {
    await migrate(db);
    await seed(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/**
 * Closes the database: stops the embedded PGlite, or ends the pool of server connections.
 *
 * @example
 * ```ts
 * await closeDatabase(db);
 * ```
 */
export async function closeDatabase(db: Kysely<ExampleDatabase>): Promise<void> {
  await db.destroy();
}
