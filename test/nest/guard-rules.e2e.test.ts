/**
 * The permissions guard on a small documents app: the guard rules 1–4, the per-handler
 * overrides, @SkipPermissions, @GetPermit, and how errors of the user, the id and the hooks surface.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createPermissionsGuard, PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule } from '../../runtime/nest/index.js';
import {
  collectingLogger,
  DOCUMENT_DEFINITIONS,
  HandlerLog,
  InMemoryOwnership,
  integerId,
  makeDocumentsController,
  startApp,
  userFromHeader,
  type TestApp,
} from './fixtures/documents.fixture.js';

const DocumentsGuard = createPermissionsGuard({ resource: 'document' });
const FolderDocumentsGuard = createPermissionsGuard({ resource: 'document', resourceIdParam: 'documentId' });

let app: TestApp;
let ownership: InMemoryOwnership;
let log: HandlerLog;

const { warnings, logger } = collectingLogger();

function reset(): void {
  ownership.calls.length = 0;
  log.ran.length = 0;
}

const server = () => app.getHttpServer();

describe('permissions guard (documents app)', () => {
  beforeAll(async () => {
    app = await startApp({
      imports: [
        PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), projectResourceId: integerId, definitions: [...DOCUMENT_DEFINITIONS], logger }),
      ],
      controllers: [makeDocumentsController(DocumentsGuard), makeDocumentsController(FolderDocumentsGuard, 'folders/:folderId/documents', 'documentId')],
      providers: [HandlerLog, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership }],
    });
    ownership = app.get(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN);
    log = app.get(HandlerLog);
  });

  afterAll(async () => {
    await app.close();
  });
  guardRulesAndOverrides();
  skipGetPermitAndErrors();
});

function guardRulesAndOverrides(): void {
  it('rule 1: the action is the handler method name (READER may read but not list)', async () => {
    reset();
    await request(server()).get('/documents/3').set('x-user-id', '4').expect(200);
    await request(server()).get('/documents').set('x-user-id', '4').expect(403);
    expect(log.ran).toEqual(['read']);
  });

  it("rule 2: the resource id is the path parameter 'id', projected by projectResourceId", async () => {
    reset();
    await request(server()).get('/documents/2').set('x-user-id', '1').expect(200);
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 2 }]);
  });

  it('rule 3: an id that is not owned, without any-access, is 403 and the handler does not run', async () => {
    reset();
    const response = await request(server()).get('/documents/3').set('x-user-id', '1').expect(403);
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' });
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 3 }]);
    expect(log.ran).toEqual([]);
    // the owner of document 3 reads it
    await request(server()).get('/documents/3').set('x-user-id', '2').expect(200);
    expect(log.ran).toEqual(['read']);
  });

  it('rule 3: with any-access, ownership is not asked', async () => {
    reset();
    await request(server()).get('/documents/3').set('x-user-id', '3').expect(200);
    expect(ownership.calls).toEqual([]);
  });

  it('rule 4: an action not granted at all is 403, without asking ownership, and the handler does not run', async () => {
    reset();
    await request(server()).get('/documents/1').expect(403);
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual([]);
  });

  it('@Permission({ action }) overrides the action', async () => {
    reset();
    const response = await request(server()).get('/documents/1/preview').set('x-user-id', '4').expect(200);
    expect(response.body).toEqual({ permitAction: 'read', title: 'Doc 1' });
    // EMPLOYEE 1 may read own document 1 but not document 3
    await request(server()).get('/documents/1/preview').set('x-user-id', '1').expect(200);
    await request(server()).get('/documents/3/preview').set('x-user-id', '1').expect(403);
    expect(log.ran).toEqual(['preview', 'preview']);
  });

  it('@Permission({ resource }) overrides the resource', async () => {
    reset();
    const response = await request(server()).get('/documents/1/audit').set('x-user-id', '5').expect(200);
    expect(response.body).toEqual({ resource: 'audit-log', action: 'read', resourceId: 1, id: '1' });
    // EMPLOYEE 1 owns document 1 and may read it, but not audit logs
    await request(server()).get('/documents/1/audit').set('x-user-id', '1').expect(403);
    expect(log.ran).toEqual(['audit']);
  });

  it('a guard with resourceIdParam takes the id from that path parameter', async () => {
    reset();
    // folder 1 would be "owned" by user 1 if the wrong parameter were read
    await request(server()).get('/folders/1/documents/3').set('x-user-id', '1').expect(403);
    await request(server()).get('/folders/9/documents/2').set('x-user-id', '1').expect(200);
    expect(ownership.calls).toEqual([
      { hook: 'isCreator', userId: 1, resourceId: 3 },
      { hook: 'isCreator', userId: 1, resourceId: 2 },
    ]);
  });

  it('@Permission({ resourceIdParam }) takes the id from that path parameter', async () => {
    reset();
    const response = await request(server()).get('/documents/by-key/2').set('x-user-id', '1').expect(200);
    expect(response.body).toEqual({ resourceId: 2 });
    await request(server()).get('/documents/by-key/3').set('x-user-id', '1').expect(403);
  });
}

function skipGetPermitAndErrors(): void {
  it('@SkipPermissions() lets the request through unchecked, without a permit', async () => {
    reset();
    const response = await request(server()).get('/documents/public/count').set('x-user-id', '99').expect(200);
    expect(response.body).toEqual({ count: 4, permitOnRequest: false });
    expect(ownership.calls).toEqual([]);
  });

  it('@GetPermit() injects the permit: pick reduces one document to its allowed attributes', async () => {
    const own = await request(server()).get('/documents/1').set('x-user-id', '1').expect(200);
    expect(own.body).toEqual({ id: 1, title: 'Doc 1', date: '2024-01-01', status: 'draft', personal: 'personal 1', creatorId: 1 });
    const any = await request(server()).get('/documents/1').set('x-user-id', '4').expect(200);
    expect(any.body).toEqual({
      id: 1,
      title: 'Doc 1',
      date: '2024-01-01',
      status: 'draft',
      personal: 'personal 1',
      confidential: 'confidential 1',
      creatorId: 1,
    });
  });

  it('@GetPermit() injects the permit: filterPick keeps own documents whole and others by title and date', async () => {
    reset();
    const response = await request(server()).get('/documents').set('x-user-id', '1').expect(200);
    expect(response.body).toEqual([
      { id: 1, title: 'Doc 1', date: '2024-01-01', status: 'draft', personal: 'personal 1', creatorId: 1 },
      { id: 2, title: 'Doc 2', date: '2024-01-02', status: 'draft', personal: 'personal 2', creatorId: 1 },
      { title: 'Doc 3', date: '2024-01-03' },
      { title: 'Doc 4', date: '2024-01-04' },
    ]);
    expect(ownership.calls).toEqual([{ hook: 'listCreated', userId: 1 }]);
    const anonymous = await request(server()).get('/documents').expect(200);
    expect(anonymous.body).toEqual([{ title: 'Doc 1' }, { title: 'Doc 2' }, { title: 'Doc 3' }, { title: 'Doc 4' }]);
  });

  it('extractUserFromRequest throwing UnauthorizedException answers 401', async () => {
    reset();
    const response = await request(server()).get('/documents/1').set('x-user-id', '99').expect(401);
    expect(response.body).toMatchObject({ statusCode: 401, message: 'unknown user 99' });
    expect(log.ran).toEqual([]);
  });

  it('projectResourceId throwing BadRequestException answers 400', async () => {
    reset();
    const response = await request(server()).get('/documents/abc').set('x-user-id', '1').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, message: 'id must be an integer, got "abc"' });
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual([]);
  });

  it('an ownership hook that throws answers 500 and the handler does not run', async () => {
    reset();
    const response = await request(server()).get('/documents/1').set('x-user-id', '6').expect(500);
    expect(response.body).toEqual({ statusCode: 500, message: 'Internal server error' });
    expect(ownership.calls).toEqual([{ hook: 'explode', userId: 6, resourceId: 1 }]);
    expect(log.ran).toEqual([]);
  });

  it('start gave no warnings for this app', () => {
    expect(warnings).toEqual([]);
  });
}
