/**
 * Names must be printable text of bounded length (one rule, in
 * build() and the compiler alike); hook names must not collide with object or framework machinery;
 * and a hook that answers with a hostile thenable fails closed with a PermissionsHookError.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { PermissionDefinitionError, Permissions, PermissionsHookError, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { MAX_NAME_LENGTH } from '../../runtime/core/definition/names.js';
import { makeTempDir, removeTempDir } from '../compiler/helpers.js';

function buildError(definitions: readonly unknown[], ownership?: object): PermissionDefinitionError {
  const permissions = new Permissions({ logger: { warn: () => undefined }, ...(ownership === undefined ? {} : { ownership }) });
  permissions.addPermissions(definitions as PermissionDefinition[], { source: 'hostile' });
  try {
    permissions.build();
  } catch (error) {
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    return error as PermissionDefinitionError;
  }
  throw new Error('build() was expected to fail');
}

const HOSTILE_NAMES: readonly [what: string, name: string, says: string][] = [
  ['a newline', 'EMPLOYEE\nADMIN', 'contains the unprintable character U+000A'],
  ['a carriage return', 'EMPLOYEE\r', 'contains the unprintable character U+000D'],
  ['NUL', 'A\u0000B', 'contains the unprintable character U+0000'],
  ['ESC (an ANSI sequence)', '\u001b[31mRED', 'contains the unprintable character U+001B'],
  ['a C1 control', 'A\u009bB', 'contains the unprintable character U+009B'],
  ['a line separator', 'A\u2028B', 'contains the unprintable character U+2028'],
  ['a right-to-left override', 'ADMIN\u202eNIMDA', 'contains the unprintable character U+202E'],
  ['a zero-width space', 'ADM\u200bIN', 'contains the unprintable character U+200B'],
  ['a lone surrogate', 'A\ud800B', 'contains a lone surrogate (U+D800), which is not text'],
  ['a name one longer than the limit', 'R'.repeat(MAX_NAME_LENGTH + 1), `${MAX_NAME_LENGTH}`],
  // The limit counts UTF-16 code units, as JavaScript's length does: an emoji is two, whatever zod's own max counts.
  ['65 emoji (130 UTF-16 code units)', '😀'.repeat(65), `is 130 characters long; the limit is ${MAX_NAME_LENGTH}`],
  ['a right-to-left override after 64 emoji', `${'😀'.repeat(64)}\u202e`, `is 129 characters long; the limit is ${MAX_NAME_LENGTH}`],
];

describe('names are printable text of bounded length, in build() and the compiler alike', () => {
  let temp: string | undefined;
  beforeAll(() => {
    temp = makeTempDir('names');
  });
  afterAll(() => removeTempDir(temp));

  /** Compiles one definitions file holding `definitions`, returning the problems. */
  function compileProblems(label: string, definitions: readonly unknown[]) {
    const dir = join(temp as string, label);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hostile.permissions.json'), JSON.stringify(definitions, null, 2));
    const result = compileModel(dir);
    expect(result.ok).toBe(false);
    return result.ok ? [] : result.problems;
  }

  it.each(HOSTILE_NAMES)('a role name with %s is refused with a clear error', (_what, name, says) => {
    const definitions = [{ roles: ['EMPLOYEE', name], resource: 'document', grant: ['read:any'] }];
    const error = buildError(definitions);
    expect(error.problems).toEqual([expect.objectContaining({ code: 'invalid-shape', index: 0, source: 'hostile', path: ['roles', 1] })]);
    expect(error.problems[0]?.message).toContain(says);
    const problems = compileProblems(`role-${_what.replace(/\W+/g, '-')}`, definitions);
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([['invalid-shape', [0, 'roles', 1]]]);
    expect(problems[0]?.message).toContain(says);
  });

  it.each(HOSTILE_NAMES)('a resource, an action and an attribute with %s are refused', (_what, name, says) => {
    const resourceError = buildError([{ roles: 'A', resource: name, grant: ['read:any'] }]);
    expect(resourceError.problems.map((problem) => problem.path)).toEqual([['resource']]);
    expect(resourceError.problems[0]?.message).toContain(says);
    // A newline is also whitespace, which an action may not contain: either message is clear.
    const actionError = buildError([{ roles: 'A', resource: 'document', grant: [`${name}:any`] }]);
    expect(actionError.problems.map((problem) => [problem.code, problem.path])).toEqual([['bad-action', ['grant', 0]]]);
    const attributeError = buildError([{ roles: 'A', resource: 'document', grant: { 'read:any': ['title', `address.${name}`] } }]);
    expect(attributeError.problems.map((problem) => [problem.code, problem.path])).toEqual([['bad-attribute', ['grant', 'read:any', 1]]]);
    expect(attributeError.problems[0]?.message).toContain(says);
  });

  it('names at the length limit, and printable unicode, are fine', () => {
    const permissions = new Permissions({ logger: { warn: () => undefined } });
    const long = 'R'.repeat(MAX_NAME_LENGTH);
    permissions.addPermissions([
      {
        roles: [long, 'Ärztin', '管理者', 'emoji👩‍💻'.replace('\u200d', '')],
        resource: 'dокумент',
        grant: { [`${'a'.repeat(MAX_NAME_LENGTH)}:any`]: ['*', `!${'x'.repeat(MAX_NAME_LENGTH)}`] },
      },
    ]);
    permissions.build();
    expect(permissions.tables.roles).toEqual([long, 'emoji👩💻', 'Ärztin', '管理者'].sort((a, b) => (a < b ? -1 : 1)));
  });
});

describe('hook names that collide with object or framework machinery are refused', () => {
  it.each(['then', 'prototype', 'constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'onModuleInit', 'onApplicationShutdown'])(
    'a hook named %s',
    (name) => {
      const error = buildError([{ roles: 'A', resource: 'document', possession: 'own', grant: ['read'], isOwner: name, listOwned: 'listMine' }], {
        listMine: () => [],
      });
      expect(error.problems.map((problem) => [problem.code, problem.path])).toEqual([['invalid-shape', ['isOwner']]]);
      expect(error.problems[0]?.message).toContain(`The hook name "${name}" is reserved`);
    },
  );

  it('"then" names the reason: it would make the ownership service a thenable', () => {
    const error = buildError([{ roles: 'A', resource: 'document', possession: 'own', grant: ['read'], isOwner: 'then', listOwned: 'listMine' }], {
      listMine: () => [],
    });
    expect(error.problems[0]?.message).toBe(
      'The hook name "then" is reserved: a method named "then" makes the ownership service a thenable, which promises and NestJS would call.',
    );
  });

  it('"new" names the reason: the generated interface would declare a constructor no service implements', () => {
    const error = buildError([{ roles: 'A', resource: 'document', possession: 'own', grant: ['read'], isOwner: 'new', listOwned: 'listMine' }], {
      listMine: () => [],
    });
    expect(error.problems[0]?.message).toBe(
      'The hook name "new" is reserved: in the ownership service\'s generated interface "new" would declare a constructor, not a method.',
    );
  });
});

async function isOwnWith(answer: () => unknown, hookTimeoutMs = 1000): Promise<unknown> {
  const permissions = new Permissions({ hookTimeoutMs, logger: { warn: () => undefined } });
  const hostileIsOwner = (): boolean => answer() as boolean;
  permissions.addPermissions([{ roles: 'A', resource: 'document', possession: 'own', grant: ['read'], isOwner: hostileIsOwner, listOwned: () => [] }]);
  permissions.build();
  const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'document', action: 'read' });
  return permit.isOwn(1).then(
    (owned) => ({ owned }),
    (error: unknown) => error,
  );
}

describe('a hook answering with a hostile thenable fails closed with a PermissionsHookError', () => {
  it('a then getter that throws', async () => {
    const error = await isOwnWith(() => ({
      get then() {
        throw new Error('getter trap');
      },
    }));
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect((error as Error).message).toBe("Ownership hook hostileIsOwner answered with an object whose 'then' cannot be read: getter trap");
  });

  it('a then method that throws', async () => {
    const error = await isOwnWith(() => ({
      then() {
        throw new Error('then trap');
      },
    }));
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect((error as Error).message).toBe("Ownership hook hostileIsOwner answered with a thenable whose 'then' threw: then trap");
  });

  it('a then that answers true and then throws counts its first answer only', async () => {
    expect(
      await isOwnWith(() => ({
        then(resolve: (value: unknown) => void) {
          resolve(true);
          throw new Error('late trap');
        },
      })),
    ).toEqual({ owned: true });
  });

  it('a then that never calls back times out, closed', async () => {
    const error = await isOwnWith(() => ({ then() {} }), 20);
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect((error as Error).message).toBe(
      'Ownership hook hostileIsOwner did not settle within 20 ms; access is refused. Make the hook answer faster, or raise hookTimeoutMs.',
    );
  });

  it('a thrown value whose toString throws still becomes a PermissionsHookError', async () => {
    const error = await isOwnWith(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile non-Error value this item is about
      throw {
        toString() {
          throw new Error('no');
        },
      };
    });
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect((error as Error).message).toBe('Ownership hook hostileIsOwner threw: a value that cannot be shown');
  });
  unreadableListsAndThrowingLimits();
});

function unreadableListsAndThrowingLimits(): void {
  it('a listOwned answer that cannot be read (a hostile array) and a limitOwned that throws', async () => {
    const hostileArray = new Proxy([1, 2], {
      get(target, key, receiver) {
        if (key === Symbol.iterator) throw new Error('iterator trap');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const permissions = new Permissions<User<unknown>, unknown>({ logger: { warn: () => undefined } });
    permissions.addPermissions([
      {
        roles: 'L',
        resource: 'document',
        possession: 'own',
        grant: ['read'],
        isOwner: () => false,
        listOwned: function listHostile() {
          return hostileArray;
        },
      },
      {
        roles: 'M',
        resource: 'document',
        possession: 'own',
        grant: ['read'],
        isOwner: () => false,
        limitOwned: function limitBroken(): never {
          throw new Error('filter trap');
        },
      },
    ]);
    permissions.build();
    const listing = await permissions.grantPermit({ user: { id: 1, roles: ['L'] }, resource: 'document', action: 'read' });
    const listError = await listing.listOwn().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(listError).toBeInstanceOf(PermissionsHookError);
    expect((listError as Error).message).toBe('Ownership hook listHostile answered with a value that cannot be read: iterator trap');
    const limiting = await permissions.grantPermit({ user: { id: 1, roles: ['M'] }, resource: 'document', action: 'read' });
    expect(() => limiting.limitOwn()).toThrow(PermissionsHookError);
    expect(() => limiting.limitOwn()).toThrow('Ownership hook limitBroken threw: filter trap');
  });
}
