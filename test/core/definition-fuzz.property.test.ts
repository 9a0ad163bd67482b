/**
 * Malformed definitions, generated: build() must accept them or throw a PermissionDefinitionError
 * with a message — never crash, hang, or leak a TypeError from inside the library.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PermissionDefinitionError, Permissions } from '../../runtime/permissions/index.js';
import { DEFINITION_FIELDS } from './arbitraries.js';

const SPECIAL_KEYS = ['__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf'];

/** Strings a definition author (or an attacker) could write: names, grant keys, patterns, unicode, huge. */
const nasty = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '*',
      '',
      ' ',
      ':',
      'read:',
      ':own',
      'read:mine',
      'read:own:any',
      '!',
      '!*',
      'a..b',
      '.a',
      'a.',
      '*.*',
      'ünïcödé',
      '😀',
      '\u0000',
      'a b',
      ...SPECIAL_KEYS,
    ),
    weight: 6,
  },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 6 },
  // Huge strings are built by repetition: generating 20,000 random characters per value would make the run slow, not harder.
  { arbitrary: fc.tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 2_000, max: 10_000 })).map(([unit, times]) => `x${unit.repeat(times)}`), weight: 1 },
);

/** Any JSON-ish value, including deep nesting and objects with special keys. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nasty,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => true),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nasty, fc.constantFrom(...SPECIAL_KEYS, ...DEFINITION_FIELDS)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A valid definition, with one to three fields replaced by arbitrary values. */
const mutatedDefinition = fc
  .record({
    base: fc.constantFrom<Record<string, unknown>>(
      { roles: ['A'], resource: 'doc', grant: ['read', 'list:any'] },
      { roles: 'B', resource: '*', possession: 'own', grant: { read: ['*', '!secret'] }, isOwner: 'isOwner', listOwned: 'listOwned' },
      { roles: ['*'], resource: 'doc', grant: { 'approve:own': ['title'] }, isOwner: () => true, limitOwned: () => ({}) },
    ),
    changes: fc.array(fc.tuple(fc.constantFrom(...DEFINITION_FIELDS, ...SPECIAL_KEYS), anyValue), { minLength: 1, maxLength: 3 }),
  })
  .map(({ base, changes }) => {
    const definition: Record<string, unknown> = { ...base };
    for (const [key, value] of changes) Object.defineProperty(definition, key, { value, enumerable: true, writable: true, configurable: true });
    return definition;
  });

function deeplyNested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { grant: value };
  return value;
}

const ownership = { isOwner: () => true, listOwned: () => [] };

/** Builds and returns 'ok' or the typed error; anything else fails the property. */
function buildOutcome(definitions: unknown[]): 'ok' | PermissionDefinitionError {
  try {
    new Permissions({ ownership, logger: { warn() {} } }).addPermissions(definitions as never).build();
    return 'ok';
  } catch (error) {
    if (error instanceof PermissionDefinitionError) return error;
    throw error;
  }
}

describe('malformed definitions are accepted or refused with a typed error, never a crash', () => {
  it('mutated definitions (wrong types, missing fields, unicode, huge strings, special keys)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(mutatedDefinition, anyValue), { minLength: 1, maxLength: 4 }), (definitions) => {
        const outcome = buildOutcome(definitions);
        if (outcome === 'ok') return;
        expect(outcome.problems.length).toBeGreaterThan(0);
        for (const problem of outcome.problems) {
          expect(typeof problem.message).toBe('string');
          expect(problem.message.length).toBeGreaterThan(0);
          expect(problem.fix.length).toBeGreaterThan(0);
          expect(problem.index).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('deep nesting and a 1 MB string are accepted or refused with a typed error (a hang would hit the test timeout)', () => {
    for (const definition of [
      { roles: ['A'], resource: 'doc', grant: deeplyNested(5000) },
      deeplyNested(5000),
      { roles: 'A'.repeat(1_000_000), resource: 'doc', grant: { read: ['x'.repeat(1_000_000)] } },
    ]) {
      const outcome = buildOutcome([definition]);
      if (outcome !== 'ok') expect(outcome).toBeInstanceOf(PermissionDefinitionError);
    }
  });

  it('a definitions argument that is not an array is a usage error, not a crash', () => {
    for (const value of [null, undefined, 'x', 1, {}, { length: 2 }]) {
      expect(() => new Permissions().addPermissions(value as never)).toThrow(/expects an array/);
    }
  });

  it('a grant key "__proto__" (which zod\'s record skips) has its patterns checked like any other key, and grants when they are valid', async () => {
    const problemsOf = (grant: string) => {
      const outcome = buildOutcome([{ roles: ['A'], resource: 'doc', grant: JSON.parse(grant) as unknown }]);
      return outcome === 'ok' ? 'ok' : outcome.problems.map((problem) => [problem.code, problem.path, problem.message]);
    };
    expect([problemsOf('{"__proto__": ""}'), problemsOf('{"__proto__": [1, "title"]}'), problemsOf('{"__proto__": ["*"]}')]).toEqual([
      [['invalid-shape', ['grant', '__proto__'], 'The attributes of a grant key must be an array of patterns.']],
      [['invalid-shape', ['grant', '__proto__', 0], 'An attribute pattern must be a string.']],
      'ok',
    ]);
    const permissions = new Permissions({ logger: { warn() {} } })
      .addPermissions([{ roles: ['A'], resource: 'doc', grant: JSON.parse('{"__proto__": ["title"]}') as Record<string, string[]> }])
      .build();
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: '__proto__' });
    expect([permit.granted, await permit.pick({ title: 't', secret: 's' })]).toEqual([true, { title: 't' }]);
  });

  it('a role named __proto__ with a grant does not grant other roles anything', async () => {
    const permissions = new Permissions({ logger: { warn() {} } })
      .addPermissions([
        { roles: ['__proto__'], resource: 'doc', grant: ['*:any'] },
        { roles: ['USER'], resource: 'doc', grant: ['list:any'] },
      ])
      .build();
    const user = await permissions.grantPermit({ user: { id: 1, roles: ['USER'] }, resource: 'doc', action: 'read' });
    const proto = await permissions.grantPermit({ user: { id: 1, roles: ['__proto__'] }, resource: 'doc', action: 'read' });
    expect([user.granted, proto.granted]).toEqual([false, true]);
  });
});
