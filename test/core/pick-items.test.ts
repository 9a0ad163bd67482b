/**
 * Items of every shape given to pick and filterPick: a defined result or a usage error; never the
 * input object, never prototype data, never a crash on cycles.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Permissions, PermissionsUsageError } from '../../runtime/permissions/index.js';

const permissions = new Permissions({ logger: { warn() {} } })
  .addPermissions([
    { roles: ['READER'], resource: 'doc', grant: { 'read:any': ['*', '!secret', '!address.street'] } },
    { roles: ['TITLES'], resource: 'doc', grant: { 'read:any': ['title', 'address.city', 'constructor', '__proto__'] } },
  ])
  .build();
const permitOf = (role: string) => permissions.grantPermitSync({ user: { id: 1, roles: [role] }, resource: 'doc', action: 'read' });

class Document {
  secret = 's';
  constructor(readonly title: string) {}
  get computed(): string {
    return 'from the prototype';
  }
}

describe('pick and filterPick on items of every shape', () => {
  it('refuses null, arrays and primitives with a usage error', async () => {
    for (const role of ['READER', 'TITLES']) {
      for (const value of [null, undefined, [], [1], 'x', 1, true]) {
        await expect(permitOf(role).pick(value as never)).rejects.toBeInstanceOf(PermissionsUsageError);
        await expect(permitOf(role).filterPick([value] as never)).rejects.toBeInstanceOf(PermissionsUsageError);
      }
      await expect(permitOf(role).filterPick(null as never)).rejects.toBeInstanceOf(PermissionsUsageError);
    }
  });

  it('class instances: own fields only, never prototype getters', async () => {
    expect(await permitOf('READER').pick(new Document('t'))).toEqual({ title: 't' });
    expect(await permitOf('TITLES').pick(new Document('t'))).toEqual({ title: 't' });
  });

  it('objects with getters: an own enumerable getter is read once, as a value', async () => {
    let reads = 0;
    const item = Object.defineProperty({ title: 't' }, 'status', { enumerable: true, get: () => (reads++, 'live') });
    expect(await permitOf('READER').pick(item)).toEqual({ title: 't', status: 'live' });
    expect(reads).toBe(1);
  });

  it('cycles: picking follows the plan, not the object graph', async () => {
    const item: Record<string, unknown> = { title: 't', address: { city: 'c', street: 's' } };
    item['self'] = item;
    (item['address'] as Record<string, unknown>)['owner'] = item;
    const picked = await permitOf('READER').pick(item);
    expect(picked['self']).toBe(item);
    expect(Object.keys(picked['address'] as object)).toEqual(['city', 'owner']);
    expect(await permitOf('TITLES').pick(item)).toEqual({ title: 't', address: { city: 'c' } });
  });

  it('Object.create(null) items and JSON "__proto__" keys: data only, plain-object results, no pollution', async () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { title: 't', secret: 's' });
    expect(await permitOf('READER').pick(bare)).toEqual({ title: 't' });
    const evil = JSON.parse('{"title":"t","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as object;
    for (const role of ['READER', 'TITLES']) {
      const picked = await permitOf(role).pick(evil);
      expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
      expect(Object.keys(picked).sort()).toEqual(['__proto__', 'constructor', 'title']);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }
  });

  it('never returns the input object, for any plain object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.object(), fc.constantFrom('READER', 'TITLES', 'NOBODY'), async (item, role) => {
        const picked = await permitOf(role).pick(item);
        expect(picked).not.toBe(item);
        for (const key of Object.keys(picked)) expect(Object.prototype.hasOwnProperty.call(item, key)).toBe(true);
        const [filtered] = await permitOf(role).filterPick([item]);
        if (filtered !== undefined) expect(filtered).toEqual(picked);
      }),
      { numRuns: 500 },
    );
  });
});
