/**
 * Grant forms (rules 1–4), the common role patterns, possession defaulting and the expansion
 * of '*' for roles, resources and actions.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, type Permit } from '../../runtime/permissions/index.js';
import { buildQuietly, testDoc } from './helpers.js';

const setup = buildQuietly;

function decision(permit: Permit) {
  return { granted: permit.granted, anyGranted: permit.anyGranted, ownGranted: permit.ownGranted, anyAttributes: [...permit.anyAttributes] };
}

/** For every (role, resource, action) triple: whether grantPermit (without resourceId) grants it. */
async function grantedMatrix(permissions: Permissions, roles: readonly string[], resources: readonly string[], actions: readonly string[]) {
  const matrix: Record<string, boolean> = {};
  for (const role of roles) {
    for (const resource of resources) {
      for (const action of actions) {
        const permit = await permissions.grantPermit({ user: { id: 1, roles: [role] }, resource, action });
        matrix[`${role} ${resource} ${action}`] = permit.granted;
      }
    }
  }
  return matrix;
}

const GRANTED = { granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] };
const REFUSED = { granted: false, anyGranted: false, ownGranted: false, anyAttributes: [] };

describe('grant forms', () => {
  it("Grant forms rule 1: a grant naming no specific action ('*:any') grants only create, read, update and delete", async () => {
    const { permissions, warnings } = setup([{ roles: 'ADMIN', resource: 'doc', grant: ['*:any'] }]);
    const user = { id: 1, roles: ['ADMIN'] };
    for (const action of ['create', 'read', 'update', 'delete']) {
      expect(decision(await permissions.grantPermit({ user, resource: 'doc', action }))).toEqual(GRANTED);
    }
    expect(decision(await permissions.grantPermit({ user, resource: 'doc', action: 'approve' }))).toEqual(REFUSED);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('approve');
  });

  it("Grant forms rule 2: the action '*' means any action, including custom actions named in any definition", async () => {
    const { permissions, warnings } = setup([
      { roles: 'ADMIN', resource: 'doc', grant: ['*'] },
      { roles: 'REVIEWER', resource: 'doc', grant: ['approve'] },
      { roles: 'FOLLOWER', resource: 'invoice', grant: ['follow'] },
    ]);
    const user = { id: 1, roles: ['ADMIN'] };
    for (const action of ['create', 'read', 'update', 'delete', 'approve', 'follow']) {
      expect(decision(await permissions.grantPermit({ user, resource: 'doc', action }))).toEqual(GRANTED);
    }
    expect(decision(await permissions.grantPermit({ user, resource: 'invoice', action: 'follow' }))).toEqual(REFUSED);
    expect(warnings).toEqual([]);
  });

  it('Grant forms rule 2: array entries and object keys grant the same actions; the array form grants every attribute', async () => {
    const { permissions } = setup([
      { roles: 'ARRAY', resource: 'doc', grant: ['read', 'update:any'] },
      { roles: 'OBJECT', resource: 'doc', grant: { read: ['*'], 'update:any': ['*'] } },
    ]);
    expect(await grantedMatrix(permissions, ['ARRAY', 'OBJECT'], ['doc'], ['read', 'update', 'delete'])).toEqual({
      'ARRAY doc read': true,
      'ARRAY doc update': true,
      'ARRAY doc delete': false,
      'OBJECT doc read': true,
      'OBJECT doc update': true,
      'OBJECT doc delete': false,
    });
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['ARRAY'] }, resource: 'doc', action: 'read' });
    expect(permit.anyAttributes).toEqual(['*']);
    expect(await permit.pick(testDoc(3))).toEqual(testDoc(3));
  });

  it('Grant forms rule 3: an action declared on one resource is valid on another, but simply not granted there (no error, no warning)', async () => {
    const { permissions, warnings } = setup([
      { roles: 'CLERK', resource: 'invoice', grant: ['approve'] },
      { roles: 'CLERK', resource: 'doc', grant: ['read'] },
    ]);
    const user = { id: 1, roles: ['CLERK'] };
    expect(decision(await permissions.grantPermit({ user, resource: 'invoice', action: 'approve' }))).toEqual(GRANTED);
    expect(decision(await permissions.grantPermit({ user, resource: 'doc', action: 'approve' }))).toEqual(REFUSED);
    expect(warnings).toEqual([]);
  });

  it("Grant forms rule 4: role '*' with resource '*' and a custom action grants that action on every resource to every known role", async () => {
    const { permissions } = setup([
      { roles: ['*'], resource: '*', grant: ['follow'] },
      { roles: 'A', resource: 'doc', grant: ['read'] },
      { roles: 'B', resource: 'invoice', grant: ['read'] },
    ]);
    expect(await grantedMatrix(permissions, ['A', 'B'], ['doc', 'invoice'], ['follow', 'read'])).toEqual({
      'A doc follow': true,
      'A doc read': true,
      'A invoice follow': true,
      'A invoice read': false,
      'B doc follow': true,
      'B doc read': false,
      'B invoice follow': true,
      'B invoice read': true,
    });
  });
});

describe("'*' expansions", () => {
  it("'*' expansions: role '*' means every known role, and never a role that no definition names", async () => {
    const { permissions, warnings } = setup([
      { roles: '*', resource: 'doc', grant: ['read'] },
      { roles: ['A', 'B'], resource: 'doc', grant: ['update'] },
    ]);
    expect(await grantedMatrix(permissions, ['A', 'B'], ['doc'], ['read', 'update'])).toEqual({
      'A doc read': true,
      'A doc update': true,
      'B doc read': true,
      'B doc update': true,
    });
    expect(decision(await permissions.grantPermit({ user: { id: 1, roles: ['STRANGER'] }, resource: 'doc', action: 'read' }))).toEqual(REFUSED);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('STRANGER');
  });

  it("'*' expansions: resource '*' means every known resource, and never a resource that no definition names", async () => {
    const { permissions, warnings } = setup([
      { roles: 'ADMIN', resource: '*', grant: ['read'] },
      { roles: 'A', resource: 'doc', grant: ['read'] },
      { roles: 'A', resource: 'invoice', grant: ['read'] },
    ]);
    expect(await grantedMatrix(permissions, ['ADMIN'], ['doc', 'invoice'], ['read'])).toEqual({ 'ADMIN doc read': true, 'ADMIN invoice read': true });
    expect(decision(await permissions.grantPermit({ user: { id: 1, roles: ['ADMIN'] }, resource: 'payroll', action: 'read' }))).toEqual(REFUSED);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('payroll');
  });

  it("'*' expansions: action '*' means every known action; with no custom action anywhere it is CRUD only", async () => {
    const custom = setup([
      { roles: 'ADMIN', resource: 'doc', grant: ['*:any'] },
      { roles: 'A', resource: 'doc', grant: ['publish', 'archive'] },
    ]);
    expect(await grantedMatrix(custom.permissions, ['ADMIN'], ['doc'], ['create', 'read', 'update', 'delete', 'publish', 'archive'])).toEqual({
      'ADMIN doc create': true,
      'ADMIN doc read': true,
      'ADMIN doc update': true,
      'ADMIN doc delete': true,
      'ADMIN doc publish': true,
      'ADMIN doc archive': true,
    });
    const crudOnly = setup([{ roles: 'ADMIN', resource: 'doc', grant: ['*'] }]);
    expect((await crudOnly.permissions.grantPermit({ user: { id: 1, roles: ['ADMIN'] }, resource: 'doc', action: 'publish' })).granted).toBe(false);
  });

  it("'*' expansions: a '*' grant unions with explicit grants of the same cell (no conflict, set union of attributes)", async () => {
    const { permissions, warnings } = setup([
      { roles: '*', resource: 'doc', grant: { read: ['title'] } },
      { roles: 'A', resource: 'doc', grant: { read: ['date'] } },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(permit.anyAttributes).toEqual(['date', 'title']);
    expect(warnings).toEqual([]);
  });
});

describe('common role patterns', () => {
  it("common role pattern: a role that can do anything (resource '*', grant ['*:any']) is granted every known action on every known resource", async () => {
    const { permissions } = setup([
      { roles: 'GOD_MODE', resource: '*', grant: ['*:any'] },
      { roles: 'A', resource: 'doc', grant: ['approve'] },
      { roles: 'A', resource: 'invoice', grant: ['read'] },
    ]);
    expect(await grantedMatrix(permissions, ['GOD_MODE'], ['doc', 'invoice'], ['create', 'read', 'update', 'delete', 'approve'])).toEqual({
      'GOD_MODE doc create': true,
      'GOD_MODE doc read': true,
      'GOD_MODE doc update': true,
      'GOD_MODE doc delete': true,
      'GOD_MODE doc approve': true,
      'GOD_MODE invoice create': true,
      'GOD_MODE invoice read': true,
      'GOD_MODE invoice update': true,
      'GOD_MODE invoice delete': true,
      'GOD_MODE invoice approve': true,
    });
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['GOD_MODE'] }, resource: 'invoice', action: 'approve', resourceId: 5 });
    expect(decision(permit)).toEqual(GRANTED);
  });

  it("common role pattern: anonymous-only actions are granted to the placeholder user's dedicated role and to no other role", async () => {
    const { permissions } = setup([
      { roles: 'ANONYMOUS', resource: 'session', grant: ['login', 'register'] },
      { roles: 'USER', resource: 'session', grant: ['logout'] },
    ]);
    const anonymous = { id: 0, roles: ['ANONYMOUS'] };
    expect(await grantedMatrix(permissions, ['ANONYMOUS', 'USER'], ['session'], ['login', 'register', 'logout'])).toEqual({
      'ANONYMOUS session login': true,
      'ANONYMOUS session register': true,
      'ANONYMOUS session logout': false,
      'USER session login': false,
      'USER session register': false,
      'USER session logout': true,
    });
    expect(decision(await permissions.grantPermit({ user: anonymous, resource: 'session', action: 'login' }))).toEqual(GRANTED);
  });

  it("common role pattern: an action open to all known roles (roles ['*'], resource '*', grant [action])", async () => {
    const { permissions } = setup([
      { roles: ['*'], resource: '*', grant: ['ping'] },
      { roles: 'A', resource: 'doc', grant: ['read'] },
      { roles: 'B', resource: 'invoice', grant: ['read'] },
      { roles: 'C', resource: 'invoice', grant: ['update'] },
    ]);
    expect(await grantedMatrix(permissions, ['A', 'B', 'C'], ['doc', 'invoice'], ['ping'])).toEqual({
      'A doc ping': true,
      'A invoice ping': true,
      'B doc ping': true,
      'B invoice ping': true,
      'C doc ping': true,
      'C invoice ping': true,
    });
  });
});

describe('possession defaulting', () => {
  const hooks = { isOwner: () => true, limitOwned: () => 'mine' };

  it("possession defaulting: an entry without suffix takes the definition's possession ('own')", async () => {
    const { permissions } = setup([{ roles: 'A', resource: 'doc', possession: 'own', grant: ['read'], ...hooks }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
  });

  it("possession defaulting: an entry without suffix and a definition without possession means 'any'", async () => {
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { read: ['title'] } }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['title'] });
  });

  it("possession defaulting: an explicit ':any' or ':own' suffix wins over the definition's possession", async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', possession: 'own', grant: { read: ['*'], 'list:any': ['title'] }, ...hooks },
      { roles: 'B', resource: 'doc', possession: 'any', grant: { read: ['title'], 'update:own': ['*'] }, ...hooks },
    ]);
    const list = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'list' });
    expect(decision(list)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['title'] });
    const read = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(decision(read)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    const readB = await permissions.grantPermit({ user: { id: 1, roles: ['B'] }, resource: 'doc', action: 'read' });
    expect(decision(readB)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['title'] });
    const updateB = await permissions.grantPermit({ user: { id: 1, roles: ['B'] }, resource: 'doc', action: 'update' });
    expect(decision(updateB)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
  });

  it("possession defaulting: '*:own' grants every known action as own only", async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['*:own'], ...hooks },
      { roles: 'B', resource: 'doc', grant: ['approve'] },
    ]);
    for (const action of ['create', 'read', 'update', 'delete', 'approve']) {
      const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action });
      expect(decision(permit)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    }
  });
});
