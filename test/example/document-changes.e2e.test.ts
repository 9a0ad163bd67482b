/**
 * The guarded endpoints that change a document (the example page's update, delete and review buttons), over
 * HTTP: PATCH /documents-protected-simple/:id renames, DELETE deletes, POST …/:id/review approves. For callers
 * who may and may not, malformed ids (400), bad bodies (400), missing documents (404 with any-access, 403
 * without: a caller who owns nothing there learns nothing about it), and each change as the server's data
 * shows it afterwards (through the unprotected GET /documents/:id). Also: requests without a user no longer
 * make the engine warn about an unknown ANONYMOUS role; and a policy whose update grant leaves out the title
 * refuses a rename. Expected bodies come from example-data.ts and the definitions read by hand. One app for the
 * file (and one on the changed policy); every test changes documents no other test looks at.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { grantTables } from '../../generated/index.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';
import { filePolicySource } from '../../runtime/live/index.js';
import { compileChangedExample } from '../live/fixtures/example-policy.js';
import { startExampleApp } from './example-app.fixture.js';
import { documentWithId, documentWithout } from './example-expectations.js';

const BASE = '/documents-protected-simple';

// QA_MANAGER (user 3) has no definition and is warned about; the warnings are read below, and kept off the output.
const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

let app: INestApplication<Server>;

const as = <T extends request.Test>(call: T, userId: string | undefined): T => (userId === undefined ? call : call.set('x-user-id', userId));
const patch = (id: string | number, userId: string | undefined, body: unknown) =>
  as(request(app.getHttpServer()).patch(`${BASE}/${id}`), userId).send(body as object);
const remove = (id: string | number, userId: string | undefined) => as(request(app.getHttpServer()).delete(`${BASE}/${id}`), userId);
const review = (id: string | number, userId: string | undefined) => as(request(app.getHttpServer()).post(`${BASE}/${id}/review`), userId);

/** The document as the server holds it now: the unprotected sibling answers it in full (404 once it is deleted). */
async function stored(id: number): Promise<{ status: number; body: unknown }> {
  const response = await request(app.getHttpServer()).get(`/documents/${id}`);
  return { status: response.status, body: response.body as unknown };
}

const refusal = (statusCode: number, error: string, message: string) => ({ statusCode, error, message });
/** A 403 of the guard: `not-owner` when the caller's roles grant the action as own only and the document is not theirs. */
const notGranted = (action: string, reason: 'no-grant' | 'not-owner') => ({ ...refusal(403, 'Forbidden', `${action} on document is not granted`), reason });

describe('the guarded changes of a document (AppModule, embedded PGlite)', () => {
  beforeAll(async () => {
    app = await startExampleApp();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    warn.mockRestore();
  }, 30_000);

  describe('PATCH /documents-protected-simple/:id renames', () => {
    renameGrantedAndRefused();
    renameBodies();
  });

  describe('DELETE /documents-protected-simple/:id deletes', () => {
    deleteGrantedAndRefused();
  });

  describe('POST /documents-protected-simple/:id/review approves', () => {
    reviewGrantedAndRefused();
  });

  describe('ids and the anonymous role', () => {
    malformedAndMissingIds();
    anonymousIsKnown();
  });
});

function renameGrantedAndRefused(): void {
  it('COMPANY_ADMIN (4) renames document 50 of their company: 200 with every attribute, the title trimmed, and the server has it', async () => {
    const response = await patch(50, '4', { title: '  Budget 2025  ' }).expect(200);
    const renamed = { ...documentWithId(50), title: 'Budget 2025' };
    expect(response.body).toEqual(renamed);
    expect(response.headers['x-permissions-version']).toBe(policyVersionOf(grantTables));
    expect(await stored(50)).toEqual({ status: 200, body: renamed });
  }, 30_000);

  it('SUPER_ADMIN (5) renames any document (2): 200 with every attribute', async () => {
    const response = await patch(2, '5', { title: 'Renamed by the super admin' }).expect(200);
    expect(response.body).toEqual({ ...documentWithId(2), title: 'Renamed by the super admin' });
    expect((await stored(2)).body).toMatchObject({ title: 'Renamed by the super admin' });
  }, 30_000);

  it('a title of emoji joined into one (zero-width joiners), accents and a soft hyphen is kept as sent: only hidden reordering is refused', async () => {
    const title = 'Family 👨‍👩‍👧 café in Zürich, re\u00ADport';
    const response = await patch(2, '5', { title }).expect(200);
    expect(response.body).toMatchObject({ title });
    expect((await stored(2)).body).toMatchObject({ title });
  }, 30_000);

  it('EMPLOYEE (1) on their own, EMPLOYEE_MANAGER (2) on a managed one, COMPANY_ADMIN (4) on another company’s, anonymous: 403, unchanged', async () => {
    for (const [userId, id, reason] of [
      ['1', 10, 'no-grant'],
      ['2', 1, 'no-grant'],
      ['4', 1, 'not-owner'],
      [undefined, 10, 'no-grant'],
    ] as const) {
      const response = await patch(id, userId, { title: 'Not allowed' });
      expect({ userId, id, status: response.status, body: response.body as unknown }).toEqual({ userId, id, status: 403, body: notGranted('update', reason) });
      expect(await stored(id)).toEqual({ status: 200, body: documentWithId(id) });
    }
  }, 30_000);

  it('a refused caller is refused before the body is read: 403 even for a body that would be a 400', async () => {
    const response = await patch(10, '1', { title: '' }).expect(403);
    expect(response.body).toEqual(notGranted('update', 'no-grant'));
  }, 30_000);

  it('an unknown user (99) gets 401 and changes nothing', async () => {
    const response = await patch(4, '99', { title: 'Nobody' }).expect(401);
    expect(response.body).toEqual(refusal(401, 'Unauthorized', 'No user has id 99.'));
    expect(await stored(4)).toEqual({ status: 200, body: documentWithId(4) });
  }, 30_000);
}

function renameBodies(): void {
  it.each([
    ['no title', {}, 'title must be a string.'],
    ['a title that is a number', { title: 7 }, 'title must be a string.'],
    ['a blank title', { title: '   ' }, 'title must not be empty.'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title must be at most 200 characters, got 201.'],
    ['a title with a line break', { title: 'two\nlines' }, 'title must not contain control characters.'],
    // Shown as "Invoice exe.pdf": the override reverses what follows it.
    [
      'a title with a right-to-left override',
      { title: 'Invoice \u202Efdp.exe' },
      'title must not contain invisible formatting characters (such as U+202E or U+200B).',
    ],
    ['a title with a zero-width space', { title: 'Pay\u200Broll' }, 'title must not contain invisible formatting characters (such as U+202E or U+200B).'],
    ['a title with a lone surrogate', { title: 'A\uD800B' }, 'title must be whole Unicode characters (it holds a lone surrogate).'],
    ['another attribute', { title: 'Fine', status: 'approved' }, 'Only the title can be changed here, not "status".'],
    ['a list', ['title'], 'The body must be a JSON object such as {"title": "New title"}.'],
  ])(
    'a body with %s is 400 with the reason, and nothing changes',
    async (_label, body, message) => {
      const response = await patch(5, '4', body);
      expect({ status: response.status, body: response.body as unknown }).toEqual({ status: 400, body: refusal(400, 'Bad Request', message) });
      expect(await stored(5)).toEqual({ status: 200, body: documentWithId(5) });
    },
    30_000,
  );

  it('a body that is not JSON is 400, and nothing changes', async () => {
    const response = await as(request(app.getHttpServer()).patch(`${BASE}/5`), '4')
      .set('content-type', 'application/json')
      .send('{"title": ');
    expect(response.status).toBe(400);
    expect(await stored(5)).toEqual({ status: 200, body: documentWithId(5) });
  }, 30_000);

  it('a title of exactly 200 characters is accepted', async () => {
    const title = 't'.repeat(200);
    const response = await patch(6, '4', { title }).expect(200);
    expect(response.body).toEqual({ ...documentWithId(6), title });
  }, 30_000);
}

function deleteGrantedAndRefused(): void {
  it('EMPLOYEE_MANAGER (2) deletes document 40 of a user they manage: 200 with it as it was, without confidential and personal; it is gone', async () => {
    const response = await remove(40, '2').expect(200);
    expect(response.body).toEqual(documentWithout(40, 'confidential', 'personal'));
    expect((await stored(40)).status).toBe(404);
    // Gone: the manager owns nothing there any more (403, as for any document they do not own); any-access learns it is missing.
    expect((await remove(40, '2')).body).toEqual(notGranted('delete', 'not-owner'));
    expect((await remove(40, '5')).body).toEqual(refusal(404, 'Not Found', 'No document 40.'));
  }, 30_000);

  it('SUPER_ADMIN (5) deletes any document (600): 200 with every attribute; it is gone', async () => {
    const response = await remove(600, '5').expect(200);
    expect(response.body).toEqual(documentWithId(600));
    expect((await stored(600)).status).toBe(404);
  }, 30_000);

  it('EMPLOYEE (1) on their own, COMPANY_ADMIN (4) on one of their company, EMPLOYEE_MANAGER (2) on an unmanaged one, anonymous: 403, kept', async () => {
    for (const [userId, id, reason] of [
      ['1', 100, 'no-grant'],
      ['4', 400, 'no-grant'],
      ['2', 300, 'not-owner'],
      [undefined, 100, 'no-grant'],
    ] as const) {
      const response = await remove(id, userId);
      expect({ userId, id, status: response.status, body: response.body as unknown }).toEqual({ userId, id, status: 403, body: notGranted('delete', reason) });
      expect(await stored(id)).toEqual({ status: 200, body: documentWithId(id) });
    }
  }, 30_000);
}

function reviewGrantedAndRefused(): void {
  it('EMPLOYEE_MANAGER (2) reviews their own document 20: 200, status approved, without confidential and personal; the server has it', async () => {
    const response = await review(20, '2').expect(200);
    expect(response.body).toEqual({ ...documentWithout(20, 'confidential', 'personal'), status: 'approved' });
    expect(await stored(20)).toEqual({ status: 200, body: { ...documentWithId(20), status: 'approved' } });
  }, 30_000);

  it('COMPANY_ADMIN (4) reviews document 60 of their company: 200 with every attribute', async () => {
    const response = await review(60, '4').expect(200);
    expect(response.body).toEqual({ ...documentWithId(60), status: 'approved' });
  }, 30_000);

  it('EMPLOYEE (1) on their own document, EMPLOYEE_MANAGER (2) on an unmanaged one, QA_MANAGER (3), the anonymous caller: 403, nothing changed', async () => {
    // QA_MANAGER is no role of the policy (nor of tenant 1 until it publishes one): the caller is told 'no-grant'.
    for (const [userId, id, reason] of [
      ['1', 1, 'no-grant'],
      ['2', 3, 'not-owner'],
      ['3', 30, 'no-grant'],
      [undefined, 1, 'no-grant'],
    ] as const) {
      const response = await review(id, userId);
      expect({ userId, id, status: response.status, body: response.body as unknown }).toEqual({ userId, id, status: 403, body: notGranted('review', reason) });
      expect(await stored(id)).toEqual({ status: 200, body: documentWithId(id) });
    }
  }, 30_000);
}

function malformedAndMissingIds(): void {
  it.each(['abc', '0', '01', '1.5', '-1', '1000000000', '2147483648'])(
    'the malformed id %j is 400 for update, delete and review, for every kind of caller',
    async (id) => {
      const message = `Document id must be a whole number from 1 to 999999999 written without leading zeros, got ${JSON.stringify(id)}.`;
      for (const userId of ['1', '2', '4', '5', undefined]) {
        const answers = [await patch(id, userId, { title: 'x' }), await remove(id, userId), await review(id, userId)];
        expect(answers.map((response) => ({ status: response.status, body: response.body as unknown }))).toEqual(
          answers.map(() => ({ status: 400, body: refusal(400, 'Bad Request', message) })),
        );
      }
    },
    30_000,
  );

  it('a missing document (9999) is 404 with any-access (SUPER_ADMIN), 403 without (COMPANY_ADMIN, EMPLOYEE_MANAGER)', async () => {
    const missing = refusal(404, 'Not Found', 'No document 9999.');
    expect([(await patch(9999, '5', { title: 'x' })).body, (await remove(9999, '5')).body, (await review(9999, '5')).body]).toEqual([
      missing,
      missing,
      missing,
    ]);
    expect([(await patch(9999, '4', { title: 'x' })).body, (await remove(9999, '2')).body, (await review(9999, '4')).body]).toEqual([
      // A missing document is not owned: the same 'not-owner' as someone else's, so its absence does not show.
      notGranted('update', 'not-owner'),
      notGranted('delete', 'not-owner'),
      notGranted('review', 'not-owner'),
    ]);
  }, 30_000);
}

function anonymousIsKnown(): void {
  it('requests without a user do not make the engine warn about ANONYMOUS (it is defined); an undefined role still is warned about', async () => {
    await review(1, undefined).expect(403);
    await request(app.getHttpServer()).get(`${BASE}/1`).expect(403);
    await request(app.getHttpServer()).get('/me/permissions').expect(200);
    await review(30, '3').expect(403);
    const warnings = warn.mock.calls.map((args) => args.map(String).join(' '));
    expect(warnings.filter((text) => text.includes('ANONYMOUS'))).toEqual([]);
    expect(warnings.filter((text) => text.includes('unknown role'))).toEqual([
      'typed-permissions: unknown role "QA_MANAGER": no definition names it; it is ignored.',
    ]);
  }, 30_000);
}

describe('a policy whose update grant leaves out the title', () => {
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-title-'));
  let restricted: INestApplication<Server>;

  beforeAll(async () => {
    const policyFile = join(folder, 'policy.json');
    const changed = compileChangedExample(
      folder,
      '"grant": ["read", "update", "review"],',
      '"grant": { "read": ["*"], "update": ["*", "!title"], "review": ["*"] },',
    );
    writeFileSync(policyFile, changed.text);
    restricted = await startExampleApp({ policySource: filePolicySource(policyFile) });
  }, 180_000);

  afterAll(async () => {
    await restricted?.close();
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  it('refuses COMPANY_ADMIN (4) a rename with 403 naming the title, though update is granted; nothing changes', async () => {
    const response = await request(restricted.getHttpServer()).patch(`${BASE}/50`).set('x-user-id', '4').send({ title: 'Hidden title' });
    expect({ status: response.status, body: response.body as unknown }).toEqual({
      status: 403,
      body: refusal(403, 'Forbidden', 'update of title on document is not granted'),
    });
    const after = await request(restricted.getHttpServer()).get('/documents/50').expect(200);
    expect(after.body).toEqual(documentWithId(50));
  }, 30_000);
});
