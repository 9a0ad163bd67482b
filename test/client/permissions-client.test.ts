/**
 * The browser client, `createClient(slice)`: its answers for the example users
 * (can, canAny, canOwn, pick, attributes, with and without `owned`), pick's guarantees (a new plain
 * object, no prototype data, `__proto__` as data, nested attributes), a JSON round trip that changes
 * nothing, and resource and action names such as `__proto__`. Hostile slices: slice-reading.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient, PermissionsUsageError, type Owned, type PermissionSlice } from '../../runtime/client/index.js';
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { exampleAnonymousUser } from '../../examples/documents/example-data.js';
import { ACTIONS, answers, clientOf, documentById, examplePermissions, exampleUser, quiet, superAdmin } from './example-clients.js';

describe('the client answers of the example users', () => {
  answersOfSingleRoleUsers();
  answersOfOtherUsersAndRoundTrip();
});

function answersOfSingleRoleUsers(): void {
  it('user 1 (EMPLOYEE): can, canAny, canOwn for every action, with and without owned', () => {
    const client = clientOf(exampleUser(1));
    expect(ACTIONS.map((action) => client.can(action, 'document'))).toEqual([true, false, true, true, false, false]);
    expect(ACTIONS.map((action) => client.canAny(action, 'document'))).toEqual([false, false, true, false, false, false]);
    expect(ACTIONS.map((action) => client.canOwn(action, 'document'))).toEqual([true, false, true, true, false, false]);
    const owned: (Owned | undefined)[] = [undefined, true, false, [], [0], [1], [2], [99], [0, 99]];
    expect(owned.map((option) => client.can('read', 'document', { owned: option }))).toEqual([true, true, false, false, true, false, false, false, true]);
    // list is granted as any: owned or not, it can.
    expect(owned.map((option) => client.can('list', 'document', { owned: option }))).toEqual(owned.map(() => true));
    expect(owned.map((option) => client.can('delete', 'document', { owned: option }))).toEqual(owned.map(() => false));
  });

  it('user 1 (EMPLOYEE): attributes and pick follow the ownership of the record', () => {
    const client = clientOf(exampleUser(1));
    expect(client.attributes('read', 'document')).toEqual([]);
    expect(client.attributes('read', 'document', { owned: true })).toEqual(['*', '!confidential']);
    expect(client.attributes('read', 'document', { owned: [0] })).toEqual(['*', '!confidential']);
    expect(client.attributes('read', 'document', { owned: [1] })).toEqual([]);
    expect(client.attributes('list', 'document')).toEqual(['date', 'title']);
    expect(client.attributes('list', 'document', { owned: [0] })).toEqual(['*', '!confidential']);
    expect(client.attributes('list', 'document', { owned: false })).toEqual(['date', 'title']);
    const document = documentById(10);
    expect(client.pick('read', 'document', document, { owned: [0] })).toEqual({
      id: 10,
      title: 'Document Title 10',
      date: '2024-01-10',
      status: 'review',
      personal: 'Personal note of user 1 on document 10',
      creatorId: 1,
    });
    expect(client.pick('read', 'document', document)).toEqual({});
    expect(client.pick('list', 'document', document)).toEqual({ title: 'Document Title 10', date: '2024-01-10' });
    expect(client.pick('list', 'document', document, { owned: [] })).toEqual({ title: 'Document Title 10', date: '2024-01-10' });
  });

  it('user 2 (EMPLOYEE_MANAGER): own actions without confidential and personal, list by title, date and status', () => {
    const client = clientOf(exampleUser(2));
    expect(ACTIONS.map((action) => client.can(action, 'document'))).toEqual([false, true, true, true, true, false]);
    expect(client.attributes('review', 'document', { owned: [1] })).toEqual(['*', '!confidential', '!personal']);
    expect(client.attributes('list', 'document')).toEqual(['date', 'status', 'title']);
    expect(client.pick('delete', 'document', documentById(4), { owned: true })).toEqual({
      id: 4,
      title: 'Document Title 4',
      date: '2024-01-04',
      status: 'draft',
      creatorId: 4,
    });
    expect(client.can('delete', 'document', { owned: [0, 2] })).toBe(false);
  });

  it('user 4 (COMPANY_ADMIN): read, review and update own records with every attribute, nothing else', () => {
    const client = clientOf(exampleUser(4));
    expect(ACTIONS.map((action) => client.can(action, 'document', { owned: [2] }))).toEqual([false, false, false, true, true, true]);
    expect(ACTIONS.map((action) => client.can(action, 'document', { owned: false }))).toEqual(ACTIONS.map(() => false));
    expect(client.pick('update', 'document', documentById(50), { owned: [2] })).toEqual(documentById(50));
    expect(client.attributes('update', 'document', { owned: true })).toEqual(['*']);
  });
}

function answersOfOtherUsersAndRoundTrip(): void {
  it('user 7 (two roles): each record gets the attributes of the groups the server says own it', async () => {
    const user = exampleUser(7);
    const client = clientOf(user);
    const permit = await examplePermissions.grantPermit({ user, resource: 'document', action: 'read' });
    // 7 manages 5 and 6 (group 1) and shares company 1 with 1, 2 and 3 (group 2); 4 is neither.
    const [of1, of5, of7, of4] = await permit.owningGroups([1, 5, 7, 4]);
    expect([of1, of5, of7, of4]).toEqual([[2], [1], [1, 2], []]);
    const fiveWithoutPrivate = Object.fromEntries(Object.entries(documentById(5)).filter(([key]) => key !== 'confidential' && key !== 'personal'));
    expect(client.pick('read', 'document', documentById(5), { owned: of5 })).toEqual(fiveWithoutPrivate);
    expect(client.pick('read', 'document', documentById(1), { owned: of1 })).toEqual(documentById(1));
    expect(client.pick('read', 'document', documentById(7), { owned: of7 })).toEqual(documentById(7));
    expect(client.pick('read', 'document', documentById(4), { owned: of4 })).toEqual({});
    expect(client.pick('list', 'document', documentById(1), { owned: of1 })).toEqual({ title: 'Document Title 1', date: '2024-01-01', status: 'draft' });
    expect(client.attributes('read', 'document', { owned: [1, 2] })).toEqual(['*']);
    // The client agrees with the server's decision on each record, action by action.
    for (const [id, owned] of [
      [1, of1],
      [5, of5],
      [7, of7],
      [4, of4],
    ] as const) {
      for (const action of ACTIONS) {
        const server = await examplePermissions.grantPermit({ user, resource: 'document', action, resourceId: id });
        expect([id, action, client.can(action, 'document', { owned })]).toEqual([id, action, server.granted]);
      }
    }
    expect([client.can('update', 'document', { owned: of5 }), client.can('delete', 'document', { owned: of1 })]).toEqual([false, false]);
  });

  it('user 9 (SUPER_ADMIN): every action as any, every attribute, whatever owned says', () => {
    const client = clientOf(superAdmin);
    for (const owned of [undefined, true, false, [], [5]] as const) {
      expect(ACTIONS.map((action) => client.can(action, 'document', { owned }))).toEqual(ACTIONS.map(() => true));
      expect(client.pick('delete', 'document', documentById(3), { owned })).toEqual(documentById(3));
    }
    expect(ACTIONS.map((action) => client.canAny(action, 'document'))).toEqual(ACTIONS.map(() => true));
    expect(client.attributes('create', 'document')).toEqual(['*']);
    expect(client.can('approve', 'document')).toBe(false);
  });

  it('the anonymous user, and any unknown resource or action: nothing', () => {
    const anonymous = clientOf(exampleAnonymousUser);
    expect(answers(anonymous, 'document', [undefined, true, [0, 1, 2]], documentById(1))).toEqual(
      ACTIONS.flatMap(() => [false, false, [false, [], {}], [false, [], {}], [false, [], {}]]),
    );
    const employee = clientOf(exampleUser(1));
    expect([employee.can('read', 'folder', { owned: true }), employee.canOwn('approve', 'document'), employee.attributes('read', 'documents')]).toEqual([
      false,
      false,
      [],
    ]);
    expect(employee.pick('read', 'folder', documentById(1), { owned: true })).toEqual({});
    expect(employee.version).toBe(examplePermissions.sliceFor(exampleUser(1)).version);
  });

  it('an action the resource does not declare (decision declares list and read): never granted by the client, refused by the server', () => {
    const client = clientOf(superAdmin);
    expect(['list', 'read', 'delete', 'review', 'update'].map((action) => client.can(action, 'decision', { owned: true }))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([client.canAny('delete', 'decision'), client.canOwn('delete', 'decision'), client.attributes('delete', 'decision')]).toEqual([false, false, []]);
    expect(client.pick('delete', 'decision', { callId: 'c1' })).toEqual({});
    // The slice holds what is granted only, so the client cannot tell an undeclared action from one not granted; the server can.
    expect(() => examplePermissions.grantPermitSync({ user: superAdmin, resource: 'decision', action: 'delete' })).toThrow(
      new PermissionsUsageError('grantPermit: "delete" is not an action of "decision"; its actions are "list", "read".'),
    );
  });

  it('a slice through JSON.parse(JSON.stringify(slice)) answers exactly like the frozen slice itself', () => {
    for (const user of [exampleUser(1), exampleUser(2), exampleUser(4), exampleUser(7), superAdmin, exampleAnonymousUser]) {
      const slice = examplePermissions.sliceFor(user);
      const owned: (Owned | undefined)[] = [undefined, true, false, [], [0], [1], [2], [1, 2]];
      const direct = answers(createClient(slice), 'document', owned, documentById(7));
      expect(answers(createClient(JSON.parse(JSON.stringify(slice)) as PermissionSlice), 'document', owned, documentById(7))).toEqual(direct);
    }
  });
}

describe("the client's pick", () => {
  const everything = () => clientOf(superAdmin);

  it('pick returns a new object, never the input, even when every attribute is kept', () => {
    const document = { ...documentById(1) };
    const picked = everything().pick('read', 'document', document);
    expect(picked).not.toBe(document);
    expect(picked).toEqual(document);
    (picked as { title: string }).title = 'changed';
    expect(document.title).toBe('Document Title 1');
  });

  it('pick copies own enumerable data only: nothing from the prototype, nothing non-enumerable', () => {
    const item = Object.create({ inherited: 'from the prototype', title: 'prototype title' }) as Record<string, unknown>;
    item['id'] = 1;
    Object.defineProperty(item, 'hidden', { value: 'not enumerable', enumerable: false });
    const picked = everything().pick('read', 'document', item);
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Reflect.ownKeys(picked)).toEqual(['id']);
    expect(clientOf(exampleUser(1)).pick('list', 'document', item)).toEqual({});
  });

  it('a "__proto__" key is copied as plain data and never becomes the prototype', () => {
    const item = JSON.parse('{"id":1,"__proto__":{"polluted":true},"title":"t"}') as object;
    const picked = everything().pick('read', 'document', item) as Record<string, unknown>;
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Object.keys(picked)).toEqual(['id', '__proto__', 'title']);
    expect(Object.getOwnPropertyDescriptor(picked, '__proto__')?.value).toEqual({ polluted: true });
    expect([picked['polluted'], ({} as Record<string, unknown>)['polluted']]).toEqual([undefined, undefined]);
  });

  it('nested attributes keep and drop inside objects and arrays of objects', () => {
    const permissions = new Permissions({ logger: quiet });
    permissions.addPermissions([
      { roles: ['VISITOR'], resource: 'person', grant: { 'read:any': ['name', 'address.city', 'visits.date'] } },
      { roles: ['CLERK'], resource: 'person', grant: { 'read:any': ['*', '!address.street', '!visits.notes'] } },
    ]);
    permissions.build();
    const person = {
      name: 'Ada',
      secret: 's',
      address: { city: 'Paris', street: 'Rue 1' },
      visits: [{ date: '2024-01-01', notes: 'n1' }, 'not an object', { date: '2024-02-02', notes: 'n2' }],
    };
    const visitor = createClient(permissions.sliceFor({ id: 1, roles: ['VISITOR'] }));
    expect(visitor.pick('read', 'person', person)).toEqual({
      name: 'Ada',
      address: { city: 'Paris' },
      visits: [{ date: '2024-01-01' }, { date: '2024-02-02' }],
    });
    expect(visitor.attributes('read', 'person')).toEqual(['address.city', 'name', 'visits.date']);
    const clerk = createClient(permissions.sliceFor({ id: 2, roles: ['CLERK'] }));
    expect(clerk.pick('read', 'person', person)).toEqual({
      name: 'Ada',
      secret: 's',
      address: { city: 'Paris' },
      visits: [{ date: '2024-01-01' }, { date: '2024-02-02' }],
    });
    expect(clerk.pick('read', 'person', { name: 'B', address: 'a plain string' })).toEqual({ name: 'B' });
    const both = createClient(permissions.sliceFor({ id: 3, roles: ['VISITOR', 'CLERK'] }));
    expect(both.attributes('read', 'person')).toEqual(['*', '!address.street', '!visits.notes']);
  });

  it('pick of something that is not an object is a usage error with an exact message', () => {
    const client = everything();
    const cases: [unknown, string][] = [
      [null, 'pick expects an object, got null.'],
      [[{ id: 1 }], 'pick expects an object, got an array.'],
      ['text', 'pick expects an object, got string.'],
      [undefined, 'pick expects an object, got undefined.'],
    ];
    for (const [item, message] of cases) {
      expect(() => client.pick('read', 'document', item as object)).toThrow(PermissionsUsageError);
      expect(() => client.pick('read', 'document', item as object)).toThrow(message);
    }
  });
});

describe('names such as __proto__ and constructor are plain names', () => {
  const listOwned = (): string[] => ['p1'];
  const definitions: PermissionDefinition[] = [
    { roles: ['__proto__'], resource: '__proto__', grant: { 'constructor:any': ['__proto__', 'constructor.x'] } },
    { roles: ['constructor'], resource: 'constructor', possession: 'own', grant: ['__proto__', 'toString'], listOwned },
  ];

  it('resources and actions named __proto__, constructor and toString are answered from the slice only', async () => {
    const permissions = new Permissions({ logger: quiet });
    permissions.addPermissions(definitions).build();
    const user = { id: 1, roles: ['__proto__', 'constructor'] };
    const slice = JSON.parse(JSON.stringify(permissions.sliceFor(user))) as PermissionSlice;
    const client = createClient(slice);
    expect([
      client.can('constructor', '__proto__'),
      client.canAny('constructor', '__proto__'),
      client.can('__proto__', 'constructor'),
      client.can('__proto__', 'constructor', { owned: [0] }),
      client.can('__proto__', 'constructor', { owned: [] }),
      client.can('toString', 'constructor'),
      client.canAny('toString', 'constructor'),
    ]).toEqual([true, true, true, true, false, true, false]);
    expect([
      client.can('hasOwnProperty', 'constructor'),
      client.can('constructor', 'constructor'),
      client.can('valueOf', '__proto__'),
      client.can('__proto__', '__proto__'),
      client.can('read', 'toString'),
      client.attributes('constructor', 'hasOwnProperty'),
    ]).toEqual([false, false, false, false, false, []]);
    expect(client.attributes('constructor', '__proto__')).toEqual(['__proto__', 'constructor.x']);
    const item = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"x":1,"y":2},"other":3}') as object;
    const picked = client.pick('constructor', '__proto__', item) as Record<string, unknown>;
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Object.keys(picked)).toEqual(['__proto__', 'constructor']);
    expect([Object.getOwnPropertyDescriptor(picked, '__proto__')?.value, picked['constructor'], picked['polluted']]).toEqual([
      { polluted: 1 },
      { x: 1 },
      undefined,
    ]);
    // The server agrees on the same names.
    const server = await permissions.grantPermit({ user, resource: 'constructor', action: '__proto__', resourceId: 'p1' });
    expect([server.granted, (await server.owningGroups(['p1', 'p2'])) as unknown]).toEqual([true, [[0], []]]);
    expect(client.pick('__proto__', 'constructor', { id: 'p1', a: 1 }, { owned: [0] })).toEqual({ id: 'p1', a: 1 });
  });
});
