/**
 * How the decision service loads the tenants a request names before it answers: each tenant id checked, at most
 * `maxTenants` of them, each loaded once per attempt; and, when a tenant loaded for the request was forgotten by
 * the engine's bounded cache before the answer (other requests read many tenants meanwhile), loaded again and the
 * answer asked again — a bounded number of times, never a 500 for a busy cache.
 */
import { describe, expect, it } from '@jest/globals';
import { PermissionsTenantRolesError, PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { TENANT_LOAD_ATTEMPTS, withTenantsLoaded } from '../../runtime/service/tenant-loading.js';

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
});
