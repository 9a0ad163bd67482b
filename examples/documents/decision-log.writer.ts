/**
 * The example's decision log: the permissions library's `onDecision` events, written to the `decision_log`
 * table in batches — one INSERT per second at most, or as soon as 100 are waiting — so that logging costs a
 * request nothing and the database one statement per batch. At most 10,000 events wait; more are dropped and
 * counted (the library counts what its own queue drops, too). The last events are read back for GET /decisions.
 */
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { DecisionEvent } from '../../runtime/core/index.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';

/** Events written per INSERT at most. */
export const DECISION_BATCH_SIZE = 100;
/** How long an event waits for its batch at most. */
export const DECISION_FLUSH_MS = 1000;
/** Events waiting at most; more are dropped and counted. */
export const MAX_WAITING_DECISIONS = 10_000;
/** The most events GET /decisions answers with. */
export const MAX_LISTED_DECISIONS = 100;

@Injectable()
export class DecisionLogWriter implements BeforeApplicationShutdown {
  private waiting: DecisionEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Events dropped because MAX_WAITING_DECISIONS were waiting, or because their batch could not be written. */
  dropped = 0;

  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  /**
   * The `onDecision` sink: keeps the event for the next batch.
   *
   * @example
   * ```ts
   * PermissionsModule.forRootAsync({ inject: [DecisionLogWriter], useFactory: (log) => ({ tables, onDecision: log.record }) });
   * ```
   */
  readonly record = (event: DecisionEvent): void => {
    if (this.waiting.length >= MAX_WAITING_DECISIONS) {
      this.dropped++;
      return;
    }
    this.waiting.push(event);
    if (this.waiting.length >= DECISION_BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), DECISION_FLUSH_MS);
  };

  /**
   * Writes what is waiting (one INSERT per batch of DECISION_BATCH_SIZE); batches are written one after the other.
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
      } catch (error) {
        // A log that cannot be written must not take the application down: the batch is counted as dropped.
        this.dropped += batch.length;
        console.warn(`decision log: ${batch.length} events not written (${error instanceof Error ? error.message : String(error)})`);
      }
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
