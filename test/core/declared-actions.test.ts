/**
 * Actions declared per resource (the `resourceActions` option of `build()`, `"actions"` of a `*.resource.json` for the
 * compiler): a grant naming another action on such a resource is a definition error with "Did you mean", `*` there
 * expands to its declared actions only, and asking it another action is a PermissionsUsageError naming them — while a
 * resource that declares nothing keeps the rule it always had: any action is accepted, one no definition grants is
 * simply not granted.
 */
import { describe, expect, it } from '@jest/globals';
import { MAX_DECLARED_ACTIONS } from '../../runtime/core/definition/declared-actions.js';
import { explainGrant, formatExplanation } from '../../runtime/core/decision/explain.js';
import { answerOfError, decideRequest } from '../../runtime/integration/index.js';
import { Permissions, PermissionsUsageError, type GrantTables, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { buildError, buildQuietly, collectingLogger } from './helpers.js';

const admin: User<number> = { id: 1, roles: ['ADMIN'] };
const editor: User<number> = { id: 2, roles: ['EDITOR'] };

const definitions: PermissionDefinition[] = [
  { roles: ['EDITOR'], resource: 'document', grant: ['read', 'approve:any'] },
  { roles: ['ADMIN'], resource: '*', descr: 'A super role.', grant: ['*:any'] },
  { roles: ['READER'], resource: 'note', grant: ['read', 'comment'] },
];
const resourceActions = { document: ['read', 'approve', 'publish'] };

/** The actions each role is granted on each resource, from the tables. */
function grantedActions(tables: GrantTables): Record<string, string[]> {
  const granted: Record<string, string[]> = {};
  for (const [resource, action, role] of tables.cells) (granted[`${tables.roles[role]} ${tables.resources[resource]}`] ??= []).push(tables.actions[action]!);
  return granted;
}

/** The error `run` throws, which must be a PermissionsUsageError. */
function usageError(run: () => unknown): PermissionsUsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof PermissionsUsageError) return error;
    throw error;
  }
  throw new Error('expected a PermissionsUsageError');
}

describe("'*' on a resource that declares its actions", () => {
  it("expands to its declared actions only — not the CRUD four, not another resource's actions", () => {
    const { permissions } = buildQuietly(definitions, { resourceActions });
    const { tables } = permissions;
    expect(tables.actions).toEqual(['approve', 'comment', 'create', 'delete', 'publish', 'read', 'update']);
    expect(tables.declaredActions).toEqual([[0, 4, 5], null]);
    expect(grantedActions(tables)).toEqual({
      'ADMIN document': ['approve', 'publish', 'read'],
      'EDITOR document': ['approve', 'read'],
      // note declares nothing: '*' is every known action there, as it always was.
      'ADMIN note': ['approve', 'comment', 'create', 'delete', 'publish', 'read', 'update'],
      'READER note': ['comment', 'read'],
    });
  });

  it('grants every declared action to the super role, ungranted ones included, and nothing else is asked', () => {
    const { permissions } = buildQuietly(definitions, { resourceActions });
    for (const action of ['read', 'approve', 'publish']) expect(permissions.grantPermitSync({ user: admin, resource: 'document', action }).granted).toBe(true);
    expect(permissions.grantPermitSync({ user: editor, resource: 'document', action: 'publish' }).granted).toBe(false);
  });

  it('a slice lists the declared actions only', () => {
    const { permissions } = buildQuietly(definitions, { resourceActions });
    const slice = permissions.sliceFor(admin);
    expect(slice.grants.map(([resource, actions]) => [resource, actions.map(([action]) => action)])).toEqual([
      ['document', ['approve', 'publish', 'read']],
      ['note', ['approve', 'comment', 'create', 'delete', 'publish', 'read', 'update']],
    ]);
  });

  it('counts what it reaches against the expansion limit: on a declared resource, its own actions', () => {
    // 600 roles × '*' on 2,000 resources, each also granted 'a' to one role by a definition of its own.
    const roles = Array.from({ length: 600 }, (_, i) => `R${i}`);
    const resources = Array.from({ length: 2000 }, (_, i) => `res${i}`);
    const wide: PermissionDefinition[] = [
      { roles, resource: '*', grant: ['*:any'] },
      ...resources.map((resource): PermissionDefinition => ({ roles: 'R0', resource, grant: ['a:any'] })),
    ];
    const expansions = (declared: Record<string, string[]>): string | undefined =>
      buildError(new Permissions({ resourceActions: declared, logger: collectingLogger().logger }).addPermissions(wide)).problems[0]?.message;
    // Each resource declares one action: 600 × 2,000 × 1 + 2,000.
    expect(expansions(Object.fromEntries(resources.map((resource) => [resource, ['a']])))).toBe(
      "The grant entries reach 1,202,000 role × resource × action combinations in all, every '*' expanded and a combination counted " +
        'once for each entry that reaches it: more than the limit of 1,000,000. This definition reaches the most, 1,200,000 ' +
        '(600 roles, 2000 resources, 5 actions are known).',
    );
    // None declares: '*' reaches the five known actions (a and CRUD) everywhere: 600 × 2,000 × 5 + 2,000.
    expect(expansions({})).toBe(
      "The grant entries reach 6,002,000 role × resource × action combinations in all, every '*' expanded and a combination counted " +
        'once for each entry that reaches it: more than the limit of 1,000,000. This definition reaches the most, 6,000,000 ' +
        '(600 roles, 2000 resources, 5 actions are known).',
    );
  });
});

describe('a grant naming an action its resource does not declare', () => {
  it('is a definition error at the grant entry, naming the declared actions, with "Did you mean"', () => {
    const permissions = new Permissions({ resourceActions }).addPermissions(
      [
        { roles: ['EDITOR'], resource: 'document', grant: ['read', 'aprove:any'] },
        { roles: ['EDITOR'], resource: 'document', grant: { 'delete:own': ['*'] }, isOwner: 'isMine', listOwned: 'listMine' },
      ],
      { source: 'rules' },
    );
    const error = buildError(permissions);
    expect(error.code).toBe('PERMISSION_DEFINITION_INVALID');
    expect(error.problems).toEqual([
      {
        code: 'unknown-action',
        index: 0,
        source: 'rules',
        path: ['grant', 1],
        message: 'Action "aprove" is not an action of "document", which declares "read", "approve", "publish". Did you mean "approve"?',
        fix: 'Correct the action, or add "aprove" to the actions of "document" in the resourceActions option.',
      },
      {
        code: 'unknown-hook-method',
        index: 1,
        source: 'rules',
        path: ['isOwner'],
        message: expect.stringContaining('"isMine"') as unknown as string,
        fix: expect.any(String) as unknown as string,
      },
      {
        code: 'unknown-hook-method',
        index: 1,
        source: 'rules',
        path: ['listOwned'],
        message: expect.stringContaining('"listMine"') as unknown as string,
        fix: expect.any(String) as unknown as string,
      },
      {
        code: 'unknown-action',
        index: 1,
        source: 'rules',
        path: ['grant', 'delete:own'],
        message: 'Action "delete" is not an action of "document", which declares "read", "approve", "publish".',
        fix: 'Correct the action, or add "delete" to the actions of "document" in the resourceActions option.',
      },
    ]);
  });

  it('an action declared on one resource and granted on another that declares its own is an error there', () => {
    const error = buildError(
      new Permissions({ resourceActions: { document: ['read', 'approve'], note: ['read', 'comment'] } }).addPermissions([
        { roles: ['EDITOR'], resource: 'note', grant: ['approve'] },
        { roles: ['EDITOR'], resource: 'document', grant: ['approve'] },
      ]),
    );
    expect(error.problems.map(({ code, index, path, message }) => ({ code, index, path, message }))).toEqual([
      { code: 'unknown-action', index: 0, path: ['grant', 0], message: 'Action "approve" is not an action of "note", which declares "read", "comment".' },
    ]);
  });

  it('an action declared on one resource and granted on one that declares nothing is accepted there, as it always was', () => {
    const { permissions } = buildQuietly([{ roles: ['EDITOR'], resource: 'note', grant: ['approve:any'] }, ...definitions], { resourceActions });
    expect(permissions.grantPermitSync({ user: editor, resource: 'note', action: 'approve' }).granted).toBe(true);
  });

  it("on every resource ('*'), reaches the resources that take it; an error only when none does", () => {
    const { permissions } = buildQuietly(
      [{ roles: ['EDITOR'], resource: '*', grant: ['comment:any'] }, { roles: ['READER'], resource: 'note', grant: ['read'] }, ...definitions.slice(0, 1)],
      { resourceActions },
    );
    expect(grantedActions(permissions.tables)['EDITOR note']).toEqual(['comment']);
    expect(grantedActions(permissions.tables)['EDITOR document']).toEqual(['approve', 'read']);

    const everyResourceDeclares = new Permissions({ resourceActions: { ...resourceActions, note: ['read', 'comment'] } }).addPermissions([
      { roles: ['EDITOR'], resource: '*', grant: ['comment:any', 'pubilsh'] },
      ...definitions,
    ]);
    expect(buildError(everyResourceDeclares).problems).toEqual([
      {
        code: 'unknown-action',
        index: 0,
        path: ['grant', 1],
        message: 'Action "pubilsh" is not an action of any resource: each one declares its actions, and none declares it. Did you mean "publish"?',
        fix: 'Correct the action, or declare it for the resources it applies to.',
      },
    ]);
  });
});

describe('asking a resource that declares its actions another action', () => {
  const { permissions } = buildQuietly(definitions, { resourceActions });
  const message = 'grantPermit: "aprove" is not an action of "document"; its actions are "approve", "publish", "read". Did you mean "approve"?';

  it('grantPermit rejects with a PermissionsUsageError naming the declared actions', async () => {
    const rejected = permissions.grantPermit({ user: admin, resource: 'document', action: 'aprove' });
    await expect(rejected).rejects.toThrow(new PermissionsUsageError(message));
    await expect(rejected).rejects.toMatchObject({ code: 'PERMISSIONS_USAGE' });
  });

  it('grantPermitSync throws the same, with or without a record, for a granted user or not', () => {
    for (const user of [admin, editor, { id: 3, roles: ['NOBODY'] }]) {
      for (const resourceId of [undefined, 10]) {
        const error = usageError(() => permissions.grantPermitSync({ user, resource: 'document', action: 'aprove', resourceId }));
        expect({ message: error.message, code: error.code }).toEqual({ message, code: 'PERMISSIONS_USAGE' });
      }
    }
  });

  it('even a CRUD action, which exists everywhere else, and without any near suggestion', () => {
    expect(usageError(() => permissions.grantPermitSync({ user: admin, resource: 'document', action: 'update' })).message).toBe(
      'grantPermit: "update" is not an action of "document"; its actions are "approve", "publish", "read".',
    );
  });

  it('the same in strict mode (it is refused either way) and from tables loaded with fromTables', () => {
    const strict = new Permissions({ resourceActions, strict: true }).addPermissions(definitions).build();
    expect(usageError(() => strict.grantPermitSync({ user: admin, resource: 'document', action: 'aprove' })).message).toBe(message);
    const loaded = Permissions.fromTables(permissions.tables);
    expect(usageError(() => loaded.grantPermitSync({ user: admin, resource: 'document', action: 'aprove' })).message).toBe(message);
  });

  it('an integration refuses the request with a 500 that shows nothing of the error (the handler never runs)', async () => {
    const error = await decideRequest(permissions, { user: admin, resource: 'document', action: 'aprove' }, 'test').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toEqual(new PermissionsUsageError(message));
    expect(answerOfError(error)).toEqual({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' },
      serverError: true,
    });
  });

  it("explain says the action is not one of the resource's, with the nearest declared one", () => {
    const explanation = explainGrant(permissions.tables, ['ADMIN'], 'document', 'aprove');
    expect(explanation).toMatchObject({ granted: false, unknownAction: true, declaredActions: ['approve', 'publish', 'read'], byRole: [] });
    expect(formatExplanation(explanation)).toBe(
      'aprove on document for roles ADMIN: NOT GRANTED\n' +
        '  - action "aprove" is not an action of "document"; its actions are "approve", "publish", "read". Did you mean "approve"?',
    );
  });
});

describe('a resource that declares no actions keeps the rule it always had', () => {
  it('any action is accepted and, granted to no one, simply not granted — warned once, refused only in strict mode', () => {
    const { warnings, logger } = collectingLogger();
    const permissions = new Permissions({ resourceActions, logger }).addPermissions(definitions).build();
    expect(permissions.grantPermitSync({ user: admin, resource: 'note', action: 'publish' }).granted).toBe(true);
    expect(permissions.grantPermitSync({ user: { id: 4, roles: ['READER'] }, resource: 'note', action: 'publish' }).granted).toBe(false);
    expect(permissions.grantPermitSync({ user: admin, resource: 'note', action: 'archive' }).granted).toBe(false);
    expect(permissions.grantPermitSync({ user: admin, resource: 'note', action: 'archive' }).granted).toBe(false);
    expect(warnings).toEqual(['typed-permissions: unknown action "archive": no definition grants it on any resource; nothing is granted.']);
  });

  it('without any declaration, the tables are those of before: no declaredActions, every action on every resource', () => {
    const { permissions } = buildQuietly(definitions);
    expect('declaredActions' in permissions.tables).toBe(false);
    expect(grantedActions(permissions.tables)['ADMIN document']).toEqual(['approve', 'comment', 'create', 'delete', 'read', 'update']);
    expect(permissions.grantPermitSync({ user: editor, resource: 'document', action: 'aprove' }).granted).toBe(false);
  });
});

describe('the resourceActions option', () => {
  const refused = (declared: unknown): string => usageError(() => new Permissions({ resourceActions: { document: declared } as never })).message;

  it.each([
    [
      'an empty list',
      [],
      'Permissions option resourceActions.document: The declared actions are empty; a resource that declares its actions has at least one.',
    ],
    ['a name that is not a string', ['read', 7], 'Permissions option resourceActions.document[1]: The declared actions must be an array of action names.'],
    [
      'a name declared twice',
      ['read', 'approve', 'read'],
      'Permissions option resourceActions.document[2]: Action "read" is declared twice (also at index 0).',
    ],
    ['"*"', ['read', '*'], 'Permissions option resourceActions.document[1]: Action "*" means every action; it cannot be declared.'],
    ['a possession', ['read:own'], 'Permissions option resourceActions.document[0]: Action "read:own" holds a possession; an action is declared without one.'],
    ['an empty name', [''], 'Permissions option resourceActions.document[0]: An action name is empty.'],
    ['whitespace', ['re ad'], 'Permissions option resourceActions.document[0]: Action "re ad" contains whitespace.'],
    [
      'a name past 128 characters',
      ['a'.repeat(129)],
      `Permissions option resourceActions.document[0]: Action "${'a'.repeat(60)}"… is 129 characters long; the limit is 128.`,
    ],
  ])('refuses %s, naming the option and the place', (_what, declared, start) => {
    expect(refused(declared).startsWith(`${start} Fix: `)).toBe(true);
  });

  it('refuses a value that is not a list, with every other option, when any engine is made', () => {
    expect(refused('read')).toBe('Permissions option resourceActions.document must be an array of action names, such as ["read", "approve"].');
    expect(usageError(() => new Permissions({ resourceActions: ['read'] as never })).message).toBe(
      'Permissions option resourceActions must be an object: resource name → the array of its action names.',
    );
  });

  it(`takes ${MAX_DECLARED_ACTIONS} actions, and refuses one more before reading them`, () => {
    const names = Array.from({ length: MAX_DECLARED_ACTIONS + 1 }, (_, i) => `action${i}`);
    const { permissions } = buildQuietly([{ roles: ['ADMIN'], resource: 'document', grant: ['*:any'] }], {
      resourceActions: { document: names.slice(0, MAX_DECLARED_ACTIONS) },
    });
    expect(permissions.tables.cells).toHaveLength(MAX_DECLARED_ACTIONS);
    expect(refused(names)).toBe(
      `Permissions option resourceActions.document: ${MAX_DECLARED_ACTIONS + 1} actions are declared; the limit is ${MAX_DECLARED_ACTIONS}. ` +
        `Fix: Declare at most ${MAX_DECLARED_ACTIONS} actions, or declare none to accept any action.`,
    );
  });

  it('takes __proto__ and constructor as ordinary names, of actions and of resources', () => {
    const declared = JSON.parse('{ "__proto__": ["constructor", "__proto__"] }') as Record<string, string[]>;
    const { permissions } = buildQuietly([{ roles: ['ADMIN'], resource: '__proto__', grant: ['*:any'] }], { resourceActions: declared });
    expect(grantedActions(permissions.tables)).toEqual({ 'ADMIN __proto__': ['__proto__', 'constructor'] });
    expect(permissions.grantPermitSync({ user: admin, resource: '__proto__', action: '__proto__' }).granted).toBe(true);
    expect(usageError(() => permissions.grantPermitSync({ user: admin, resource: '__proto__', action: 'toString' })).message).toBe(
      'grantPermit: "toString" is not an action of "__proto__"; its actions are "__proto__", "constructor".',
    );
  });

  it('is copied when the engine is made: changing the list afterwards changes nothing', () => {
    const list = ['read'];
    const permissions = new Permissions({ resourceActions: { document: list }, logger: collectingLogger().logger }).addPermissions([
      { roles: ['ADMIN'], resource: 'document', grant: ['*:any'] },
    ]);
    list.push('approve');
    permissions.build();
    expect(grantedActions(permissions.tables)).toEqual({ 'ADMIN document': ['read'] });
  });

  it('warns about a resource no definition names', () => {
    const { warnings } = buildQuietly(definitions, { resourceActions: { documnet: ['read'] } });
    expect(warnings).toEqual(['typed-permissions: Actions are declared for resource "documnet", which no definition names; they are not used.']);
  });

  it('is refused by fromTables, whose tables carry the declared actions', () => {
    const { permissions } = buildQuietly(definitions, { resourceActions });
    expect(() => Permissions.fromTables(permissions.tables, { resourceActions })).toThrow(
      new PermissionsUsageError(
        "Precompiled tables carry the declared actions; remove the resourceActions option and declare each resource's actions in its resource " +
          'file ("actions": ["read", "approve"] in definitions/<resource>.resource.json), then compile again (npx typed-permissions compile).',
      ),
    );
  });
});

describe('precompiled tables with declared actions, checked when loaded', () => {
  const { permissions } = buildQuietly(definitions, { resourceActions });
  const withDeclared = (declaredActions: unknown): GrantTables => ({ ...permissions.tables, declaredActions }) as GrantTables;
  const loadProblem = (tables: GrantTables): string => usageError(() => Permissions.fromTables(tables)).message;

  it.each([
    ['not one entry per resource', [[0, 4, 5]], 'declaredActions does not have one entry per resource'],
    ['an empty list', [[], null], 'declaredActions[0] is empty'],
    ['an index past the actions', [[0, 4, 9], null], 'declaredActions[0][2] is not an index below 7'],
    ['indexes out of order', [[0, 5, 4], null], 'declaredActions[0][2] is not ascending'],
    ['an index twice', [[0, 4, 4], null], 'declaredActions[0][2] is not ascending'],
    ['not a list', [7, null], 'declaredActions[0] is not an array'],
    ['a cell of an action its resource does not declare', [[0, 5], null], 'is not an action its resource declares'],
  ])('refuses %s', (_what, declared, problem) => {
    expect(loadProblem(withDeclared(declared))).toContain(problem);
  });
});
