/**
 * Every cache keyed by what callers send (sets of roles) is bounded by count and by bytes: a cache of few,
 * large values (slices of a 200-resource policy) stays within its byte budget, whatever the number of role
 * sets; the budget is shared by the caches of one engine and forgets the oldest first.
 */
import { describe, expect, it } from '@jest/globals';
import { MAX_COMPILED_PATTERNS_BYTES, MAX_MEMOISED_UNIONS_BYTES } from '../../runtime/core/projection/attribute-plan.js';
import { BoundedCache, CacheBudget } from '../../runtime/core/common/bounded-cache.js';
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { MAX_CACHED_SLICES, MAX_RESOURCE_OWNERS_CACHE_BYTES, MAX_SLICE_CACHE_BYTES } from '../../runtime/core/decision/policy-snapshot.js';
import { MAX_CACHED_COMBINATIONS, MAX_COMBINATION_CACHE_BYTES } from '../../runtime/core/tables/table-loader.js';

const MiB = 2 ** 20;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

describe('BoundedCache and CacheBudget', () => {
  it('keep a value whose bytes are exactly the budget, and not one byte more', () => {
    const cache = new BoundedCache<string, string>(10, new CacheBudget(100));
    cache.set('fits', 'a', 100);
    expect([cache.get('fits'), cache.size]).toEqual(['a', 1]);
    cache.set('too large', 'b', 101);
    expect([cache.get('too large'), cache.get('fits'), cache.size]).toEqual([undefined, 'a', 1]);
  });

  it('forget the oldest values, across every cache of a budget, until a new one fits', () => {
    const budget = new CacheBudget(100);
    const forgotten: string[] = [];
    const first = new BoundedCache<string, number>(10, budget, (key) => void forgotten.push(`first:${key}`));
    const second = new BoundedCache<string, number>(10, budget, (key) => void forgotten.push(`second:${key}`));
    first.set('a', 1, 40);
    second.set('b', 2, 40);
    first.set('c', 3, 20);
    expect(budget.bytes).toBe(100);
    second.set('d', 4, 50);
    expect(forgotten).toEqual(['first:a', 'second:b']);
    expect([first.get('a'), second.get('b'), first.get('c'), second.get('d'), budget.bytes]).toEqual([undefined, undefined, 3, 4, 70]);
  });

  it('keep at most maxEntries values, releasing what the forgotten ones were charged', () => {
    const budget = new CacheBudget(1000);
    const cache = new BoundedCache<number, number>(3, budget);
    for (let i = 0; i < 4; i++) cache.set(i, i, 10);
    expect([cache.size, cache.get(0), cache.get(3), budget.bytes]).toEqual([3, undefined, 3, 30]);
    cache.set(3, 33, 50);
    expect([cache.size, cache.get(3), budget.bytes]).toEqual([3, 33, 70]);
  });

  it('with spare, keep once an oldest value used since last passed over (by count and by bytes); refresh makes a value the newest', () => {
    const used = new Set<string>();
    const spare = (key: string): boolean => used.delete(key);
    const byCount = new BoundedCache<string, number>(3, new CacheBudget(1000), undefined, spare);
    for (const key of ['a', 'b', 'c']) byCount.set(key, 0, 10);
    used.add('a');
    byCount.set('d', 0, 10); // 'a' was used: spared once; 'b' goes
    expect(byCount.keys()).toEqual(['c', 'a', 'd']);
    used.add('c').add('a').add('d');
    byCount.set('e', 0, 10); // every one used: each spared once, then the first passed over goes
    expect(byCount.keys()).toEqual(['a', 'd', 'e']);
    byCount.refresh('a');
    byCount.set('f', 0, 10);
    expect(byCount.keys()).toEqual(['e', 'a', 'f']);

    const budget = new CacheBudget(30);
    const byBytes = new BoundedCache<string, number>(100, budget, undefined, spare);
    for (const key of ['x', 'y', 'z']) byBytes.set(key, 0, 10);
    used.add('x');
    byBytes.set('w', 0, 10);
    expect([byBytes.keys(), budget.bytes]).toEqual([['z', 'x', 'w'], 30]);
  });

  it('stay small under churn: 200,000 insertions into 2,000 caches of one budget', () => {
    const budget = new CacheBudget(1000 * 64);
    const caches = Array.from({ length: 2000 }, () => new BoundedCache<number, number>(1024, budget));
    for (let i = 0; i < 200_000; i++) (caches[i % 2000] as BoundedCache<number, number>).set(i, i, 64);
    expect(budget.bytes).toBe(1000 * 64);
    expect(caches.reduce((sum, cache) => sum + cache.size, 0)).toBe(1000);
  }, 30_000);
});

describe('the caches of an engine', () => {
  it('state their bounds', () => {
    expect({
      slices: [MAX_CACHED_SLICES, MAX_SLICE_CACHE_BYTES / MiB],
      resourceOwners: MAX_RESOURCE_OWNERS_CACHE_BYTES / MiB,
      combinations: [MAX_CACHED_COMBINATIONS, MAX_COMBINATION_CACHE_BYTES / MiB],
      unions: MAX_MEMOISED_UNIONS_BYTES / MiB,
      compiledPatterns: MAX_COMPILED_PATTERNS_BYTES / MiB,
    }).toEqual({ slices: [1024, 16], resourceOwners: 4, combinations: [1024, 32], unions: 16, compiledPatterns: 16 });
  });

  it('400 role sets over a 200-resource policy keep their slices within the budget (it grew the heap by 90 MB before)', () => {
    const roles = Array.from({ length: 40 }, (_, i) => `R${i}`);
    const attributes = (i: number, k: number) => ['id', ...Array.from({ length: 12 }, (_, n) => `f${(i * 3 + k + n * 5) % 60}`), `nested.x${(i * k) % 17}`];
    const definitions: PermissionDefinition[] = roles.map((role, i) => ({
      roles: [role],
      resource: '*',
      grant: Object.fromEntries(['read', 'update', 'list', 'approve', 'review'].map((action, k) => [`${action}:any`, attributes(i, k)])),
    }));
    for (let r = 0; r < 200; r++) definitions.push({ roles: ['R0'], resource: `resource${r}`, grant: ['create'] });
    const permissions = new Permissions({ logger: { warn: () => undefined } });
    permissions.addPermissions(definitions);
    permissions.build();
    gc();
    const before = process.memoryUsage().heapUsed;
    let sliceLength = 0;
    for (let i = 0; i < 400; i++) {
      const set = roles.filter((_, k) => ((i * 2654435761) >>> k) & 1).slice(0, 6);
      set.push(`R${i % 40}`, `R${(i * 7) % 40}`);
      sliceLength = Math.max(sliceLength, JSON.stringify(permissions.sliceFor({ id: i, roles: set })).length);
    }
    gc();
    const grown = (process.memoryUsage().heapUsed - before) / MiB;
    expect(sliceLength).toBeGreaterThan(30_000);
    // The slice budget (16 MiB) plus the multi-role combinations those lookups made; 90 MB without a byte budget.
    expect(grown).toBeLessThan(48);
  }, 60_000);
});
