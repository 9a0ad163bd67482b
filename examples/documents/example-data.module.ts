/**
 * The example app's data layer as a global Nest module: the database (embedded PGlite, or
 * PostgreSQL when DATABASE_URL is set), the repositories, the decision log and its bounds, and the ownership
 * service registered under PERMISSIONS_OWNERSHIP_SERVICE_TOKEN so the permissions module finds it.
 */
import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN } from '../../runtime/nest/index.js';
import { closeDatabase, createSeededDatabase } from './database.js';
import { DEFAULT_DECISION_LOG_BOUNDS, type DecisionLogBounds } from './decision-log-bounds.js';
import { DecisionLogWriter } from './decision-log.writer.js';
import { DocumentOwnershipService } from './document-ownership.service.js';
import { DocumentsRepository } from './documents.repository.js';
import { DECISION_LOG_BOUNDS, EXAMPLE_DATABASE } from './example.constants.js';
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
      DocumentOwnershipService,
      DocumentsRepository,
      DecisionLogWriter,
      UsersRepository,
      { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useExisting: DocumentOwnershipService },
    ];
    return {
      module: ExampleDataModule,
      providers,
      exports: [EXAMPLE_DATABASE, DocumentOwnershipService, DocumentsRepository, UsersRepository, DecisionLogWriter, PERMISSIONS_OWNERSHIP_SERVICE_TOKEN],
    };
  }
}
