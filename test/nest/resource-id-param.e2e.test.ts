/**
 * The Nest guard's resource id parameter. Every guarded handler resolves its id
 * parameter unambiguously when the application starts, or the start fails naming controller,
 * handler, route and parameters — a record check must never silently become a collection check, or
 * check the id of another resource. (Without this check, `@Delete(':documentId')` under a default guard
 * would be checked as a collection request and let an employee delete anyone's document.)
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller, Delete, Get, Module, UseGuards, type Type } from '@nestjs/common';
import { APP_GUARD, RouterModule } from '@nestjs/core';
import request from 'supertest';
import { PermissionsUsageError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import {
  createPermissionsGuard,
  GetPermit,
  Permission,
  PERMISSIONS_OWNERSHIP_SERVICE_TOKEN,
  PermissionsModule,
  PermissionsService,
} from '../../runtime/nest/index.js';
import { collectingLogger, createApp, InMemoryOwnership, integerId, userFromHeader, type TestApp } from './fixtures/documents.fixture.js';

/** Employees delete and read only their own documents (1 and 2 are user 1's, 3 is user 2's); they list as any. */
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['delete', 'read', 'list:any'], isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['EMPLOYEE'], resource: 'user', grant: ['read:any'] },
];

const moduleFor = (controllers: Type<unknown>[], extra: { imports?: unknown[]; providers?: unknown[] } = {}) => ({
  imports: [
    PermissionsModule.forRoot({
      extractUserFromRequest: userFromHeader(),
      projectResourceId: integerId,
      definitions: DEFINITIONS,
      logger: collectingLogger().logger,
    }),
    ...((extra.imports ?? []) as never[]),
  ],
  controllers: controllers as never[],
  providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }, ...((extra.providers ?? []) as never[])],
});

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The error app.init() rejects with. */
async function startError(controllers: Type<unknown>[], extra?: Parameters<typeof moduleFor>[1], prefix?: string): Promise<Error> {
  app = await createApp(moduleFor(controllers, extra));
  if (prefix !== undefined) app.setGlobalPrefix(prefix);
  try {
    await app.init();
  } catch (error) {
    expect(error).toBeInstanceOf(PermissionsUsageError);
    return error as Error;
  }
  throw new Error('app.init() was expected to reject');
}

async function start(controllers: Type<unknown>[], extra?: Parameters<typeof moduleFor>[1], prefix?: string): Promise<TestApp> {
  app = await createApp(moduleFor(controllers, extra));
  if (prefix !== undefined) app.setGlobalPrefix(prefix);
  await app.init();
  return app;
}

const HEADLINE =
  'Guarded handlers whose resource id parameter is ambiguous; the application does not start, because a check ' +
  'without the right record id could grant access to the wrong record:\n';

describe("the Nest guard resolves every handler's id parameter at bootstrap", () => {
  idParamsOfRecordRoutes();
  undeclaredParamsAndOptOuts();
  prefixesGlobalGuardsAndOptionalIds();

  it('a path of the old syntax is read as Nest registers it: its unnamed wildcard is a parameter, and the start stops', async () => {
    @Controller('files')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class LegacyFilesController {
      @Get('*')
      all(): string {
        return 'all';
      }

      @Get(':id/*')
      part(): string {
        return 'part';
      }
    }
    const error = await startError([LegacyFilesController]);
    expect(error.message).toContain('LegacyFilesController.all ("/files/{*path}") declares the parameters "path" but none of them is the resource id');
    expect(error.message).toContain('LegacyFilesController.part ("/files/:id/{*path}") declares the parameters "id", "path"');
  });

  it('a wildcard cannot be the id parameter', async () => {
    @Controller('files')
    @UseGuards(createPermissionsGuard({ resource: 'document', resourceIdParam: 'path' }))
    class FilesController {
      @Get('*path')
      read(): string {
        return 'read';
      }
    }
    const error = await startError([FilesController]);
    expect(error.message).toContain(
      'FilesController.read ("/files/*path") takes the resource id from the wildcard "path", which matches several path segments.',
    );
  });
});

function idParamsOfRecordRoutes(): void {
  it("a route ':documentId' under the default guard stops the start, rather than letting anyone delete any document", async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class DocumentsController {
      @Delete(':documentId')
      delete(): string {
        return 'deleted';
      }
    }
    const error = await startError([DocumentsController]);
    expect(error.message).toBe(
      `${HEADLINE}  - DocumentsController.delete ("/documents/:documentId") declares the parameters "documentId" ` +
        `but none of them is the resource id: the default "id" counts only as the last parameter. Fix: Set ` +
        `resourceIdParam to the parameter that holds the id of the record checked (one of "documentId"), or opt out ` +
        `with resourceIdParam: null if this handler does not act on one record.`,
    );
  });

  it("with resourceIdParam: 'documentId' the same route checks that record: someone else's is 403, one's own 200", async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document', resourceIdParam: 'documentId' }))
    class DocumentsController {
      @Delete(':documentId')
      delete(@GetPermit() permit: { resourceId: unknown }): { deleted: unknown } {
        return { deleted: permit.resourceId };
      }
    }
    const server = (await start([DocumentsController])).getHttpServer();
    await request(server).delete('/documents/3').set('x-user-id', '1').expect(403);
    expect((await request(server).delete('/documents/2').set('x-user-id', '1').expect(200)).body).toEqual({ deleted: 2 });
  });

  it("a nested route users/:id/documents/:docId does not check the user's id as the document id", async () => {
    @Controller('users/:id/documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class UserDocumentsController {
      @Delete(':docId')
      delete(): string {
        return 'deleted';
      }
    }
    const error = await startError([UserDocumentsController]);
    expect(error.message).toContain(
      'UserDocumentsController.delete ("/users/:id/documents/:docId") declares the parameters "id", "docId" but ' +
        'none of them is the resource id: the default "id" counts only as the last parameter.',
    );
  });

  it('@Permission({ resourceIdParam }) on the nested route checks the document, whatever the user id in the path', async () => {
    @Controller('users/:id/documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class UserDocumentsController {
      @Delete(':docId')
      @Permission({ resourceIdParam: 'docId' })
      delete(@GetPermit() permit: { resourceId: unknown }): { deleted: unknown } {
        return { deleted: permit.resourceId };
      }
    }
    const server = (await start([UserDocumentsController])).getHttpServer();
    // User 1 owns documents 1 and 2; the user id in the path (1) must not be mistaken for document 1.
    await request(server).delete('/users/1/documents/3').set('x-user-id', '1').expect(403);
    expect((await request(server).delete('/users/2/documents/1').set('x-user-id', '1').expect(200)).body).toEqual({ deleted: 1 });
  });
}

function undeclaredParamsAndOptOuts(): void {
  it('an explicit resourceIdParam the route does not declare stops the start (guard and @Permission)', async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document', resourceIdParam: 'documentId' }))
    class DocumentsController {
      @Get(':id')
      read(): string {
        return 'read';
      }

      @Get('other/:key')
      @Permission({ action: 'read', resourceIdParam: 'slug' })
      other(): string {
        return 'other';
      }
    }
    const error = await startError([DocumentsController]);
    expect(error.message).toBe(
      `${HEADLINE}` +
        '  - DocumentsController.read ("/documents/:id") takes the resource id from parameter "documentId" (set on ' +
        'the guard), which it does not declare (it declares "id"). Fix: Set resourceIdParam to one of "id", or opt ' +
        'out with resourceIdParam: null if this handler does not act on one record.\n' +
        '  - DocumentsController.other ("/documents/other/:key") takes the resource id from parameter "slug", which ' +
        'it does not declare (it declares "key"). Fix: Set resourceIdParam to one of "key", or opt out with ' +
        'resourceIdParam: null if this handler does not act on one record.',
    );
  });

  it('resourceIdParam: null opts a handler with path parameters out explicitly: a collection check', async () => {
    @Controller('folders/:folderId/documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class FolderDocumentsController {
      @Get()
      @Permission({ action: 'list', resourceIdParam: null })
      all(@GetPermit() permit: { resourceId: unknown; granted: boolean }): { resourceId: unknown } {
        return { resourceId: permit.resourceId ?? null };
      }
    }
    const server = (await start([FolderDocumentsController])).getHttpServer();
    expect((await request(server).get('/folders/7/documents').set('x-user-id', '1').expect(200)).body).toEqual({ resourceId: null });
  });

  it('a list route under a parametrised controller path must opt out; it is not guessed to be a collection check', async () => {
    @Controller('folders/:folderId/documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class FolderDocumentsController {
      @Get()
      list(): string {
        return 'list';
      }
    }
    const error = await startError([FolderDocumentsController]);
    expect(error.message).toContain(
      'FolderDocumentsController.list ("/folders/:folderId/documents") declares the parameters "folderId" but none of them is the resource id',
    );
  });
}

/** `controller` registered in two modules, mounted at `plain` and at `tenants/:tenantId` by RouterModule. */
function mountedTwice(controller: Type<unknown>): { imports: unknown[] } {
  @Module({ controllers: [controller] })
  class PlainModule {}
  @Module({ controllers: [controller] })
  class TenantModule {}
  const routes = RouterModule.register([
    { path: 'plain', module: PlainModule },
    { path: 'tenants/:tenantId', module: TenantModule },
  ]);
  return { imports: [PlainModule, TenantModule, routes] };
}

function prefixesGlobalGuardsAndOptionalIds(): void {
  it('a RouterModule path with parameters counts: the module path is part of the route', async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class TenantDocumentsController {
      @Get()
      list(): string {
        return 'list';
      }

      @Get(':id')
      read(): string {
        return 'read';
      }
    }
    @Module({ controllers: [TenantDocumentsController] })
    class TenantModule {}
    const error = await startError([], { imports: [TenantModule, RouterModule.register([{ path: 'tenants/:tenantId', module: TenantModule }])] });
    expect(error.message).toBe(
      `${HEADLINE}  - TenantDocumentsController.list ("/tenants/:tenantId/documents") declares the parameters ` +
        `"tenantId" but none of them is the resource id: the default "id" counts only as the last parameter. Fix: ` +
        `Set resourceIdParam to the parameter that holds the id of the record checked (one of "tenantId"), or opt ` +
        `out with resourceIdParam: null if this handler does not act on one record.`,
    );
  });

  it('a controller mounted at two RouterModule paths is checked at both: the second mount cannot hide an ambiguous id', async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class SharedDocumentsController {
      @Get()
      list(): string {
        return 'list';
      }
    }
    const error = await startError([], mountedTwice(SharedDocumentsController));
    expect(error.message).toBe(
      `${HEADLINE}  - SharedDocumentsController.list ("/plain/documents", "/tenants/:tenantId/documents") declares the parameters ` +
        `"tenantId" but none of them is the resource id: the default "id" counts only as the last parameter. Fix: ` +
        `Set resourceIdParam to the parameter that holds the id of the record checked (one of "tenantId"), or opt ` +
        `out with resourceIdParam: null if this handler does not act on one record.`,
    );
  });

  it('a controller mounted at two RouterModule paths with the id in both serves both, and checks the id of each', async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class SharedDocumentsController {
      @Get(':id')
      read(): string {
        return 'read';
      }
    }
    const server = (await start([], mountedTwice(SharedDocumentsController))).getHttpServer();
    expect((await request(server).get('/plain/documents/1').set('x-user-id', '1')).status).toBe(200);
    expect((await request(server).get('/tenants/7/documents/1').set('x-user-id', '1')).status).toBe(200);
    expect((await request(server).get('/tenants/7/documents/3').set('x-user-id', '1')).status).toBe(403);
    expect((await request(server).get('/plain/documents/3').set('x-user-id', '1')).status).toBe(403);
  });

  it('a global prefix with parameters counts too', async () => {
    @Controller('documents')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class DocumentsController {
      @Get()
      list(): string {
        return 'list';
      }
    }
    const error = await startError([DocumentsController], {}, 'tenants/:tenantId');
    expect(error.message).toContain('DocumentsController.list ("/tenants/:tenantId/documents") declares the parameters "tenantId"');
  });

  it('a permissions guard applied globally by a factory or app.useGlobalGuards(), or a class extending one, is checked at start too', async () => {
    const ambiguous = () => {
      @Controller('documents')
      class PlainController {
        @Get(':documentId')
        read(): string {
          return 'read';
        }
      }
      return PlainController;
    };
    const DocumentGuard = createPermissionsGuard({ resource: 'document' });
    const problem = (name: string) => `${name}.read ("/documents/:documentId") declares the parameters "documentId" but none of them is the resource id`;
    const byFactory = await startError([ambiguous()], {
      providers: [{ provide: APP_GUARD, useFactory: (service: PermissionsService) => new DocumentGuard(service), inject: [PermissionsService] }],
    });
    expect(byFactory.message).toContain(problem('PlainController'));
    await app?.close();

    // app.useGlobalGuards() between create and init, with a class extending the guard.
    class AuditedDocumentGuard extends DocumentGuard {}
    app = await createApp(moduleFor([ambiguous()]));
    app.useGlobalGuards(new AuditedDocumentGuard(app.get(PermissionsService)));
    const error = await app.init().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toContain(problem('PlainController'));
  });

  it('a permissions guard that is only a provider of a module guards nothing it is not applied to, and stops no start', async () => {
    const DocumentGuard = createPermissionsGuard({ resource: 'document' });
    @Controller('users')
    class UnguardedController {
      @Get(':userId/documents/:documentId')
      read(): string {
        return 'read';
      }
    }
    const server = (await start([UnguardedController], { providers: [DocumentGuard] })).getHttpServer();
    expect((await request(server).get('/users/1/documents/3')).status).toBe(200);
  });

  it('a permissions guard registered globally (APP_GUARD) checks every handler of every controller at start', async () => {
    @Controller('documents')
    class PlainController {
      @Get(':documentId')
      read(): string {
        return 'read';
      }
    }
    const error = await startError([PlainController], { providers: [{ provide: APP_GUARD, useClass: createPermissionsGuard({ resource: 'document' }) }] });
    expect(error.message).toContain('PlainController.read ("/documents/:documentId") declares the parameters "documentId" but none of them is the resource id');
  });

  it('an optional id segment (documents{/:id}) is a record check with the id and a collection check without', async () => {
    @Controller()
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class DocumentsController {
      @Get('documents{/:id}')
      read(@GetPermit() permit: { resourceId: unknown }): { resourceId: unknown } {
        return { resourceId: permit.resourceId ?? null };
      }
    }
    const server = (await start([DocumentsController])).getHttpServer();
    expect((await request(server).get('/documents/1').set('x-user-id', '1').expect(200)).body).toEqual({ resourceId: 1 });
    await request(server).get('/documents/3').set('x-user-id', '1').expect(403);
    // 'read' is granted as own, so the collection check is granted; the handler must then use the permit (pick, listOwn).
    expect((await request(server).get('/documents').set('x-user-id', '1').expect(200)).body).toEqual({ resourceId: null });
  });
}
