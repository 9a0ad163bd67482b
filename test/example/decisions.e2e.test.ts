/**
 * The example's decision log: every guarded decision is written, in batches, to the `decision_log` table, and
 * `GET /decisions` answers the last ones, newest first, to SUPER_ADMIN only (everyone else 403, anonymous too);
 * the call id a guarded response carries finds its decision there.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { policyVersion } from '../../generated/index.js';
import type { DecisionEvent } from '../../runtime/permissions/index.js';
import { DecisionLogWriter } from '../../examples/documents/decision-log.writer.js';
import type { TestApp } from '../nest/fixtures/documents.fixture.js';
import { stableEvent, timelessEvent } from '../decision-log/stable-event.js';
import { startExampleApp } from './example-app.fixture.js';

let app: TestApp;

beforeAll(async () => {
  app = await startExampleApp();
}, 180_000);

afterAll(async () => {
  await app.close();
});

function get(path: string, userId?: number): request.Test {
  const call = request(app.getHttpServer()).get(path);
  return userId === undefined ? call : call.set('x-user-id', String(userId));
}

describe('GET /decisions', () => {
  it('shows SUPER_ADMIN the last decisions, newest first, each found by the call id its response carried', async () => {
    const read = await get('/documents-protected-simple/10', 1);
    const refused = await get('/documents-protected-simple/2', 1);
    const answer = await get('/decisions?limit=2', 5);
    expect([read.status, refused.status, answer.status]).toEqual([200, 403, 200]);
    const events = answer.body as DecisionEvent[];
    // The newest is the refusal, then the read (the decision to show the log is logged after it was decided, so the next answer shows it).
    expect(events.map(stableEvent)).toEqual([
      {
        user: { id: 1, roles: ['EMPLOYEE'] },
        tenant: '1',
        resource: 'document',
        action: 'read',
        resourceId: 2,
        granted: false,
        anyGranted: false,
        possession: null,
        reason: 'not-owner',
        ownershipChecked: true,
        definitions: [{ source: 'document.permissions.json', index: 0 }],
        policyVersion,
        via: 'nest',
      },
      {
        user: { id: 1, roles: ['EMPLOYEE'] },
        tenant: '1',
        resource: 'document',
        action: 'read',
        resourceId: 10,
        granted: true,
        anyGranted: false,
        possession: 'own',
        reason: 'granted-own',
        ownershipChecked: true,
        definitions: [{ source: 'document.permissions.json', index: 0 }],
        policyVersion,
        via: 'nest',
      },
    ]);
    expect([events[1]?.callId, events[0]?.callId]).toEqual([read.headers['x-permissions-call-id'], refused.headers['x-permissions-call-id']]);
    const next = await get('/decisions?limit=1', 5);
    expect((next.body as DecisionEvent[]).map(timelessEvent)).toEqual([
      {
        callId: answer.headers['x-permissions-call-id'],
        user: { id: 5, roles: ['SUPER_ADMIN'] },
        tenant: '2',
        resource: 'decision',
        action: 'list',
        granted: true,
        anyGranted: true,
        possession: 'any',
        reason: 'granted-any',
        ownershipChecked: false,
        definitions: [
          { source: 'decision.permissions.json', index: 0 },
          { source: 'document.permissions.json', index: 3 },
        ],
        policyVersion,
        via: 'nest',
      },
    ]);
  }, 20_000);

  it.each([
    ['an EMPLOYEE', 1],
    ['an EMPLOYEE_MANAGER', 2],
    ['a QA_MANAGER (no definitions)', 3],
    ['a COMPANY_ADMIN', 4],
    ['a GOD (no definitions)', 6],
    ['an EMPLOYEE_MANAGER and COMPANY_ADMIN', 7],
    ['the anonymous caller', undefined],
  ])('refuses %s with 403', async (_who, userId) => {
    const answer = await get('/decisions', userId);
    expect([answer.status, answer.body]).toEqual([
      403,
      { statusCode: 403, message: 'list on decision is not granted', error: 'Forbidden', reason: 'no-grant' },
    ]);
  });

  it('answers 20 by default and at most 100; a limit that is no small number is the default', async () => {
    const writer = app.get(DecisionLogWriter);
    for (let i = 0; i < 120; i++) writer.record({ ...(await lastEvent()), callId: `filler-${i}` });
    const counts = await Promise.all(
      ['', '?limit=5', '?limit=100', '?limit=999', '?limit=abc', '?limit=-1'].map(
        async (query) => ((await get(`/decisions${query}`, 8)).body as DecisionEvent[]).length,
      ),
    );
    expect(counts).toEqual([20, 5, 100, 100, 20, 20]);
  }, 20_000);

  it('a batch the database refuses is dropped and counted, and the app goes on', async () => {
    const writer = app.get(DecisionLogWriter);
    const before = writer.dropped;
    // An event that is no JSON (a bigint in it): its batch cannot be written.
    writer.record({ ...(await lastEvent()), resourceId: 1n });
    const warn = console.warn;
    const said: unknown[] = [];
    console.warn = (...args: unknown[]) => void said.push(args.join(' '));
    try {
      await writer.flush();
    } finally {
      console.warn = warn;
    }
    expect([writer.dropped - before, said]).toEqual([1, ['decision log: 1 events not written (Do not know how to serialize a BigInt)']]);
    expect((await get('/documents-protected-simple/10', 1)).status).toBe(200);
  });
});

async function lastEvent(): Promise<DecisionEvent> {
  const [event] = await app.get(DecisionLogWriter).last(1);
  if (event === undefined) throw new Error('no decision logged yet');
  return event;
}
