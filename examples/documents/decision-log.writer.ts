/**
 * The example's decision log: the permissions library's `onDecision` events, written to the `decision_log`
 * table in batches — one INSERT per second at most, or as soon as 100 are waiting — so that logging costs a
 * request nothing and the database one statement per batch. At most 10,000 events wait to be written (waiting for
 * their batch or in a write a slow database has not finished); more are dropped and counted (the library counts
 * what its own queue drops, too). The last events are read back for GET /decisions.
 *
 * The table is bounded (decision-log-bounds.ts): after a write — once the interval has passed since the last
 * time, or once DECISION_DELETE_BATCH rows have been written since, whichever comes first — the oldest rows beyond
 * the row bound and the rows older than the age bound are deleted, DECISION_DELETE_BATCH a statement, so no DELETE
 * is ever large. So the table holds at most `maxRows` rows after each deletion, and never more than
 * `maxRows + DECISION_DELETE_BATCH + DECISION_BATCH_SIZE - 1` however fast decisions come.
 */
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { DecisionEvent } from '../../runtime/permissions/index.js';
import type { DecisionLogBounds } from './decision-log-bounds.js';
import { DECISION_LOG_BOUNDS, EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';

/** Events written per INSERT at most. */
export const DECISION_BATCH_SIZE = 100;
/** How long an event waits for its batch at most. */
export const DECISION_FLUSH_MS = 1000;
/** Events waiting at most; more are dropped and counted. */
export const MAX_WAITING_DECISIONS = 10_000;
/** The most events GET /decisions answers with. */
export const MAX_LISTED_DECISIONS = 100;
/** Rows one DELETE removes at most; also the rows written after which the bounds are applied whatever the interval. */
export const DECISION_DELETE_BATCH = 1000;

@Injectable()
export class DecisionLogWriter implements BeforeApplicationShutdown {
  private waiting: DecisionEvent[] = [];
  /**
   * Events not written yet: waiting for their batch, and handed to a write that has not finished (a slow database
   * holds them in the chain of writes). The bound counts both, so memory stays bounded however slow the database is.
   */
  private unwritten = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Events dropped because MAX_WAITING_DECISIONS were waiting, or because their batch could not be written. */
  dropped = 0;
  /** When the rows beyond the bounds were last deleted (0: not yet, so the first write does it). */
  private prunedAt = 0;
  /** Rows written since then. */
  private writtenSincePrune = 0;

  constructor(
    @Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>,
    @Inject(DECISION_LOG_BOUNDS) private readonly bounds: DecisionLogBounds,
  ) {}

  /**
   * The `onDecision` sink: keeps the event for the next batch.
   *
   * @example
   * ```ts
   * PermissionsModule.forRootAsync({ inject: [DecisionLogWriter], useFactory: (log) => ({ tables, onDecision: log.record }) });
   * ```
   */
  readonly record = (event: DecisionEvent): void => {
    if (this.unwritten >= MAX_WAITING_DECISIONS) {
      this.dropped++;
      return;
    }
    this.unwritten++;
    this.waiting.push(event);
    if (this.waiting.length >= DECISION_BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), DECISION_FLUSH_MS);
  };

  /**
   * Writes what is waiting (one INSERT per batch of DECISION_BATCH_SIZE), then, when the interval has passed,
   * deletes the rows beyond the bounds; batches are written one after the other.
   *
   * @example
   * ```ts
   * await writer.flush();
   * ```
   */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.waiting;
    this.waiting = [];
    this.writing = this.writing.then(() => this.write(events));
    return this.writing;
  }

  private async write(events: readonly DecisionEvent[]): Promise<void> {
    for (let start = 0; start < events.length; start += DECISION_BATCH_SIZE) {
      const batch = events.slice(start, start + DECISION_BATCH_SIZE);
      try {
        await this.db
          .insertInto('decisionLog')
          .values(batch.map((event) => ({ callId: event.callId, time: event.time, granted: event.granted, event: JSON.stringify(event) })))
          .execute();
        this.writtenSincePrune += batch.length;
      } catch (error) {
        // A log that cannot be written must not take the application down: the batch is counted as dropped.
        this.dropped += batch.length;
        console.warn(`decision log: ${batch.length} events not written (${error instanceof Error ? error.message : String(error)})`);
      }
      this.unwritten -= batch.length;
      if (this.writtenSincePrune >= DECISION_DELETE_BATCH || Date.now() - this.prunedAt >= this.bounds.pruneIntervalMs) await this.prune();
    }
  }

  /** Deletes the oldest rows beyond `maxRows` and the rows older than `maxAgeMs`, in bounded statements. */
  private async prune(): Promise<void> {
    this.prunedAt = Date.now();
    this.writtenSincePrune = 0;
    try {
      // The newest row past the bound: it and every row before it go.
      const beyond = await this.db.selectFrom('decisionLog').select('id').orderBy('id', 'desc').offset(this.bounds.maxRows).limit(1).executeTakeFirst();
      if (beyond !== undefined) await this.deleteInBatches('id', '<=', beyond.id);
      // Times are ISO 8601 in UTC, so text order is time order.
      await this.deleteInBatches('time', '<', new Date(Date.now() - this.bounds.maxAgeMs).toISOString());
    } catch (error) {
      // A log that cannot be trimmed must not take the application down: the next interval tries again.
      console.warn(`decision log: old rows not deleted (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  /** Deletes the rows whose `column` is `operator` `value`, oldest first, DECISION_DELETE_BATCH a statement. */
  private async deleteInBatches(column: 'id' | 'time', operator: '<' | '<=', value: number | string): Promise<void> {
    for (;;) {
      const { numDeletedRows } = await this.db
        .deleteFrom('decisionLog')
        .where('id', 'in', (query) => query.selectFrom('decisionLog').select('id').where(column, operator, value).orderBy('id').limit(DECISION_DELETE_BATCH))
        .executeTakeFirst();
      if (numDeletedRows < BigInt(DECISION_DELETE_BATCH)) return;
    }
  }

  /**
   * The last `limit` decisions written, newest first (events waiting for their batch are written first).
   *
   * @example
   * ```ts
   * const [newest] = await writer.last(10);
   * ```
   */
  async last(limit: number): Promise<DecisionEvent[]> {
    await this.flush();
    const rows = await this.db
      .selectFrom('decisionLog')
      .select('event')
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(1, limit), MAX_LISTED_DECISIONS))
      .execute();
    // jsonb comes back parsed from PGlite and from pg alike.
    return rows.map((row) => (typeof row.event === 'string' ? JSON.parse(row.event) : row.event) as DecisionEvent);
  }

  /** Nest runs this before any `onApplicationShutdown`, so the database (closed by one) is still open for the last batch. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
