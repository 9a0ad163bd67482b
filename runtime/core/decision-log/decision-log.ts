/**
 * The decision log: one event per decision, delivered to the application's sink after the decision, never
 * in its way. A decision only appends its Permit to a bounded queue (a few nanoseconds); the event — the
 * definitions that decided it included — is made when the queue is drained, on a later turn of the event
 * loop. A sink that throws, rejects, hangs or is slow cannot change or delay a decision: its failures are
 * counted, a full queue drops events and counts them.
 */
import { DecisionQueue, type QueuedDecision } from './decision-queue.js';
import { decisionLabelNumber, decisionLabelOf } from '../decision/decision-labels.js';
import { callIdOf } from '../decision/call-id.js';
import { explainGrant } from '../decision/explain.js';
import type { GrantTables } from '../tables/grant-tables.js';
import type { DecidingPolicy, DecisionLogStats, DecisionRecorder, LoggedDecision, PermissionsLogger } from '../decision/engine-settings.js';

/** One decision, as the decision log delivers it. */
export interface DecisionEvent {
  /** The id of this decision (`permit.callId`, a UUID); the NestJS and express integrations send it as `x-permissions-call-id`. */
  readonly callId: string;
  /** When it was decided (ISO 8601, to the millisecond of the event-loop turn). */
  readonly time: string;
  readonly user: { readonly id: unknown; readonly roles: readonly string[] };
  readonly resource: string;
  readonly action: string;
  /** The record asked about, in the resource's id type (absent when none was asked about). */
  readonly resourceId?: unknown;
  readonly granted: boolean;
  readonly anyGranted: boolean;
  /** How it was granted: on any record, on the user's own (the record was owned, or none was asked about), or not at all. */
  readonly possession: 'any' | 'own' | null;
  /** Whether deciding asked the ownership hooks whether the user owns `resourceId`. */
  readonly ownershipChecked: boolean;
  /**
   * The definitions that granted it in that possession (for a refusal: those that grant it on owned records, if
   * any), each by its source (the file, or the `addPermissions` label) and its index there.
   */
  readonly definitions: readonly { readonly source: string; readonly index: number }[];
  readonly policyVersion: string;
  /**
   * Who asked: `'direct'` for the application itself (`grantPermit`), else the label the integration chose
   * (`'nest'`, `'graphql'`, `'express'`, `'service'`, or another integration's own, such as `'fastify'`).
   */
  readonly via: string;
}

/** A definition that decided. */
type DecisionDefinition = DecisionEvent['definitions'][number];

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

/** The most role sets × resources × actions whose deciding definitions are kept per policy. */
const MAX_CACHED_DEFINITIONS = 4096;
/** The deciding definitions per policy (its tables), by roles, resource, action and possession. */
const definitionsCache = new WeakMap<GrantTables, Map<string, readonly DecisionDefinition[]>>();

/** The definitions of a decision, unique and sorted by source and index (frozen, shared by the events that ask again). */
function decidingDefinitions(decision: QueuedDecision): readonly DecisionDefinition[] {
  const { tables } = decision.policy;
  let cache = definitionsCache.get(tables);
  if (cache === undefined) definitionsCache.set(tables, (cache = new Map<string, readonly DecisionDefinition[]>()));
  const key = JSON.stringify([decision.user.roles, decision.resource, decision.action]);
  let found = cache.get(key);
  if (found === undefined) {
    const explanation = explainGrant(tables, decision.user.roles, decision.resource, decision.action);
    const possession = explanation.anyGranted ? 'any' : 'own';
    const unique = new Map<string, DecisionDefinition>();
    for (const role of explanation.byRole) {
      for (const definition of role.definitions) {
        if (definition.possession !== possession) continue;
        const source = definition.source ?? 'definitions';
        unique.set(JSON.stringify([source, definition.index]), Object.freeze({ source, index: definition.index }));
      }
    }
    found = Object.freeze([...unique.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.index - b.index)));
    if (cache.size >= MAX_CACHED_DEFINITIONS) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/**
 * The event of a queued decision.
 *
 * @example
 * ```ts
 * const event = decisionEvent(queue.shift());
 * ```
 */
export function decisionEvent(decision: QueuedDecision): DecisionEvent {
  const { user, resource, action, resourceId, granted, anyGranted, code, policy } = decision;
  return {
    callId: callIdOf(decision.callSequence),
    time: new Date(decision.time).toISOString(),
    user: { id: user.id, roles: [...user.roles] },
    resource,
    action,
    ...(resourceId === undefined ? {} : { resourceId }),
    granted,
    anyGranted,
    possession: anyGranted ? 'any' : granted ? 'own' : null,
    ownershipChecked: (code & 1) === 1,
    definitions: decision.ownGranted || anyGranted || resourceId !== undefined ? decidingDefinitions(decision) : [],
    policyVersion: policy.version,
    via: decisionLabelOf(code >> 1),
  };
}

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
