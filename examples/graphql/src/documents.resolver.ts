import { NotFoundException, UseGuards } from '@nestjs/common';
import { Args, Field, ID, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { Permit } from 'typed-permissions';
import { GetPermit, typedPermissions } from 'typed-permissions/nest';
import type { Schema } from '../generated/index.js';
import { DocumentsRepository, type DocumentFilter } from './documents.repository.js';
import type { AppUser } from './users.js';

const { createPermissionsGuard, Permission } = typedPermissions<Schema>();

type DocumentPermit = Permit<AppUser, number, DocumentFilter>;

/** Every field is nullable: a field the user may not see resolves to null. */
@ObjectType('Document')
class DocumentModel {
  @Field(() => ID, { nullable: true }) id?: number;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) content?: string;
  @Field(() => ID, { nullable: true }) authorId?: number;
}

@Resolver(() => DocumentModel)
@UseGuards(createPermissionsGuard({ resource: 'document' }))
export class DocumentsResolver {
  constructor(private readonly repository: DocumentsRepository) {}

  @Query(() => [DocumentModel])
  @Permission({ action: 'list' }) // a name that is no action of document does not compile
  documents(@GetPermit() permit: DocumentPermit) {
    return permit.filterPick(this.repository.findAll());
  }

  @Query(() => DocumentModel, { nullable: true })
  @Permission({ action: 'read' }) // checked on the document of the id argument before the method runs
  async document(@Args('id', { type: () => ID }) id: string, @GetPermit() permit: DocumentPermit) {
    const document = this.repository.findById(permit.resourceId as number); // id, as the number the guard made of it
    if (document === undefined) throw new NotFoundException(`No document ${id}.`);
    return permit.pick(document); // the attributes the user may not see are missing: they resolve to null
  }
}
