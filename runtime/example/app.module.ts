/** The example documents app: data, permissions (from the generated tables), the three controllers and the GraphQL resolver. */
import { Module, RequestMethod, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { grantTables } from '../../generated/index.js';
import { PermissionsModule } from '../nest/index.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { DocumentsOwnedController } from './documents-owned.controller.js';
import { DocumentsProtectedSimpleController } from './documents-protected-simple.controller.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsResolver } from './documents.resolver.js';
import { refuseLargeBatches } from './graphql-limits.js';
import { exampleGraphQLModule, GRAPHQL_PATH } from './graphql-server.js';
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
export class AppModule implements NestModule {
  static forRoot(options: ExampleDataOptions & { readonly hookTimeoutMs?: number } = {}): DynamicModule {
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
      controllers: [DocumentsController, DocumentsProtectedSimpleController, DocumentsOwnedController],
      providers: [DocumentsResolver, { provide: APP_FILTER, useClass: DatabaseUnavailableFilter }],
    };
  }

  /** HTTP batches of GraphQL operations are bounded before Apollo reads them (Nest's middleware runs before the GraphQL route). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(refuseLargeBatches).forRoutes({ path: GRAPHQL_PATH, method: RequestMethod.POST });
  }
}
