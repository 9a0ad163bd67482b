import { describe, expect, it } from '@jest/globals';
import { explainGrant } from '../../runtime/core/decision/explain.js';
import { formatExplanation, Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { collectingLogger } from './helpers.js';

const definitions: PermissionDefinition[] = [
  {
    roles: 'EMPLOYEE',
    resource: 'document',
    possession: 'own',
    descr: 'employees read their own',
    grant: { read: ['*', '!secret'], update: ['*'], 'list:any': ['title'] },
    isOwner: 'isCreator',
    listOwned: 'listCreated',
  },
  { roles: ['AUDITOR', 'EMPLOYEE'], resource: '*', grant: { 'read:any': ['title'] } },
];
const ownership = {
  isCreator: ({ user, resourceId }: { user: { id: number }; resourceId: number }) => user.id === resourceId,
  listCreated: ({ user }: { user: { id: number } }) => [user.id],
};

function build(): Permissions {
  return new Permissions({ ownership, logger: collectingLogger().logger }).addPermissions(definitions, { source: 'docs.json' }).build();
}

describe('explain: which definitions grant an action, and why an id was refused', () => {
  it('names every definition that reaches each role, with possession and attributes', () => {
    const explanation = explainGrant(build().tables, ['EMPLOYEE', 'GHOST'], 'document', 'read');
    expect(explanation).toEqual({
      roles: ['EMPLOYEE', 'GHOST'],
      resource: 'document',
      action: 'read',
      granted: true,
      anyGranted: true,
      anyAttributes: ['title'],
      unknownRoles: ['GHOST'],
      unknownResource: false,
      unknownAction: false,
      suggestions: [],
      byRole: [
        {
          role: 'EMPLOYEE',
          any: ['title'],
          own: [{ isOwner: 'isCreator', attributes: ['*', '!secret'] }],
          definitions: [
            { index: 0, source: 'docs.json', descr: 'employees read their own', possession: 'own' },
            { index: 1, source: 'docs.json', possession: 'any' },
          ],
        },
      ],
    });
  });

  it('says why an id was refused: each isOwner hook asked and its answer', async () => {
    const permit = await build().grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'update', resourceId: 2 });
    const explanation = await permit.explain();
    expect(explanation.ownership).toEqual({ resourceId: 2, checks: [{ isOwner: 'isCreator', owned: false }] });
    expect(explanation.granted).toBe(permit.granted);
    expect(formatExplanation(explanation)).toBe(
      [
        'update on document for roles EMPLOYEE: NOT GRANTED for id 2',
        '  - EMPLOYEE: own (when isCreator says so), attributes *',
        '      from docs.json #0 ("employees read their own") as own',
        '  - id 2: isCreator answered not owned.',
        '  - id 2 refused: no ownership hook matched.',
      ].join('\n'),
    );
  });

  it('agrees with the decision for every role set, action and id of a small universe', async () => {
    const permissions = build();
    for (const roles of [[], ['EMPLOYEE'], ['AUDITOR'], ['AUDITOR', 'EMPLOYEE'], ['GHOST']]) {
      for (const action of ['read', 'list', 'update', 'fly']) {
        for (const resourceId of [undefined, 1, 2]) {
          const permit = await permissions.grantPermit({ user: { id: 1, roles }, resource: 'document', action, resourceId });
          const explanation = await permit.explain();
          expect([roles, action, resourceId, explanation.granted, explanation.anyGranted, explanation.anyAttributes]).toEqual([
            roles,
            action,
            resourceId,
            permit.granted,
            permit.anyGranted,
            permit.anyAttributes,
          ]);
        }
      }
    }
  });

  it('reports unknown resources and actions, and a refusal with no ownership hook', async () => {
    const permissions = build();
    expect(formatExplanation(explainGrant(permissions.tables, ['EMPLOYEE'], 'invoice', 'fly'))).toBe(
      [
        'fly on invoice for roles EMPLOYEE: NOT GRANTED',
        '  - resource "invoice" is not named by any definition.',
        '  - action "fly" is not granted by any definition on any resource.',
      ].join('\n'),
    );
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['AUDITOR'] }, resource: 'document', action: 'update', resourceId: 1 });
    expect(formatExplanation(await permit.explain())).toBe(
      [
        'update on document for roles AUDITOR: NOT GRANTED for id 1',
        '  - no definition grants update on document to AUDITOR.',
        '  - id 1: refused, no ownership hook applies.',
      ].join('\n'),
    );
  });
});
