/**
 * The decision log: one event per decision, delivered to the application's sink after the decision, never
 * in its way. A decision is only admitted here — sampled, counted against the queue's bound, labelled — and
 * handed to the delivery (`decision-delivery.ts`), which queues it; its event — the definitions that decided it
 * included — is made when the queue is drained, on a later turn of the event loop. A sink that throws, rejects,
 * hangs or is slow cannot change or delay a decision: its failures are counted, a full queue drops events and
 * counts them. The delivery is loaded with the first decision admitted, so that a page whose engine logs no
 * decisions does not load it; the decisions admitted while it loads wait here, in order, with their own time.
 */
import { callIdOf } from '../decision/call-id.js';
import { decisionLabelNumber, decisionLabelOf } from '../decision/decision-labels.js';
import { explainGrantIn } from '../decision/explain.js';
import { reasonOf, refusalOfExplanation } from '../decision/permit-reason.js';
import type { DecisionDelivery, DecisionSink } from './decision-delivery.js';
import type { DecidingPolicy, DecisionLogStats, DecisionRecorder, LoggedDecision, PermissionsLogger } from '../decision/engine-settings.js';

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

/** A decision admitted while the delivery loads, with the time it was decided. */
interface WaitingDecision {
  readonly decision: LoggedDecision;
  readonly policy: DecidingPolicy;
  readonly code: number;
  readonly time: number;
}

/** Loads the delivery (a parameter of the log so that a test can make it fail, as a page's lost chunk would). */
export type DeliveryLoader = () => Promise<{ readonly DecisionDelivery: typeof DecisionDelivery }>;

const importDelivery: DeliveryLoader = () => import('./decision-delivery.js');

/**
 * A decision log: `record` admits a decision, the delivery gives its event to the sink in order on later turns.
 *
 * @example
 * ```ts
 * const log = new DecisionLog((event) => events.push(event), {}, console);
 * log.record(permit, snapshot, 'direct', false);
 * await log.flush();
 * ```
 */
export class DecisionLog implements DecisionRecorder {
  private delivery: DecisionDelivery | undefined;
  /** The decisions admitted before the delivery loaded, in order. */
  private waiting: WaitingDecision[] = [];
  /** Loading the delivery, from the first decision admitted until it is loaded (or could not be). */
  private loading: Promise<void> | undefined;
  /** The delivery could not be loaded: nothing is delivered, and every decision admitted counts as failed. */
  private unavailable = false;
  private dropped = 0;
  private skipped = 0;
  /** Decisions that could not be delivered because the delivery could not be loaded. */
  private undeliverable = 0;
  private readonly sampleRate: number;
  private readonly logGranted: boolean;
  private readonly maxPending: number;
  private readonly sinkTimeoutMs: number;

  constructor(
    private readonly sink: DecisionSink,
    options: DecisionLogOptions,
    private readonly logger: PermissionsLogger,
    private readonly load: DeliveryLoader = importDelivery,
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
    if (this.pending >= this.maxPending) {
      this.dropped++;
      return;
    }
    const code = decisionLabelNumber(via) * 2 + (ownershipChecked ? 1 : 0);
    if (this.delivery !== undefined) this.delivery.push(decision, policy, code);
    else if (this.unavailable) this.undeliverable++;
    else {
      // Copied as the queue copies it: the event says who was decided for then, whatever the application changes later.
      const { user, resource, action, resourceId, granted, anyGranted, ownGranted, callSequence } = decision;
      const copied: LoggedDecision = {
        user: { id: user.id, roles: user.roles.slice() },
        resource,
        action,
        resourceId,
        granted,
        anyGranted,
        ownGranted,
        callSequence,
      };
      this.waiting.push({ decision: copied, policy, code, time: Date.now() });
      this.loading ??= this.loadDelivery();
    }
  }

  /** The events waiting for the sink. */
  private get pending(): number {
    return this.waiting.length + (this.delivery?.pending ?? 0);
  }

  /** What the log did so far. */
  get stats(): DecisionLogStats {
    return {
      delivered: this.delivery?.delivered ?? 0,
      failed: this.undeliverable + (this.delivery?.failed ?? 0),
      dropped: this.dropped,
      skipped: this.skipped,
      pending: this.pending,
    };
  }

  /** Resolves when every queued event was given to the sink (for shutdown and tests). */
  async flush(): Promise<void> {
    while (this.loading !== undefined) await this.loading;
    await this.delivery?.flush();
  }

  /** Loads the delivery and hands it the decisions that waited; when it cannot be loaded, they count as failed. */
  private async loadDelivery(): Promise<void> {
    try {
      const { DecisionDelivery } = await this.load();
      const delivery = new DecisionDelivery(this.sink, this.sinkTimeoutMs, this.logger, {
        callIdOf,
        decisionLabelOf,
        explainGrantIn,
        reasonOf,
        refusalOfExplanation,
      });
      for (const { decision, policy, code, time } of this.waiting) delivery.push(decision, policy, code, time);
      this.delivery = delivery;
    } catch (error) {
      this.unavailable = true;
      this.undeliverable += this.waiting.length;
      // The loader is the application's in tests and pages: what it throws may have no text, and the logger may throw.
      try {
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.warn(
          `typed-permissions: the decision log could not be loaded (${reason}); decisions are unaffected, the events are counted as failed in ` +
            'decisionLog.stats.',
        );
      } catch {
        // Nothing more can be said: the events are counted as failed.
      }
    } finally {
      this.waiting = [];
      this.loading = undefined;
    }
  }
}
