/**
 * The example app's data layer as a global Nest module: the database (embedded PGlite, or
 * PostgreSQL when DATABASE_URL is set), the repositories, the decision log and its bounds, and the source of the
 * records the ownership rules read (EXAMPLE_OWNERSHIP_RULES).
 */
import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { closeDatabase, createSeededDatabase } from './database.js';
import { DEFAULT_DECISION_LOG_BOUNDS, type DecisionLogBounds } from './decision-log-bounds.js';
import { DecisionLogWriter } from './decision-log.writer.js';
import { documentOwnershipRules } from './document-ownership-rules.js';
import { DocumentsRepository } from './documents.repository.js';
import { DECISION_LOG_BOUNDS, EXAMPLE_DATABASE, EXAMPLE_OWNERSHIP_RULES } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';
import { UsersRepository } from './users.repository.js';

/** Where the example data lives. */
export interface ExampleDataOptions {
  /** A PostgreSQL URL; absent or empty means an embedded, in-memory PGlite. */
  readonly databaseUrl?: string | undefined;
  /** How much of the decision log is kept; each bound left out is at its default (`DEFAULT_DECISION_LOG_BOUNDS`). */
  readonly decisionLog?: Partial<DecisionLogBounds> | undefined;
}

class DatabaseCloser implements OnApplicationShutdown {
  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  async onApplicationShutdown(): Promise<void> {
    await closeDatabase(this.db);
  }
}

/**
 * @example
 * ```ts
 * @Module({ imports: [ExampleDataModule.forRoot({ databaseUrl: process.env.DATABASE_URL })] })
 * class AppModule {}
 * ```
 */
@Global()
@Module({})
export class ExampleDataModule {
  static forRoot(options: ExampleDataOptions = {}): DynamicModule {
    const providers = [
      { provide: EXAMPLE_DATABASE, useFactory: () => createSeededDatabase({ databaseUrl: options.databaseUrl }) },
      { provide: DECISION_LOG_BOUNDS, useValue: { ...DEFAULT_DECISION_LOG_BOUNDS, ...options.decisionLog } },
      DatabaseCloser,
      { provide: EXAMPLE_OWNERSHIP_RULES, inject: [EXAMPLE_DATABASE], useFactory: documentOwnershipRules },
      DocumentsRepository,
      DecisionLogWriter,
      UsersRepository,
    ];
    return {
      module: ExampleDataModule,
      providers,
      exports: [EXAMPLE_DATABASE, EXAMPLE_OWNERSHIP_RULES, DocumentsRepository, UsersRepository, DecisionLogWriter],
    };
  }
}
