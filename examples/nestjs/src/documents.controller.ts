import { Controller, Get, NotFoundException, UseGuards } from '@nestjs/common';
import type { Permit } from 'typed-permissions';
import { GetPermit, typedPermissions } from 'typed-permissions/nest';
import type { Schema } from '../generated/index.js';
import { DocumentsRepository, type DocumentFilter } from './documents.repository.js';
import type { AppUser } from './users.js';

const { createPermissionsGuard, Action } = typedPermissions<Schema>();

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

@Controller('documents')
@UseGuards(createPermissionsGuard({ resource: 'document' }))
export class DocumentsController {
  constructor(private readonly documents: DocumentsRepository) {}

  @Get()
  @Action('document') // the action is the method's name, list; a name that is no action of document does not compile
  list(@GetPermit() permit: DocumentPermit) {
    return permit.filterPick(this.documents.findAll());
  }

  @Get(':id')
  @Action('document') // read, checked on the document of the :id parameter before the method runs
  async read(@GetPermit() permit: DocumentPermit) {
    const document = this.documents.findById(permit.resourceId as number); // a number: document ids are numbers
    if (document === undefined) throw new NotFoundException('No such document.');
    return permit.pick(document);
  }
}
