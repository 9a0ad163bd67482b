import type { IncomingMessage } from 'node:http';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule, formatGraphQLError } from 'typed-permissions/nest';
import { grantTables } from '../generated/index.js';
import { DocumentOwnership } from './document-ownership.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsResolver } from './documents.resolver.js';
import { userFromAuthorization, type AppUser } from './users.js';

@Module({
  imports: [
    PermissionsModule.forRoot<AppUser>({
      tables: grantTables, // the compiled definitions
      extractUserFromRequest: (request) => userFromAuthorization((request as IncomingMessage).headers.authorization),
    }),
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      autoSchemaFile: true, // the schema, from the resolvers' decorators
      formatError: formatGraphQLError, // FORBIDDEN, UNAUTHENTICATED, BAD_USER_INPUT, as REST's 403, 401, 400
    }),
  ],
  providers: [DocumentsResolver, DocumentsRepository, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: DocumentOwnership }],
})
export class AppModule {}
