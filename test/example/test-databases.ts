/**
 * Embedded databases for tests, each started from a dump made once per jest run. PGlite's `initdb` costs seconds
 * of CPU (6 s on a 2-core machine, 10 s with the first WebAssembly compile; 2–3 s once compiled); starting from a
 * dump of its data folder costs a fifth of that. Two dumps: the example database migrated and seeded (about twenty
 * suites start the example app), and an empty database (the suites that make tables of their own).
 *
 * The first suite that needs a dump makes it from scratch and leaves it in the run's folder (test/global-setup.mjs),
 * written under a name of its own and renamed into place, so two workers making it at once both leave a whole file.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { closeDatabase, createDatabase, createSeededDatabase, dumpEmbeddedDatabase } from '../../examples/documents/database.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';

/** The jest run's folder for the dumps; absent when a suite runs outside jest's global setup (then nothing is shared). */
const runFolder = process.env.TYPED_PERMISSIONS_TEST_DATABASES;

/** The dumps' names in the run's folder. */
const SEEDED_DUMP = 'seeded-example.tar';
const EMPTY_DUMP = 'empty-pglite.tar';

/** The run's dump `name`, when a suite made it already. */
async function readDump(name: string): Promise<Blob | undefined> {
  const file = runFolder === undefined ? undefined : join(runFolder, name);
  return file !== undefined && existsSync(file) ? new Blob([await readFile(file)]) : undefined;
}

/** Leaves `dump` as the run's dump `name`: written under a name of its own, then renamed into place. */
async function leaveDump(name: string, dump: Blob): Promise<void> {
  if (runFolder === undefined) return;
  const file = join(runFolder, name);
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
}

/**
 * The run's dump of the example database, migrated and seeded (made now when no suite made it yet): for a test that
 * starts its own PGlite over the example's data, with `PGlite.create({ loadDataDir })`.
 *
 * @example
 * ```ts
 * const pglite = await PGlite.create({ loadDataDir: await seededExampleDump() });
 * ```
 */
export async function seededExampleDump(): Promise<Blob> {
  const kept = await readDump(SEEDED_DUMP);
  if (kept !== undefined) return kept;
  const seeded = await createSeededDatabase();
  const made = await dumpEmbeddedDatabase(seeded);
  await closeDatabase(seeded);
  await leaveDump(SEEDED_DUMP, made);
  return made;
}

/**
 * A new embedded example database, migrated and seeded with the example data, from the run's dump; close it with
 * `closeDatabase`.
 *
 * @example
 * ```ts
 * const db = await seededTestDatabase();
 * ```
 */
export async function seededTestDatabase(): Promise<Kysely<ExampleDatabase>> {
  return createDatabase({ embeddedDataDir: await seededExampleDump() });
}

/**
 * A new PGlite with an empty database (as `PGlite.create(options)` makes it), started from the run's dump of one;
 * close it with `close()`. The first one of the run is made from scratch, and its dump left for the others.
 *
 * @example
 * ```ts
 * const pglite = await emptyTestPGlite();
 * await pglite.exec('CREATE TABLE documents (id integer PRIMARY KEY)');
 * ```
 */
export async function emptyTestPGlite(options: Omit<PGliteOptions, 'loadDataDir' | 'dataDir'> = {}): Promise<PGlite> {
  const kept = await readDump(EMPTY_DUMP);
  if (kept !== undefined) return PGlite.create({ ...options, loadDataDir: kept });
  const made = await PGlite.create(options);
  await leaveDump(EMPTY_DUMP, await made.dumpDataDir('none'));
  return made;
}
