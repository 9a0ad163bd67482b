/** What of a decision event a test can know in advance: all of it but the random call id and the time. */
import type { DecisionEvent } from '../../runtime/permissions/index.js';

/**
 * The event without `callId` and `time`.
 *
 * @example
 * ```ts
 * expect(events.map(stableEvent)).toEqual([{ user, resource: 'document', action: 'read', … }]);
 * ```
 */
export function stableEvent(event: DecisionEvent): Omit<DecisionEvent, 'callId' | 'time'> {
  const copy: { -readonly [K in keyof DecisionEvent]?: DecisionEvent[K] } = { ...event };
  delete copy.callId;
  delete copy.time;
  return copy as Omit<DecisionEvent, 'callId' | 'time'>;
}

/**
 * The event without `time`.
 *
 * @example
 * ```ts
 * expect(events.map(timelessEvent)).toEqual([{ callId, user, … }]);
 * ```
 */
export function timelessEvent(event: DecisionEvent): Omit<DecisionEvent, 'time'> {
  const copy: { -readonly [K in keyof DecisionEvent]?: DecisionEvent[K] } = { ...event };
  delete copy.time;
  return copy as Omit<DecisionEvent, 'time'>;
}
