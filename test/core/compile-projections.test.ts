/**
 * Compiling hot attribute plans (`new Function`) is lazy and can be switched off: nothing is compiled or
 * probed at import, and an engine with `compileProjections: false` never constructs a function, with the
 * same answers as one that compiles.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Permissions, PermissionsUsageError, type PermissionDefinition } from '../../runtime/permissions/index.js';

const NativeFunction = Function;
let constructed = 0;

/** Counts `new Function(…)` through the global binding the library's code reads. */
function countFunctionConstructions(): void {
  constructed = 0;
  globalThis.Function = new Proxy(NativeFunction, {
    construct(target, args: unknown[]) {
      constructed++;
      return Reflect.construct(target, args) as object;
    },
  });
}

afterEach(() => {
  globalThis.Function = NativeFunction;
});

function engine(compileProjections: boolean | undefined, attribute: string) {
  // A fresh attribute name per engine gives a fresh plan: compiled plans are shared process-wide.
  const definitions: PermissionDefinition[] = [{ roles: ['READER'], resource: 'doc', grant: { 'read:any': ['id', attribute, 'nested.x'] } }];
  return new Permissions({ ...(compileProjections === undefined ? {} : { compileProjections }) }).addPermissions(definitions).build();
}

const item = (attribute: string) => ({ id: 1, [attribute]: 'kept', secret: 's', nested: { x: 1, y: 2 } });

describe('compiled projections', () => {
  it('compileProjections: false never constructs a function, and picks exactly what a compiling engine picks', async () => {
    // Built before counting: validating definitions (zod) compiles functions of its own.
    const off = engine(false, 'offTitle');
    const on = engine(undefined, 'onTitle');
    countFunctionConstructions();
    const permit = await off.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'doc', action: 'read' });
    for (let i = 0; i < 40; i++) expect(await permit.pick(item('offTitle'))).toEqual({ id: 1, offTitle: 'kept', nested: { x: 1 } });
    expect(constructed).toBe(0);

    const compiling = await on.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'doc', action: 'read' });
    for (let i = 0; i < 40; i++) expect(await compiling.pick(item('onTitle'))).toEqual({ id: 1, onTitle: 'kept', nested: { x: 1 } });
    // The probe and the plan's projection (its nested plan and a literal shape too).
    expect(constructed).toBeGreaterThanOrEqual(2);
  });

  it('the option takes only true or false', () => {
    expect(() => new Permissions({ compileProjections: 'no' as never })).toThrow(
      new PermissionsUsageError('Permissions option compileProjections must be true or false.'),
    );
  });

  it('importing the engine, loading compiled tables and deciding without a hot plan construct no function (no probe at import)', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `let made = 0; const F = Function;
         globalThis.Function = new Proxy(F, { construct(t, a) { made++; return Reflect.construct(t, a); } });
         const { createPermissions } = await import('./generated/index.ts');
         const { memoryOwnership } = await import('./runtime/ownership/index.ts');
         const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: [], user: [] }) });
         const user = { id: 5, roles: ['SUPER_ADMIN'], companyId: 2, managedUserIds: [] };
         const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'read' });
         permit.pickSync({ id: 1, title: 't' });
         console.log(made);`,
      ],
      { cwd: new URL('../../', import.meta.url), encoding: 'utf8', timeout: 60_000 },
    );
    expect({ status: child.status, out: child.stdout.trim() }).toEqual({ status: 0, out: '0' });
  }, 60_000);
});
