/**
 * The decision log: one event per decision, delivered to the application's sink after the decision, never
 * in its way. A decision only appends its Permit to a bounded queue (a few nanoseconds); the event — the
 * definitions that decided it included — is made when the queue is drained, on a later turn of the event
 * loop. A sink that throws, rejects, hangs or is slow cannot change or delay a decision: its failures are
 * counted, a full queue drops events and counts them.
 */
import { DecisionQueue, type QueuedDecision } from './decision-queue.js';
import { decisionLabelNumber } from '../decision/decision-labels.js';
import { decisionEvent, type DecisionEvent } from './decision-event.js';
import type { DecidingPolicy, DecisionLogStats, DecisionRecorder, LoggedDecision, PermissionsLogger } from '../decision/engine-settings.js';

/** Receives decision events. May return a promise: the next event waits for it (up to `sinkTimeoutMs`). */
export type DecisionSink = (event: DecisionEvent) => void | PromiseLike<void>;

/** How the decision log samples, filters and bounds its queue (the option `decisionLog` of an engine). */
export interface DecisionLogOptions {
  /** The share of decisions logged, 0–1 (a random sample). Default 1: all. */
  readonly sampleRate?: number | undefined;
  /** Whether granted decisions are logged. Default true; false logs refusals only. */
  readonly logGranted?: boolean | undefined;
  /** The most events waiting for the sink; more are dropped (and counted). Default 10,000, at most 1,000,000. */
  readonly maxPending?: number | undefined;
  /** How long one call of the sink may take before it counts as failed and the next event goes. Default 5,000 ms. */
  readonly sinkTimeoutMs?: number | undefined;
}

export const DEFAULT_MAX_PENDING_DECISIONS = 10_000;
export const MAX_PENDING_DECISIONS_LIMIT = 1_000_000;
export const DEFAULT_SINK_TIMEOUT_MS = 5000;

function isThenable(value: unknown): value is PromiseLike<void> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * A decision log: `record` queues a decision, the queue is delivered to the sink in order on later turns.
 *
 * @example
 * ```ts
 * const log = new DecisionLog((event) => events.push(event), {}, console);
 * log.record(permit, snapshot, 'direct', false);
 * await log.flush();
 * ```
 */
export class DecisionLog implements DecisionRecorder {
  private readonly queue = new DecisionQueue();
  /** Events of the batch being delivered, not yet given to the sink. */
  private inFlight = 0;
  private draining: Promise<void> | undefined;
  /**
   * The time queued decisions are stamped with: read by the first decision after a batch was taken or an event
   * delivered, shared by those queued after it until then — a clock read per decision would cost the decision
   * more than queueing it. A stamp is at most one event-loop turn (or one sink call) old.
   */
  private stamp: number | undefined;
  private delivered = 0;
  private failed = 0;
  private dropped = 0;
  private skipped = 0;
  private warned = false;
  private readonly sampleRate: number;
  private readonly logGranted: boolean;
  private readonly maxPending: number;
  private readonly sinkTimeoutMs: number;

  constructor(
    private readonly sink: DecisionSink,
    options: DecisionLogOptions,
    private readonly logger: PermissionsLogger,
  ) {
    this.sampleRate = options.sampleRate ?? 1;
    this.logGranted = options.logGranted ?? true;
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING_DECISIONS;
    this.sinkTimeoutMs = options.sinkTimeoutMs ?? DEFAULT_SINK_TIMEOUT_MS;
  }

  /** Queues the event of a decision (or skips or drops it); never waits, and throws only for a label `grantPermitVia` refuses first. */
  record(decision: LoggedDecision, policy: DecidingPolicy, via: string, ownershipChecked: boolean): void {
    if ((!this.logGranted && decision.granted) || (this.sampleRate < 1 && Math.random() >= this.sampleRate)) {
      this.skipped++;
      return;
    }
    if (this.queue.size + this.inFlight >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.queue.push(decision, policy, decisionLabelNumber(via) * 2 + (ownershipChecked ? 1 : 0), (this.stamp ??= Date.now()));
    this.draining ??= this.nextTurn();
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

  /** What the log did so far. */
  get stats(): DecisionLogStats {
    return { delivered: this.delivered, failed: this.failed, dropped: this.dropped, skipped: this.skipped, pending: this.queue.size + this.inFlight };
  }

  /** Resolves when every queued event was given to the sink (for shutdown and tests). */
  async flush(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  /** Delivers what is queued now; what a sink's own decisions queue meanwhile waits for the next turn. */
  private async deliverBatch(): Promise<void> {
    this.stamp = undefined;
    for (let left = this.queue.size; left > 0; left--) {
      const next = this.queue.shift() as QueuedDecision;
      this.inFlight = 1;
      await this.deliver(() => decisionEvent(next));
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
      this.delivered++;
    } catch (error) {
      this.failed++;
      if (!this.warned) {
        this.warned = true;
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.warn(`typed-permissions: the decision sink failed (${reason}); decisions are unaffected, failures are counted in decisionLog.stats.`);
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.stamp = undefined;
    }
  }
}
