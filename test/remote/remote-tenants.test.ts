/**
 * Remote permissions in a tenant: the query's tenant reaches the service, whose custom roles decide; a tenant's
 * role sets are asked again after each refresh of the service's version, so a change of a tenant's custom roles
 * (which makes no new policy version) is seen within `refreshIntervalMs`; the service's 503 is a
 * PermissionsServiceError, granting nothing.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { TenantRolesSource } from '../../runtime/live/tenant-roles-source.js';
import { createRemotePermissions, PermissionsServiceError, type RemotePermissions } from '../../runtime/remote/index.js';
import type { DecisionService } from '../../runtime/service/index.js';
import { fixtureOwnership, fixtureService, TOKEN, until } from '../service/service-fixture.js';

const publisher = { id: 7, roles: ['PUBLISHER'] };
const publishes = { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: ['publish:any'] }] };
const reads = { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: ['read:any'] }] };

/** A source whose documents a test changes, telling the watcher which tenant changed; it fails while told to. */
function changingSource(documents: Record<string, unknown>) {
  let changed: ((tenant: string | undefined) => void) | undefined;
  let failing: Error | undefined;
  const source: TenantRolesSource = {
    description: 'changing tenant roles',
    read: (tenant) => {
      if (failing !== undefined) return Promise.reject(failing);
      return Promise.resolve(Object.hasOwn(documents, tenant) ? { tenant, sequence: 1, document: documents[tenant] } : undefined);
    },
    watch: (onChange) => {
      changed = onChange;
      return () => Promise.resolve();
    },
  };
  return {
    source,
    publish(tenant: string, document: unknown) {
      documents[tenant] = document;
      changed?.(tenant);
    },
    fail(error: Error | undefined) {
      failing = error;
    },
  };
}

let service: DecisionService | undefined;
let remote: RemotePermissions | undefined;
afterEach(async () => {
  remote?.close();
  await service?.close();
  service = undefined;
  remote = undefined;
}, 30_000);

async function remoteIn(documents: Record<string, unknown>) {
  const roles = changingSource(documents);
  service = await fixtureService({ tenantRoles: roles.source });
  const url = await service.listen();
  remote = await createRemotePermissions({ url, token: TOKEN, ownership: fixtureOwnership, logger: { warn: () => undefined }, refreshIntervalMs: 50 });
  return { roles, remote, url };
}

describe('remote permissions in a tenant', () => {
  it("decide with the tenant's custom roles, and see a change of them within refreshIntervalMs", async () => {
    const { roles, remote } = await remoteIn({ acme: publishes });
    const publish = (tenant: string) => remote.grantPermit({ user: publisher, resource: 'article', action: 'publish', tenant });
    expect([(await publish('acme')).granted, (await publish('globex')).granted]).toEqual([true, false]);
    roles.publish('acme', reads);
    await until('the remote sees the new custom roles of acme', async () => !(await publish('acme')).granted);
    expect((await remote.grantPermit({ user: publisher, resource: 'article', action: 'read', resourceId: 3, tenant: 'acme' })).granted).toBe(true);
  }, 30_000);

  it("reject with the service's 503 while a tenant's custom roles cannot be read", async () => {
    const { roles, remote, url } = await remoteIn({});
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    const refusal = await remote.grantPermit({ user: publisher, resource: 'article', action: 'publish', tenant: 'initech' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PermissionsServiceError);
    expect([(refusal as PermissionsServiceError).status, (refusal as Error).message]).toEqual([
      503,
      `POST ${url}/v1/slice answered 503: The custom roles of tenant "initech" cannot be read now; try again later. Nothing is granted.`,
    ]);
  }, 30_000);
});
