import type { IncomingMessage } from 'node:http';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { memoryOwnership } from 'typed-permissions';
import { PermissionsModule, formatGraphQLError } from 'typed-permissions/nest';
import { grantTables } from '../generated/index.js';
import { DocumentsRepository } from './documents.repository.js';
import { DocumentsResolver } from './documents.resolver.js';
import { userFromAuthorization, type AppUser } from './users.js';

// One repository: the resolver is given it, and the rule "author" reads its documents (memoryOwnership).
const documents = new DocumentsRepository();

@Module({
  imports: [
    PermissionsModule.forRoot<AppUser>({
      tables: grantTables, // the compiled definitions
      ownershipRules: memoryOwnership({ document: () => documents.findAll() }), // the records the rule reads
      extractUserFromRequest: (request) => userFromAuthorization((request as IncomingMessage).headers.authorization),
    }),
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      autoSchemaFile: true, // the schema, from the resolvers' decorators
      formatError: formatGraphQLError, // FORBIDDEN, UNAUTHENTICATED, BAD_USER_INPUT, as REST's 403, 401, 400
    }),
  ],
  providers: [DocumentsResolver, { provide: DocumentsRepository, useValue: documents }],
})
export class AppModule {}
