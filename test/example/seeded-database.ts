/**
 * The example database as most tests want it — embedded, migrated and seeded — started from one dump per jest run.
 * PGlite's `initdb` costs seconds of CPU (6 s on a 2-core machine, 10 s with the first WebAssembly compile), and about
 * twenty suites start the example app: starting each from a dump of a seeded database costs a third of that.
 *
 * The first suite that needs one makes it from scratch and leaves its dump in the run's folder (test/global-setup.mjs),
 * written under a name of its own and renamed into place, so two workers making it at once both leave a whole file.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { createDatabase, createSeededDatabase, dumpEmbeddedDatabase } from '../../examples/documents/database.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';

/** The jest run's folder for the dump; absent when a suite runs outside jest's global setup (then nothing is shared). */
const runFolder = process.env.TYPED_PERMISSIONS_TEST_DATABASES;

/** Writes `seeded`'s dump to `file` under a name of its own, then renames it into place. */
async function writeDump(seeded: Kysely<ExampleDatabase>, file: string): Promise<void> {
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await (await dumpEmbeddedDatabase(seeded)).arrayBuffer()));
  await rename(partial, file);
}

/**
 * A new embedded example database, migrated and seeded with the example data; close it with `closeDatabase`. The
 * first one of the run is made from scratch, and its dump left for the others.
 */
export async function seededTestDatabase(): Promise<Kysely<ExampleDatabase>> {
  const file = runFolder === undefined ? undefined : join(runFolder, 'seeded-example.tar');
  if (file !== undefined && existsSync(file)) return createDatabase({ embeddedDataDir: new Blob([await readFile(file)]) });
  const seeded = await createSeededDatabase();
  if (file !== undefined) await writeDump(seeded, file);
  return seeded;
}
