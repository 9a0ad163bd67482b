/**
 * build() rejects invalid definitions with one PermissionDefinitionError that lists every problem,
 * each with its code, the definition's index and source, a path, a message and a fix.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, PermissionDefinitionError, PermissionsError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { buildError, collectingLogger, problemSummary } from './helpers.js';

const isOwner = () => true;
const listOwned = () => [];
const limitOwned = () => 'filter';

/** Adds each definition on its own (so its index is 0) under `source`, builds, and returns the problems. */
function problemsOf(definition: unknown, options: ConstructorParameters<typeof Permissions>[0] = {}) {
  const permissions = new Permissions({ logger: collectingLogger().logger, ...options });
  permissions.addPermissions([definition as PermissionDefinition], { source: 'case.json' });
  return problemSummary(buildError(permissions));
}

const cases: [rule: string, definition: unknown, expected: { code: string; path: (string | number)[] }[]][] = [
  ['missing roles is invalid-shape', { resource: 'doc', grant: ['read'] }, [{ code: 'invalid-shape', path: ['roles'] }]],
  ['missing resource is invalid-shape', { roles: 'A', grant: ['read'] }, [{ code: 'invalid-shape', path: ['resource'] }]],
  ['missing grant is invalid-shape', { roles: 'A', resource: 'doc' }, [{ code: 'invalid-shape', path: ['grant'] }]],
  ['an unknown field is invalid-shape', { roles: 'A', resource: 'doc', grant: ['read'], grants: ['update'] }, [{ code: 'invalid-shape', path: [] }]],
  ['a definition that is not an object is invalid-shape', 'read everything', [{ code: 'invalid-shape', path: [] }]],
  ['an empty grant array is empty-grant', { roles: 'A', resource: 'doc', grant: [] }, [{ code: 'empty-grant', path: ['grant'] }]],
  ['an empty grant object is empty-grant', { roles: 'A', resource: 'doc', grant: {} }, [{ code: 'empty-grant', path: ['grant'] }]],
  [
    "possession suffix 'read:mine' is bad-possession",
    { roles: 'A', resource: 'doc', grant: ['read', 'read:mine'] },
    [{ code: 'bad-possession', path: ['grant', 1] }],
  ],
  ["grant entry ':own' is bad-action", { roles: 'A', resource: 'doc', grant: [':own'] }, [{ code: 'bad-action', path: ['grant', 0] }]],
  ["grant entry '' is bad-action", { roles: 'A', resource: 'doc', grant: [''] }, [{ code: 'bad-action', path: ['grant', 0] }]],
  [
    'an attribute list that keeps nothing ([]) is bad-attribute',
    { roles: 'A', resource: 'doc', grant: { read: [] } },
    [{ code: 'bad-attribute', path: ['grant', 'read'] }],
  ],
  [
    'an own action without any ownership hook is own-without-list-or-limit',
    { roles: 'A', resource: 'doc', possession: 'own', grant: ['read'] },
    [{ code: 'own-without-list-or-limit', path: [] }],
  ],
  [
    'an own action with isOwner but neither listOwned nor limitOwned is own-without-list-or-limit',
    { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner },
    [{ code: 'own-without-list-or-limit', path: [] }],
  ],
  [
    'listOwned and limitOwned together is both-list-and-limit',
    { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner, listOwned, limitOwned },
    [{ code: 'both-list-and-limit', path: ['limitOwned'] }],
  ],
  [
    'limitOwned without isOwner, on a resource without an ownedAmong executor, is own-without-is-owner',
    { roles: 'A', resource: 'doc', grant: ['read'], limitOwned },
    [{ code: 'own-without-is-owner', path: ['limitOwned'] }],
  ],
];

describe('build errors', () => {
  it('listOwned without isOwner builds (ownership is membership in the list)', () => {
    const permissions = new Permissions({ logger: collectingLogger().logger });
    permissions.addPermissions([{ roles: 'A', resource: 'doc', grant: ['read:own'], listOwned }]);
    expect(permissions.build().built).toBe(true);
  });

  for (const [rule, definition, expected] of cases) {
    it(`build error: ${rule}`, () => {
      expect(problemsOf(definition)).toEqual(expected.map((problem) => ({ ...problem, index: 0, source: 'case.json' })));
    });
  }

  it("build error: an attribute list that keeps nothing (['!x']) is bad-attribute", () => {
    expect(
      problemsOf({ roles: 'A', resource: 'doc', grant: { read: ['title'], update: ['!x'] } }).map((problem) => [problem.code, problem.index, problem.source]),
    ).toEqual([['bad-attribute', 0, 'case.json']]);
  });

  it('build error: the error has code PERMISSION_DEFINITION_INVALID, is a PermissionsError, and every problem has a message and a fix', () => {
    const permissions = new Permissions({ logger: collectingLogger().logger });
    permissions.addPermissions([{ roles: 'A', resource: 'doc', grant: ['read:mine'] }], { source: 'case.json' });
    const error = buildError(permissions);
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    expect(error).toBeInstanceOf(PermissionsError);
    expect(error.code).toBe('PERMISSION_DEFINITION_INVALID');
    expect(error.problems).toHaveLength(1);
    const [problem] = error.problems;
    expect(problem?.message).toEqual(expect.stringContaining('mine'));
    expect(problem?.fix).toEqual(expect.any(String));
    expect(problem?.fix.length).toBeGreaterThan(0);
    expect(error.message).toContain('case.json');
  });

  it("build error: own-without-list-or-limit says the definition has an 'own' action but neither callback", () => {
    const permissions = new Permissions({ logger: collectingLogger().logger });
    permissions.addPermissions([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner } as unknown as PermissionDefinition]);
    const error = buildError(permissions);
    expect(error.problems.map((problem) => problem.code)).toEqual(['own-without-list-or-limit']);
    expect(error.problems[0]?.message).toContain("has an 'own' action but neither callback");
  });
  problemListAndHookNames();
  redefinitionsAndValidBuilds();
});

function problemListAndHookNames(): void {
  it('build error: ALL problems of all definitions and sources are listed in one error, with their index and source', () => {
    const permissions = new Permissions({ logger: collectingLogger().logger });
    permissions.addPermissions(
      [
        { roles: 'OK', resource: 'doc', grant: ['read'] },
        { roles: 'A', resource: 'doc', grant: ['read:mine'] },
        { roles: 'A', resource: 'doc', grant: [] },
        { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner } as unknown as PermissionDefinition,
      ],
      { source: 'first.json' },
    );
    permissions.addPermissions(
      [
        { roles: 'B', resource: 'doc', grant: [':own'] },
        { roles: 'B', resource: 'doc', grant: ['update'], listOwned },
        { roles: 'B', resource: 'doc', grant: ['update:own'] },
        { roles: 'B', resource: 'doc', grant: ['delete:own'], isOwner, listOwned, limitOwned } as unknown as PermissionDefinition,
        { roles: 'B', resource: 'doc', grant: { read: ['!x'] } },
      ],
      { source: 'second.json' },
    );
    permissions.addPermissions([{ resource: 'doc', grant: ['read'] } as unknown as PermissionDefinition]);
    const problems = problemSummary(buildError(permissions)).map(({ code, index, source }) => ({ code, index, source }));
    // Shape and syntax problems may be listed before problems found while building tables: compare as a set.
    expect(problems).toHaveLength(8);
    expect(problems).toEqual(
      expect.arrayContaining([
        { code: 'bad-possession', index: 1, source: 'first.json' },
        { code: 'empty-grant', index: 2, source: 'first.json' },
        { code: 'own-without-list-or-limit', index: 3, source: 'first.json' },
        { code: 'bad-action', index: 0, source: 'second.json' },
        { code: 'own-without-list-or-limit', index: 2, source: 'second.json' },
        { code: 'both-list-and-limit', index: 3, source: 'second.json' },
        { code: 'bad-attribute', index: 4, source: 'second.json' },
        { code: 'invalid-shape', index: 0, source: undefined },
      ]),
    );
  });

  it('build error: a hook string naming a method the ownership object lacks is unknown-hook-method', () => {
    const ownership = { isCreator: () => true };
    const problems = problemsOf({ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator', listOwned: 'listCreated' }, { ownership });
    expect(problems).toEqual([{ code: 'unknown-hook-method', index: 0, source: 'case.json', path: ['listOwned'] }]);
  });

  it('build error: hook strings without any ownership object are unknown-hook-method', () => {
    const problems = problemsOf({ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator', limitOwned: 'limitToCreator' });
    expect(problems.map(({ code, path }) => [code, path])).toEqual([
      ['unknown-hook-method', ['isOwner']],
      ['unknown-hook-method', ['limitOwned']],
    ]);
  });

  it("build error: a hook named like an Object.prototype member ('toString') is invalid-shape, even though every object has it", () => {
    const ownership = { listCreated: () => [] };
    const problems = problemsOf({ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'toString', listOwned: 'listCreated' }, { ownership });
    expect(problems.map(({ code, path }) => [code, path])).toEqual([['invalid-shape', ['isOwner']]]);
  });
}

function redefinitionsAndValidBuilds(): void {
  it(
    'build error: the same explicit (role, resource, action:possession) in two definitions with different ' +
      'attributes is conflicting-redefinition, naming both',
    () => {
      const permissions = new Permissions({ logger: collectingLogger().logger });
      permissions.addPermissions([{ roles: 'A', resource: 'doc', grant: { read: ['title'] } }], { source: 'first.json' });
      permissions.addPermissions([{ roles: ['B', 'A'], resource: 'doc', grant: { 'read:any': ['title', 'date'] } }], { source: 'second.json' });
      const error = buildError(permissions);
      // The problem is located at the later definition and its message names the earlier one, so the error names both.
      expect(problemSummary(error).map(({ code, index, source }) => ({ code, index, source }))).toEqual([
        { code: 'conflicting-redefinition', index: 0, source: 'second.json' },
      ]);
      expect(error.problems[0]?.message).toContain('first.json');
      expect(error.message).toContain('first.json');
      expect(error.message).toContain('second.json');
    },
  );

  it('build: an identical explicit redefinition is only a warning; redefinitions through * are unions, not conflicts', () => {
    const { warnings, logger } = collectingLogger();
    const permissions = new Permissions({ logger });
    permissions.addPermissions([
      { roles: 'A', resource: 'doc', grant: { read: ['title'] } },
      { roles: 'A', resource: 'doc', grant: { 'read:any': ['title'] } },
      { roles: '*', resource: 'doc', grant: { read: ['date'] } },
      { roles: 'A', resource: '*', grant: { read: ['status'] } },
    ]);
    expect(() => permissions.build()).not.toThrow();
    expect(warnings).toHaveLength(1);
  });

  it('build: the same role, resource and action in different possessions is no conflict and no warning', () => {
    const { warnings, logger } = collectingLogger();
    const permissions = new Permissions({ logger });
    permissions.addPermissions([
      { roles: 'A', resource: 'doc', grant: { 'read:any': ['title'] } },
      { roles: 'A', resource: 'doc', grant: { 'read:own': ['*'] }, isOwner, limitOwned },
    ]);
    expect(() => permissions.build()).not.toThrow();
    expect(warnings).toEqual([]);
  });

  it('build: valid definitions build without problems or warnings', () => {
    const { warnings, logger } = collectingLogger();
    const permissions = new Permissions({ logger, ownership: { isCreator: () => true, listCreated: () => [] } });
    permissions.addPermissions([
      {
        roles: ['A', 'B'],
        resource: 'doc',
        descr: 'reads',
        possession: 'own',
        grant: { read: ['*', '!secret'], 'list:any': ['title'] },
        isOwner: 'isCreator',
        listOwned: 'listCreated',
      },
      { roles: 'C', resource: '*', grant: ['*:any'] },
    ]);
    expect(() => permissions.build()).not.toThrow();
    expect(warnings).toEqual([]);
  });
}
