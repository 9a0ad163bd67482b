/**
 * Injection tokens of the example app.
 */

/**
 * The Nest injection token of the example app's `Kysely<ExampleDatabase>` instance.
 *
 * @example
 * ```ts
 * @Module({ providers: [{ provide: EXAMPLE_DATABASE, useFactory: () => createSeededDatabase({ databaseUrl: process.env.DATABASE_URL }) }] })
 * class DatabaseModule {}
 * ```
 */
export const EXAMPLE_DATABASE = 'EXAMPLE_DATABASE';
