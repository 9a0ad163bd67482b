/**
 * A browser client made from a tenant's slice answers with that tenant's custom roles, and only that tenant's: the
 * slice is served as JSON, so the client reads it as it arrives.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient, type PermissionSlice } from '../../runtime/client/index.js';
import type { Schema } from '../../generated/types.js';
import { AUDITOR, tenantEngine } from '../tenants/tenant-fixture.js';

/** The client of `user`'s slice in `tenant` (none: the policy alone), after a trip through JSON. */
async function clientIn(tenant: string | undefined) {
  const { permissions } = await tenantEngine();
  if (tenant !== undefined) await permissions.loadTenant(tenant);
  return createClient<Schema>(JSON.parse(JSON.stringify(permissions.sliceFor(AUDITOR, { tenant }))) as PermissionSlice);
}

describe("a client of a tenant's slice", () => {
  it("grants what the tenant's custom role grants, with its attributes", async () => {
    const client = await clientIn('acme');
    expect([client.can('list', 'decision'), client.canAny('list', 'decision'), client.attributes('list', 'decision')]).toEqual([true, true, ['*']]);
    expect(client.can('list', 'document')).toBe(false);
  });

  it("does not grant it from another tenant's slice, whose custom role of the same name grants something else", async () => {
    const client = await clientIn('globex');
    expect([client.can('list', 'decision'), client.attributes('list', 'decision')]).toEqual([false, []]);
    expect(client.can('list', 'document')).toBe(true);
  });

  it('grants neither without a tenant, or in a tenant without custom roles', async () => {
    for (const tenant of [undefined, 'initech']) {
      const client = await clientIn(tenant);
      expect([client.can('list', 'decision'), client.can('list', 'document')]).toEqual([false, false]);
    }
  });
});
