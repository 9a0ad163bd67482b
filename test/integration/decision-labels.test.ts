/**
 * The decision label an integration chooses (`DecisionEvent.via`): an open label, interned into one table per
 * process so that the decision log's queue keeps a small number per decision; malformed labels and a new label
 * past the limit are refused before deciding, and the labels in use go on. A file of its own: the table belongs
 * to the module instance, which jest makes once per test file, so the count below starts at the library's five.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, PermissionsUsageError, type DecisionEvent, type PermissionDefinition } from 'typed-permissions';
import { decideRequest, MAX_DECISION_LABELS } from 'typed-permissions/integration';

type AppUser = { id: number; roles: string[] };
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
];
const ownership = {
  isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => user.id === 1 && resourceId === 10,
  listCreated: ({ user }: { user: AppUser }) => (user.id === 1 ? [10] : []),
};
const query = { user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: '10' };

function logged(): { permissions: Permissions<AppUser>; events: DecisionEvent[] } {
  const events: DecisionEvent[] = [];
  const permissions = new Permissions<AppUser>({ ownership, resourceIdTypes: { document: 'number' }, onDecision: (event) => void events.push(event) })
    .addPermissions(DEFINITIONS)
    .build();
  return { permissions, events };
}

describe('the decision label an integration chooses', () => {
  it(`is the event's via; ${MAX_DECISION_LABELS} labels per process are taken (ownership flag kept beside the highest), the next is refused`, async () => {
    const { permissions, events } = logged();
    // The library's own labels are 'direct', 'nest', 'graphql', 'express' and 'service': 5 of the limit.
    // The last one is as long as a label may be: 32 characters.
    const mine = Array.from({ length: MAX_DECISION_LABELS - 5 }, (_, i) =>
      i === 0 ? 'fastify' : i === MAX_DECISION_LABELS - 6 ? `x${'y'.repeat(31)}` : `label-${i + 6}`,
    );
    for (const label of mine) expect((await decideRequest(permissions, query, label)).granted).toBe(true);
    await expect(decideRequest(permissions, query, 'one-too-many')).rejects.toThrow(
      new PermissionsUsageError(
        `The decision label "one-too-many" would be label number ${MAX_DECISION_LABELS + 1} of this process, more than the limit of ` +
          `${MAX_DECISION_LABELS}: a label names an integration, not a request; use one fixed label per integration.`,
      ),
    );
    // Labels already in use go on.
    expect((await decideRequest(permissions, query, 'fastify')).granted).toBe(true);
    expect((await permissions.grantPermitVia(query, 'express')).granted).toBe(true);
    await permissions.decisionLog?.flush();
    expect(events.map((event) => event.via)).toEqual([...mine, 'fastify', 'express']);
    expect(
      events.map((event) => [event.ownershipChecked, event.granted, event.resourceId]).filter(([checked, granted, id]) => !(checked && granted && id === 10)),
    ).toEqual([]);
  });

  it('a malformed label is refused before deciding: nothing is logged', async () => {
    const { permissions, events } = logged();
    await expect(decideRequest(permissions, query, 'not a label')).rejects.toThrow(
      new PermissionsUsageError(
        'The decision label "not a label" is not one: a label (who asked for the decision, such as "fastify") is a letter followed by letters, ' +
          'digits, ".", "_" or "-", at most 32 characters.',
      ),
    );
    await expect(permissions.grantPermitVia(query, `x${'y'.repeat(32)}`)).rejects.toThrow(/^The decision label "xy+" is not one: a label/);
    await expect(permissions.grantPermitVia(query, '7up')).rejects.toThrow(/^The decision label "7up" is not one: a label/);
    await permissions.decisionLog?.flush();
    expect(events).toEqual([]);
  });
});
