/**
 * Hooks that fail never grant: a hook that throws, rejects, answers with the wrong type or does not
 * settle in hookTimeoutMs makes the call reject with a PermissionsHookError.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, PermissionsError, PermissionsHookError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { collectingLogger, testDoc } from './helpers.js';

const user = { id: 1, roles: ['OWNER'] };

function setup(hooks: Record<string, unknown>) {
  const permissions = new Permissions({ logger: collectingLogger().logger, hookTimeoutMs: 30 });
  permissions.addPermissions([{ roles: 'OWNER', resource: 'doc', grant: ['read:own'], ...hooks } as PermissionDefinition]);
  permissions.build();
  return permissions;
}

const never = () => new Promise<never>(() => {});

/** Resolves to the rejection reason of `promise`; fails the test when it fulfils. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('hook failures', () => {
  it('hook failure: an isOwner that throws rejects grantPermit and isOwn with PermissionsHookError whose cause is the original error', async () => {
    const original = new Error('database down');
    const permissions = setup({
      isOwner: () => {
        throw original;
      },
      limitOwned: () => 'mine',
    });
    const error = await rejectionOf(permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 }));
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect(error).toBeInstanceOf(PermissionsError);
    expect((error as PermissionsHookError).code).toBe('PERMISSIONS_HOOK_FAILED');
    expect((error as PermissionsHookError).cause).toBe(original);
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    const fromIsOwn = await rejectionOf(permit.isOwn(1));
    expect(fromIsOwn).toBeInstanceOf(PermissionsHookError);
    expect((fromIsOwn as PermissionsHookError).cause).toBe(original);
  });

  it('hook failure: an isOwner that rejects makes grantPermit, isOwn, pick and filterPick reject with PermissionsHookError (cause kept)', async () => {
    const original = new Error('timeout talking to the database');
    const permissions = setup({ isOwner: () => Promise.reject(original), limitOwned: () => 'mine' });
    const fromGrant = await rejectionOf(permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 }));
    expect(fromGrant).toBeInstanceOf(PermissionsHookError);
    expect((fromGrant as PermissionsHookError).cause).toBe(original);
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    await expect(permit.isOwn(2)).rejects.toThrow(PermissionsHookError);
    await expect(permit.pick(testDoc(3))).rejects.toThrow(PermissionsHookError);
    await expect(permit.filterPick([testDoc(4)])).rejects.toThrow(PermissionsHookError);
  });

  it('hook failure: an isOwner answering a non-boolean (truthy string, 1, null) is a PermissionsHookError, never a grant', async () => {
    for (const answer of ['yes', 1, null, undefined, {}]) {
      const permissions = setup({ isOwner: () => answer, limitOwned: () => 'mine' });
      await expect(permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 })).rejects.toThrow(PermissionsHookError);
      const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
      await expect(permit.isOwn(1)).rejects.toThrow(PermissionsHookError);
    }
  });

  it('hook failure: an isOwner promise resolving to a non-boolean is a PermissionsHookError', async () => {
    const permissions = setup({ isOwner: () => Promise.resolve('true'), limitOwned: () => 'mine' });
    await expect(permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 })).rejects.toThrow(PermissionsHookError);
  });

  it('hook failure: a listOwned returning a non-array rejects listOwn and filterPick with PermissionsHookError', async () => {
    for (const answer of [new Set([1]), '1,2', 1, null, { 0: 1, length: 1 }]) {
      const permissions = setup({ isOwner: () => true, listOwned: () => answer });
      const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
      await expect(permit.listOwn()).rejects.toThrow(PermissionsHookError);
      const again = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
      await expect(again.filterPick([testDoc(1)])).rejects.toThrow(PermissionsHookError);
    }
  });

  it('hook failure: a listOwned that throws or rejects rejects listOwn with PermissionsHookError (cause kept)', async () => {
    const original = new Error('list failed');
    for (const listOwned of [
      () => {
        throw original;
      },
      () => Promise.reject(original),
    ]) {
      const permissions = setup({ isOwner: () => true, listOwned });
      const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
      const error = await rejectionOf(permit.listOwn());
      expect(error).toBeInstanceOf(PermissionsHookError);
      expect((error as PermissionsHookError).cause).toBe(original);
    }
  });

  it('hook failure: an isOwner that never settles fails after hookTimeoutMs with PermissionsHookError', async () => {
    const permissions = setup({ isOwner: never, limitOwned: () => 'mine' });
    // The rejection says it came from the time-out (a hang would instead hit jest's own timeout).
    await expect(permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 })).rejects.toThrow(/did not settle within \d+ ms/);
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    await expect(permit.isOwn(2)).rejects.toThrow(PermissionsHookError);
  });

  it('hook timeout: a hook that settles within hookTimeoutMs answers normally', async () => {
    const permissions = setup({ isOwner: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5)), limitOwned: () => 'mine' });
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 });
    expect([permit.granted, permit.ownGranted]).toEqual([true, true]);
  });

  it('hook failure: a listOwned that never settles fails after hookTimeoutMs with PermissionsHookError', async () => {
    const permissions = setup({ isOwner: () => true, listOwned: never });
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    await expect(permit.listOwn()).rejects.toThrow(PermissionsHookError);
    const again = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    await expect(again.filterPick([testDoc(1)])).rejects.toThrow(PermissionsHookError);
  });

  it('hook failure: a failing hook of one group never grants, even when another group would answer false', async () => {
    const permissions = new Permissions({ logger: collectingLogger().logger, hookTimeoutMs: 30 });
    permissions.addPermissions([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: () => false, limitOwned: () => 'a' },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: () => Promise.reject(new Error('boom')), limitOwned: () => 'b' },
    ]);
    permissions.build();
    await expect(permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read', resourceId: 1 })).rejects.toThrow(
      PermissionsHookError,
    );
  });
});
