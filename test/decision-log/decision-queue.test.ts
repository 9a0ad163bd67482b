/**
 * The decision queue keeps decisions first in, first out across wrapping and growing, with every field as queued,
 * and lets go of what it held when a decision is taken out.
 */
import { describe, expect, it } from '@jest/globals';
import type { DecidingPolicy, LoggedDecision } from '../../runtime/core/decision/engine-settings.js';
import { DecisionQueue } from '../../runtime/core/decision-log/decision-queue.js';
import { buildGrantTables } from '../../runtime/internal/index.js';

const policy: DecidingPolicy = { tables: buildGrantTables([]).tables, version: 'v1' };

function decision(n: number): LoggedDecision {
  return {
    user: { id: n, roles: [`ROLE_${n % 3}`] },
    resource: `resource${n % 5}`,
    action: `action${n % 7}`,
    resourceId: n % 2 === 0 ? undefined : `id-${n}`,
    granted: n % 2 === 0,
    anyGranted: n % 4 === 0,
    ownGranted: n % 2 === 0,
    callSequence: 1_000 + n,
  };
}

describe('the decision queue', () => {
  it('keeps order and fields while it wraps and grows', () => {
    const queue = new DecisionQueue(4);
    const taken: unknown[] = [];
    let pushed = 0;
    // Two in, one out: the ring wraps before every growth, and grows from 4 to 1,024.
    while (pushed < 1_000) {
      for (let i = 0; i < 2; i++, pushed++) queue.push(decision(pushed), policy, pushed % 10, pushed * 10);
      taken.push(queue.shift());
    }
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) taken.push(next);
    expect(queue.size).toBe(0);
    expect(taken).toEqual(Array.from({ length: 1_000 }, (_, n) => ({ ...decision(n), policy, code: n % 10, time: n * 10 })));
  });

  it('is empty after its last decision, and holds no reference to what it gave out', () => {
    const queue = new DecisionQueue(2);
    queue.push(decision(1), policy, 3, 5);
    expect(queue.shift()).toEqual({ ...decision(1), policy, code: 3, time: 5 });
    expect(queue.shift()).toBeUndefined();
    const held = Object.values(queue).filter((column) => Array.isArray(column)) as unknown[][];
    expect(held.flat().filter((value) => value !== undefined)).toEqual([]);
  });
});
