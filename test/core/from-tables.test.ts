import { describe, expect, it } from '@jest/globals';
import { PermissionDefinitionError, Permissions, type PermissionDefinition } from '../../runtime/core/index.js';
import { collectingLogger } from './helpers.js';

const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['AUDITOR'], resource: '*', grant: ['read:any'] },
];
const ownership = { isCreator: ({ resourceId }: { resourceId: number }) => resourceId === 1, listCreated: () => [1] };

function tables() {
  return new Permissions({ ownership, logger: collectingLogger().logger }).addPermissions(definitions, { source: 'document.permissions.json' }).build().tables;
}

describe('Permissions.fromTables: loading precomputed tables without rebuilding', () => {
  it('decides exactly like the instance that built the tables', async () => {
    const built = new Permissions({ ownership, logger: collectingLogger().logger }).addPermissions(definitions).build();
    const loaded = Permissions.fromTables(built.tables, { ownership, logger: collectingLogger().logger });
    for (const roles of [['EMPLOYEE'], ['AUDITOR'], ['EMPLOYEE', 'AUDITOR'], ['X']]) {
      for (const resourceId of [undefined, 1, 2]) {
        const query = { user: { id: 1, roles }, resource: 'document', action: 'read', resourceId };
        const [a, b] = [await built.grantPermit(query), await loaded.grantPermit(query)];
        expect([b.granted, b.anyGranted, b.ownGranted, b.anyAttributes]).toEqual([a.granted, a.anyGranted, a.ownGranted, a.anyAttributes]);
      }
    }
  });

  it('refuses tables of another format with a usage error that says to compile again', () => {
    for (const candidate of [null, {}, { ...tables(), format: 2 }, { format: 1 }]) {
      expect(() => Permissions.fromTables(candidate as never, { ownership })).toThrow(/compile/);
    }
  });

  it('fails with a PermissionDefinitionError naming the method and the definition (index and source) when the ownership service lacks a hook method', () => {
    let caught: unknown;
    try {
      Permissions.fromTables(tables(), { ownership: { listCreated: () => [] } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PermissionDefinitionError);
    const { problems } = caught as PermissionDefinitionError;
    expect(problems.map(({ code, index, source, path }) => ({ code, index, source, path }))).toEqual([
      { code: 'unknown-hook-method', index: 0, source: 'document.permissions.json', path: ['isOwner'] },
    ]);
    expect(problems[0]?.message).toContain('"isCreator"');
  });
});
