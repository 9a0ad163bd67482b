/**
 * The decision service logs its final answers as decisions (`via: 'service'`), each answer carrying the call id
 * of its event; an answer that still needs the application's ownership is not a decision, and is not logged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DecisionEvent } from '../../runtime/permissions/index.js';
import type { DecisionService } from '../../runtime/service/index.js';
import { ask, fixtureBundle, fixtureService } from './service-fixture.js';

const events: DecisionEvent[] = [];

/** An event without what changes from run to run (its time) or is checked apart (its definitions). */
const withoutTimeAndDefinitions = (event: DecisionEvent): Partial<DecisionEvent> =>
  Object.fromEntries(Object.entries(event).filter(([key]) => key !== 'time' && key !== 'definitions'));
let service: DecisionService;

beforeAll(async () => {
  service = await fixtureService({ onDecision: (event) => void events.push(event) });
});
afterAll(async () => {
  await service.close();
});

describe('the decision service’s decision log', () => {
  it('one event per final answer, with the call id the answer carries', async () => {
    const checks = [
      { user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'publish', resourceId: '4' },
      { user: { id: 1, roles: ['AUTHOR'] }, resource: 'article', action: 'read', resourceId: 7, ownedBy: [0] },
      { user: { id: 1, roles: ['AUTHOR'] }, resource: 'article', action: 'read', resourceId: 8 },
      { user: { id: 3, roles: ['MEMBER'] }, resource: 'article', action: 'update' },
    ];
    const { status, body } = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks } });
    expect(status).toBe(200);
    expect(body.answers.map((answer) => [answer.granted, answer.needsOwnership, answer.reason, typeof answer.callId])).toEqual([
      [true, false, 'granted-any', 'string'],
      [true, false, 'granted-own', 'string'],
      [false, true, null, 'undefined'],
      [false, false, 'no-grant', 'string'],
    ]);
    await service.permissions.decisionLog?.flush();
    const version = fixtureBundle().version;
    expect(events.map(withoutTimeAndDefinitions)).toEqual([
      {
        callId: body.answers[0]?.callId,
        user: { id: 2, roles: ['EDITOR'] },
        resource: 'article',
        action: 'publish',
        resourceId: 4,
        granted: true,
        anyGranted: true,
        possession: 'any',
        reason: 'granted-any',
        ownershipChecked: false,
        policyVersion: version,
        via: 'service',
      },
      {
        callId: body.answers[1]?.callId,
        user: { id: 1, roles: ['AUTHOR'] },
        resource: 'article',
        action: 'read',
        resourceId: 7,
        granted: true,
        anyGranted: false,
        possession: 'own',
        reason: 'granted-own',
        ownershipChecked: true,
        policyVersion: version,
        via: 'service',
      },
      {
        callId: body.answers[3]?.callId,
        user: { id: 3, roles: ['MEMBER'] },
        resource: 'article',
        action: 'update',
        granted: false,
        anyGranted: false,
        possession: null,
        // MEMBER exists (it reads teams) and updates no article; the answer says the same.
        reason: 'no-grant',
        ownershipChecked: false,
        policyVersion: version,
        via: 'service',
      },
    ]);
  });

  it('says ownership was checked only when the owning groups decided the answer, not for a grant as any that carried ownedBy or a record', async () => {
    const before = events.length;
    const checks = [
      // EDITOR publishes any article: the groups the application says own it (none) decide nothing.
      { user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'publish', resourceId: 4, ownedBy: [] },
    ];
    const { status, body } = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks } });
    expect(status).toBe(200);
    expect(body.answers.map((answer) => [answer.granted, answer.anyGranted, answer.reason])).toEqual([[true, true, 'granted-any']]);
    await service.permissions.decisionLog?.flush();
    expect(events.slice(before).map(withoutTimeAndDefinitions)).toEqual([
      {
        callId: body.answers[0]?.callId,
        user: { id: 2, roles: ['EDITOR'] },
        resource: 'article',
        action: 'publish',
        resourceId: 4,
        granted: true,
        anyGranted: true,
        possession: 'any',
        reason: 'granted-any',
        ownershipChecked: false,
        policyVersion: fixtureBundle().version,
        via: 'service',
      },
    ]);
  });
});
