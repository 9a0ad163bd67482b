/**
 * Attribute patterns and picking: '*', '!x', includes, order, dotted paths, nested arrays, the
 * canonical anyAttributes, pick's safety guarantees, and names that collide with Object.prototype.
 */
import { describe, expect, it } from '@jest/globals';
import { buildQuietly } from './helpers.js';

const setup = buildQuietly;

/** Builds one role READER that reads `doc` with `patterns` (as any) and returns its permit. */
async function readerPermit(patterns: readonly string[]) {
  const { permissions } = setup([{ roles: 'READER', resource: 'doc', grant: { read: patterns } }]);
  return permissions.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'doc', action: 'read' });
}

const customer = {
  id: 1,
  name: 'Ada',
  secret: 's3cret',
  address: { city: 'Paris', street: '1 rue X', geo: { lat: 48.8, lng: 2.3 } },
  lines: [
    { sku: 'A', price: 10, cost: 7 },
    { sku: 'B', price: 20, cost: 15 },
  ],
};

describe('attribute patterns', () => {
  it("attribute pattern '*' keeps every attribute", async () => {
    const permit = await readerPermit(['*']);
    expect(permit.anyAttributes).toEqual(['*']);
    expect(await permit.pick(customer)).toEqual(customer);
  });

  it("attribute pattern '!x' excludes x (after '*')", async () => {
    const permit = await readerPermit(['*', '!secret', '!lines']);
    expect(permit.anyAttributes).toEqual(['*', '!lines', '!secret']);
    expect(await permit.pick(customer)).toEqual({ id: 1, name: 'Ada', address: customer.address });
  });

  it('attribute pattern: plain names include only those attributes', async () => {
    const permit = await readerPermit(['name', 'id']);
    expect(permit.anyAttributes).toEqual(['id', 'name']);
    expect(await permit.pick(customer)).toEqual({ id: 1, name: 'Ada' });
  });

  it('attribute patterns apply in order: a later pattern overrides an earlier one', async () => {
    expect(await (await readerPermit(['*', '!secret', 'secret'])).pick(customer)).toEqual(customer);
    expect(await (await readerPermit(['name', '*', '!name'])).pick({ id: 1, name: 'Ada', secret: 's' })).toEqual({ id: 1, secret: 's' });
    expect(await (await readerPermit(['!name', 'name'])).pick({ id: 1, name: 'Ada' })).toEqual({ name: 'Ada' });
  });

  it('attribute patterns: dotted paths include or exclude nested attributes', async () => {
    const include = await readerPermit(['name', 'address.city', 'address.geo.lat']);
    expect(include.anyAttributes).toEqual(['address.city', 'address.geo.lat', 'name']);
    expect(await include.pick(customer)).toEqual({ name: 'Ada', address: { city: 'Paris', geo: { lat: 48.8 } } });
    const exclude = await readerPermit(['*', '!address.street', '!address.geo', '!lines', '!secret']);
    expect(await exclude.pick(customer)).toEqual({ id: 1, name: 'Ada', address: { city: 'Paris' } });
  });

  it('attribute patterns: a dotted path applies to every object of a nested array', async () => {
    const include = await readerPermit(['id', 'lines.sku', 'lines.price']);
    expect(await include.pick(customer)).toEqual({
      id: 1,
      lines: [
        { sku: 'A', price: 10 },
        { sku: 'B', price: 20 },
      ],
    });
    const exclude = await readerPermit(['*', '!lines.cost', '!address', '!secret']);
    expect(await exclude.pick(customer)).toEqual({
      id: 1,
      name: 'Ada',
      lines: [
        { sku: 'A', price: 10 },
        { sku: 'B', price: 20 },
      ],
    });
  });

  it('attribute patterns: a dotted path over a missing or primitive value keeps nothing of it', async () => {
    const permit = await readerPermit(['name', 'address.city']);
    expect(await permit.pick({ name: 'Ada', address: 'plain string' })).toEqual({ name: 'Ada' });
    expect(await permit.pick({ name: 'Ada' })).toEqual({ name: 'Ada' });
  });

  it('attribute patterns: anyAttributes are canonical: included names sorted, or "*" first then exclusions sorted', async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: { read: ['title', 'date'], list: ['*', '!secret', '!body'] } },
      { roles: 'B', resource: 'doc', grant: { read: ['status', 'date'], list: ['*', '!secret', '!personal'] } },
    ]);
    const read = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect(read.anyAttributes).toEqual(['date', 'status', 'title']);
    const list = await permissions.grantPermit({ user: { id: 1, roles: ['B', 'A'] }, resource: 'doc', action: 'list' });
    expect(list.anyAttributes).toEqual(['*', '!secret']);
  });
});

describe('pick safety', () => {
  it('pick never returns the input object, even when every attribute is kept', async () => {
    const permit = await readerPermit(['*']);
    const item = { id: 1, title: 't' };
    const picked = await permit.pick(item);
    expect(picked).not.toBe(item);
    expect(picked).toEqual({ id: 1, title: 't' });
    (picked as { title: string }).title = 'changed';
    expect(item.title).toBe('t');
    const [filtered] = await permit.filterPick([item]);
    expect(filtered).not.toBe(item);
  });

  it('pick never copies prototype properties or non-enumerable own properties, even when a pattern names them', async () => {
    const item = Object.create({ inherited: 'from prototype', id: 99 }) as Record<string, unknown>;
    item.title = 'own';
    Object.defineProperty(item, 'hidden', { value: 'not enumerable', enumerable: false });
    const all = await (await readerPermit(['*'])).pick(item);
    expect(all).toEqual({ title: 'own' });
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype);
    expect(await (await readerPermit(['title', 'inherited', 'hidden', 'id'])).pick(item)).toEqual({ title: 'own' });
  });

  it('pick copies a JSON "__proto__" key as data and never changes the prototype of the result or of Object', async () => {
    const item = JSON.parse('{"id":1,"title":"t","__proto__":{"polluted":"yes"}}') as object;
    const picked = await (await readerPermit(['*'])).pick(item);
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect((picked as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(picked)).toEqual(['id', 'title', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(picked, '__proto__')?.value).toEqual({ polluted: 'yes' });
    const titleOnly = await (await readerPermit(['title'])).pick(item);
    expect(Object.keys(titleOnly)).toEqual(['title']);
  });

  it('pick with an attribute named "__proto__" copies it as data, never as the prototype', async () => {
    const item = JSON.parse('{"title":"t","__proto__":{"isAdmin":true}}') as object;
    const picked = await (await readerPermit(['__proto__'])).pick(item);
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Object.keys(picked)).toEqual(['__proto__']);
    expect((picked as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    const nested = await (await readerPermit(['*', '!__proto__.isAdmin'])).pick(item);
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(nested, '__proto__')?.value).toEqual({});
  });
});

describe("names that Object.prototype already has ('__proto__', 'constructor', 'toString')", () => {
  const tricky = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  it('prototype-like role names are ordinary roles: each gets exactly its own grants', async () => {
    const { permissions, warnings } = setup([
      { roles: '__proto__', resource: 'doc', grant: { read: ['title'] } },
      { roles: 'constructor', resource: 'doc', grant: ['update'] },
      { roles: ['toString'], resource: 'doc', grant: ['delete'] },
    ]);
    const matrix: Record<string, boolean> = {};
    for (const role of ['__proto__', 'constructor', 'toString']) {
      for (const action of ['read', 'update', 'delete']) {
        matrix[`${role} ${action}`] = (await permissions.grantPermit({ user: { id: 1, roles: [role] }, resource: 'doc', action })).granted;
      }
    }
    expect(matrix).toEqual({
      '__proto__ read': true,
      '__proto__ update': false,
      '__proto__ delete': false,
      'constructor read': false,
      'constructor update': true,
      'constructor delete': false,
      'toString read': false,
      'toString update': false,
      'toString delete': true,
    });
    const proto = await permissions.grantPermit({ user: { id: 1, roles: ['__proto__'] }, resource: 'doc', action: 'read' });
    expect(proto.anyAttributes).toEqual(['title']);
    expect(warnings).toEqual([]);
  });

  it('prototype-like role, resource and action names that no definition uses neither crash nor grant anything', async () => {
    const { permissions, warnings } = setup([{ roles: 'A', resource: 'doc', grant: ['read'] }]);
    for (const name of tricky) {
      const asRole = await permissions.grantPermit({ user: { id: 1, roles: [name] }, resource: 'doc', action: 'read' });
      expect([asRole.granted, asRole.anyGranted, asRole.ownGranted, [...asRole.anyAttributes]]).toEqual([false, false, false, []]);
      const asResource = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: name, action: 'read' });
      expect([asResource.granted, asResource.anyGranted, asResource.ownGranted]).toEqual([false, false, false]);
      const asAction = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: name });
      expect([asAction.granted, asAction.anyGranted, asAction.ownGranted]).toEqual([false, false, false]);
    }
    expect(warnings).toHaveLength(tricky.length * 3);
  });

  it('prototype-like resource and action names are ordinary names when definitions use them', async () => {
    const { permissions, warnings } = setup([
      { roles: 'A', resource: 'constructor', grant: ['toString'] },
      { roles: 'A', resource: '__proto__', grant: ['constructor'] },
    ]);
    const user = { id: 1, roles: ['A'] };
    const granted = async (resource: string, action: string) => (await permissions.grantPermit({ user, resource, action })).granted;
    expect([
      await granted('constructor', 'toString'),
      await granted('__proto__', 'constructor'),
      await granted('constructor', 'constructor'),
      await granted('__proto__', 'toString'),
    ]).toEqual([true, true, false, false]);
    expect(warnings).toEqual([]);
  });

  it('prototype-like attribute names pick only own values, never inherited members', async () => {
    const permit = await readerPermit(['constructor', 'toString', 'hasOwnProperty']);
    expect(await permit.pick({ title: 't' })).toEqual({});
    expect(await permit.pick({ title: 't', constructor: 'c', toString: 's' })).toEqual({ constructor: 'c', toString: 's' });
    const excluding = await readerPermit(['*', '!constructor']);
    expect(await excluding.pick({ title: 't', constructor: 'c' })).toEqual({ title: 't' });
  });
});
