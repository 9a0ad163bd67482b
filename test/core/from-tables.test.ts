import { describe, expect, it } from '@jest/globals';
import { PermissionDefinitionError, Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
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

describe('precompiled tables are shape-checked by hand, and the precompiled entry loads no zod', () => {
  const cases: readonly [what: string, change: (tables: Record<string, unknown>) => void, says: string][] = [
    ['a cell with a role index out of range', (t) => ((t['cells'] as unknown[][])[0]![2] = 99), 'cells[0][2] is not an index below 2'],
    ['a cell of 6 fields', (t) => (t['cells'] as unknown[][])[0]!.pop(), 'cells[0] does not have 7 fields'],
    ['an own list with an odd length', (t) => (t['cells'] as unknown[][])[0]!.splice(4, 1, [0]), 'cells[0][4] is not a list of (ownership group, plan) pairs'],
    [
      'an unknown hook kind',
      (t) => ((t['hooks'] as { kind: string }[])[0]!.kind = 'isAdmin'),
      'hooks[0].kind is not isOwner, listOwned, limitOwned or ownedAmong',
    ],
    [
      'an ownership group whose isOwner is a list hook',
      (t) => ((t['owners'] as { isOwner: number }[])[0]!.isOwner = 1),
      'owners[0].isOwner is not a isOwner hook',
    ],
    [
      'an ownership group naming a definition past the definitions',
      (t) => (t['owners'] as { definitions: unknown[] }[])[0]!.definitions.push(0, 5),
      'owners[0].definitions[2] is not an index below 2',
    ],
    [
      'an ownership group whose definitions are no list',
      (t) => ((t['owners'] as { definitions: unknown }[])[0]!.definitions = 0),
      'owners[0].definitions is not an array',
    ],
    [
      'a plan nested deeper than attribute paths go',
      (t) => {
        let plan: unknown = [1, []];
        for (let i = 0; i < 40; i++) plan = [0, [[`k${i}`, plan]]];
        (t['plans'] as unknown[]).push(plan);
      },
      'nests deeper than 32 levels',
    ],
    ['a role that is not a name', (t) => ((t['roles'] as unknown[])[0] = 7), 'roles[0] is not a name'],
  ];

  it.each(cases)('%s is refused with a usage error naming the place', (_what, change, says) => {
    const corrupted = JSON.parse(JSON.stringify(tables())) as Record<string, unknown>;
    change(corrupted);
    expect(() => Permissions.fromTables(corrupted as never, { ownership })).toThrow(says);
  });

  it('the module graph of generated code (the precompiled entry) loads no zod and no table builder: only deciding in tenants does', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [new URL('../../generated/index.ts', import.meta.url).pathname],
      bundle: true,
      splitting: true,
      outdir: 'out',
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
    const entry = outputs.find(([, output]) => output.entryPoint !== undefined)?.[1];
    // What the entry and its static imports load: every chunk reached without a dynamic import.
    const loaded = new Set<string>();
    const visit = (output: (typeof outputs)[number][1]) => {
      for (const input of Object.keys(output.inputs)) loaded.add(input);
      for (const imported of output.imports) {
        const chunk = result.metafile.outputs[imported.path];
        if (imported.kind === 'import-statement' && chunk !== undefined) visit(chunk);
      }
    };
    visit(entry as (typeof outputs)[number][1]);
    expect([...loaded].filter((path) => /zod|table-builder|definition-schema|definitions-file/.test(path))).toEqual([]);
    expect(loaded).toContain('runtime/permissions/precompiled.ts');
    // The table builder is there, behind the dynamic import of followTenantRoles.
    expect(Object.keys(result.metafile.inputs)).toContain('runtime/core/table-building/table-builder.ts');
  });

  it('build() through the precompiled entry alone says what to import instead', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `
      import { Permissions } from './runtime/permissions/precompiled.ts';
      try { new Permissions().addPermissions([]).build(); } catch (error) { console.log(error.message); }
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: new URL('../../', import.meta.url),
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe(
      "build() validates definitions, which 'typed-permissions/precompiled' leaves out to stay small: import Permissions from 'typed-permissions' where " +
        'definitions are built at run time, or compile them ahead of time (npx typed-permissions compile) and load the generated tables.',
    );
  });
});
