/**
 * The decision log's queue: a ring of decisions waiting for the sink, kept as columns in arrays that grow by
 * doubling and are reused. Queueing a decision copies a few of its fields — the user's id and a copy of their
 * roles, the query, a byte of flags, a sequence number and a time stamp — and keeps no object of its own: the
 * Permit itself is not held, so it can die young. The roles are copied (one array per decision) because the event
 * says who was decided for when it was decided: an application that changes its user object afterwards (a role
 * added, an id reused) must not rewrite the audit trail.
 */
import type { DecidingPolicy, LoggedDecision } from '../decision/engine-settings.js';

/** One queued decision, as it is taken out. */
export interface QueuedDecision extends LoggedDecision {
  readonly policy: DecidingPolicy;
  /** The number of who asked (`decisionLabelNumber`) × 2 + whether ownership was checked. */
  readonly code: number;
  readonly time: number;
}

/** The flags of a decision, in the low bits of a 16-bit code with who asked (its label's number) and the ownership flag above them. */
const GRANTED = 1;
const ANY_GRANTED = 2;
const OWN_GRANTED = 4;
const FLAG_BITS = 3;

/**
 * A first-in, first-out ring of decisions.
 *
 * @example
 * ```ts
 * const queue = new DecisionQueue();
 * queue.push(permit, snapshot, 2, Date.now());
 * queue.shift()?.resource; // 'document'
 * ```
 */
export class DecisionQueue {
  private userIds: unknown[];
  private userRoles: (readonly string[] | undefined)[];
  private queries: (string | undefined)[];
  private ids: unknown[];
  private policies: (DecidingPolicy | undefined)[];
  private codes: Uint16Array;
  private sequences: Float64Array;
  private times: Float64Array;
  private head = 0;
  /** Decisions in the queue. */
  size = 0;

  constructor(private capacity = 256) {
    this.userIds = new Array<unknown>(capacity).fill(undefined);
    this.userRoles = new Array<readonly string[] | undefined>(capacity).fill(undefined);
    this.queries = new Array<string | undefined>(capacity * 2).fill(undefined);
    this.ids = new Array<unknown>(capacity).fill(undefined);
    this.policies = new Array<DecidingPolicy | undefined>(capacity).fill(undefined);
    this.codes = new Uint16Array(capacity);
    this.sequences = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
  }

  push(decision: LoggedDecision, policy: DecidingPolicy, code: number, time: number): void {
    if (this.size === this.capacity) this.grow();
    // The capacity is a power of two: the slot wraps with a mask.
    const at = (this.head + this.size) & (this.capacity - 1);
    this.userIds[at] = decision.user.id;
    this.userRoles[at] = decision.user.roles.slice();
    this.queries[2 * at] = decision.resource;
    this.queries[2 * at + 1] = decision.action;
    this.ids[at] = decision.resourceId;
    this.policies[at] = policy;
    const flags = (decision.granted ? GRANTED : 0) | (decision.anyGranted ? ANY_GRANTED : 0) | (decision.ownGranted ? OWN_GRANTED : 0);
    this.codes[at] = (code << FLAG_BITS) | flags;
    this.sequences[at] = decision.callSequence;
    this.times[at] = time;
    this.size++;
  }

  /** Takes the oldest decision out (and lets go of what it held), or undefined when the queue is empty. */
  shift(): QueuedDecision | undefined {
    if (this.size === 0) return undefined;
    const at = this.head;
    const code = this.codes[at] as number;
    const taken: QueuedDecision = {
      user: { id: this.userIds[at], roles: this.userRoles[at] as readonly string[] },
      resource: this.queries[2 * at] as string,
      action: this.queries[2 * at + 1] as string,
      resourceId: this.ids[at],
      granted: (code & GRANTED) !== 0,
      anyGranted: (code & ANY_GRANTED) !== 0,
      ownGranted: (code & OWN_GRANTED) !== 0,
      callSequence: this.sequences[at] as number,
      policy: this.policies[at] as DecidingPolicy,
      code: code >> FLAG_BITS,
      time: this.times[at] as number,
    };
    this.userIds[at] = this.userRoles[at] = this.ids[at] = this.policies[at] = this.queries[2 * at] = this.queries[2 * at + 1] = undefined;
    this.head = (at + 1) & (this.capacity - 1);
    this.size--;
    return taken;
  }

  /** Doubles the capacity, the queued decisions copied in order from slot 0. */
  private grow(): void {
    const taken: QueuedDecision[] = [];
    for (let next = this.shift(); next !== undefined; next = this.shift()) taken.push(next);
    const doubled = new DecisionQueue(this.capacity * 2);
    for (const decision of taken) doubled.push(decision, decision.policy, decision.code, decision.time);
    Object.assign(this, doubled);
  }
}
