/** The example documents app: data, permissions (from the generated tables) and the three controllers. */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { grantTables } from '../../generated/index.js';
import { PermissionsModule } from '../nest/index.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { DocumentsOwnedController } from './documents-owned.controller.js';
import { DocumentsProtectedSimpleController } from './documents-protected-simple.controller.js';
import { DocumentsController } from './documents.controller.js';
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
      ],
      controllers: [DocumentsController, DocumentsProtectedSimpleController, DocumentsOwnedController],
      providers: [{ provide: APP_FILTER, useClass: DatabaseUnavailableFilter }],
    };
  }
}
