/** The example documents app: data, permissions (from the generated tables), the controllers, the GraphQL resolver and the page. */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { grantTables } from '../../generated/index.js';
import { PermissionsModule } from '../../runtime/nest/index.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { DocumentsOwnedController } from './documents-owned.controller.js';
import { DocumentsProtectedSimpleController } from './documents-protected-simple.controller.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsPageController } from './documents-page.controller.js';
import { MeController } from './me.controller.js';
import { PAGE_DIR, PageController } from './page.controller.js';
import { DocumentsResolver } from './documents.resolver.js';
import { exampleGraphQLModule } from './graphql-server.js';
import { ExampleDataModule, type ExampleDataOptions } from './example-data.module.js';
import { parseDocumentId, userFromHeader } from './extract-user.js';
import { limitOwnReduce } from './limit-own-reduce.js';
import { UsersRepository } from './users.repository.js';

/**
 * @example
 * ```ts
 * const app = await NestFactory.create(AppModule.forRoot({ databaseUrl: process.env.DATABASE_URL }));
 * ```
 */
@Module({})
export class AppModule {
  static forRoot(options: ExampleDataOptions & { readonly hookTimeoutMs?: number; readonly pageDir?: string } = {}): DynamicModule {
    const data = ExampleDataModule.forRoot(options);
    return {
      module: AppModule,
      imports: [
        data,
        PermissionsModule.forRootAsync({
          imports: [data],
          inject: [UsersRepository],
          useFactory: (users: UsersRepository) => ({
            tables: grantTables,
            limitOwnReduce,
            extractUserFromRequest: userFromHeader(users),
            projectResourceId: (id: string) => parseDocumentId(id),
            ...(options.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: options.hookTimeoutMs }),
          }),
        }),
        exampleGraphQLModule(),
      ],
      controllers: [DocumentsController, DocumentsProtectedSimpleController, DocumentsOwnedController, DocumentsPageController, MeController, PageController],
      providers: [DocumentsResolver, { provide: APP_FILTER, useClass: DatabaseUnavailableFilter }, { provide: PAGE_DIR, useValue: options.pageDir }],
    };
  }
}
