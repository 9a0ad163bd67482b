/**
 * The decision log of the engine: one event per decision, with the definitions that decided it, delivered after
 * the decision on a later turn; a sink that throws, hangs or is slow changes and delays nothing; the queue is
 * bounded and what it drops, skips or fails is counted; sampling and refusals-only; options checked at start.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import type { DecisionEvent } from '../../runtime/core/decision-log/decision-event.js';
import { DecisionLog, type DeliveryLoader } from '../../runtime/core/decision-log/decision-log.js';
import { stableEvent } from './stable-event.js';

type AppUser = User<number>;
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*', '!confidential'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['EMPLOYEE'], resource: 'document', grant: { 'list:any': ['title'] } },
  { roles: ['ADMIN'], resource: '*', grant: ['*:any'] },
];
const ownership = {
  isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => user.id === 1 && resourceId === 10,
  listCreated: ({ user }: { user: AppUser }) => (user.id === 1 ? [10] : []),
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const quiet = { warn: () => undefined };

function engine(options: ConstructorParameters<typeof Permissions<AppUser>>[0] = {}): Permissions<AppUser> {
  return new Permissions<AppUser>({ ownership, resourceIdTypes: { document: 'number' }, logger: quiet, ...options })
    .addPermissions(DEFINITIONS, { source: 'documents.permissions.json' })
    .build();
}

function collecting(): { events: DecisionEvent[]; sink: (event: DecisionEvent) => void } {
  const events: DecisionEvent[] = [];
  return { events, sink: (event) => void events.push(event) };
}

describe('the decision log', () => {
  it('delivers one event per decision, after it, with the definitions that decided it', async () => {
    const { events, sink } = collecting();
    const permissions = engine({ onDecision: sink });
    const employee = { id: 1, roles: ['EMPLOYEE'] };
    const before = Date.now();
    const owned = await permissions.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 10 });
    const notOwned = await permissions.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 11 });
    const list = permissions.grantPermitSync({ user: employee, resource: 'document', action: 'list' });
    const admin = permissions.grantPermitSync({ user: { id: 9, roles: ['ADMIN'] }, resource: 'document', action: 'read', resourceId: '4' });
    const refused = permissions.grantPermitSync({ user: employee, resource: 'document', action: 'approve' });
    // Nothing is delivered during the decisions: the sink runs on a later turn.
    expect(events).toEqual([]);
    await permissions.decisionLog?.flush();

    const common = { policyVersion: permissions.policyVersion, via: 'direct' };
    expect(events.map(stableEvent)).toEqual([
      {
        ...common,
        user: employee,
        resource: 'document',
        action: 'read',
        resourceId: 10,
        granted: true,
        anyGranted: false,
        possession: 'own',
        reason: 'granted-own',
        ownershipChecked: true,
        definitions: [{ source: 'documents.permissions.json', index: 0 }],
      },
      {
        ...common,
        user: employee,
        resource: 'document',
        action: 'read',
        resourceId: 11,
        granted: false,
        anyGranted: false,
        possession: null,
        reason: 'not-owner',
        ownershipChecked: true,
        definitions: [{ source: 'documents.permissions.json', index: 0 }],
      },
      {
        ...common,
        user: employee,
        resource: 'document',
        action: 'list',
        granted: true,
        anyGranted: true,
        possession: 'any',
        reason: 'granted-any',
        ownershipChecked: false,
        definitions: [{ source: 'documents.permissions.json', index: 1 }],
      },
      {
        ...common,
        user: { id: 9, roles: ['ADMIN'] },
        resource: 'document',
        action: 'read',
        resourceId: 4,
        granted: true,
        anyGranted: true,
        possession: 'any',
        reason: 'granted-any',
        ownershipChecked: false,
        definitions: [{ source: 'documents.permissions.json', index: 2 }],
      },
      {
        ...common,
        user: employee,
        resource: 'document',
        action: 'approve',
        granted: false,
        anyGranted: false,
        possession: null,
        // No definition grants approve on anything.
        reason: 'unknown-action',
        ownershipChecked: false,
        definitions: [],
      },
    ]);
    expect(events.map((event) => event.callId)).toEqual([owned, notOwned, list, admin, refused].map((permit) => permit.callId));
    // The event's reason is the permit's; the permit names the definition that decided (none for a plain refusal).
    expect(events.map((event) => event.reason)).toEqual([owned, notOwned, list, admin, refused].map((permit) => permit.reason));
    expect([owned, notOwned, list, admin, refused].map((permit) => permit.reasonSource)).toEqual([
      { source: 'documents.permissions.json', index: 0 },
      { source: 'documents.permissions.json', index: 0 },
      { source: 'documents.permissions.json', index: 1 },
      { source: 'documents.permissions.json', index: 2 },
      undefined,
    ]);
    for (const event of events) {
      expect(event.callId).toMatch(UUID);
      expect(Date.parse(event.time)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(event.time)).toBeLessThanOrEqual(Date.now());
    }
    expect(new Set(events.map((event) => event.callId)).size).toBe(5);
    expect(permissions.decisionLog?.stats).toEqual({ delivered: 5, failed: 0, dropped: 0, skipped: 0, pending: 0 });
  });

  it('an event is a copy: changing the user after the decision, or the event, changes nothing else', async () => {
    const { events, sink } = collecting();
    const permissions = engine({ onDecision: sink });
    const roles = ['EMPLOYEE'];
    permissions.grantPermitSync({ user: { id: 1, roles }, resource: 'document', action: 'list' });
    await permissions.decisionLog?.flush();
    (events[0]?.user.roles as string[]).push('ADMIN');
    expect(roles).toEqual(['EMPLOYEE']);
  });

  it('an event says who was decided for then: a user object changed after its decisions (roles, id) changes no event', async () => {
    const { events, sink } = collecting();
    const permissions = engine({ onDecision: sink });
    const user = { id: 1, roles: ['EMPLOYEE'] };
    // The first decisions of a process wait while the delivery loads; later ones go to its queue: both are copies.
    permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
    await permissions.decisionLog?.flush();
    permissions.grantPermitSync({ user, resource: 'document', action: 'list' });
    user.roles.push('ADMIN');
    user.roles[0] = 'INTRUDER';
    user.id = 999;
    await permissions.decisionLog?.flush();
    expect(events.map((event) => event.user)).toEqual([
      { id: 1, roles: ['EMPLOYEE'] },
      { id: 1, roles: ['EMPLOYEE'] },
    ]);
  });

  it('an event says who was decided for: a user object changed while an ownership hook runs changes no event', async () => {
    const { events, sink } = collecting();
    let answerHook = (): void => undefined;
    let hookAsked = (): void => undefined;
    const permissions = engine({
      onDecision: sink,
      ownership: {
        ...ownership,
        // Answers "not owned" once the test says so, after the application changed its user object.
        isCreator: () =>
          new Promise<boolean>((resolve) => {
            answerHook = () => resolve(false);
            hookAsked();
          }),
      },
    });
    const decideWhileUserChanges = async (user: { id: number; roles: string[] }): Promise<void> => {
      const asked = new Promise<void>((resolve) => (hookAsked = resolve));
      const pending = permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 11 });
      await asked;
      // A session refresh, say, while the hook runs: the same object now holds another user.
      user.id = 999;
      user.roles.splice(0, 1, 'ADMIN');
      answerHook();
      expect((await pending).reason).toBe('not-owner');
    };
    // The first decision of a process waits while the delivery loads; a later one goes to its queue: both are copies.
    await decideWhileUserChanges({ id: 1, roles: ['EMPLOYEE'] });
    await permissions.decisionLog?.flush();
    await decideWhileUserChanges({ id: 1, roles: ['EMPLOYEE'] });
    await permissions.decisionLog?.flush();
    const refused = {
      user: { id: 1, roles: ['EMPLOYEE'] },
      resource: 'document',
      action: 'read',
      resourceId: 11,
      granted: false,
      anyGranted: false,
      possession: null,
      reason: 'not-owner',
      ownershipChecked: true,
      definitions: [{ source: 'documents.permissions.json', index: 0 }],
      policyVersion: permissions.policyVersion,
      via: 'direct',
    };
    expect(events.map(stableEvent)).toEqual([refused, refused]);
  });

  it('a sink that throws a value without a text, or a logger that throws too: counted as failed, never a crash, delivery goes on', async () => {
    let calls = 0;
    const permissions = engine({
      logger: {
        warn: () => {
          throw new Error('the logger transport is closed');
        },
      },
      onDecision: () => {
        calls++;
        throw Object.create(null) as Error;
      },
    });
    for (let i = 0; i < 3; i++) permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' });
    await permissions.decisionLog?.flush();
    expect([calls, permissions.decisionLog?.stats]).toEqual([3, { delivered: 0, failed: 3, dropped: 0, skipped: 0, pending: 0 }]);
  });

  it('a sink that throws changes no decision: failures are counted and said once', async () => {
    const warnings: string[] = [];
    let calls = 0;
    const permissions = engine({
      logger: { warn: (message: string) => void warnings.push(message) },
      onDecision: () => {
        calls++;
        throw new Error('the log database is down');
      },
    });
    const permits = [1, 2, 3].map(() => permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' }));
    expect(permits.map((permit) => permit.granted)).toEqual([true, true, true]);
    await permissions.decisionLog?.flush();
    expect([calls, permissions.decisionLog?.stats]).toEqual([3, { delivered: 0, failed: 3, dropped: 0, skipped: 0, pending: 0 }]);
    expect(warnings).toEqual([
      'typed-permissions: the decision sink failed (the log database is down); decisions are unaffected, failures are counted in decisionLog.stats.',
    ]);
  });

  it('a sink that rejects or never settles is given up after sinkTimeoutMs, and the next event goes', async () => {
    const seen: string[] = [];
    const permissions = engine({
      onDecision: (event) => {
        seen.push(event.action);
        if (event.action === 'list') return new Promise<void>(() => undefined);
        if (event.action === 'approve') return Promise.reject(new Error('rejected'));
        return Promise.resolve();
      },
      decisionLog: { sinkTimeoutMs: 50 },
    });
    const user = { id: 1, roles: ['EMPLOYEE'] };
    for (const action of ['list', 'approve', 'read']) permissions.grantPermitSync({ user, resource: 'document', action });
    await permissions.decisionLog?.flush();
    expect([seen, permissions.decisionLog?.stats]).toEqual([['list', 'approve', 'read'], { delivered: 1, failed: 2, dropped: 0, skipped: 0, pending: 0 }]);
  }, 10_000);

  it('a slow sink delays no decision; the queue holds maxPending events and drops (and counts) the rest', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const delivered: string[] = [];
    const permissions = engine({
      onDecision: async (event) => {
        await gate;
        delivered.push(String(event.resourceId));
      },
      decisionLog: { maxPending: 3 },
    });
    const user = { id: 9, roles: ['ADMIN'] };
    for (let id = 1; id <= 5; id++) permissions.grantPermitSync({ user, resource: 'document', action: 'read', resourceId: id });
    // At the limit: three waiting; past it: dropped.
    expect(permissions.decisionLog?.stats).toEqual({ delivered: 0, failed: 0, dropped: 2, skipped: 0, pending: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The sink holds the first event; the decisions go on, answered at once.
    expect((await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 6 })).granted).toBe(true);
    expect(permissions.decisionLog?.stats).toEqual({ delivered: 0, failed: 0, dropped: 3, skipped: 0, pending: 3 });
    release();
    await permissions.decisionLog?.flush();
    expect([delivered, permissions.decisionLog?.stats]).toEqual([['1', '2', '3'], { delivered: 3, failed: 0, dropped: 3, skipped: 0, pending: 0 }]);
  }, 10_000);

  it('samples, and can log refusals only', async () => {
    const none = collecting();
    const sampledOut = engine({ onDecision: none.sink, decisionLog: { sampleRate: 0 } });
    const refusals = collecting();
    const refusalsOnly = engine({ onDecision: refusals.sink, decisionLog: { logGranted: false } });
    const user = { id: 1, roles: ['EMPLOYEE'] };
    for (const permissions of [sampledOut, refusalsOnly]) {
      for (const action of ['list', 'approve', 'list']) permissions.grantPermitSync({ user, resource: 'document', action });
      await permissions.decisionLog?.flush();
    }
    expect([none.events, sampledOut.decisionLog?.stats]).toEqual([[], { delivered: 0, failed: 0, dropped: 0, skipped: 3, pending: 0 }]);
    expect(refusals.events.map((event) => [event.action, event.granted])).toEqual([['approve', false]]);
    expect(refusalsOnly.decisionLog?.stats).toEqual({ delivered: 1, failed: 0, dropped: 0, skipped: 2, pending: 0 });
  });

  it('a sink that makes decisions itself does not starve the event loop: its own events wait for the next turn', async () => {
    let calls = 0;
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const permissions: Permissions<AppUser> = engine({
      onDecision: () => {
        calls++;
        if (calls < 50) permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' });
      },
    });
    permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' });
    await permissions.decisionLog?.flush();
    expect([calls, timerRan]).toEqual([50, true]);
  });

  it('no onDecision, no log: decisionLog is undefined, and a permit still has its call id', () => {
    const permissions = engine();
    expect(permissions.decisionLog).toBeUndefined();
    const permit = permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' });
    expect(permit.callId).toMatch(UUID);
    expect(permit.callId).toBe(permit.callId);
  });

  it.each([
    [{ onDecision: 'log' }, 'Permissions option onDecision must be a function (event) => void.'],
    [{ decisionLog: {} }, 'Permissions option decisionLog configures onDecision, which is not given: add onDecision: (event) => …, or remove decisionLog.'],
    [
      { onDecision: () => undefined, decisionLog: [] },
      'Permissions option decisionLog must be an object { sampleRate, logGranted, maxPending, sinkTimeoutMs }.',
    ],
    [{ onDecision: () => undefined, decisionLog: { sampleRate: 1.5 } }, 'Permissions option decisionLog.sampleRate must be a number from 0 to 1, got 1.5.'],
    [
      { onDecision: () => undefined, decisionLog: { sampleRate: Number.NaN } },
      'Permissions option decisionLog.sampleRate must be a number from 0 to 1, got NaN.',
    ],
    [{ onDecision: () => undefined, decisionLog: { logGranted: 'no' } }, 'Permissions option decisionLog.logGranted must be true or false.'],
    [
      { onDecision: () => undefined, decisionLog: { maxPending: 0 } },
      'Permissions option decisionLog.maxPending must be a whole number from 1 to 1000000, got 0.',
    ],
    [
      { onDecision: () => undefined, decisionLog: { maxPending: 1_000_001 } },
      'Permissions option decisionLog.maxPending must be a whole number from 1 to 1000000, got 1000001.',
    ],
    [
      { onDecision: () => undefined, decisionLog: { sinkTimeoutMs: 2_147_483_648 } },
      'Permissions option decisionLog.sinkTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 2147483648.',
    ],
    [
      { onDecision: () => undefined, decisionLog: { samplerate: 0.5 } },
      'Permissions option decisionLog."samplerate" does not exist; its options are sampleRate, logGranted, maxPending, sinkTimeoutMs.',
    ],
    [{ telemetry: true }, 'Permissions option telemetry must be false or { userId?: boolean }.'],
    [{ telemetry: { userID: true } }, 'Permissions option telemetry."userID" does not exist; its only option is userId.'],
    [{ telemetry: { userId: 'yes' } }, 'Permissions option telemetry.userId must be true or false.'],
  ])('refuses the option %j when the engine is made', (options, message) => {
    expect(() => new Permissions(options as never)).toThrow(message);
  });

  it('accepts the limits themselves', () => {
    expect(
      () => new Permissions({ onDecision: () => undefined, decisionLog: { sampleRate: 0, maxPending: 1_000_000, sinkTimeoutMs: 2_147_483_647 } }),
    ).not.toThrow();
    expect(() => new Permissions({ onDecision: () => undefined, decisionLog: { sampleRate: 1, maxPending: 1, sinkTimeoutMs: 1 } })).not.toThrow();
  });
});

describe('the decision log loads its delivery with the first decision it admits (a page without onDecision carries none of it)', () => {
  const permissions = engine();
  const policy = { tables: permissions.tables, version: permissions.policyVersion };
  const employee = { id: 1, roles: ['EMPLOYEE'] };
  const decide = (action: string) => permissions.grantPermitSync({ user: employee, resource: 'document', action });

  /** A loader that loads the real delivery once released, counting its calls. */
  function heldLoader(): { loader: DeliveryLoader; release: () => void; loads: () => number } {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const loader: DeliveryLoader = () => {
      loads++;
      return released.then(() => import('../../runtime/core/decision-log/decision-delivery.js'));
    };
    return { loader, release, loads: () => loads };
  }

  it('decisions admitted while it loads wait in order, count as pending (up to maxPending), and are delivered with the time they were decided', async () => {
    const { events, sink } = collecting();
    const held = heldLoader();
    const log = new DecisionLog(sink, { maxPending: 2 }, quiet, held.loader);
    expect(held.loads()).toBe(0);
    const before = Date.now();
    for (const action of ['list', 'approve', 'read']) log.record(decide(action), policy, 'direct', false);
    const after = Date.now();
    expect([held.loads(), log.stats]).toEqual([1, { delivered: 0, failed: 0, dropped: 1, skipped: 0, pending: 2 }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);

    held.release();
    await log.flush();
    expect(events.map((event) => [event.action, event.granted])).toEqual([
      ['list', true],
      ['approve', false],
    ]);
    for (const event of events) {
      expect(Date.parse(event.time)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(event.time)).toBeLessThanOrEqual(after);
    }
    // Loaded: a decision goes to the delivery at once, and nothing is loaded again.
    log.record(decide('list'), policy, 'express', false);
    await log.flush();
    expect([events.map((event) => event.via), held.loads(), log.stats]).toEqual([
      ['direct', 'direct', 'express'],
      1,
      { delivered: 3, failed: 0, dropped: 1, skipped: 0, pending: 0 },
    ]);
  });

  it('a log that admits nothing (sampled out, refusals only and every decision granted) loads nothing', async () => {
    const held = heldLoader();
    const sampledOut = new DecisionLog(() => undefined, { sampleRate: 0 }, quiet, held.loader);
    const refusalsOnly = new DecisionLog(() => undefined, { logGranted: false }, quiet, held.loader);
    for (const log of [sampledOut, refusalsOnly]) {
      log.record(decide('list'), policy, 'direct', false);
      await log.flush();
    }
    expect([held.loads(), sampledOut.stats.skipped, refusalsOnly.stats.skipped]).toEqual([0, 1, 1]);
  });

  it('a delivery that cannot be loaded (a chunk the page cannot fetch): decisions are unaffected, their events count as failed, said once', async () => {
    const warnings: string[] = [];
    let loads = 0;
    const log = new DecisionLog(
      () => undefined,
      {},
      { warn: (message) => void warnings.push(message) },
      () => {
        loads++;
        return Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/decision-delivery-4Q2B.js'));
      },
    );
    const permits = ['list', 'approve'].map(decide);
    for (const permit of permits) log.record(permit, policy, 'direct', false);
    await log.flush();
    log.record(decide('list'), policy, 'direct', false);
    await log.flush();
    expect([permits.map((permit) => permit.granted), loads, log.stats]).toEqual([
      [true, false],
      1,
      { delivered: 0, failed: 3, dropped: 0, skipped: 0, pending: 0 },
    ]);
    expect(warnings).toEqual([
      'typed-permissions: the decision log could not be loaded (Failed to fetch dynamically imported module: /assets/decision-delivery-4Q2B.js); ' +
        'decisions are unaffected, the events are counted as failed in decisionLog.stats.',
    ]);
  });

  it('still refuses a label grantPermitVia refuses, before it is admitted', () => {
    const held = heldLoader();
    const log = new DecisionLog(() => undefined, {}, quiet, held.loader);
    expect(() => log.record(decide('list'), policy, 'user 42', false)).toThrow('The decision label "user 42" is not one');
    expect([held.loads(), log.stats.pending]).toEqual([0, 0]);
  });
});
