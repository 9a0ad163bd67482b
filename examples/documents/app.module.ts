/**
 * The example documents app: data, permissions (from the generated tables), the controllers, the GraphQL resolver and
 * the page. Each company is a tenant: every question names the tenant of the caller's company, whose custom roles
 * (from `tenantRoles`) stand beside the compiled ones.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { grantTables } from '../../generated/index.js';
import { PermissionsModule } from '../../runtime/nest/index.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { DocumentsOwnedController } from './documents-owned.controller.js';
import { DocumentsProtectedSimpleController } from './documents-protected-simple.controller.js';
import { DocumentsController } from './documents.controller.js';
import { DecisionsController } from './decisions.controller.js';
import { DecisionLogWriter } from './decision-log.writer.js';
import { DocumentsPageController } from './documents-page.controller.js';
import { MeController } from './me.controller.js';
import { PAGE_DIR, PageController } from './page.controller.js';
import { DocumentsResolver } from './documents.resolver.js';
import { exampleGraphQLModule } from './graphql-server.js';
import { ExampleDataModule, type ExampleDataOptions } from './example-data.module.js';
import { parseDocumentId, tenantFromHeader, userFromHeader } from './extract-user.js';
import { TENANT_ROLES_SOURCE, TenantRolesFollower } from './tenant-roles-follower.js';
import { UsersRepository } from './users.repository.js';
import { EXAMPLE_OWNERSHIP_RULES } from './example.constants.js';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import type { PolicySource, TenantRolesSource } from '../../runtime/live/index.js';
import type { FollowOptions } from '../../runtime/live/policy-follower.js';

/** What the example says about its live policy: each change, and each rejected version with its reasons. */
const policyLog: FollowOptions = {
  onChange: ({ version, sequence, source }) => console.log(`policy ${version}${sequence === undefined ? '' : ` (#${sequence})`} active, from ${source}`),
  onReject: ({ version, reasons, source }) => console.warn(`policy ${version ?? '(unreadable)'} from ${source} rejected: ${reasons.join('; ')}`),
  onError: (error) => console.warn(`policy source: ${error instanceof Error ? error.message : String(error)}`),
};

/**
 * @example
 * ```ts
 * const app = await NestFactory.create(AppModule.forRoot({ databaseUrl: process.env.DATABASE_URL }));
 * ```
 */
@Module({})
export class AppModule {
  static forRoot(
    options: ExampleDataOptions & {
      readonly hookTimeoutMs?: number;
      readonly pageDir?: string;
      readonly policySource?: PolicySource;
      readonly tenantRoles?: TenantRolesSource;
    } = {},
  ): DynamicModule {
    const data = ExampleDataModule.forRoot(options);
    return {
      module: AppModule,
      imports: [
        data,
        PermissionsModule.forRootAsync({
          imports: [data],
          inject: [UsersRepository, DecisionLogWriter, EXAMPLE_OWNERSHIP_RULES],
          useFactory: (users: UsersRepository, decisions: DecisionLogWriter, ownershipRules: KyselyOwnershipSource) => ({
            tables: grantTables,
            // Every ownership answer comes from the rules of definitions/document.resource.json, over the example database.
            ownershipRules,
            extractUserFromRequest: userFromHeader(users),
            // A user's questions are asked in the tenant of their company (none for a user of no company).
            extractTenantFromRequest: tenantFromHeader(users),
            projectResourceId: (id: string) => parseDocumentId(id),
            // Every decision, written in batches to the decision_log table (GET /decisions shows the last ones).
            onDecision: decisions.record,
            ...(options.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: options.hookTimeoutMs }),
            // A live policy: the compiled tables fix the vocabulary, every valid version of the source replaces the grants.
            ...(options.policySource === undefined ? {} : { source: options.policySource, follow: policyLog }),
          }),
        }),
        exampleGraphQLModule(),
      ],
      controllers: [
        DocumentsController,
        DocumentsProtectedSimpleController,
        DocumentsOwnedController,
        DocumentsPageController,
        MeController,
        PageController,
        DecisionsController,
      ],
      providers: [
        DocumentsResolver,
        { provide: APP_FILTER, useClass: DatabaseUnavailableFilter },
        { provide: PAGE_DIR, useValue: options.pageDir },
        { provide: TENANT_ROLES_SOURCE, useValue: options.tenantRoles },
        TenantRolesFollower,
      ],
    };
  }
}
