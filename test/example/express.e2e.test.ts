/**
 * The same example definitions behind the generic express middleware instead of the NestJS guard: a
 * real express 5 app on the seeded example database (embedded PGlite), the example's ownership
 * service and limitOwnReduce, and definitions/document.permissions.json built at boot by
 * initPermissions (the NestJS app loads the compiled tables of the same file). An earlier middleware
 * turns x-user-id and the route into the grant query; the permissions middleware answers 403 or
 * puts the permit on the request; the handlers only apply the permit.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Kysely } from 'kysely';
import request from 'supertest';
import type { PermissionDefinition, Permit } from '../../runtime/core/index.js';
import type { AppUser } from '../../runtime/example/app-user.js';
import { closeDatabase, createSeededDatabase } from '../../runtime/example/database.js';
import type { DocumentFilter } from '../../runtime/example/document-filter.js';
import { DocumentOwnershipService } from '../../runtime/example/document-ownership.service.js';
import { DocumentsRepository } from '../../runtime/example/documents.repository.js';
import { exampleAnonymousUser } from '../../runtime/example/example-data.js';
import type { ExampleDatabase } from '../../runtime/example/example-database.js';
import { limitOwnReduce } from '../../runtime/example/limit-own-reduce.js';
import { UsersRepository } from '../../runtime/example/users.repository.js';
import { createPermissionsMiddleware, initPermissions, type RequestWithPermit } from '../../runtime/express/index.js';
import { documentWithId, documentWithout, employeeListFor } from './example-expectations.js';

type DocumentRequest = RequestWithPermit<AppUser, number, DocumentFilter>;

const POSITIVE_INT = /^[1-9]\d{0,8}$/;

function loadExampleDefinitions(): PermissionDefinition[] {
  const file = JSON.parse(readFileSync(new URL('../../definitions/document.permissions.json', import.meta.url), 'utf8')) as { definitions: PermissionDefinition[] };
  return file.definitions;
}

/** The express app, and every error that reached its error handler (none is expected). */
function createExampleExpressApp(db: Kysely<ExampleDatabase>): { app: Express; errors: unknown[] } {
  const users = new UsersRepository(db);
  const documents = new DocumentsRepository(db);
  const permissions = initPermissions<AppUser, DocumentFilter>(loadExampleDefinitions(), {
    ownership: new DocumentOwnershipService(db),
    limitOwnReduce,
    logger: { warn: () => undefined },
    source: 'definitions/document.permissions.json',
  });
  const checkPermissions = createPermissionsMiddleware({ permissions });
  const errors: unknown[] = [];

  /** The earlier step: who calls (x-user-id, or the anonymous placeholder), and the route's action and id. */
  const grantQueryFor =
    (action: 'read' | 'list'): RequestHandler =>
    async (req, res, next) => {
      const header = req.get('x-user-id');
      let user: AppUser | undefined = exampleAnonymousUser;
      if (header !== undefined) {
        user = POSITIVE_INT.test(header) ? await users.findUser(Number(header)) : undefined;
        if (user === undefined) {
          res.status(401).json({ statusCode: 401, error: 'Unauthorized', message: 'x-user-id must be the id of a user.' });
          return;
        }
      }
      const rawId: unknown = req.params['id'];
      if (rawId !== undefined && (typeof rawId !== 'string' || !POSITIVE_INT.test(rawId))) {
        res.status(400).json({ statusCode: 400, error: 'Bad Request', message: 'Document id must be a positive integer.' });
        return;
      }
      (req as DocumentRequest).permissionsQuery = { user, resource: 'document', action, resourceId: rawId === undefined ? undefined : Number(rawId) };
      next();
    };

  const permitOf = (req: Request): Permit<AppUser, number, DocumentFilter> => {
    const { permit } = req as DocumentRequest;
    if (permit === undefined) throw new Error('the permissions middleware did not run');
    return permit;
  };

  const app = express();
  app.get('/documents/:id', grantQueryFor('read'), checkPermissions, async (req, res) => {
    const permit = permitOf(req);
    if (permit.resourceId === undefined) throw new Error('the read route must carry a document id');
    const document = await documents.findById(permit.resourceId);
    if (document === undefined) {
      res.status(404).json({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
      return;
    }
    res.json(await permit.pick(document));
  });
  app.get('/documents', grantQueryFor('list'), checkPermissions, async (req, res) => {
    res.json(await permitOf(req).filterPick(await documents.findAll()));
  });
  app.get('/documents-owned', grantQueryFor('list'), checkPermissions, async (req, res) => {
    const permit = permitOf(req);
    res.json(await permit.filterPick(await documents.findWhere(permit.limitOwn())));
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    errors.push(error);
    res.status(500).json({ statusCode: 500, message: 'Internal Server Error' });
  });
  return { app, errors };
}

describe('example definitions under the express middleware (embedded PGlite)', () => {
  let db: Kysely<ExampleDatabase>;
  let app: Express;
  let errors: unknown[];

  beforeAll(async () => {
    db = await createSeededDatabase();
    ({ app, errors } = createExampleExpressApp(db));
  });

  afterAll(async () => {
    await closeDatabase(db);
  });

  const get = (path: string, userId?: string) => (userId === undefined ? request(app).get(path) : request(app).get(path).set('x-user-id', userId));

  it('1. EMPLOYEE reads an owned document: 200, all attributes except confidential', async () => {
    const response = await get('/documents/10', '1').expect(200);
    expect(response.body).toEqual(documentWithout(10, 'confidential'));
  });

  it('2. EMPLOYEE reads a non-owned document: 403', async () => {
    const response = await get('/documents/2', '1').expect(403);
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on document is not granted' });
  });

  it('3. COMPANY_ADMIN reads an owned document: 200 with all attributes including confidential; a non-owned one: 403', async () => {
    const owned = await get('/documents/50', '4').expect(200);
    expect(owned.body).toEqual(documentWithId(50));
    await get('/documents/1', '4').expect(403);
  });

  it('4. EMPLOYEE lists: owned documents with all non-confidential attributes, other documents with title and date only', async () => {
    const response = await get('/documents', '1').expect(200);
    expect(response.body).toEqual(employeeListFor(1));
  });

  it("5. COMPANY_ADMIN lists: 403, because 'list' is not granted", async () => {
    const response = await get('/documents', '4').expect(403);
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'list on document is not granted' });
  });

  it('user 7 reading document 6, owned only through management, gets no confidential and no personal; document 1 (company) in full', async () => {
    const managed = await get('/documents/6', '7').expect(200);
    expect(managed.body).toEqual(documentWithout(6, 'confidential', 'personal'));
    const company = await get('/documents/1', '7').expect(200);
    expect(company.body).toEqual(documentWithId(1));
  });

  it('the owned list puts permit.limitOwn() into SQL: user 2 gets the documents of 1, 2 and 4, user 8 documents 8, 80 and 800', async () => {
    const manager = await get('/documents-owned', '2').expect(200);
    expect(manager.body).toEqual([1, 2, 4, 10, 20, 40, 100, 200, 400].map((id) => documentWithout(id, 'confidential', 'personal')));
    const employeeSuperAdmin = await get('/documents-owned', '8').expect(200);
    expect(employeeSuperAdmin.body).toEqual([8, 80, 800].map(documentWithId));
  });

  it('roles without definitions and the anonymous caller get 403; bad callers 401; bad ids 400; a missing document 403 or 404', async () => {
    for (const userId of ['3', '6', undefined]) {
      await get('/documents/1', userId).expect(403);
      await get('/documents', userId).expect(403);
    }
    await get('/documents/1', '99').expect(401);
    await get('/documents/1', 'abc').expect(401);
    for (const id of ['abc', '0', '-1', '1e3', '9'.repeat(400)]) await get(`/documents/${id}`, '5').expect(400);
    await get('/documents/9999', '1').expect(403);
    await get('/documents/9999', '5').expect(404);
  });

  it('no request reached the error handler', () => {
    expect(errors).toEqual([]);
  });
});
