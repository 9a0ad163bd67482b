/**
 * Checking a tenant's custom roles against the compiled policy (the example's): a tenant adds roles and nothing else
 * — no policy role changed, no new resource, action, attribute or ownership — and every problem is reported with the
 * definition's index and the path inside it, in the builder's problem format. Built roles share the policy's names
 * and ownership groups.
 */
import { describe, expect, it } from '@jest/globals';
import { grantTables } from '../../generated/tables.js';
import { PermissionDefinitionError } from '../../runtime/core/common/errors.js';
import { buildTenantRoles, checkTenantRoles, MAX_TENANT_DEFINITIONS, MAX_TENANT_ROLES } from '../../runtime/core/table-building/tenant-roles.js';
import { MAX_TENANT_ROLES_BYTES } from '../../runtime/core/tables/compiled-tenant-roles.js';

const problemsOf = (document: unknown) =>
  buildTenantRoles(grantTables, 'acme', document).problems.map(({ index, path, code, message }) => ({ index, path, code, message }));

describe('custom roles that fit the policy', () => {
  it('are built with the policy names, their own roles and plans, and the policy ownership group of the rule they name', () => {
    const { tables } = checkTenantRoles(grantTables, 'acme', {
      definitions: [
        { roles: ['REVIEWER'], resource: 'document', possession: 'own', grant: { read: ['*', '!confidential'], review: ['*'] }, owner: 'sameCompany' },
        { roles: ['AUDITOR'], resource: 'decision', grant: ['list:any'] },
      ],
    });
    expect(tables.roles).toEqual(['AUDITOR', 'REVIEWER']);
    expect(tables.resources).toBe(grantTables.resources);
    expect(tables.actions).toBe(grantTables.actions);
    expect(tables.owners).toBe(grantTables.owners);
    const sameCompany = grantTables.owners.findIndex((group) => grantTables.ownershipRules?.rules[group.rule as number]?.name === 'sameCompany');
    expect(tables.cells).toEqual([
      [0, 2, 0, 0, [], [], [2]],
      [1, 3, 1, -1, [sameCompany, 1], [sameCompany], [1]],
      [1, 4, 1, -1, [sameCompany, 0], [sameCompany], [1]],
    ]);
    expect(tables.definitions).toEqual([
      { index: 0, source: 'tenant "acme"' },
      { index: 1, source: 'tenant "acme"' },
    ]);
  });

  it('may be a bare list of definitions, like a definitions file', () => {
    expect(checkTenantRoles(grantTables, 'acme', [{ roles: 'AUDITOR', resource: 'decision', grant: ['list:any'] }]).tables.roles).toEqual(['AUDITOR']);
  });
});

describe('custom roles that step outside the policy', () => {
  it('are refused, each problem at its definition and path', () => {
    expect(
      problemsOf({
        definitions: [
          { roles: ['EMPLOYEE', '*'], resource: 'documnt', grant: ['read'] },
          { roles: ['X'], resource: 'document', grant: ['approve', 'frobnicate:any'] },
          { roles: ['Y'], resource: 'document', possession: 'own', grant: ['read'], owner: 'creater' },
          { roles: ['Z'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isMine', listOwned: 'listMine' },
          { roles: ['W'], resource: 'document', grant: { read: ['*', '!confidenial'] } },
          { roles: ['V'], resource: '*', grant: ['approve:any'] },
        ],
      }),
    ).toEqual([
      {
        index: 0,
        path: ['roles', 0],
        code: 'tenant-role',
        message: 'Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one.',
      },
      {
        index: 0,
        path: ['roles', 1],
        code: 'tenant-role',
        message: 'A tenant\'s definition names its custom roles; "*" would grant every role of the compiled policy.',
      },
      {
        index: 0,
        path: ['resource'],
        code: 'unknown-resource',
        message: 'Resource "documnt" is not a resource of the compiled policy. Did you mean "document"?',
      },
      {
        index: 1,
        path: ['grant', 0],
        code: 'unknown-action',
        message: '"approve" is not an action of "document"; its actions are "create", "delete", "list", "read", "review", "update".',
      },
      {
        index: 1,
        path: ['grant', 1],
        code: 'unknown-action',
        message: '"frobnicate" is not an action of "document"; its actions are "create", "delete", "list", "read", "review", "update".',
      },
      {
        index: 2,
        path: ['owner'],
        code: 'unknown-ownership-rule',
        message: 'The compiled policy uses no ownership rule "creater" on "document". Did you mean "creator"?',
      },
      {
        index: 3,
        path: ['isOwner'],
        code: 'unknown-hook-method',
        message: 'No definition of the compiled policy decides ownership with these hooks; a tenant uses the ownership the code already has.',
      },
      {
        index: 4,
        path: ['grant', 'read', 1],
        code: 'unknown-attribute',
        message: 'Attribute "!confidenial" is not an attribute of document (declared: confidential, creatorId, date, id, personal, status, title).',
      },
      { index: 5, path: ['grant', 0], code: 'unknown-action', message: 'Action "approve" is not an action of the compiled policy.' },
    ]);
  });

  it('are refused when the document is not definitions, saying where', () => {
    expect(problemsOf({ definitions: [], roles: [] })).toEqual([
      { index: -1, path: ['roles'], code: 'invalid-file', message: 'Unknown field "roles" at the top of the file.' },
    ]);
    expect(problemsOf('REVIEWER')).toEqual([{ index: -1, path: [], code: 'invalid-file', message: 'The file holds a string, not definitions.' }]);
  });

  it('are refused through checkTenantRoles with a PermissionDefinitionError listing every problem', () => {
    expect(() => checkTenantRoles(grantTables, 'acme', { definitions: [{ roles: ['SUPER_ADMIN'], resource: 'document', grant: ['read:any'] }] })).toThrow(
      PermissionDefinitionError,
    );
  });
});

describe('the limits of a tenant', () => {
  const role = (i: number) => ({ roles: [`ROLE_${i}`], resource: 'decision', grant: ['list:any'] });

  it(`takes ${MAX_TENANT_ROLES} custom roles and refuses one more`, () => {
    expect(problemsOf({ definitions: Array.from({ length: MAX_TENANT_ROLES }, (_, i) => role(i)) })).toEqual([]);
    expect(problemsOf({ definitions: Array.from({ length: MAX_TENANT_ROLES + 1 }, (_, i) => role(i)) })).toEqual([
      {
        index: -1,
        path: ['definitions'],
        code: 'too-large',
        message: `A tenant's document defines ${MAX_TENANT_ROLES + 1} custom roles, more than the limit of ${MAX_TENANT_ROLES}.`,
      },
    ]);
  });

  it(`takes a document of ${MAX_TENANT_ROLES_BYTES} bytes as JSON and refuses one byte more (at publish and when an engine reads it)`, () => {
    // A definition's key the builder does not read pads the document to the byte.
    const padded = (bytes: number) => {
      const document = { definitions: [{ ...role(0), padding: '' }] };
      const base = new TextEncoder().encode(JSON.stringify(document)).length;
      return { definitions: [{ ...role(0), padding: 'é'.repeat((bytes - base) / 2) }] };
    };
    const atLimit = padded(MAX_TENANT_ROLES_BYTES - (MAX_TENANT_ROLES_BYTES % 2));
    expect(problemsOf(atLimit).filter((problem) => problem.code === 'too-large')).toEqual([]);
    const past = { definitions: [{ ...(atLimit.definitions[0] as object), padding: `${atLimit.definitions[0]?.padding ?? ''}x` }] };
    expect(new TextEncoder().encode(JSON.stringify(past)).length).toBe(MAX_TENANT_ROLES_BYTES + 1);
    expect(problemsOf(past)).toEqual([
      {
        index: -1,
        path: [],
        code: 'too-large',
        message: `A tenant's document takes ${MAX_TENANT_ROLES_BYTES + 1} bytes as JSON, more than the limit of ${MAX_TENANT_ROLES_BYTES}.`,
      },
    ]);
  });

  it(`takes ${MAX_TENANT_DEFINITIONS} definitions and refuses one more`, () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => role(i % MAX_TENANT_ROLES));
    expect(problemsOf({ definitions: many(MAX_TENANT_DEFINITIONS) }).filter((problem) => problem.code === 'too-large')).toEqual([]);
    expect(problemsOf({ definitions: many(MAX_TENANT_DEFINITIONS + 1) })).toEqual([
      {
        index: -1,
        path: ['definitions'],
        code: 'too-large',
        message: `A tenant's document holds ${MAX_TENANT_DEFINITIONS + 1} definitions, more than the limit of ${MAX_TENANT_DEFINITIONS}.`,
      },
    ]);
  });
});
