/**
 * The example documents app (examples/documents: AppModule, on an embedded PGlite started from the run's
 * seeded dump (test-databases.ts) unless a test hands it a database URL or another database) as the e2e
 * tests start it: silent, through the Nest fixture's createApp, either in-process (for supertest) or
 * listening on a loopback port; and its page built into a throw-away folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { AppModule } from '../../examples/documents/app.module.js';
import { buildPage } from '../../examples/documents/build-page.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { EXAMPLE_DATABASE } from '../../examples/documents/example.constants.js';
import { seededTestDatabase } from './test-databases.js';
import { listenApp, startApp, type ConfigureModule, type TestApp } from '../nest/fixtures/documents.fixture.js';

/** The options of `AppModule.forRoot`. */
export type ExampleAppOptions = NonNullable<Parameters<typeof AppModule.forRoot>[0]>;

/** What a test changes around the app: `database` replaces the app's own (the EXAMPLE_DATABASE provider). */
export interface ExampleAppSetup {
  readonly database?: Kysely<ExampleDatabase>;
}

function moduleOf(options: ExampleAppOptions): { imports: [ReturnType<typeof AppModule.forRoot>] } {
  return { imports: [AppModule.forRoot(options)] };
}

/**
 * How the test module is changed: the database a test hands over, or, without one and without a URL, a seeded embedded
 * one from the run's dump. Either way the app's DatabaseCloser closes it when the app closes.
 */
async function configureFor(options: ExampleAppOptions, { database }: ExampleAppSetup): Promise<ConfigureModule | undefined> {
  const embedded = options.databaseUrl === undefined || options.databaseUrl === '';
  const replacement = database ?? (embedded ? await seededTestDatabase() : undefined);
  return replacement === undefined ? undefined : (builder) => builder.overrideProvider(EXAMPLE_DATABASE).useValue(replacement);
}

/** The example app, initialised (not listening): for supertest's `request(app.getHttpServer())`. */
export async function startExampleApp(options: ExampleAppOptions = {}, setup: ExampleAppSetup = {}): Promise<TestApp> {
  return startApp(moduleOf(options), await configureFor(options, setup));
}

/** The example app listening on a free loopback port, with that port and its origin. */
export async function listenExampleApp(options: ExampleAppOptions = {}, setup: ExampleAppSetup = {}): Promise<{ app: TestApp; port: number; origin: string }> {
  return listenApp(moduleOf(options), await configureFor(options, setup));
}

/** Builds the example page into a new folder under the system's temporary folder; answers the folder. */
export async function buildPageDir(): Promise<string> {
  const pageDir = await mkdtemp(join(tmpdir(), 'typed-permissions-page-'));
  await buildPage({ outDir: pageDir });
  return pageDir;
}

/** Removes a folder buildPageDir made. */
export function removePageDir(pageDir: string): Promise<void> {
  return rm(pageDir, { recursive: true, force: true });
}
