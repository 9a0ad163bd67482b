// Over 350 lines: one PGlite app for every REST check of the example (it takes a second or two to start), each answer spelled out.
/**
 * The example documents app end to end (AppModule on the embedded PGlite, through HTTP): the
 * five example behaviour checks, managers and the fixed multi-role defect, SUPER_ADMIN and the roles
 * without definitions, who-calls errors (401), bad ids (400, never 500), missing documents and unknown
 * routes, the unprotected sibling, and a differential test of the SQL filter of GET /documents-owned
 * (permit.limitOwn()) against permit.isOwn for every user. One app for the whole file: PGlite takes a second or two to start.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { AppUser } from '../../examples/documents/app-user.js';
import { startExampleApp } from './example-app.fixture.js';
import { seededTestDatabase } from './test-databases.js';
import { StatementRecorder } from './statement-recorder.js';
import { exampleAnonymousUser, exampleUsers } from '../../examples/documents/example-data.js';
import { UsersRepository } from '../../examples/documents/users.repository.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import { ALL_DOCUMENT_IDS, allDocumentsInFull, documentOnly, documentWithId, documentWithout, employeeListFor, idsCreatedBy } from './example-expectations.js';

const READ = '/documents-protected-simple';
const OWNED = '/documents-owned';

let app: INestApplication<Server>;

// Unknown roles (QA_MANAGER, GOD) are warned about once each; keep the test output quiet.
const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

const get = (path: string, userId?: string) => {
  const call = request(app.getHttpServer()).get(path);
  return userId === undefined ? call : call.set('x-user-id', userId);
};

describe('example documents app (NestJS, embedded PGlite)', () => {
  beforeAll(async () => {
    app = await startExampleApp();
  }, 180_000);

  afterAll(async () => {
    await app.close();
    warn.mockRestore();
  });

  describe('the five example behaviour checks of the documents app', () => {
    it('1. EMPLOYEE reads an owned document: 200, all attributes except confidential', async () => {
      const response = await get(`${READ}/10`, '1').expect(200);
      expect(response.body).toEqual(documentWithout(10, 'confidential'));
      expect(response.body).not.toHaveProperty('confidential');
    });

    it('2. EMPLOYEE reads a non-owned document: 403', async () => {
      const response = await get(`${READ}/2`, '1').expect(403);
      expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' });
      await get(`${READ}/40`, '1').expect(403);
    });

    it('3. COMPANY_ADMIN reads an owned document: 200 with all attributes including confidential; a non-owned one: 403', async () => {
      // user 4 is in company 2 with users 5 and 6: document 50 (by user 5) is owned, document 1 (company 1) is not
      const owned = await get(`${READ}/50`, '4').expect(200);
      expect(owned.body).toEqual(documentWithId(50));
      expect(owned.body).toHaveProperty('confidential', 'Confidential figures of document 50');
      await get(`${READ}/1`, '4').expect(403);
      await get(`${READ}/8`, '4').expect(403);
    });

    it('4. EMPLOYEE lists: owned documents with all non-confidential attributes, other documents with title and date only', async () => {
      const response = await get(READ, '1').expect(200);
      expect(response.body).toEqual(employeeListFor(1));
      expect(response.body).toHaveLength(24);
    });

    it("5. COMPANY_ADMIN lists: 403, because 'list' is not granted", async () => {
      const response = await get(READ, '4').expect(403);
      expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' });
    });
  });
  managersAndTheMultiRoleDefect();
  superAdminAndRolesWithoutDefinitions();
  callersIdsAndRoutes();
  unprotectedSiblingAndOwnedFilter();
});

function managersAndTheMultiRoleDefect(): void {
  describe('EMPLOYEE_MANAGER and the fixed multi-role defect', () => {
    it("EMPLOYEE_MANAGER (2) reads their own and their managed users' documents without confidential and personal", async () => {
      for (const id of [...idsCreatedBy(1), ...idsCreatedBy(2), ...idsCreatedBy(4)]) {
        const response = await get(`${READ}/${id}`, '2').expect(200);
        expect(response.body).toEqual(documentWithout(id, 'confidential', 'personal'));
      }
    });

    it('EMPLOYEE_MANAGER (2) is refused documents of users they do not manage (403)', async () => {
      for (const id of idsCreatedBy(3, 5, 6, 7, 8)) await get(`${READ}/${id}`, '2').expect(403);
    });

    it('EMPLOYEE_MANAGER (2) lists: own and managed documents without confidential and personal, others with title, date and status', async () => {
      const response = await get(READ, '2').expect(200);
      const owned = new Set(idsCreatedBy(1, 2, 4));
      expect(response.body).toEqual(
        ALL_DOCUMENT_IDS.map((id) => (owned.has(id) ? documentWithout(id, 'confidential', 'personal') : documentOnly(id, 'title', 'date', 'status'))),
      );
    });

    it('user 7 (EMPLOYEE_MANAGER + COMPANY_ADMIN) reading document 6, owned only through management, gets no confidential and no personal', async () => {
      const response = await get(`${READ}/6`, '7').expect(200);
      expect(response.body).toEqual(documentWithout(6, 'confidential', 'personal'));
      for (const id of [5, 50, 600]) {
        const managed = await get(`${READ}/${id}`, '7').expect(200);
        expect(managed.body).toEqual(documentWithout(id, 'confidential', 'personal'));
      }
    });

    it('user 7 reading document 1, owned only through company 1 (COMPANY_ADMIN), gets all attributes', async () => {
      for (const id of [1, 2, 30, 100]) {
        const response = await get(`${READ}/${id}`, '7').expect(200);
        expect(response.body).toEqual(documentWithId(id));
      }
    });

    it('user 7 reading their own document, owned through both roles, gets all attributes (the union of the matching roles)', async () => {
      const response = await get(`${READ}/70`, '7').expect(200);
      expect(response.body).toEqual(documentWithId(70));
    });

    it('user 7 is refused a document neither role owns (user 8 is in no company and unmanaged)', async () => {
      await get(`${READ}/8`, '7').expect(403);
      await get(`${READ}/4`, '7').expect(403);
    });
  });
}

function superAdminAndRolesWithoutDefinitions(): void {
  describe('SUPER_ADMIN, multi-role owners, and roles without definitions', () => {
    it('SUPER_ADMIN (5) reads every document with all attributes', async () => {
      for (const id of ALL_DOCUMENT_IDS) {
        const response = await get(`${READ}/${id}`, '5').expect(200);
        expect(response.body).toEqual(documentWithId(id));
      }
    });

    it('SUPER_ADMIN (5) lists all 24 documents with all attributes', async () => {
      const response = await get(READ, '5').expect(200);
      expect(response.body).toEqual(allDocumentsInFull());
      expect(response.body).toHaveLength(24);
    });

    it('user 8 (EMPLOYEE + SUPER_ADMIN) reads and lists everything in full', async () => {
      const list = await get(READ, '8').expect(200);
      expect(list.body).toEqual(allDocumentsInFull());
      const other = await get(`${READ}/1`, '8').expect(200);
      expect(other.body).toEqual(documentWithId(1));
    });

    it("user 8 owns through EMPLOYEE's hooks: GET /documents-owned returns exactly documents 8, 80 and 800", async () => {
      const response = await get(OWNED, '8').expect(200);
      expect(response.body).toEqual([documentWithId(8), documentWithId(80), documentWithId(800)]);
    });

    it('SUPER_ADMIN alone owns nothing (no ownership hooks): GET /documents-owned is an empty list', async () => {
      const response = await get(OWNED, '5').expect(200);
      expect(response.body).toEqual([]);
    });

    it.each([
      ['QA_MANAGER (3)', '3'],
      ['GOD (6)', '6'],
      ['the anonymous caller', undefined],
    ])('%s gets 403 on read, list and the owned list', async (_who, userId) => {
      // document 3 was created by user 3; creating a document gives no rights without a definition
      for (const id of [1, 3, 6, 600]) await get(`${READ}/${id}`, userId).expect(403);
      await get(READ, userId).expect(403);
      await get(OWNED, userId).expect(403);
    });
  });
}

function callersIdsAndRoutes(): void {
  describe('who calls, bad ids, missing documents and unknown routes', () => {
    it('an unknown x-user-id (99) gets 401 on every protected route', async () => {
      for (const path of [`${READ}/1`, READ, OWNED]) {
        const response = await get(path, '99').expect(401);
        expect(response.body).toMatchObject({ statusCode: 401, message: 'No user has id 99.' });
      }
    });

    it.each([
      ['"abc"', 'abc'],
      ['"-1"', '-1'],
      ['"1.5"', '1.5'],
      ['"0"', '0'],
      ['empty', ''],
      ['"01"', '01'],
      ['of 200 digits', '1'.repeat(200)],
    ])('a malformed x-user-id (%s) gets 401', async (_label, userId) => {
      await get(`${READ}/1`, userId).expect(401);
      await get(READ, userId).expect(401);
    });

    it.each([
      ['"abc"', 'abc'],
      ['"0"', '0'],
      ['"-1"', '-1'],
      ['"1e3"', '1e3'],
      ['"1.5"', '1.5'],
      ['"0x10"', '0x10'],
      ['"010"', '010'],
      ['"2147483648" (beyond int4)', '2147483648'],
      ['of 400 digits', '9'.repeat(400)],
      ['"%20"', '%20'],
      ['"null"', 'null'],
    ])('a malformed document id (%s) gets 400, never 500, for every kind of caller', async (_label, id) => {
      const path = `${READ}/${encodeURIComponent(id)}`;
      for (const userId of ['1', '2', '3', '4', '5', '7', undefined]) {
        const response = await get(path, userId);
        expect({ userId, status: response.status }).toEqual({ userId, status: 400 });
      }
      await get(`/documents/${encodeURIComponent(id)}`).expect(400);
    });

    it('an id that is not valid percent-encoding gets 400, never 500', async () => {
      for (const path of [`${READ}/%E0%A4%A`, `${READ}/%`, '/documents/%E0%A4%A']) {
        for (const userId of ['1', '5', undefined]) {
          const response = await get(path, userId);
          expect({ path, userId, status: response.status }).toEqual({ path, userId, status: 400 });
        }
      }
    });

    it('a missing document (9999) is 403 for callers without any-access and 404 for SUPER_ADMIN', async () => {
      for (const userId of ['1', '2', '4', '7', undefined]) await get(`${READ}/9999`, userId).expect(403);
      await get(`${READ}/9999`, '5').expect(404);
      await get(`${READ}/9999`, '8').expect(404);
      await get('/documents/9999').expect(404);
    });

    it('unknown routes are 404', async () => {
      await get('/nothing-here', '5').expect(404);
      await get(`${READ}/1/extra`, '5').expect(404);
      await get('/documents-owned/1', '5').expect(404);
      await request(app.getHttpServer()).post(READ).set('x-user-id', '5').expect(404);
      // PATCH, DELETE and POST …/review act on one document (document-changes.e2e.test.ts); PUT and a bare POST on one do not exist.
      await request(app.getHttpServer()).put(`${READ}/1`).set('x-user-id', '5').expect(404);
      await request(app.getHttpServer()).post(`${READ}/1`).set('x-user-id', '5').expect(404);
    }, 30_000);
  });
}

function unprotectedSiblingAndOwnedFilter(): void {
  describe('the unprotected sibling', () => {
    it('GET /documents returns all 24 documents with every field, for anybody', async () => {
      const anonymous = await get('/documents').expect(200);
      expect(anonymous.body).toEqual(allDocumentsInFull());
      const qaManager = await get('/documents', '3').expect(200);
      expect(qaManager.body).toEqual(allDocumentsInFull());
    });

    it('GET /documents/1 returns the full document', async () => {
      const response = await get('/documents/1').expect(200);
      expect(response.body).toEqual(documentWithId(1));
    });
  });

  describe('GET /documents-owned (permit.limitOwn() in SQL) against permit.isOwn, for every user', () => {
    /** The owned documents per caller for 'list', read from example-data.ts by hand; `forbidden` when 'list' is not granted. */
    const reference: ReadonlyArray<readonly [string, number | undefined, number[] | 'forbidden']> = [
      ['EMPLOYEE 1 (creator)', 1, idsCreatedBy(1)],
      ['EMPLOYEE_MANAGER 2 (self + 1, 4)', 2, idsCreatedBy(1, 2, 4)],
      ['QA_MANAGER 3 (no definition)', 3, 'forbidden'],
      ['COMPANY_ADMIN 4 (no list)', 4, 'forbidden'],
      ['SUPER_ADMIN 5 (any-list, no hooks)', 5, []],
      ['GOD 6 (no definition)', 6, 'forbidden'],
      ['EMPLOYEE_MANAGER + COMPANY_ADMIN 7 (self + 5, 6; COMPANY_ADMIN has no list)', 7, idsCreatedBy(5, 6, 7)],
      ['EMPLOYEE + SUPER_ADMIN 8 (creator)', 8, idsCreatedBy(8)],
      ['QA_MANAGER 9 (no definition; company 2 defines no custom role)', 9, 'forbidden'],
      ['anonymous', undefined, 'forbidden'],
    ];

    it('covers every example user and the anonymous caller', () => {
      expect(reference.map(([, userId]) => userId)).toEqual([...exampleUsers.map((user) => user.id), undefined]);
    });

    it.each(reference)('%s: the SQL filter returns exactly the ids isOwn accepts', async (_who, userId, expected) => {
      const user: AppUser | undefined = userId === undefined ? exampleAnonymousUser : await app.get(UsersRepository).findUser(userId);
      if (user === undefined) throw new Error(`user ${String(userId)} is not in the database`);
      const permit = await app.get(PermissionsService).grantPermit<number>({ user, resource: 'document', action: 'list' });
      const response = await get(OWNED, userId === undefined ? undefined : String(userId));

      if (!permit.granted) {
        expect(response.status).toBe(403);
        expect(expected).toBe('forbidden');
        return;
      }
      expect(response.status).toBe(200);
      const returned = (response.body as Array<{ id: number }>).map((row) => row.id);
      const accepted: number[] = [];
      for (const id of ALL_DOCUMENT_IDS) if (await permit.isOwn(id)) accepted.push(id);
      expect(returned).toEqual(accepted);
      expect(returned).toEqual(expected);
    });

    it('each owned row carries exactly the attributes of the definition that owns it (plus any-attributes)', async () => {
      // user -> the attributes an owned row keeps: EMPLOYEE's own rule hides confidential; EMPLOYEE_MANAGER's hides
      // confidential and personal (user 7's COMPANY_ADMIN role does not grant list, so it adds nothing); user 8's
      // SUPER_ADMIN role reads any document in full, so nothing is hidden.
      const cases: ReadonlyArray<readonly [string, number[], (id: number) => object]> = [
        ['1', idsCreatedBy(1), (id) => documentWithout(id, 'confidential')],
        ['2', idsCreatedBy(1, 2, 4), (id) => documentWithout(id, 'confidential', 'personal')],
        ['7', idsCreatedBy(5, 6, 7), (id) => documentWithout(id, 'confidential', 'personal')],
        ['8', idsCreatedBy(8), (id) => documentWithId(id)],
      ];
      for (const [userId, ids, expectedRow] of cases) {
        const response = await get(OWNED, userId).expect(200);
        expect({ userId, body: response.body as unknown }).toEqual({ userId, body: ids.map(expectedRow) });
      }
    });
  });
}

describe('ownership in the app — a fixed number of statements per request, never one per document', () => {
  const recorder = new StatementRecorder();
  let app: INestApplication<Server>;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const select = (table: string) => ({ kind: 'SelectQueryNode', table });

  beforeAll(async () => {
    app = await startExampleApp({}, { database: (await seededTestDatabase()).withPlugin(recorder) });
  }, 180_000);

  afterAll(async () => {
    await app.close();
    warn.mockRestore();
  });

  it('an EMPLOYEE read: the user, one ownership statement for the guard (pick reuses it), the document', async () => {
    recorder.take();
    const response = await request(app.getHttpServer()).get(`${READ}/10`).set('x-user-id', '1').expect(200);
    expect(response.body).toEqual(documentWithout(10, 'confidential'));
    expect(recorder.take()).toEqual([select('users'), select('documents'), select('documents')]);
  });

  it('a page of 24 documents as EMPLOYEE_MANAGER: the user, the page (filter in the query), one ownership statement for all rows', async () => {
    recorder.take();
    const response = await request(app.getHttpServer()).get(READ).set('x-user-id', '2').expect(200);
    expect((response.body as { id?: number }[]).length).toBe(24);
    expect(recorder.take()).toEqual([select('users'), select('documents'), select('documents')]);
  });

  it('a page of owned documents as EMPLOYEE: the user and the page; the rows picked by one ownership statement', async () => {
    recorder.take();
    const response = await request(app.getHttpServer()).get(`${OWNED}?limit=2`).set('x-user-id', '1').expect(200);
    expect(response.body).toEqual([documentWithout(1, 'confidential'), documentWithout(10, 'confidential')]);
    expect(recorder.take()).toEqual([select('users'), select('documents'), select('documents')]);
  });
});

describe('paging through lists: ?limit=&after= and a Link header to the next page', () => {
  let app: INestApplication<Server>;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

  beforeAll(async () => {
    app = await startExampleApp();
  }, 180_000);

  afterAll(async () => {
    await app.close();
    warn.mockRestore();
  });

  const pages = async (path: string, userId: string, limit: number): Promise<{ ids: number[][]; links: (string | undefined)[] }> => {
    const ids: number[][] = [];
    const links: (string | undefined)[] = [];
    let next: string | undefined = `${path}?limit=${limit}`;
    while (next !== undefined && ids.length < 30) {
      const response: request.Response = await request(app.getHttpServer()).get(next).set('x-user-id', userId).expect(200);
      ids.push((response.body as { id: number }[]).map((row) => row.id));
      const link: string | undefined = response.get('Link');
      links.push(link);
      next = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
    }
    return { ids, links };
  };

  it('EMPLOYEE_MANAGER pages through the owned documents, 4 at a time, to exactly the unpaged answer', async () => {
    const { ids, links } = await pages(OWNED, '2', 4);
    expect(ids).toEqual([[1, 2, 4, 10], [20, 40, 100, 200], [400]]);
    expect(links).toEqual(['</documents-owned?limit=4&after=10>; rel="next"', '</documents-owned?limit=4&after=200>; rel="next"', undefined]);
  });

  it('SUPER_ADMIN pages through every document (list:any), 10 at a time: 24 documents in 3 pages', async () => {
    const { ids } = await pages(READ, '5', 10);
    expect(ids).toEqual([ALL_DOCUMENT_IDS.slice(0, 10), ALL_DOCUMENT_IDS.slice(10, 20), ALL_DOCUMENT_IDS.slice(20)]);
  });

  it('without parameters a list is one page of every document (the limit defaults to 100): no Link header', async () => {
    const response = await request(app.getHttpServer()).get(OWNED).set('x-user-id', '1').expect(200);
    expect(response.headers['link']).toBeUndefined();
    expect((response.body as { id: number }[]).map((row) => row.id)).toEqual(idsCreatedBy(1));
  });

  it.each([
    ['limit=0', 'limit must be a whole number from 1 to 100.'],
    ['limit=101', 'limit must be a whole number from 1 to 100.'],
    ['limit=-1', 'limit must be a whole number from 1 to 100.'],
    ['limit=1.5', 'limit must be a whole number from 1 to 100.'],
    ['limit=1&limit=2', 'limit must be a whole number from 1 to 100.'],
    ['limit=%00', 'limit must be a whole number from 1 to 100.'],
    ['after=abc', 'after must be a whole number from 0 to 999999999.'],
    ['after=1e3', 'after must be a whole number from 0 to 999999999.'],
    ['after=9999999999', 'after must be a whole number from 0 to 999999999.'],
  ])('?%s is a 400 naming the parameter, before any document is read', async (query, message) => {
    for (const path of [OWNED, READ]) {
      const response = await request(app.getHttpServer()).get(`${path}?${query}`).set('x-user-id', '2').expect(400);
      expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message });
    }
  });

  it('a refused list stays 403 whatever the page parameters (the guard decides first)', async () => {
    const response = await request(app.getHttpServer()).get(`${OWNED}?limit=0`).set('x-user-id', '4').expect(403);
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' });
  });
});
