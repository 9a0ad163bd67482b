/**
 * The example's decision log is bounded. Anonymous refusals sent through the app past a small row bound leave
 * exactly the bound in `decision_log`, the newest rows; rows older than the age bound are deleted and younger ones
 * kept; between intervals nothing is deleted until 1,000 rows have been written, and then the bound holds again.
 * The bounds come from DECISION_LOG_MAX_ROWS and DECISION_LOG_MAX_AGE_DAYS, and a value that is no bound stops the start.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Kysely } from 'kysely';
import request from 'supertest';
import { decisionLogBoundsOf, DEFAULT_DECISION_LOG_BOUNDS } from '../../examples/documents/decision-log-bounds.js';
import { DECISION_DELETE_BATCH, DecisionLogWriter, MAX_WAITING_DECISIONS } from '../../examples/documents/decision-log.writer.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { EXAMPLE_DATABASE } from '../../examples/documents/example.constants.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import type { DecisionEvent } from '../../runtime/permissions/index.js';
import type { TestApp } from '../nest/fixtures/documents.fixture.js';
import { startExampleApp } from './example-app.fixture.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every decision the app has made, written: the library's queue handed to the writer, the writer's batches written (and the bounds applied). */
async function flushDecisions(app: TestApp): Promise<void> {
  await app.get(PermissionsService).permissions.decisionLog?.flush();
  await app.get(DecisionLogWriter).flush();
}

/** The rows of `decision_log`, oldest first. */
function rowsOf(app: TestApp): Promise<{ id: number; callId: string }[]> {
  return app.get<Kysely<ExampleDatabase>>(EXAMPLE_DATABASE).selectFrom('decisionLog').select(['id', 'callId']).orderBy('id').execute();
}

/** `count` anonymous refusals, 50 at a time: the call ids of their decisions, each 50 after the 50 before. */
async function anonymousRefusals(app: TestApp, count: number): Promise<string[]> {
  const callIds: string[] = [];
  for (let sent = 0; sent < count; sent += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, count - sent) }, () => request(app.getHttpServer()).get('/documents-protected-simple/1')),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      callIds.push(answer.headers['x-permissions-call-id'] as string);
    }
  }
  return callIds;
}

describe('the decision log of the example, with a bound of 500 rows and deletions after every write', () => {
  const maxRows = 500;
  let app: TestApp;
  beforeAll(async () => {
    app = await startExampleApp({ decisionLog: { maxRows, pruneIntervalMs: 0 } });
  }, 180_000);
  afterAll(async () => {
    await app.close();
  });

  it('deletes the rows older than the age bound (7 days by default), and keeps the younger ones', async () => {
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    const row = (callId: string, time: string) => ({ callId, time, granted: false, event: JSON.stringify({ callId, time }) });
    await app
      .get<Kysely<ExampleDatabase>>(EXAMPLE_DATABASE)
      .insertInto('decisionLog')
      .values([
        row('eight days old', at(8 * DAY_MS)),
        row('a minute past seven days', at(7 * DAY_MS + 60_000)),
        row('six days old', at(6 * DAY_MS)),
        row('a minute short of seven days', at(7 * DAY_MS - 60_000)),
      ])
      .execute();
    const [callId] = await anonymousRefusals(app, 1);
    await flushDecisions(app);
    expect((await rowsOf(app)).map((row) => row.callId)).toEqual(['six days old', 'a minute short of seven days', callId]);
  }, 20_000);

  it(`anonymous traffic past the bound leaves exactly ${maxRows} rows, the newest`, async () => {
    const callIds = await anonymousRefusals(app, maxRows + 150);
    await flushDecisions(app);
    const rows = await rowsOf(app);
    // The three rows of the test before and the first 150 refusals were the oldest; the last 500 refusals are kept.
    expect(rows.length).toBe(maxRows);
    expect(rows.at(-1)?.id).toBe((rows[0]?.id as number) + maxRows - 1);
    expect(new Set(rows.map((row) => row.callId))).toEqual(new Set(callIds.slice(150)));
  }, 120_000);
});

describe('the decision log of the example, with a bound of 100 rows and deletions at most every minute', () => {
  const maxRows = 100;
  let app: TestApp;
  beforeAll(async () => {
    app = await startExampleApp({ decisionLog: { maxRows, pruneIntervalMs: 60_000 } });
  }, 180_000);
  afterAll(async () => {
    await app.close();
  });

  it(`deletes after the first write, then not again until ${DECISION_DELETE_BATCH} rows were written since`, async () => {
    const [first] = await anonymousRefusals(app, 1);
    await flushDecisions(app);
    const writer = app.get(DecisionLogWriter);
    const [event] = await writer.last(1);
    if (event === undefined) throw new Error('no decision was written');
    expect(event.callId).toBe(first);
    // Events recorded at once are written 100 a statement: the writes that follow the first are of 100 rows each.
    const record = (from: number, count: number) => {
      for (let i = from; i < from + count; i++) writer.record({ ...event, callId: `event ${i}` });
    };
    record(1, 249);
    await writer.flush();
    // The first write (one row) deleted nothing; the next 249 rows are all kept, 150 past the bound, within the interval.
    expect((await rowsOf(app)).length).toBe(250);
    record(250, 1000);
    await writer.flush();
    // 249 + 8 × 100 = 1,049 rows written since the deletion: the eighth write of 100 (events 950 to 1049) deleted down to
    // the bound, keeping events 950 to 1049; the two writes after it (events 1050 to 1249) are kept.
    expect(DECISION_DELETE_BATCH).toBe(1000);
    const rows = await rowsOf(app);
    expect(rows.map((row) => row.callId)).toEqual(Array.from({ length: 300 }, (_, i) => `event ${950 + i}`));
  }, 30_000);
});

describe('events waiting to be written, with a database that does not answer', () => {
  it(`are at most ${MAX_WAITING_DECISIONS}, counting those in a write the database holds: the rest are dropped and counted`, () => {
    // A database whose INSERT never answers: every batch handed to it stays in the chain of writes.
    const stalled = { insertInto: () => ({ values: () => ({ execute: () => new Promise<never>(() => undefined) }) }) };
    const writer = new DecisionLogWriter(stalled as unknown as Kysely<ExampleDatabase>, DEFAULT_DECISION_LOG_BOUNDS);
    const event = { callId: 'c', time: '2026-01-01T00:00:00.000Z', granted: true } as unknown as DecisionEvent;
    for (let i = 0; i < MAX_WAITING_DECISIONS; i++) writer.record(event);
    expect(writer.dropped).toBe(0);
    for (let i = 0; i < 250; i++) writer.record(event);
    expect(writer.dropped).toBe(250);
  });
});

describe('the bounds from the environment', () => {
  it('are the defaults (10,000 rows, 7 days) unless DECISION_LOG_MAX_ROWS and DECISION_LOG_MAX_AGE_DAYS say otherwise', () => {
    expect(DEFAULT_DECISION_LOG_BOUNDS).toEqual({ maxRows: 10_000, maxAgeMs: 7 * DAY_MS, pruneIntervalMs: 10_000 });
    expect(decisionLogBoundsOf({})).toEqual(DEFAULT_DECISION_LOG_BOUNDS);
    expect(decisionLogBoundsOf({ DECISION_LOG_MAX_ROWS: '500', DECISION_LOG_MAX_AGE_DAYS: '0.5' })).toEqual({
      maxRows: 500,
      maxAgeMs: DAY_MS / 2,
      pruneIntervalMs: 10_000,
    });
  });

  it.each([
    ['DECISION_LOG_MAX_ROWS', '0', 'DECISION_LOG_MAX_ROWS must be a whole number of rows from 1 to 10000000, got "0".'],
    ['DECISION_LOG_MAX_ROWS', '1e4', 'DECISION_LOG_MAX_ROWS must be a whole number of rows from 1 to 10000000, got "1e4".'],
    ['DECISION_LOG_MAX_ROWS', '10000001', 'DECISION_LOG_MAX_ROWS must be a whole number of rows from 1 to 10000000, got "10000001".'],
    ['DECISION_LOG_MAX_ROWS', '', 'DECISION_LOG_MAX_ROWS must be a whole number of rows from 1 to 10000000, got "".'],
    ['DECISION_LOG_MAX_AGE_DAYS', '0', 'DECISION_LOG_MAX_AGE_DAYS must be a number of days above 0, at most 3650, got "0".'],
    ['DECISION_LOG_MAX_AGE_DAYS', '-1', 'DECISION_LOG_MAX_AGE_DAYS must be a number of days above 0, at most 3650, got "-1".'],
    ['DECISION_LOG_MAX_AGE_DAYS', 'week', 'DECISION_LOG_MAX_AGE_DAYS must be a number of days above 0, at most 3650, got "week".'],
    ['DECISION_LOG_MAX_AGE_DAYS', '3651', 'DECISION_LOG_MAX_AGE_DAYS must be a number of days above 0, at most 3650, got "3651".'],
  ])('%s=%j is refused', (name, value, message) => {
    expect(() => decisionLogBoundsOf({ [name]: value })).toThrow(message);
  });
});
