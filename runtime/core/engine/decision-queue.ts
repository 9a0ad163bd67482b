/**
 * The decision log's queue: a ring of decisions waiting for the sink, in arrays that grow by doubling and are
 * reused, so that queueing a decision allocates nothing — no object per decision, no boxed time stamp — and
 * costs the decision little more than two stores.
 */
import type { GrantTables } from '../tables/grant-tables.js';
import type { LoggedDecision } from './decision-log.js';

/** One queued decision, as it is taken out. */
export interface QueuedDecision {
  readonly decision: LoggedDecision;
  readonly tables: GrantTables;
  /** The integration's index × 2 + whether ownership was checked. */
  readonly code: number;
  readonly time: number;
}

/**
 * A first-in, first-out ring of decisions.
 *
 * @example
 * ```ts
 * const queue = new DecisionQueue();
 * queue.push(permit, tables, 2, Date.now());
 * queue.shift()?.decision; // permit
 * ```
 */
export class DecisionQueue {
  private decisions: (LoggedDecision | undefined)[];
  private tables: (GrantTables | undefined)[];
  private codes: Uint8Array;
  private times: Float64Array;
  private head = 0;
  /** Decisions in the queue. */
  size = 0;

  constructor(capacity = 256) {
    this.decisions = new Array<LoggedDecision | undefined>(capacity).fill(undefined);
    this.tables = new Array<GrantTables | undefined>(capacity).fill(undefined);
    this.codes = new Uint8Array(capacity);
    this.times = new Float64Array(capacity);
  }

  push(decision: LoggedDecision, tables: GrantTables, code: number, time: number): void {
    if (this.size === this.codes.length) this.grow();
    // The capacity is a power of two: the slot wraps with a mask.
    const at = (this.head + this.size) & (this.codes.length - 1);
    this.decisions[at] = decision;
    this.tables[at] = tables;
    this.codes[at] = code;
    this.times[at] = time;
    this.size++;
  }

  /** Takes the oldest decision out (and lets go of it), or undefined when the queue is empty. */
  shift(): QueuedDecision | undefined {
    if (this.size === 0) return undefined;
    const at = this.head;
    const taken = {
      decision: this.decisions[at] as LoggedDecision,
      tables: this.tables[at] as GrantTables,
      code: this.codes[at] as number,
      time: this.times[at] as number,
    };
    this.decisions[at] = undefined;
    this.tables[at] = undefined;
    this.head = (at + 1) & (this.codes.length - 1);
    this.size--;
    return taken;
  }

  /** Doubles the capacity, the queued decisions copied in order from slot 0. */
  private grow(): void {
    const capacity = this.codes.length;
    const order = (i: number): number => (this.head + i) & (capacity - 1);
    const decisions = new Array<LoggedDecision | undefined>(capacity * 2).fill(undefined);
    const tables = new Array<GrantTables | undefined>(capacity * 2).fill(undefined);
    const codes = new Uint8Array(capacity * 2);
    const times = new Float64Array(capacity * 2);
    for (let i = 0; i < this.size; i++) {
      decisions[i] = this.decisions[order(i)];
      tables[i] = this.tables[order(i)];
      codes[i] = this.codes[order(i)] as number;
      times[i] = this.times[order(i)] as number;
    }
    Object.assign(this, { decisions, tables, codes, times, head: 0 });
  }
}
