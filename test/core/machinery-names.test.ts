/**
 * Roles, resources and actions are any printable names: the decision path looks them up in dictionaries without a
 * prototype, so names of object machinery (`__proto__`, `constructor`, `toString`, …) are plain names — granted when
 * a definition grants them, unknown (and refused) when none does, never something inherited.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions } from '../../runtime/permissions/index.js';
import { nameDictionary } from '../../runtime/core/tables/table-loader.js';

const MACHINERY = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'] as const;

function engineGranting(role: string, resource: string, action: string): Permissions {
  const permissions = new Permissions({ logger: { warn: () => undefined } });
  permissions.addPermissions([{ roles: role, resource, possession: 'any', grant: [action] }]);
  permissions.build();
  return permissions;
}

describe('names of object machinery in the decision path', () => {
  it.each(MACHINERY)('%s as a role, a resource and an action is granted where a definition grants it', (name) => {
    const permissions = engineGranting(name, name, name);
    expect(permissions.grantPermitSync({ user: { id: 1, roles: [name] }, resource: name, action: name }).granted).toBe(true);
    expect(permissions.grantPermitSync({ user: { id: 1, roles: ['GUEST', name, 'OTHER'] }, resource: name, action: name }).granted).toBe(true);
  });

  it.each(MACHINERY)('%s asked but never granted is unknown: refused for one role and several, warned about, never inherited', (name) => {
    const warnings: string[] = [];
    const permissions = new Permissions({ logger: { warn: (message: string) => warnings.push(message) } });
    permissions.addPermissions([{ roles: 'EMPLOYEE', resource: 'document', possession: 'any', grant: ['read'] }]);
    permissions.build();
    const ask = (roles: string[], resource: string, action: string) => permissions.grantPermitSync({ user: { id: 1, roles }, resource, action }).granted;
    const answers = [
      ask([name], 'document', 'read'),
      ask([name, 'GHOST'], 'document', 'read'),
      ask(['EMPLOYEE'], name, 'read'),
      ask(['EMPLOYEE'], 'document', name),
    ];
    expect(answers).toEqual([false, false, false, false]);
    expect(warnings).toEqual([
      `typed-permissions: unknown role "${name}": no definition names it; it is ignored.`,
      'typed-permissions: unknown role "GHOST": no definition names it; it is ignored.',
      `typed-permissions: unknown resource "${name}": no definition names it; nothing is granted.`,
      `typed-permissions: unknown action "${name}": no definition grants it on any resource; nothing is granted.`,
    ]);
  });

  it('nameDictionary reads undefined for every name it was not given, inherited ones included', () => {
    const dictionary = nameDictionary([
      ['__proto__', 1],
      ['EMPLOYEE', 2],
    ]);
    const read = (name: string): number | undefined => dictionary[name];
    expect([read('__proto__'), read('EMPLOYEE'), read('constructor'), read('toString'), Object.getPrototypeOf(dictionary)]).toEqual([
      1,
      2,
      undefined,
      undefined,
      null,
    ]);
  });
});
