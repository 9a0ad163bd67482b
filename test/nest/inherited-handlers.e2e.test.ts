/**
 * A guarded handler inherited by several controllers (a base class, a mixin) is resolved and checked for
 * each controller that serves it: the record id of `users/:id/documents/:ref` is never taken from what
 * `shelves/:ref/documents/:id` declares, whichever controller Nest registers first.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller, Get, Param, UseGuards, type Type } from '@nestjs/common';
import request from 'supertest';
import { PermissionsUsageError, type PermissionDefinition, type Permit } from '../../runtime/permissions/index.js';
import { createPermissionsGuard, GetPermit, PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule } from '../../runtime/nest/index.js';
import { createApp, DOCUMENTS, InMemoryOwnership, userFromHeader, type TestApp, type TestUser } from './fixtures/documents.fixture.js';

/** Employees read only the documents they created (1 and 2 are user 1's, 3 is user 2's). */
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
];

const DocumentsGuard = createPermissionsGuard({ resource: 'document' });

/** The handler both controllers inherit: it serves the document named by `ref`, or by `id`, whichever its route calls the document. */
@UseGuards(DocumentsGuard)
abstract class DocumentReader {
  @Get()
  read(@Param() params: Record<string, string>, @GetPermit() permit: Permit<TestUser, number>): Promise<object> {
    const id = Number(this.documentParam === 'ref' ? params['ref'] : params['id']);
    return permit.pick(DOCUMENTS.find((document) => document.id === id) ?? {});
  }

  protected abstract readonly documentParam: 'id' | 'ref';
}

@Controller('shelves/:ref/documents/:id')
class ShelfDocumentsController extends DocumentReader {
  protected readonly documentParam = 'id';
}

@Controller('users/:id/documents/:ref')
class UserDocumentsController extends DocumentReader {
  protected readonly documentParam = 'ref';
}

/** The same handler given to two controllers by a mixin: one function, two routes. */
// A mixin's base must be constructible with any arguments (TypeScript's mixin rule).
function withRead<T extends abstract new (...args: any[]) => object>(base: T) {
  abstract class WithRead extends base {
    @Get()
    read(@GetPermit() permit: Permit<TestUser, number>): { resourceId: number | undefined } {
      return { resourceId: permit.resourceId };
    }
  }
  return WithRead;
}
class Empty {}
const ReadMixin = withRead(Empty);

@Controller('folders/:folder/documents/:id')
@UseGuards(DocumentsGuard)
class FolderDocumentsController extends ReadMixin {}

@Controller('authors/:id/documents/:documentId')
@UseGuards(DocumentsGuard)
class AuthorDocumentsController extends ReadMixin {}

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function moduleFor(controllers: Type<unknown>[]) {
  return {
    imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), projectResourceId: Number, definitions: DEFINITIONS })],
    controllers,
    providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }],
  };
}

async function startError(controllers: Type<unknown>[]): Promise<string> {
  app = await createApp(moduleFor(controllers));
  const failure = await app.init().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(PermissionsUsageError);
  return (failure as Error).message;
}

const userDocumentsProblem =
  'UserDocumentsController.read ("/users/:id/documents/:ref") declares the parameters "id", "ref" but none of them is the resource id: ' +
  'the default "id" counts only as the last parameter.';

describe('inherited handlers are resolved per controller', () => {
  it.each([
    ['shelves first', [ShelfDocumentsController, UserDocumentsController]],
    ['users first', [UserDocumentsController, ShelfDocumentsController]],
  ])('a base-class handler whose second route has no id parameter stops the start (%s)', async (_order, controllers) => {
    const message = await startError(controllers);
    expect(message).toContain(userDocumentsProblem);
    expect(message).not.toContain('ShelfDocumentsController');
  });

  it.each([
    ['folders first', [FolderDocumentsController, AuthorDocumentsController]],
    ['authors first', [AuthorDocumentsController, FolderDocumentsController]],
  ])('a mixin handler whose second route has no id parameter stops the start (%s)', async (_order, controllers) => {
    const message = await startError(controllers);
    expect(message).toContain(
      'AuthorDocumentsController.read ("/authors/:id/documents/:documentId") declares the parameters "id", "documentId" but none of them is the resource id',
    );
    expect(message).not.toContain('FolderDocumentsController');
  });

  it('the controller whose route names the document "id" checks that document, not the shelf', async () => {
    app = await createApp(moduleFor([ShelfDocumentsController]));
    await app.init();
    const server = app.getHttpServer();
    // Shelf 1 holds document 3 (user 2's): the shelf number is never taken for the document.
    expect((await request(server).get('/shelves/1/documents/3').set('x-user-id', '1')).status).toBe(403);
    const own = await request(server).get('/shelves/3/documents/2').set('x-user-id', '1');
    expect({ status: own.status, body: own.body as unknown }).toEqual({
      status: 200,
      body: { id: 2, title: 'Doc 2', date: '2024-01-02', status: 'draft', personal: 'personal 2', confidential: 'confidential 2', creatorId: 1 },
    });
  });

  it('two controllers sharing a mixin handler check each its own route’s id', async () => {
    @Controller('boxes/:box/documents/:id')
    @UseGuards(DocumentsGuard)
    class BoxDocumentsController extends ReadMixin {}
    app = await createApp(moduleFor([FolderDocumentsController, BoxDocumentsController]));
    await app.init();
    const server = app.getHttpServer();
    for (const prefix of ['/folders/3', '/boxes/3']) {
      expect((await request(server).get(`${prefix}/documents/3`).set('x-user-id', '1')).status).toBe(403);
      const own = await request(server).get(`${prefix}/documents/1`).set('x-user-id', '1');
      expect({ status: own.status, body: own.body as unknown }).toEqual({ status: 200, body: { resourceId: 1 } });
    }
  });
});
