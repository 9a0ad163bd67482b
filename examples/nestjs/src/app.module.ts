import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { memoryOwnership } from 'typed-permissions';
import { PermissionsModule } from 'typed-permissions/nest';
import { grantTables } from '../generated/index.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsRepository } from './documents.repository.js';
import { userFromAuthorization, type AppUser } from './users.js';

// One repository: the controller is given it, and the rule "author" reads its documents (memoryOwnership).
const documents = new DocumentsRepository();

@Module({
  imports: [
    PermissionsModule.forRoot<AppUser>({
      tables: grantTables, // the compiled definitions
      ownershipRules: memoryOwnership({ document: () => documents.findAll() }), // the records the rule reads
      extractUserFromRequest: (request) => userFromAuthorization((request as IncomingMessage).headers.authorization),
    }),
  ],
  controllers: [DocumentsController],
  providers: [{ provide: DocumentsRepository, useValue: documents }],
})
export class AppModule {}
