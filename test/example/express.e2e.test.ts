/**
 * The same example definitions behind the express integration instead of the NestJS guard: the
 * example's express app (examples/documents/express-app.ts) on the seeded
 * example database (embedded PGlite), with `permit({ action })` in each route. The middleware
 * answers 400, 401 (through the app's getUser), 403, or puts the permit on the request; the handlers
 * only apply the permit.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import request from 'supertest';
import { closeDatabase } from '../../examples/documents/database.js';
import { seededTestDatabase } from './test-databases.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { createExpressDocumentsApp } from '../../examples/documents/express-app.js';
import { documentWithId, documentWithout, employeeListFor } from './example-expectations.js';

/** The errors that reached the app's error handler with a 5xx status. */
function serverErrors(errors: unknown[]): unknown[] {
  return errors.filter((error) => typeof (error as { status?: unknown }).status !== 'number' || (error as { status: number }).status >= 500);
}

describe('example definitions under the express middleware (embedded PGlite)', () => {
  let db: Kysely<ExampleDatabase>;
  let app: Express;
  let errors: unknown[];

  beforeAll(async () => {
    db = await seededTestDatabase();
    errors = [];
    app = createExpressDocumentsApp(db, (error) => errors.push(error));
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
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' });
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
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' });
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
    expect(serverErrors(errors)).toEqual([]);
  });
});
