/**
 * Isolation, as a property: for random tenants (ids that collide with prototype names, path parts and each other's
 * prefixes), random custom roles (names shared between tenants, names of policy roles, which make a tenant's document
 * refused), random users and questions, and a cache far smaller than the tenants asked about, a question asked in a
 * tenant is granted exactly when a policy role of the user grants it or a custom role of that tenant's accepted
 * document does — never through another tenant's roles, never through a question without a tenant — whether the
 * source gives each document alone or with the custom roles compiled from it.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createPermissions } from '../../generated/permissions.js';
import { grantTables, policyVersion } from '../../generated/tables.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import { buildTenantRoles } from '../../runtime/core/table-building/tenant-roles.js';
import { compileTenantRoles } from '../../runtime/core/tables/write-compiled-tenant-roles.js';
import type { TenantRolesSource } from '../../runtime/live/tenant-roles-source.js';

const TENANTS = ['acme', 'acm', '__proto__', 'constructor', '../acme', 'ACME', '1', '01'];
const CUSTOM_ROLES = ['REVIEWER', 'AUDITOR', 'EDITOR', 'EMPLOYEE'];
const BASE_ROLES = ['EMPLOYEE', 'COMPANY_ADMIN', 'ANONYMOUS'];
const QUESTIONS = [
  ['document', 'read'],
  ['document', 'review'],
  ['document', 'delete'],
  ['document', 'list'],
  ['decision', 'list'],
  ['session', 'create'],
] as const;

interface Grant {
  readonly roles: readonly string[];
  readonly resource: string;
  readonly grant: readonly string[];
}

const grantArbitrary: fc.Arbitrary<Grant> = fc.record({
  roles: fc.uniqueArray(fc.constantFrom(...CUSTOM_ROLES), { minLength: 1, maxLength: 2 }),
  resource: fc.constantFrom('document', 'decision', '*'),
  grant: fc.uniqueArray(fc.constantFrom('read:any', 'review:any', 'list:any', 'delete:any', '*:any'), { minLength: 1, maxLength: 2 }),
});

/** Whether `definitions` grant `action` on `resource` to one of `roles` (the documents here grant as any only). */
function customGrants(definitions: readonly Grant[], roles: readonly string[], resource: string, action: string): boolean {
  const declared = grantTables.declaredActions?.[grantTables.resources.indexOf(resource)];
  const takes = declared === undefined || declared === null || declared.some((a) => grantTables.actions[a] === action);
  return definitions.some(
    (definition) =>
      definition.roles.some((role) => roles.includes(role)) &&
      (definition.resource === '*' || definition.resource === resource) &&
      definition.grant.some((key) => key === `${action}:any` || (key === '*:any' && takes)),
  );
}

describe('tenants are isolated', () => {
  it('a question in a tenant is granted by the policy roles or that tenant’s accepted custom roles, and by nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...TENANTS), fc.array(grantArbitrary, { minLength: 1, maxLength: 3 }), { maxKeys: TENANTS.length }),
        fc.array(
          fc.record({
            roles: fc.uniqueArray(fc.constantFrom(...BASE_ROLES, ...CUSTOM_ROLES), { maxLength: 3 }),
            tenant: fc.option(fc.constantFrom(...TENANTS), { nil: undefined }),
            question: fc.constantFrom(...QUESTIONS),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.boolean(),
        async (documents, questions, compiled) => {
          const versionOf = (tenant: string) => {
            const document = { definitions: documents[tenant] };
            const { roles } = buildTenantRoles(grantTables, tenant, document);
            return compiled && roles !== undefined
              ? { tenant, sequence: 1, document, compiled: compileTenantRoles(roles.tables, policyVersion) }
              : { tenant, sequence: 1, document };
          };
          const source: TenantRolesSource = {
            description: 'memory',
            read: (tenant) => Promise.resolve(Object.hasOwn(documents, tenant) ? versionOf(tenant) : undefined),
          };
          const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: [], user: [] }), logger: { warn: () => undefined } });
          await permissions.followTenantRoles(source, { maxTenants: 2 });
          const base = createPermissions({ ownershipRules: memoryOwnership({ document: [], user: [] }), logger: { warn: () => undefined } });
          for (const { roles, tenant, question } of questions) {
            const [resource, action] = question;
            const user = { id: 1, roles, companyId: 1, managedUserIds: [] };
            const permit = await permissions.grantPermit({ user, resource, action, ...(tenant === undefined ? {} : { tenant }) });
            const byPolicy = base.grantPermitSync({ user: { ...user, roles: roles.filter((role) => BASE_ROLES.includes(role)) }, resource, action }).granted;
            const accepted =
              tenant !== undefined &&
              Object.hasOwn(documents, tenant) &&
              buildTenantRoles(grantTables, tenant, { definitions: documents[tenant] }).roles !== undefined;
            const byTenant = accepted && customGrants(documents[tenant] as Grant[], roles, resource, action);
            expect({ tenant, roles, resource, action, granted: permit.granted }).toEqual({ tenant, roles, resource, action, granted: byPolicy || byTenant });
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});
