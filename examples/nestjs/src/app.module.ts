import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule } from 'typed-permissions/nest';
import { grantTables } from '../generated/index.js';
import { DocumentOwnership } from './document-ownership.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsRepository } from './documents.repository.js';
import { userFromAuthorization, type AppUser } from './users.js';

@Module({
  imports: [
    PermissionsModule.forRoot<AppUser>({
      tables: grantTables, // the compiled definitions
      extractUserFromRequest: (request) => userFromAuthorization((request as IncomingMessage).headers.authorization),
    }),
  ],
  controllers: [DocumentsController],
  providers: [DocumentsRepository, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: DocumentOwnership }],
})
export class AppModule {}
