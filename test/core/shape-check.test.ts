/**
 * The runtime's one shape checker: each shape reports exactly the problem its caller worded, at the path of the
 * refused value; objects refuse unknown keys; collections over their limit are refused at the first entry past
 * it without reading the rest; hostile values (null prototypes, `__proto__` keys, huge arrays) are data.
 */
import { describe, expect, it } from '@jest/globals';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { durationShape, positiveCountShape } from '../../runtime/core/shape/option-shapes.js';
import {
  both,
  integer,
  issuesOf,
  list,
  object,
  oneOf,
  optional,
  record,
  text,
  usageChecked,
  valid,
  type ShapePath,
} from '../../runtime/core/shape/shape-check.js';

const user = object(
  {
    id: integer(1, 100, (value) => `id ${JSON.stringify(value)} is not from 1 to 100`),
    name: optional(text({ min: 1, max: 5 }, { message: 'not a short name', fix: 'Write 1 to 5 characters.', code: 'invalid-name' })),
    roles: list(text({}, 'a role is a string'), 'roles is not an array', { max: 2, tooMany: (count) => `${count} roles, more than 2` }),
  },
  { notObject: (value) => `a user is an object, not ${typeof value}`, unknownKey: (key, known) => `unknown ${key}; use ${known.join(', ')}` },
);

describe('shapes', () => {
  it('a value that fits has no problem', () => {
    expect(issuesOf(user, { id: 1, roles: ['A', 'B'] })).toEqual([]);
    expect(issuesOf(user, { id: 100, name: 'ab', roles: [] })).toEqual([]);
  });

  it('reports unknown keys first, then each field in the order written, each at its path', () => {
    expect(issuesOf(user, { roles: [1, 'x'], zz: 1, id: 0, name: '' })).toEqual([
      { path: ['zz'], message: 'unknown zz; use id, name, roles' },
      { path: ['id'], message: 'id 0 is not from 1 to 100' },
      { path: ['name'], message: 'not a short name', fix: 'Write 1 to 5 characters.', code: 'invalid-name' },
      { path: ['roles', 0], message: 'a role is a string' },
    ]);
  });

  it('refuses what is not an object: null, arrays, strings', () => {
    expect(issuesOf(user, null)).toEqual([{ path: [], message: 'a user is an object, not object' }]);
    expect(issuesOf(user, [])).toEqual([{ path: [], message: 'a user is an object, not object' }]);
    expect(issuesOf(user, 'x', ['users', 'a'])).toEqual([{ path: ['users', 'a'], message: 'a user is an object, not string' }]);
  });

  it('a collection over its limit is refused at the first entry past it, its items unread', () => {
    let read = 0;
    const counted = list(
      valid(() => ++read > 0, 'never'),
      'not an array',
      { max: 2, tooMany: (count) => `${count} items` },
    );
    expect(issuesOf(counted, new Array(1_000_000).fill(0))).toEqual([{ path: [2], message: '1000000 items' }]);
    expect(read).toBe(0);
    expect(issuesOf(counted, [0, 0])).toEqual([]);
    const map = record(integer(0, 1, 'a bit'), 'not a map', { max: 1, tooMany: (count, path: ShapePath) => `${count} keys at ${path.length}` });
    expect(issuesOf(map, { a: 0, b: 2 })).toEqual([{ path: ['b'], message: '2 keys at 0' }]);
    expect(issuesOf(map, { a: 2 })).toEqual([{ path: ['a'], message: 'a bit' }]);
  });

  it('keys such as __proto__ are data, and a null-prototype object is an object', () => {
    const hostile = JSON.parse('{"__proto__": 5, "id": 1, "roles": []}') as unknown;
    expect(issuesOf(user, hostile)).toEqual([{ path: ['__proto__'], message: 'unknown __proto__; use id, name, roles' }]);
    const bare = Object.assign(Object.create(null) as object, { id: 1, roles: [] });
    expect(issuesOf(user, bare)).toEqual([]);
  });

  it('integers are safe integers within their range; oneOf compares exactly; both stops at the first failure', () => {
    const small = integer(-1, 1, 'out');
    expect([0, 1, -1, 2, 0.5, NaN, '1', 2 ** 53].map((value) => issuesOf(small, value).length)).toEqual([0, 0, 0, 1, 1, 1, 1, 1]);
    const expectShape = oneOf(['granted', 'denied'], (value) => `expects ${String(value)}`);
    expect(issuesOf(expectShape, 'GRANTED')).toEqual([{ path: [], message: 'expects GRANTED' }]);
    const name = both(
      text({}, 'not a string'),
      valid((value) => !(value as string).includes(' '), 'has a space'),
    );
    expect([issuesOf(name, 1), issuesOf(name, 'a b'), issuesOf(name, 'ab')]).toEqual([
      [{ path: [], message: 'not a string' }],
      [{ path: [], message: 'has a space' }],
      [],
    ]);
  });

  it('usageChecked returns the value or throws a PermissionsUsageError with the first problem', () => {
    expect(usageChecked(durationShape('pollIntervalMs', 10), 10)).toBe(10);
    expect(() => usageChecked(durationShape('pollIntervalMs', 10), 2 ** 31)).toThrow(
      new PermissionsUsageError('pollIntervalMs must be a whole number of milliseconds from 10 to 2147483647, got 2147483648.'),
    );
    expect(() => usageChecked(positiveCountShape('maxBytes'), 0)).toThrow(new PermissionsUsageError('maxBytes must be a positive whole number, got 0.'));
    expect(() => usageChecked(user, { id: 0, roles: 1 })).toThrow(new PermissionsUsageError('id 0 is not from 1 to 100'));
  });

  it.each([
    [5000n, 'bigint'],
    [Infinity, 'Infinity'],
    [NaN, 'NaN'],
    [1.5, '1.5'],
    ['5000', '"5000"'],
    [null, 'null'],
  ])('a number option refused names what it got, %p as %s, and never throws a TypeError', (value, named) => {
    expect(() => usageChecked(durationShape('readTimeoutMs', 1), value)).toThrow(
      new PermissionsUsageError(`readTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${named}.`),
    );
    expect(() => usageChecked(positiveCountShape('maxTenants'), value)).toThrow(
      new PermissionsUsageError(`maxTenants must be a positive whole number, got ${named}.`),
    );
  });
});
