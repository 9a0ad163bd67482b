/**
 * How the decision service loads the tenants a request names before it answers: each tenant id checked, at most
 * `maxTenants` of them, each loaded once per attempt; and, when a tenant loaded for the request was forgotten by
 * the engine's bounded cache before the answer (other requests read many tenants meanwhile), loaded again and the
 * answer asked again — a bounded number of times, never a 500 for a busy cache.
 */
import { describe, expect, it } from '@jest/globals';
import { PermissionsTenantRolesError, PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { TENANT_LOAD_ATTEMPTS, withTenantsLoaded } from '../../runtime/service/tenant-loading.js';
import { ServiceProblem } from '../../runtime/service/problem-details.js';
import { createPermissions } from '../../generated/permissions.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';

const NOT_LOADED = new PermissionsUsageError('sliceFor: the custom roles of tenant "acme" are not loaded yet; await permissions.loadTenant(tenant) first.');

/** An engine that records its loads. */
function recordingEngine() {
  const loads: string[] = [];
  return { loads, engine: { loadTenant: (tenant: string) => (loads.push(tenant), Promise.resolve()) } };
}

describe('withTenantsLoaded', () => {
  it('loads every tenant named (once each), then answers', async () => {
    const { engine, loads } = recordingEngine();
    const asked = [
      { field: 'checks[0].tenant', tenant: 'acme' },
      { field: 'checks[1].tenant', tenant: undefined },
      { field: 'checks[2].tenant', tenant: 'acme' },
      { field: 'checks[3].tenant', tenant: 'globex' },
    ];
    expect(await withTenantsLoaded(engine, asked, 16, () => 'answered')).toBe('answered');
    expect(loads).toEqual(['acme', 'globex']);
  });

  it('a tenant forgotten again before the answer: loaded again and asked again, at most a bounded number of times', async () => {
    const { engine, loads } = recordingEngine();
    let answers = 0;
    const forgottenOnce = () => {
      if (++answers === 1) throw NOT_LOADED;
      return 'answered';
    };
    expect(await withTenantsLoaded(engine, [{ field: 'tenant', tenant: 'acme' }], 16, forgottenOnce)).toBe('answered');
    expect(loads).toEqual(['acme', 'acme']);

    loads.length = 0;
    const alwaysForgotten = () => {
      throw NOT_LOADED;
    };
    await expect(withTenantsLoaded(engine, [{ field: 'tenant', tenant: 'acme' }], 16, alwaysForgotten)).rejects.toBe(NOT_LOADED);
    expect(loads).toHaveLength(TENANT_LOAD_ATTEMPTS);
  });

  it('answers that fail otherwise, or without tenants, are not asked again', async () => {
    const { engine, loads } = recordingEngine();
    const unavailable = new PermissionsTenantRolesError('acme', 'The custom roles of tenant "acme" could not be read.');
    await expect(
      withTenantsLoaded(engine, [{ field: 'tenant', tenant: 'acme' }], 16, () => {
        throw unavailable;
      }),
    ).rejects.toBe(unavailable);
    await expect(
      withTenantsLoaded(engine, [{ field: 'tenant', tenant: undefined }], 16, () => {
        throw NOT_LOADED;
      }),
    ).rejects.toBe(NOT_LOADED);
    expect(loads).toEqual(['acme']);
  });

  it('a tenant too large for the engine to keep is a 503 saying so, at once: neither loaded again nor answered', async () => {
    const warnings: string[] = [];
    const permissions = createPermissions({
      ownershipRules: memoryOwnership({ document: [], user: [] }),
      logger: { warn: (message) => warnings.push(message) },
    });
    const reads: string[] = [];
    const document = { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['list:any'] }] };
    await permissions.followTenantRoles(
      { description: 'memory', read: (tenant) => (reads.push(tenant), Promise.resolve({ tenant, sequence: 1, document })) },
      { maxBytes: 1000 },
    );
    let answered = false;
    const refusal = await withTenantsLoaded(permissions, [{ field: 'tenant', tenant: 'acme' }], 16, () => (answered = true)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceProblem);
    expect((refusal as ServiceProblem).problem).toEqual({
      type: 'urn:typed-permissions:problem:tenant-roles-unavailable',
      title: 'Tenant roles unavailable',
      status: 503,
      detail: 'The custom roles of tenant "acme" are too large for this service to keep; the service\'s log gives their size.',
    });
    expect([reads, answered, warnings.length]).toEqual([['acme'], false, 1]);
    expect(warnings[0]).toMatch(/^typed-permissions: the custom roles of tenant "acme" take an estimated \d+ bytes, more than maxBytes \(1000\)/);
  });
});
