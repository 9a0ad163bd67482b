// Over 350 lines: one app with the built page for every page endpoint (building it takes seconds), each body spelled out.
/**
 * The endpoints behind the example page, over HTTP (supertest, no browser) — the caller's slice
 * (GET /me/permissions), the page's documents (GET /documents-page/listed and /readable) as exact bodies,
 * the page's files with their headers, and how many ownership queries one request makes. Expected bodies
 * come from example-data.ts and the definitions read by hand, never from the library under test. One app
 * (with the built page) for the whole file; a second, page-less app only for the 404 of an unbuilt page.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { grantTables } from '../../generated/index.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';
import { EXAMPLE_OWNERSHIP_RULES } from '../../examples/documents/example.constants.js';
import type { KyselyOwnershipSource } from '../../runtime/kysely/index.js';
import { exampleDocuments } from '../../examples/documents/example-data.js';
import { buildPageDir, removePageDir, startExampleApp } from './example-app.fixture.js';
import { ALL_DOCUMENT_IDS, documentWithId, documentWithout, idsCreatedBy, type DocumentField } from './example-expectations.js';
import {
  ALL_BUT_CONFIDENTIAL,
  COMPANY_GROUP,
  creatorOf,
  EMPLOYEE_GROUP,
  EVERY_ATTRIBUTE,
  EXPECTED_CSP,
  FORBIDDEN_LIST,
  FORBIDDEN_READ,
  listedRows,
  MANAGER_GROUP,
  ownedByCompany,
  ownedByEmployee,
  ownedByManager,
  TITLE_AND_DATE,
  type PageRow,
} from './page-expectations.js';

// QA_MANAGER (user 3) has no definition: the library warns once per app about the role; keep the output quiet.
const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
afterAll(() => warn.mockRestore());

/** Spies on the methods of the app's ownership rule source (calling through), set once the app has started. */
type SourceSpies = Record<'filter' | 'ownedAmong' | 'listOwned', { mock: { calls: unknown[][] }; mockClear(): void; mockRestore(): void }>;
let spies: SourceSpies;

let pageDir: string;
let app: INestApplication<Server>;

const get = (path: string, userId?: string) => {
  const call = request(app.getHttpServer()).get(path);
  return userId === undefined ? call : call.set('x-user-id', userId);
};

/** How many times each method of the rule source ran since `reset()`. */
const calls = () => Object.fromEntries(Object.entries(spies).map(([name, spy]) => [name, spy.mock.calls.length]));

const reset = () => {
  for (const spy of Object.values(spies)) spy.mockClear();
};

describe('the page endpoints over HTTP (AppModule with the built page, embedded PGlite)', () => {
  beforeAll(async () => {
    pageDir = await buildPageDir();
    app = await startExampleApp({ pageDir });
    const source = app.get<KyselyOwnershipSource>(EXAMPLE_OWNERSHIP_RULES);
    spies = { filter: jest.spyOn(source, 'filter'), ownedAmong: jest.spyOn(source, 'ownedAmong'), listOwned: jest.spyOn(source, 'listOwned') };
  }, 180_000);

  afterAll(async () => {
    await app.close();
    await removePageDir(pageDir);
    for (const spy of Object.values(spies)) spy.mockRestore();
  });
  callersSlices();
  pageDocuments();

  describe('ownership queries per request: bounded per group, never per document', () => {
    const idsAsked = (call: number): number[] => [...((spies.ownedAmong.mock.calls[call]?.[1] as readonly number[] | undefined) ?? [])].sort((a, b) => a - b);

    it('EMPLOYEE_MANAGER (2) listing 24 documents: one ownedAmong with all 24 ids, nothing per document', async () => {
      reset();
      await get('/documents-page/listed', '2').expect(200);
      expect(calls()).toEqual({ filter: 0, ownedAmong: 1, listOwned: 0 });
      expect(idsAsked(0)).toEqual(ALL_DOCUMENT_IDS);
    });

    it('user 7 listing 24 documents: one ownedAmong per group (creatorOrManaged and sameCompany)', async () => {
      reset();
      await get('/documents-page/listed', '7').expect(200);
      expect(calls()).toEqual({ filter: 0, ownedAmong: 2, listOwned: 0 });
      expect([idsAsked(0), idsAsked(1)]).toEqual([ALL_DOCUMENT_IDS, ALL_DOCUMENT_IDS]);
    });

    it('COMPANY_ADMIN (4) reading 9 documents: the rule selects them in the query, one ownedAmong of those 9', async () => {
      reset();
      await get('/documents-page/readable', '4').expect(200);
      expect(calls()).toEqual({ filter: 0, ownedAmong: 1, listOwned: 0 });
      expect(idsAsked(0)).toEqual(idsCreatedBy(4, 5, 6));
    });

    it('user 7 reading 18 documents: one ownedAmong per group, nothing per document', async () => {
      reset();
      await get('/documents-page/readable', '7').expect(200);
      expect(calls()).toEqual({ filter: 0, ownedAmong: 2, listOwned: 0 });
    });

    it('EMPLOYEE (1) reading their 3 documents: one ownedAmong of those 3', async () => {
      reset();
      await get('/documents-page/readable', '1').expect(200);
      expect(calls()).toEqual({ filter: 0, ownedAmong: 1, listOwned: 0 });
      expect(idsAsked(0)).toEqual(idsCreatedBy(1));
    });
  });

  describe("the page's files", () => {
    it.each([
      ['/', 'index.html', 'text/html; charset=utf-8'],
      ['/page.css', 'page.css', 'text/css; charset=utf-8'],
      ['/app.js', 'app.js', 'text/javascript; charset=utf-8'],
    ])('GET %s serves the built %s with its content type, exactly the strict CSP, and nosniff', async (path, file, contentType) => {
      const response = await get(path).expect(200);
      expect(response.text).toBe(await readFile(join(pageDir, file), 'utf8'));
      expect({
        type: response.headers['content-type'],
        csp: response.headers['content-security-policy'],
        nosniff: response.headers['x-content-type-options'],
        cache: response.headers['cache-control'],
      }).toEqual({ type: contentType, csp: EXPECTED_CSP, nosniff: 'nosniff', cache: 'no-cache' });
    });

    it('GET /favicon.ico is an empty 204 (no 404 in the browser console)', async () => {
      const response = await get('/favicon.ico').expect(204);
      expect(response.text).toBe('');
    });
  });
});

function callersSlices(): void {
  describe('GET /me/permissions', () => {
    sliceAnswersAndCaching();

    it('the slice names no hook, no role and no definition text', async () => {
      for (const userId of ['1', '2', '4', '7']) {
        const text = (await get('/me/permissions', userId).expect(200)).text;
        for (const secret of [...grantTables.hooks.map((hook) => hook.name), ...grantTables.roles, 'document.permissions.json', 'descr'])
          expect({ userId, secret, leaked: text.includes(secret) }).toEqual({ userId, secret, leaked: false });
      }
    });
  });
}

function sliceAnswersAndCaching(): void {
  it('answers with an ETag of the policy version and the roles, and 304 while it is current', async () => {
    const first = await get('/me/permissions', '1').expect(200);
    const version = policyVersionOf(grantTables);
    expect(first.headers['x-permissions-version']).toBe(version);
    expect(first.headers['etag']).toMatch(new RegExp(`^"${version}\\.[0-9a-f]{16}"$`));
    expect(first.headers['vary']).toBe('x-user-id');
    const again = await get('/me/permissions', '1').set('if-none-match', first.headers['etag'] as string);
    expect({ status: again.status, text: again.text }).toEqual({ status: 304, text: '' });
    // Another user's slice is another representation: another tag, and 200 for the first user's tag.
    const other = await get('/me/permissions', '4').set('if-none-match', first.headers['etag'] as string);
    expect(other.status).toBe(200);
    expect(other.headers['etag']).not.toBe(first.headers['etag']);
  });

  it('every guarded response names the policy version it was decided on, refusals included', async () => {
    const version = policyVersionOf(grantTables);
    const granted = await get('/documents-page/listed', '1').expect(200);
    const refused = await get('/documents-protected-simple/2', '1').expect(403);
    expect([granted.headers['x-permissions-version'], refused.headers['x-permissions-version']]).toEqual([version, version]);
  });

  it('EMPLOYEE (1) gets exactly create, list and read: own through their group, list:any with title and date', async () => {
    const response = await get('/me/permissions', '1').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toEqual({
      format: 1,
      version: policyVersionOf(grantTables),
      plans: [ALL_BUT_CONFIDENTIAL, TITLE_AND_DATE],
      grants: [
        [
          'document',
          [
            ['create', -1, 1, [EMPLOYEE_GROUP, 0], [EMPLOYEE_GROUP]],
            ['list', 1, 1, [EMPLOYEE_GROUP, 0], [EMPLOYEE_GROUP]],
            ['read', -1, 1, [EMPLOYEE_GROUP, 0], [EMPLOYEE_GROUP]],
          ],
        ],
      ],
    });
  });

  it('COMPANY_ADMIN (4) gets exactly read, review and update as own with every attribute, and no list', async () => {
    const response = await get('/me/permissions', '4').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toEqual({
      format: 1,
      version: policyVersionOf(grantTables),
      plans: [EVERY_ATTRIBUTE],
      grants: [
        [
          'document',
          [
            ['read', -1, 1, [COMPANY_GROUP, 0], [COMPANY_GROUP]],
            ['review', -1, 1, [COMPANY_GROUP, 0], [COMPANY_GROUP]],
            ['update', -1, 1, [COMPANY_GROUP, 0], [COMPANY_GROUP]],
          ],
        ],
      ],
    });
  });

  it('the anonymous caller gets only create on session (nothing on documents or decisions), not an error', async () => {
    const response = await get('/me/permissions').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toEqual({
      format: 1,
      version: policyVersionOf(grantTables),
      plans: [EVERY_ATTRIBUTE],
      grants: [['session', [['create', 0, 0, [], []]]]],
    });
  }, 30_000);

  it('an unknown user (999) and a malformed id ("abc") get 401 with the reason', async () => {
    const unknown = await get('/me/permissions', '999').expect(401);
    expect(unknown.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'No user has id 999.' });
    const malformed = await get('/me/permissions', 'abc').expect(401);
    expect(malformed.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'x-user-id must be the id of a user.' });
  });
}

function pageDocuments(): void {
  describe('GET /documents-page/listed and /documents-page/readable: exact bodies', () => {
    documentsOfEveryCaller();

    it('no answer carries a field value the caller may not see (confidential never, personal only to creators and company admins)', async () => {
      const cases: ReadonlyArray<readonly [userId: string, path: string, mayRead: (document: (typeof exampleDocuments)[number]) => DocumentField[]]> = [
        ['1', '/documents-page/listed', (d) => (d.creatorId === 1 ? ['personal'] : [])],
        ['1', '/documents-page/readable', (d) => (d.creatorId === 1 ? ['personal'] : [])],
        ['2', '/documents-page/listed', () => []],
        ['2', '/documents-page/readable', () => []],
        ['4', '/documents-page/readable', (d) => ([4, 5, 6].includes(d.creatorId) ? ['personal', 'confidential'] : [])],
      ];
      for (const [userId, path, mayRead] of cases) {
        const text = (await get(path, userId).expect(200)).text;
        for (const document of exampleDocuments) {
          const allowed = mayRead(document);
          for (const field of ['personal', 'confidential'] as const) {
            if (allowed.includes(field)) continue;
            expect({ userId, path, value: document[field], leaked: text.includes(`"${document[field]}"`) }).toEqual({
              userId,
              path,
              value: document[field],
              leaked: false,
            });
          }
        }
      }
    });
  });
}

function documentsOfEveryCaller(): void {
  it('EMPLOYEE (1) lists all 24: documents 1, 10, 100 without confidential (owned by their group), the rest title and date', async () => {
    const owns = ownedByEmployee(1);
    const response = await get('/documents-page/listed', '1').expect(200);
    expect(response.body).toEqual(listedRows([[EMPLOYEE_GROUP, owns]], owns, ['confidential'], ['title', 'date']));
  });

  it('EMPLOYEE_MANAGER (2) lists all 24: documents of users 1, 2, 4 without confidential and personal, the rest title, date and status', async () => {
    const owns = ownedByManager([2, 1, 4]);
    const response = await get('/documents-page/listed', '2').expect(200);
    expect(response.body).toEqual(listedRows([[MANAGER_GROUP, owns]], owns, ['confidential', 'personal'], ['title', 'date', 'status']));
  });

  it("user 7 (EMPLOYEE_MANAGER + COMPANY_ADMIN) lists with the manager's rules; ownedBy also names the company group (no list)", async () => {
    const managerOwns = ownedByManager([7, 5, 6]);
    const companyOwns = ownedByCompany([1, 2, 3, 7]);
    const response = await get('/documents-page/listed', '7').expect(200);
    expect(response.body).toEqual(
      listedRows(
        [
          [MANAGER_GROUP, managerOwns],
          [COMPANY_GROUP, companyOwns],
        ],
        managerOwns,
        ['confidential', 'personal'],
        ['title', 'date', 'status'],
      ),
    );
  });

  it('COMPANY_ADMIN (4), QA_MANAGER (3) and the anonymous caller may not list: 403', async () => {
    for (const userId of ['4', '3', undefined]) {
      const response = await get('/documents-page/listed', userId);
      expect({ userId, status: response.status, body: response.body as unknown }).toEqual({ userId, status: 403, body: FORBIDDEN_LIST });
    }
  });

  it('EMPLOYEE (1) reads exactly documents 1, 10, 100, without confidential', async () => {
    const response = await get('/documents-page/readable', '1').expect(200);
    expect(response.body).toEqual([1, 10, 100].map((id) => ({ document: documentWithout(id, 'confidential'), ownedBy: [EMPLOYEE_GROUP] })));
  });

  it('EMPLOYEE_MANAGER (2) reads exactly the 9 documents of users 1, 2, 4, without confidential and personal', async () => {
    const response = await get('/documents-page/readable', '2').expect(200);
    expect(response.body).toEqual(
      [1, 2, 4, 10, 20, 40, 100, 200, 400].map((id) => ({ document: documentWithout(id, 'confidential', 'personal'), ownedBy: [MANAGER_GROUP] })),
    );
  });

  it('COMPANY_ADMIN (4) reads exactly the 9 documents of company 2 (users 4, 5, 6), with every attribute', async () => {
    const response = await get('/documents-page/readable', '4').expect(200);
    expect(response.body).toEqual([4, 5, 6, 40, 50, 60, 400, 500, 600].map((id) => ({ document: documentWithId(id), ownedBy: [COMPANY_GROUP] })));
  });

  it('user 7 reads through both groups (limitOwned + listOwned): company 1 in full, managed-only ones without confidential, personal', async () => {
    const response = await get('/documents-page/readable', '7').expect(200);
    // Company 1 is users 1, 2, 3, 7; user 7 manages 5 and 6. Their own documents (7, 70, 700) are owned both ways.
    const rows: PageRow[] = [1, 2, 3, 5, 6, 7, 10, 20, 30, 50, 60, 70, 100, 200, 300, 500, 600, 700].map((id) => {
      const creator = creatorOf(id);
      if (creator === 7) return { document: documentWithId(id), ownedBy: [MANAGER_GROUP, COMPANY_GROUP] };
      if (creator === 5 || creator === 6) return { document: documentWithout(id, 'confidential', 'personal'), ownedBy: [MANAGER_GROUP] };
      return { document: documentWithId(id), ownedBy: [COMPANY_GROUP] };
    });
    expect(response.body).toEqual(rows);
  });

  it('QA_MANAGER (3) and the anonymous caller may not read: 403; an unknown user: 401', async () => {
    for (const userId of ['3', undefined]) {
      const response = await get('/documents-page/readable', userId);
      expect({ userId, status: response.status, body: response.body as unknown }).toEqual({ userId, status: 403, body: FORBIDDEN_READ });
    }
    await get('/documents-page/readable', '999').expect(401);
    await get('/documents-page/listed', '999').expect(401);
  });
}

describe('an app started without pageDir', () => {
  let app: INestApplication<Server>;

  beforeAll(async () => {
    app = await startExampleApp();
  }, 180_000);

  afterAll(async () => {
    await app.close();
  });

  it('GET /, /page.css and /app.js answer 404 saying how to build the page; the API still works', async () => {
    for (const path of ['/', '/page.css', '/app.js']) {
      const response = await request(app.getHttpServer()).get(path);
      expect({ path, status: response.status, body: response.body as unknown }).toEqual({
        path,
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'The example page is not built here (npm run build writes it to dist/page).' },
      });
    }
    await request(app.getHttpServer()).get('/me/permissions').set('x-user-id', '1').expect(200);
  });
});
