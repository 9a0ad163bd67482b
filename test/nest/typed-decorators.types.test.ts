/**
 * typedPermissions<ResourceActions>(): the `@ts-expect-error` lines are the test (tsc --noEmit fails
 * if one of them stops being an error); the e2e part shows that the typed guard and decorators
 * behave like the plain ones at run time.
 */
import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import request from 'supertest';
import type { Permit } from '../../runtime/permissions/index.js';
import {
  GetPermit,
  PERMISSIONS_OWNERSHIP_SERVICE_TOKEN,
  PermissionsModule,
  typedPermissions,
  type ActionNameOf,
  type AnyActionNameOf,
  type ResourceNameOf,
} from '../../runtime/nest/index.js';
import { collectingLogger, DOCUMENT_DEFINITIONS, InMemoryOwnership, integerId, startApp, userFromHeader, type TestUser } from './fixtures/documents.fixture.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

interface ResourceActions {
  document: 'read' | 'list';
  note: 'read' | 'archive';
}

export type TypeLevelChecks = [
  Expect<Equal<ResourceNameOf<ResourceActions>, 'document' | 'note'>>,
  Expect<Equal<ActionNameOf<ResourceActions, 'document'>, 'read' | 'list'>>,
  Expect<Equal<AnyActionNameOf<ResourceActions>, 'read' | 'list' | 'archive'>>,
];

const { createPermissionsGuard, Permission, Action } = typedPermissions<ResourceActions>();

describe('typedPermissions<ResourceActions>() at compile time', () => {
  it('rejects a resource that is not declared', () => {
    // @ts-expect-error: 'invoice' is not a resource of ResourceActions
    createPermissionsGuard({ resource: 'invoice' });
    // @ts-expect-error: 'invoice' is not a resource of ResourceActions
    Permission({ resource: 'invoice', action: 'read' });
    // @ts-expect-error: 'invoice' is not a resource of ResourceActions
    Action('invoice');
    expect(createPermissionsGuard({ resource: 'document' })).toBeInstanceOf(Function);
  });

  it('rejects an action that is not declared for the resource', () => {
    // @ts-expect-error: 'approve' is not an action of document
    Permission({ resource: 'document', action: 'approve' });
    // @ts-expect-error: 'archive' is declared for note, not for document
    Permission({ resource: 'document', action: 'archive' });
    // @ts-expect-error: 'approve' is not an action of any resource
    Permission({ action: 'approve' });
    Permission({ resource: 'note', action: 'archive' });
    Permission({ action: 'archive', resourceIdParam: 'noteId' });
    createPermissionsGuard({ resource: 'document' }, [
      // @ts-expect-error: definitions may grant only declared actions
      { roles: ['EMPLOYEE'], resource: 'document', grant: ['approve:any'] },
    ]);
  });

  it('rejects @Action() on a method whose name is not an action', () => {
    class NotesHandlers {
      @Action('note')
      archive(): void {}

      // @ts-expect-error: 'list' is an action of document, not of note
      @Action('note')
      list(): void {}

      // @ts-expect-error: 'approve' is not an action of document
      @Action('document')
      approve(): void {}

      @Action()
      read(): void {}

      // @ts-expect-error: 'publish' is not an action of any resource
      @Action()
      publish(): void {}
    }
    expect(Object.getOwnPropertyNames(NotesHandlers.prototype)).toEqual(['constructor', 'archive', 'list', 'approve', 'read', 'publish']);
  });
});

describe('typedPermissions<ResourceActions>() at run time', () => {
  @Controller('typed/documents')
  @UseGuards(createPermissionsGuard({ resource: 'document' }))
  class TypedDocumentsController {
    @Get(':id')
    @Action('document')
    read(@Param('id') id: string, @GetPermit() permit: Permit<TestUser, number>): { action: string; resourceId: unknown; id: string } {
      return { action: permit.action, resourceId: permit.resourceId, id };
    }

    @Get(':id/summary')
    @Permission({ resource: 'document', action: 'read' })
    summary(@GetPermit() permit: Permit<TestUser, number>): { action: string } {
      return { action: permit.action };
    }
  }

  it('checks the action the decorators name', async () => {
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          projectResourceId: integerId,
          definitions: [...DOCUMENT_DEFINITIONS],
          logger: collectingLogger().logger,
        }),
      ],
      controllers: [TypedDocumentsController],
      providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }],
    });
    try {
      const server = app.getHttpServer();
      const own = await request(server).get('/typed/documents/1').set('x-user-id', '1').expect(200);
      expect(own.body).toEqual({ action: 'read', resourceId: 1, id: '1' });
      await request(server).get('/typed/documents/3').set('x-user-id', '1').expect(403);
      const summary = await request(server).get('/typed/documents/3/summary').set('x-user-id', '4').expect(200);
      expect(summary.body).toEqual({ action: 'read' });
    } finally {
      await app.close();
    }
  });
});
