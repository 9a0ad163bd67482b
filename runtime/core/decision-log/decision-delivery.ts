/**
 * The delivery of the decision log: the queue of decisions admitted to the log, drained on later turns of the event
 * loop — each decision's event made then, the definitions that decided it included, and given to the sink, one at a
 * time. A sink that throws, rejects or hangs is counted as failed (and said once), never in a decision's way. Loaded
 * by the decision log with the first decision it admits: an engine without `onDecision`, such as a page's, does not
 * carry it.
 */
import { thrownText } from '../common/thrown-text.js';
import { DecisionQueue, type QueuedDecision } from './decision-queue.js';
import { decisionEvent, type DecisionEvent, type EventMakers } from './decision-event.js';
import type { DecidingPolicy, LoggedDecision, PermissionsLogger } from '../decision/engine-settings.js';

/** Receives decision events. May return a promise: the next event waits for it (up to `sinkTimeoutMs`). */
export type DecisionSink = (event: DecisionEvent) => void | PromiseLike<void>;

function isThenable(value: unknown): value is PromiseLike<void> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Delivers the decisions pushed to it to the sink, in order, batch by batch, each batch on its own turn. Its events
 * are made with what `makers` gives of the engine's code, which this file does not import (see {@link EventMakers}).
 *
 * @example
 * ```ts
 * const makers = { callIdOf, decisionLabelOf, explainGrantIn, reasonOf, refusalOfExplanation };
 * const delivery = new DecisionDelivery((event) => events.push(event), 5000, console, makers);
 * delivery.push(permit, snapshot, decisionLabelNumber('direct') * 2);
 * await delivery.flush();
 * ```
 */
export class DecisionDelivery {
  private readonly queue = new DecisionQueue();
  /** Events of the batch being delivered, not yet given to the sink. */
  private inFlight = 0;
  private draining: Promise<void> | undefined;
  /**
   * The time queued decisions are stamped with: read by the first decision after a batch was taken or an event
   * delivered, shared by those queued after it until then: a clock read per decision would cost the decision
   * more than queueing it. A stamp is at most one event-loop turn (or one sink call) old.
   */
  private stamp: number | undefined;
  private deliveredCount = 0;
  private failedCount = 0;
  private warned = false;

  constructor(
    private readonly sink: DecisionSink,
    private readonly sinkTimeoutMs: number,
    private readonly logger: PermissionsLogger,
    private readonly makers: EventMakers,
  ) {}

  /** Events the sink accepted. */
  get delivered(): number {
    return this.deliveredCount;
  }

  /** Events whose sink call threw, rejected or timed out. */
  get failed(): number {
    return this.failedCount;
  }

  /** Events waiting for the sink, the one it is given included. */
  get pending(): number {
    return this.queue.size + this.inFlight;
  }

  /**
   * Queues a decision; `code` is its label's number * 2 + whether ownership was checked. `time` is when it was
   * decided, for a decision kept while the delivery loaded; otherwise the shared stamp.
   */
  push(decision: LoggedDecision, policy: DecidingPolicy, code: number, time: number = (this.stamp ??= Date.now())): void {
    this.queue.push(decision, policy, code, time);
    this.draining ??= this.nextTurn();
  }

  /** Resolves when every queued event was given to the sink (for shutdown and tests). */
  async flush(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  /** Delivers the queue on a later turn of the event loop, batch by batch, each batch on its own turn. */
  private async nextTurn(): Promise<void> {
    try {
      while (this.queue.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        await this.deliverBatch();
      }
    } finally {
      this.draining = undefined;
    }
  }

  /** Delivers what is queued now; what a sink's own decisions queue meanwhile waits for the next turn. */
  private async deliverBatch(): Promise<void> {
    this.stamp = undefined;
    for (let left = this.queue.size; left > 0; left--) {
      const next = this.queue.shift() as QueuedDecision;
      this.inFlight = 1;
      await this.deliver(() => decisionEvent(next, this.makers));
      this.inFlight = 0;
    }
  }

  /** Gives the event `made` makes to the sink (made here, so that a failure to make it counts as failed too). */
  private async deliver(made: () => DecisionEvent): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = this.sink(made());
      if (isThenable(result)) {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the decision sink did not settle within ${this.sinkTimeoutMs} ms`)), this.sinkTimeoutMs);
        });
        await Promise.race([Promise.resolve(result), timeout]);
      }
      this.deliveredCount++;
    } catch (error) {
      this.failedCount++;
      if (!this.warned) {
        this.warned = true;
        const reason = thrownText(error);
        // A logger that throws changes nothing either: delivery goes on with the next event.
        try {
          this.logger.warn(`typed-permissions: the decision sink failed (${reason}); decisions are unaffected, failures are counted in decisionLog.stats.`);
        } catch {
          // Nothing more can be said.
        }
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.stamp = undefined;
    }
  }
}
