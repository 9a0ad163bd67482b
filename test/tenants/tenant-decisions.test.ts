/**
 * Questions asked in a tenant: the user's roles are the policy's and the tenant's custom roles, read from a source
 * when the tenant is first asked about, kept per tenant, and read again only for the tenant that changed. Every
 * test here tries to see one tenant's grant in another, or in a question without a tenant, and must not.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { createPermissions } from '../../generated/permissions.js';
import { grantTables, policyVersion } from '../../generated/tables.js';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { TenantRolesSource, TenantRolesVersion } from '../../runtime/live/tenant-roles-source.js';
import { PermissionsTenantRolesError } from '../../runtime/core/common/errors.js';
import { MAX_TENANT_ID_LENGTH } from '../../runtime/core/decision/tenant-id.js';
import { formatExplanation } from '../../runtime/core/decision/explain.js';
import type { DecisionEvent } from '../../runtime/core/decision-log/decision-event.js';

const USERS = [
  { id: 1, companyId: 10 },
  { id: 2, companyId: 20 },
];
const DOCUMENTS = [
  { id: 100, title: 'a', date: 'd', status: 's', personal: 'p', confidential: 'c', creatorId: 1 },
  { id: 200, title: 'b', date: 'd', status: 's', personal: 'p', confidential: 'c', creatorId: 2 },
];

/** A user of company 10 with the roles they hold in the tenant asked about. */
const userWith = (...roles: string[]) => ({ id: 1, roles, companyId: 10, managedUserIds: [] as number[] });

/** A reviewer role: reads and reviews the documents of their company, without confidential data. */
const reviewer = (role: string, attributes: readonly string[] = ['*', '!confidential']) => ({
  roles: [role],
  resource: 'document',
  possession: 'own',
  grant: { read: attributes, review: attributes },
  owner: 'sameCompany',
});

/** A source in memory that counts its reads per tenant, and tells its watcher what changed. */
function memorySource(documents: Record<string, unknown>) {
  const reads: string[] = [];
  const sequences = new Map<string, number>();
  let changed: ((tenant: string | undefined) => void) | undefined;
  let failing: Error | undefined;
  const source: TenantRolesSource = {
    description: 'memory',
    read: (tenant) => {
      reads.push(tenant);
      if (failing !== undefined) return Promise.reject(failing);
      if (!Object.hasOwn(documents, tenant)) return Promise.resolve(undefined);
      return Promise.resolve({ tenant, sequence: sequences.get(tenant) ?? 1, document: documents[tenant] } satisfies TenantRolesVersion);
    },
    watch: (onChange) => {
      changed = onChange;
      return () => {
        changed = undefined;
        return Promise.resolve();
      };
    },
  };
  return {
    source,
    reads,
    publish(tenant: string, document: unknown) {
      documents[tenant] = document;
      sequences.set(tenant, (sequences.get(tenant) ?? 1) + 1);
      changed?.(tenant);
    },
    fail(error: Error | undefined) {
      failing = error;
    },
  };
}

function engine() {
  const warnings: string[] = [];
  const permissions = createPermissions({
    ownershipRules: memoryOwnership({ document: DOCUMENTS, user: USERS }),
    logger: { warn: (message: string) => warnings.push(message) },
  });
  return { permissions, warnings };
}

describe('a question without a tenant', () => {
  it('is the policy alone: a custom role is an unknown role there, whatever tenant defines it', async () => {
    const { permissions, warnings } = engine();
    const store = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source);
    const permit = await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', resourceId: 100 });
    expect(permit.granted).toBe(false);
    expect(store.reads).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('unknown role "REVIEWER": no definition names it')]);
  });
});

describe('custom roles of a tenant', () => {
  it('grant in their tenant, with the attributes they name, and ownership decided by the policy rule they name', async () => {
    const { permissions } = engine();
    await permissions.followTenantRoles(memorySource({ acme: { definitions: [reviewer('REVIEWER')] } }).source);
    const own = await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'review', resourceId: 100, tenant: 'acme' });
    expect(own.granted).toBe(true);
    expect(await own.pick(DOCUMENTS[0] as object)).toEqual({ id: 100, title: 'a', date: 'd', status: 's', personal: 'p', creatorId: 1 });
    const other = await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'review', resourceId: 200, tenant: 'acme' });
    expect(other.granted).toBe(false);
    const notGranted = await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'delete', resourceId: 100, tenant: 'acme' });
    expect(notGranted.granted).toBe(false);
  });

  it('of the same name in two tenants grant what each tenant says, never the other', async () => {
    const { permissions } = engine();
    const store = memorySource({
      acme: { definitions: [reviewer('REVIEWER', ['title'])] },
      globex: { definitions: [{ roles: ['REVIEWER'], resource: 'decision', grant: ['list:any'] }] },
    });
    await permissions.followTenantRoles(store.source);
    const user = userWith('REVIEWER');
    const inAcme = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 100, tenant: 'acme' });
    const inGlobex = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 100, tenant: 'globex' });
    expect([inAcme.granted, await inAcme.pick(DOCUMENTS[0] as object)]).toEqual([true, { title: 'a' }]);
    expect(inGlobex.granted).toBe(false);
    expect((await permissions.grantPermit({ user, resource: 'decision', action: 'list', tenant: 'globex' })).granted).toBe(true);
    expect((await permissions.grantPermit({ user, resource: 'decision', action: 'list', tenant: 'acme' })).granted).toBe(false);
    expect((await permissions.grantPermit({ user, resource: 'decision', action: 'list', tenant: 'initech' })).granted).toBe(false);
    expect(store.reads.sort()).toEqual(['acme', 'globex', 'initech']);
  });

  it('combine with the policy roles the user holds in the tenant: the union of what each grants', async () => {
    const { permissions } = engine();
    await permissions.followTenantRoles(
      memorySource({ acme: { definitions: [{ roles: ['TITLES'], resource: 'document', grant: { 'list:any': ['status'] } }] } }).source,
    );
    const permit = await permissions.grantPermit({ user: userWith('EMPLOYEE', 'TITLES'), resource: 'document', action: 'list', tenant: 'acme' });
    expect(permit.anyAttributes).toEqual(['date', 'status', 'title']);
    const withoutTenant = await permissions.grantPermit({ user: userWith('EMPLOYEE', 'TITLES'), resource: 'document', action: 'list' });
    expect(withoutTenant.anyAttributes).toEqual(['date', 'title']);
  });

  it('carry the tenant on the permit and in the slice of that tenant only', async () => {
    const { permissions } = engine();
    await permissions.followTenantRoles(memorySource({ acme: { definitions: [{ roles: ['AUDITOR'], resource: 'decision', grant: ['list:any'] }] } }).source);
    const user = userWith('AUDITOR');
    expect(() => permissions.sliceFor(user, { tenant: 'acme' })).toThrow(
      new PermissionsUsageError(
        'sliceFor: the custom roles of tenant "acme" are not loaded yet; await permissions.loadTenant(tenant) first, ' +
          'or decide with await permissions.grantPermit(query), which loads them.',
      ),
    );
    await permissions.loadTenant('acme');
    expect(permissions.sliceFor(user, { tenant: 'acme' }).grants).toEqual([['decision', [['list', 0, 0, [], []]]]]);
    expect(permissions.sliceFor(user).grants).toEqual([]);
    expect(permissions.grantPermitSync({ user, resource: 'decision', action: 'list', tenant: 'acme' }).granted).toBe(true);
  });
});

describe('reading a tenant', () => {
  it('is one read for concurrent first questions, and none after', async () => {
    const { permissions } = engine();
    const store = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source);
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    const permits = await Promise.all([permissions.grantPermit(query), permissions.grantPermit(query), permissions.grantPermit(query)]);
    expect(permits.map((permit) => permit.granted)).toEqual([true, true, true]);
    await permissions.grantPermit(query);
    expect(store.reads).toEqual(['acme']);
  });

  it('again after a change of that tenant only; the change is what later questions see', async () => {
    const { permissions } = engine();
    const store = memorySource({ acme: { definitions: [reviewer('REVIEWER')] }, globex: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source);
    const ask = (tenant: string) => permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant });
    await ask('acme');
    await ask('globex');
    store.publish('acme', { definitions: [{ roles: ['REVIEWER'], resource: 'decision', grant: ['list:any'] }] });
    expect((await ask('acme')).granted).toBe(false);
    expect((await ask('globex')).granted).toBe(true);
    expect(store.reads).toEqual(['acme', 'globex', 'acme']);
  });

  it('refuses with a typed error while the source cannot be read (said once), and answers once it can', async () => {
    const { permissions, warnings } = engine();
    const store = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source);
    store.fail(new Error('connection refused'));
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    const refusal = await permissions.grantPermit(query).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PermissionsTenantRolesError);
    expect(refusal).toMatchObject({
      code: 'PERMISSIONS_TENANT_ROLES_UNAVAILABLE',
      tenant: 'acme',
      message: 'The custom roles of tenant "acme" could not be read from memory: connection refused. Its questions are refused until the source answers.',
    });
    await expect(permissions.grantPermit(query)).rejects.toThrow(PermissionsTenantRolesError);
    store.fail(undefined);
    expect((await permissions.grantPermit(query)).granted).toBe(true);
    expect(warnings).toEqual([
      'typed-permissions: The custom roles of tenant "acme" could not be read from memory: connection refused. ' +
        'Its questions are refused until the source answers.',
    ]);
  });

  it('keeps at most maxTenants: the least recently asked is read again', async () => {
    const { permissions } = engine();
    const store = memorySource({});
    const followed = await permissions.followTenantRoles(store.source, { maxTenants: 2 });
    const ask = (tenant: string) => permissions.grantPermit({ user: userWith('EMPLOYEE'), resource: 'document', action: 'list', tenant });
    for (const tenant of ['a', 'b', 'c', 'a']) await ask(tenant);
    expect(store.reads).toEqual(['a', 'b', 'c', 'a']);
    expect(followed.tenants).toBe(2);
  });

  it('a tenant larger than maxBytes: loadTenant and the synchronous questions say so, grantPermit reads it for each question', async () => {
    const { permissions, warnings } = engine();
    const store = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source, { maxBytes: 1000 });
    const tooLarge = 'the custom roles of tenant "acme" take an estimated BYTES bytes, more than maxBytes (1000) of followTenantRoles can keep';
    const refusal = await permissions.loadTenant('acme').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PermissionsUsageError);
    const bytes = /estimated (\d+) bytes/.exec((refusal as Error).message)?.[1] ?? 'none';
    expect(Number(bytes)).toBeGreaterThan(1000);
    const problem = tooLarge.replace('BYTES', bytes);
    expect((refusal as Error).message).toBe(
      `loadTenant: ${problem}, so grantPermitSync and sliceFor cannot decide in it. Raise maxBytes in followTenantRoles(source, { maxBytes }), ` +
        'or decide in it with await permissions.grantPermit(query), which reads its roles for each question.',
    );
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    const notSync = (what: string) =>
      new PermissionsUsageError(
        `${what}: ${problem}, so no synchronous question can decide in it. Raise maxBytes in followTenantRoles(source, { maxBytes }), ` +
          'or decide with await permissions.grantPermit(query), which reads them for each question.',
      );
    expect(() => permissions.grantPermitSync(query)).toThrow(notSync('grantPermitSync'));
    expect(() => permissions.sliceFor(userWith('REVIEWER'), { tenant: 'acme' })).toThrow(notSync('sliceFor'));
    expect((await permissions.grantPermit(query)).granted).toBe(true);
    expect(store.reads).toEqual(['acme', 'acme']);
    expect(warnings).toEqual([
      `typed-permissions: ${problem}; it is read again for each of its questions, and loadTenant, grantPermitSync and sliceFor refuse it. ` +
        'Raise maxBytes in followTenantRoles(source, { maxBytes }).',
    ]);
  });

  it('forgets the tenant asked about least recently: a tenant asked since (warm or loaded) stays, whatever its age', async () => {
    const { permissions } = engine();
    const store = memorySource({});
    await permissions.followTenantRoles(store.source, { maxTenants: 3 });
    const user = userWith('EMPLOYEE');
    for (const tenant of ['a', 'b', 'c']) await permissions.loadTenant(tenant);
    // 'a', the oldest, is asked about on the warm path; 'b' is then the least recently asked.
    permissions.grantPermitSync({ user, resource: 'document', action: 'list', tenant: 'a' });
    await permissions.loadTenant('d');
    expect(() => permissions.sliceFor(user, { tenant: 'b' })).toThrow(PermissionsUsageError);
    // The documented pattern, with the cache full: tenants loaded together are all there after.
    await Promise.all(['c', 'e'].map((tenant) => permissions.loadTenant(tenant)));
    for (const tenant of ['c', 'e']) expect(permissions.sliceFor(user, { tenant }).version).toBe(policyVersion);
    expect(store.reads).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('gives no custom roles for a version the source says belongs to another tenant', async () => {
    const { permissions } = engine();
    const source: TenantRolesSource = {
      description: 'confused',
      read: () => Promise.resolve({ tenant: 'globex', sequence: 1, document: { definitions: [reviewer('REVIEWER')] } }),
    };
    await permissions.followTenantRoles(source);
    expect((await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' })).granted).toBe(false);
  });

  it('a read that never settles is refused after readTimeoutMs, and the next question reads again', async () => {
    const { permissions } = engine();
    let hang = true;
    const reads: string[] = [];
    const source: TenantRolesSource = {
      description: 'stuck',
      read: (tenant) => {
        reads.push(tenant);
        if (hang) return new Promise(() => undefined);
        return Promise.resolve({ tenant, sequence: 1, document: { definitions: [reviewer('REVIEWER')] } });
      },
    };
    await permissions.followTenantRoles(source, { readTimeoutMs: 50 });
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    await expect(permissions.grantPermit(query)).rejects.toMatchObject({
      name: 'PermissionsTenantRolesError',
      tenant: 'acme',
      message:
        'The custom roles of tenant "acme" could not be read from stuck: it did not answer within 50 ms. Its questions are refused until the source answers.',
    });
    hang = false;
    expect((await permissions.grantPermit(query)).granted).toBe(true);
    expect(reads).toEqual(['acme', 'acme']);
    await expect(permissions.followTenantRoles(source, { readTimeoutMs: 0 })).rejects.toThrow(
      new PermissionsUsageError('followTenantRoles(source, options): readTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 0.'),
    );
    await expect(permissions.followTenantRoles(source, { maxTenants: 10n as unknown as number })).rejects.toThrow(
      new PermissionsUsageError('followTenantRoles(source, options): maxTenants must be a positive whole number, got bigint.'),
    );
    await expect(permissions.followTenantRoles(source, { maxBytes: Infinity })).rejects.toThrow(
      new PermissionsUsageError('followTenantRoles(source, options): maxBytes must be a positive whole number, got Infinity.'),
    );
  });

  it('a tenant that changes during every read is refused at readTimeoutMs after its question, not read again for ever', async () => {
    jest.useFakeTimers();
    try {
      const { permissions } = engine();
      let reads = 0;
      let changed: ((tenant: string | undefined) => void) | undefined;
      // Each read takes 30 ms, and the tenant changes while it runs: no read is ever of its current roles.
      const source: TenantRolesSource = {
        description: 'restless',
        read: (tenant) => {
          reads += 1;
          const version = { tenant, sequence: reads, document: { definitions: [reviewer('REVIEWER')] } };
          setTimeout(() => changed?.(tenant), 10);
          return new Promise((resolve) => setTimeout(() => resolve(version), 30));
        },
        watch: (onChange) => {
          changed = onChange;
          return () => Promise.resolve();
        },
      };
      await permissions.followTenantRoles(source, { readTimeoutMs: 100 });
      const settled: unknown[] = [];
      const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
      permissions.grantPermit(query).then(
        (permit) => settled.push(permit.granted),
        (error: unknown) => settled.push(error),
      );
      await jest.advanceTimersByTimeAsync(99);
      // Read at 0, 30, 60 and 90 ms, each changed while it ran: still waiting for the fourth.
      expect([settled, reads]).toEqual([[], 4]);
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toEqual([expect.any(PermissionsTenantRolesError)]);
      expect(settled[0]).toMatchObject({
        name: 'PermissionsTenantRolesError',
        tenant: 'acme',
        message:
          'The custom roles of tenant "acme" could not be read from restless: it changed while it was read, and was not read again ' +
          'without a change within 100 ms (readTimeoutMs). Its questions are refused until the source answers.',
      });
      expect(reads).toBe(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a read hanging when another source is followed is no read of the new one: its questions read the new source', async () => {
    const { permissions } = engine();
    const stuck: TenantRolesSource = { description: 'stuck', read: () => new Promise(() => undefined) };
    await permissions.followTenantRoles(stuck, { readTimeoutMs: 500 });
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    void permissions.grantPermit(query).catch(() => undefined);
    await permissions.followTenantRoles(memorySource({ acme: { definitions: [reviewer('REVIEWER')] } }).source);
    expect((await permissions.grantPermit(query)).granted).toBe(true);
  });

  it('closing a handle that a later followTenantRoles replaced leaves the later source followed', async () => {
    const { permissions } = engine();
    const before = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    const after = memorySource({ acme: { definitions: [reviewer('REVIEWER')] } });
    const first = await permissions.followTenantRoles(before.source);
    const second = await permissions.followTenantRoles(after.source);
    const query = { user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: 'acme' } as const;
    expect((await permissions.grantPermit(query)).granted).toBe(true);
    // The first source's watch no longer forgets tenants of the second.
    before.publish('acme', { definitions: [] });
    await first.close();
    expect([(await permissions.grantPermit(query)).granted, first.tenants, second.tenants]).toEqual([true, 0, 1]);
    // The second still follows its source: a change there is seen.
    after.publish('acme', { definitions: [] });
    expect((await permissions.grantPermit(query)).granted).toBe(false);
    expect(after.reads).toEqual(['acme', 'acme']);
    await second.close();
  });

  it('a source that answers null, a string, or a document that cannot be read: no custom roles, said once — never an untyped error', async () => {
    const { permissions, warnings } = engine();
    const answers: Record<string, unknown> = {
      acme: null,
      globex: 'v1',
      initech: {
        tenant: 'initech',
        sequence: 3,
        get document(): unknown {
          throw new SyntaxError('Unexpected token } in JSON');
        },
      },
    };
    await permissions.followTenantRoles({ description: 'careless', read: (tenant) => Promise.resolve(answers[tenant] as TenantRolesVersion) });
    for (const tenant of ['acme', 'globex', 'initech', 'acme']) {
      const permit = await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant });
      expect([tenant, permit.granted]).toEqual([tenant, false]);
    }
    expect(warnings).toEqual([
      'typed-permissions: careless answered the read of tenant "acme" with null, not its version; the tenant gets no custom roles.',
      'typed-permissions: unknown role "REVIEWER": no definition names it; it is ignored.',
      'typed-permissions: careless answered the read of tenant "globex" with "v1", not its version; the tenant gets no custom roles.',
      'typed-permissions: the custom roles of tenant "initech" (version 3) cannot be read (Unexpected token } in JSON); they grant nothing.',
    ]);
  });

  it('a sequence that is no positive whole number is no version; a failure that is no Error is still a typed refusal', async () => {
    const { permissions, warnings } = engine();
    const faceless = Object.create(null) as object;
    const answers: Record<string, () => unknown> = {
      acme: () => ({ tenant: 'acme', sequence: 1n, document: { definitions: [reviewer('REVIEWER')] } }),
      globex: () => ({ tenant: 'globex', sequence: 0, document: { definitions: [reviewer('REVIEWER')] } }),
      initech: () => ({
        tenant: 'initech',
        sequence: 2,
        get document(): unknown {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the value that is no Error under test
          throw faceless;
        },
      }),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the value that is no Error under test
      umbrella: () => Promise.reject(faceless),
    };
    await permissions.followTenantRoles({ description: 'careless', read: (tenant) => Promise.resolve(answers[tenant]?.() as TenantRolesVersion) });
    const ask = (tenant: string) => permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant });
    for (const tenant of ['acme', 'globex', 'initech', 'acme']) expect([tenant, (await ask(tenant)).granted]).toEqual([tenant, false]);
    const refusal = await ask('umbrella').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PermissionsTenantRolesError);
    expect(refusal).toMatchObject({
      tenant: 'umbrella',
      message:
        'The custom roles of tenant "umbrella" could not be read from careless: a value of type object. Its questions are refused until the source answers.',
      cause: faceless,
    });
    expect(warnings).toEqual([
      'typed-permissions: careless answered the read of tenant "acme" with a version whose sequence is bigint (not a positive whole number), ' +
        'not its version; the tenant gets no custom roles.',
      'typed-permissions: unknown role "REVIEWER": no definition names it; it is ignored.',
      'typed-permissions: careless answered the read of tenant "globex" with a version whose sequence is 0 (not a positive whole number), ' +
        'not its version; the tenant gets no custom roles.',
      'typed-permissions: the custom roles of tenant "initech" (version 2) cannot be read (a value of type object); they grant nothing.',
      'typed-permissions: The custom roles of tenant "umbrella" could not be read from careless: a value of type object. ' +
        'Its questions are refused until the source answers.',
    ]);
  });

  it('a watch failing with a value that is no Error is said through the logger, not thrown', async () => {
    const { permissions, warnings } = engine();
    const source: TenantRolesSource = {
      description: 'faceless',
      read: () => Promise.resolve(undefined),
      watch: (_changed, failed) => {
        failed(Object.create(null));
        return () => Promise.resolve();
      },
    };
    const followed = await permissions.followTenantRoles(source);
    expect(warnings).toEqual(['typed-permissions: watching tenant roles failed (it goes on): a value of type object']);
    await followed.close();
  });

  it('grants nothing through custom roles that do not fit the policy, and says so once', async () => {
    const { permissions, warnings } = engine();
    await permissions.followTenantRoles(memorySource({ acme: { definitions: [{ roles: ['EMPLOYEE'], resource: 'document', grant: ['delete:any'] }] } }).source);
    const query = { user: userWith('EMPLOYEE'), resource: 'document', action: 'delete', resourceId: 200, tenant: 'acme' } as const;
    expect((await permissions.grantPermit(query)).granted).toBe(false);
    expect(warnings).toEqual([
      'typed-permissions: the custom roles of tenant "acme" (version 1) do not fit the active policy; they grant nothing. ' +
        'Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one.',
    ]);
  });
});

describe('explaining and logging a decision in a tenant', () => {
  it("explain names the tenant and marks which role is the tenant's, with the definition that granted", async () => {
    const { permissions } = engine();
    await permissions.followTenantRoles(
      memorySource({ acme: { definitions: [{ ...reviewer('REVIEWER', ['title']), descr: 'Reviewers read titles.' }] } }).source,
    );
    const permit = await permissions.grantPermit({
      user: userWith('EMPLOYEE', 'REVIEWER'),
      resource: 'document',
      action: 'read',
      resourceId: 200,
      tenant: 'acme',
    });
    expect(permit.granted).toBe(false);
    expect(formatExplanation(await permit.explain())).toBe(
      [
        'read on document for roles EMPLOYEE, REVIEWER in tenant "acme": NOT GRANTED for id 200',
        '  - EMPLOYEE: own (when rule creator says so), attributes * !confidential',
        '      from document.permissions.json #0 ("An employee creates documents, and reads and lists the ones they created; ' +
          'other documents they list by title and date only.") as own',
        '  - REVIEWER (custom role of tenant "acme"): own (when rule sameCompany says so), attributes title',
        '      from tenant "acme" #0 ("Reviewers read titles.") as own',
        '  - id 200: rule creator answered not owned.',
        '  - id 200: rule sameCompany answered not owned.',
        '  - id 200 refused: no ownership hook matched.',
      ].join('\n'),
    );
  });

  it('the decision log records the tenant and the tenant definition that granted', async () => {
    const events: DecisionEvent[] = [];
    const permissions = createPermissions({
      ownershipRules: memoryOwnership({ document: DOCUMENTS, user: USERS }),
      onDecision: (event: DecisionEvent) => void events.push(event),
      logger: { warn: () => undefined },
    });
    await permissions.followTenantRoles(memorySource({ acme: { definitions: [reviewer('REVIEWER')] } }).source);
    await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'review', resourceId: 100, tenant: 'acme' });
    await permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'review', resourceId: 100 });
    await permissions.decisionLog?.flush();
    expect(events.map(({ tenant, granted, definitions }) => ({ tenant, granted, definitions }))).toEqual([
      { tenant: 'acme', granted: true, definitions: [{ source: 'tenant "acme"', index: 0 }] },
      { tenant: undefined, granted: false, definitions: [] },
    ]);
    expect('tenant' in (events[1] as object)).toBe(false);
  });
});

describe('tenant ids', () => {
  const hostile = ['__proto__', 'constructor', '../acme', 'a"b', 'ünïcødé 🙂', 'x'.repeat(MAX_TENANT_ID_LENGTH)];

  it.each(hostile)('%j is a tenant of its own', async (tenant) => {
    const { permissions } = engine();
    const store = memorySource({ [tenant]: { definitions: [reviewer('REVIEWER')] } });
    await permissions.followTenantRoles(store.source);
    const ask = (asked: string) => permissions.grantPermit({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant: asked });
    expect((await ask(tenant)).granted).toBe(true);
    expect((await ask('acme')).granted).toBe(false);
    // Asked again, each is kept under its own id: no second read, and the same answers.
    expect((await ask(tenant)).granted).toBe(true);
    expect(permissions.grantPermitSync({ user: userWith('REVIEWER'), resource: 'document', action: 'read', tenant }).granted).toBe(true);
    expect((await ask('acme')).granted).toBe(false);
    expect(store.reads).toEqual([tenant, 'acme']);
  });

  it.each([
    ['', 'grantPermit: tenant must not be empty.'],
    ['x'.repeat(MAX_TENANT_ID_LENGTH + 1), `grantPermit: tenant must be at most 256 characters, got 257.`],
    ['acme\u001b[31m', 'grantPermit: tenant must not contain control or format characters.'],
    ['a\u202eb', 'grantPermit: tenant must not contain control or format characters.'],
    [42, 'grantPermit: tenant must be a string, got number.'],
    [null, 'grantPermit: tenant must be a string, got null.'],
  ])('%j is refused before any read', async (tenant, message) => {
    const { permissions } = engine();
    const store = memorySource({});
    await permissions.followTenantRoles(store.source);
    const query = { user: userWith('EMPLOYEE'), resource: 'document', action: 'list', tenant } as never;
    await expect(permissions.grantPermit(query)).rejects.toThrow(new PermissionsUsageError(message));
    expect(() => permissions.grantPermitSync(query)).toThrow(new PermissionsUsageError(message.replace('grantPermit', 'grantPermitSync')));
    expect(store.reads).toEqual([]);
  });
});

describe('a tenant without a followed source', () => {
  it('decides with the policy roles, synchronously too, and carries the tenant', async () => {
    const { permissions } = engine();
    const query = { user: userWith('EMPLOYEE'), resource: 'document', action: 'read', resourceId: 100, tenant: 'acme' } as const;
    const permit = await permissions.grantPermit(query);
    expect(permit.granted).toBe(true);
    expect(permissions.grantPermitSync({ ...query, resourceId: undefined }).granted).toBe(true);
    expect(permissions.policyVersion).toBe(policyVersion);
    expect(grantTables.roles).not.toContain('REVIEWER');
  });

  it('answers synchronously from the first question, the same before and after an asynchronous question loads the tenants', async () => {
    const { permissions } = engine();
    const answers = () => [
      permissions.grantPermitSync({ user: userWith('EMPLOYEE'), resource: 'document', action: 'list', tenant: 'acme' }).granted,
      permissions.grantPermitSync({ user: userWith('AUDITOR'), resource: 'document', action: 'list', tenant: 'globex' }).reason,
      permissions.sliceFor(userWith('EMPLOYEE'), { tenant: 'acme' }).grants,
    ];
    const before = answers();
    expect(before.slice(0, 2)).toEqual([true, 'unknown-tenant']);
    expect(before[2]).toEqual(permissions.sliceFor(userWith('EMPLOYEE')).grants);
    await permissions.grantPermit({ user: userWith('EMPLOYEE'), resource: 'document', action: 'list', tenant: 'initech' });
    expect(answers()).toEqual(before);
  });
});

jest.setTimeout(10_000);
