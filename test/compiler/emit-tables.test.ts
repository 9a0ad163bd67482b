/**
 * One mechanism, two entrances: for every good fixture folder without ownership rules (and the example app's grants
 * with the ownership hooks they had before rules, test/fixtures/example-hooks/definitions), the grant tables
 * serialised into the generated `tables.ts` deep-equal the tables that
 * `new Permissions(...).addPermissions(...).build()` makes at run time from the same definitions, added file by file
 * in name order with the file name as source label.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../compiler/compile.js';
import { readDefinitionsFolder } from '../../compiler/reading/read-definitions.js';
import { Permissions, type GrantTables, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { fixture, goodFixtureNames, makeTempDir, removeTempDir, repoRoot, tablesFromGenerated } from './helpers.js';

const DEFINITION_FILE = /\.permissions\.(json|ts)$/;

/** The definitions of each file of `dir`, in name order: JSON read directly, TypeScript through the compiler's static reader. */
function definitionsByFile(dir: string): { file: string; definitions: unknown[] }[] {
  const fromTypeScript = readDefinitionsFolder(dir);
  if (fromTypeScript.problems.length > 0) throw new Error(`${dir} has problems: ${JSON.stringify(fromTypeScript.problems)}`);
  return readdirSync(dir)
    .filter((file) => DEFINITION_FILE.test(file))
    .sort()
    .map((file) => {
      if (file.endsWith('.ts')) return { file, definitions: fromTypeScript.definitions.filter((entry) => entry.file === file).map((entry) => entry.value) };
      const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      const definitions = Array.isArray(parsed) ? parsed : (parsed as { definitions: unknown[] }).definitions;
      return { file, definitions };
    });
}

/** An ownership service with a method for every hook name the definitions use (build() checks that they exist). */
function ownershipFor(files: readonly { definitions: readonly unknown[] }[]): Record<string, () => unknown> {
  const ownership: Record<string, () => unknown> = {};
  for (const { definitions } of files) {
    for (const definition of definitions as Record<string, unknown>[]) {
      for (const kind of ['isOwner', 'listOwned', 'limitOwned']) {
        const name = definition[kind];
        if (typeof name === 'string') ownership[name] = () => undefined;
      }
    }
  }
  return ownership;
}

/** The ownedAmong executors the folder's `*.resource.json` files declare, as build() takes them. */
function executorsOf(dir: string): Record<string, string> {
  return Object.fromEntries(readDefinitionsFolder(dir).resources.flatMap((meta) => (meta.ownedAmong === undefined ? [] : [[meta.resource, meta.ownedAmong]])));
}

/** The id types the folder's `*.resource.json` files declare, as build() takes them. */
function idTypesOf(dir: string): Record<string, 'number' | 'string'> {
  return Object.fromEntries(readDefinitionsFolder(dir).resources.map((meta) => [meta.resource, meta.idType]));
}

/** The actions the folder's `*.resource.json` files declare, as build() takes them. */
function declaredActionsOf(dir: string): Record<string, readonly string[]> {
  return Object.fromEntries(readDefinitionsFolder(dir).resources.flatMap((meta) => (meta.actions === undefined ? [] : [[meta.resource, meta.actions]])));
}

/**
 * build() takes no declared attributes (only the compiler reads them from resource files): its tables, with the
 * attributes the folder's `*.resource.json` files declare where the table builder writes them (after the declared
 * actions, before the ownership rules), sorted and each once, null for a resource that declares none.
 */
function withDeclaredAttributes(tables: GrantTables, dir: string): GrantTables {
  const declared = new Map(
    readDefinitionsFolder(dir).resources.flatMap((meta) =>
      meta.attributes === undefined ? [] : [[meta.resource, [...new Set(meta.attributes)].sort()] as const],
    ),
  );
  const attributes = tables.resources.map((resource) => declared.get(resource) ?? null);
  if (attributes.every((list) => list === null)) return tables;
  const { ownershipRules, cells, definitions, ...head } = tables;
  return { ...head, attributes, ...(ownershipRules === undefined ? {} : { ownershipRules }), cells, definitions };
}

function runtimeTables(dir: string): { tables: unknown; warnings: string[] } {
  const files = definitionsByFile(dir);
  const warnings: string[] = [];
  const ownedAmong = executorsOf(dir);
  const ownership = ownershipFor(files);
  for (const executor of Object.values(ownedAmong)) ownership[executor] = () => [];
  const permissions = new Permissions({
    ownership,
    ownedAmong,
    resourceIdTypes: idTypesOf(dir),
    resourceActions: declaredActionsOf(dir),
    logger: { warn: (message) => void warnings.push(message) },
  });
  for (const { file, definitions } of files) permissions.addPermissions(definitions as PermissionDefinition[], { source: file });
  return { tables: withDeclaredAttributes(permissions.build().tables, dir), warnings };
}

/** Whether a folder's `*.resource.json` files declare ownership rules: build() has no resource files to read them from. */
const declaresRules = (dir: string): boolean => readDefinitionsFolder(dir).resources.some((meta) => meta.ownership !== undefined);

const folders: readonly [label: string, dir: string][] = [
  ...goodFixtureNames()
    .filter((name) => !declaresRules(fixture(name)))
    .map((name) => [`test/fixtures/compiler/${name}`, fixture(name)] as [string, string]),
  // The example app's definitions name ownership rules, which build() cannot read: its grants with the hooks they replaced.
  [
    'the example app’s grants with ownership hooks (test/fixtures/example-hooks/definitions)',
    join(repoRoot, 'test', 'fixtures', 'example-hooks', 'definitions'),
  ],
];

describe('generated tables equal the tables build() makes', () => {
  let temp: string | undefined;
  beforeAll(() => {
    temp = makeTempDir('tables');
  });
  afterAll(() => removeTempDir(temp));

  it('there are at least two fixture folders besides the bad corpus', () => {
    expect(goodFixtureNames().length).toBeGreaterThanOrEqual(2);
  });

  it.each(folders)(
    '%s',
    async (_label, dir) => {
      const outDir = join(temp as string, `out-${folders.findIndex(([, d]) => d === dir)}`);
      const result = await compile({ definitionsDir: dir, outDir });
      if (!result.ok) throw new Error(`does not compile: ${JSON.stringify(result.problems)}`);
      const generated = tablesFromGenerated(join(outDir, 'tables.ts'));
      const { tables, warnings } = runtimeTables(dir);
      expect(generated).toEqual(tables);
      // And the serialised form is exactly what JSON.stringify of the runtime's tables gives: same key order, nothing lost.
      expect(JSON.stringify(generated)).toBe(JSON.stringify(tables));
      // The compiler's model sees the same warnings as build() (which prefixes them with the library name).
      expect(result.model.warnings.map((warning) => `typed-permissions: ${warning}`)).toEqual(warnings);
    },
    30_000,
  );

  it('the wildcards fixture really exercises a warning (an identical grant written twice)', () => {
    const { warnings } = runtimeTables(fixture('wildcards'));
    expect(warnings).toContainEqual(expect.stringContaining('LEAD read:any on task is granted twice with the same attributes'));
  });
});

describe('names like the placeholders tables.ts is made with', () => {
  let temp: string | undefined;
  beforeAll(() => {
    temp = makeTempDir('placeholders');
  });
  afterAll(() => removeTempDir(temp));

  // A role, a description, a definitions file and the definitions folder named like the texts that stand for the
  // packed tables while the file is formatted: each took the place of the real one, and tables.ts did not parse.
  it('never take their place: the tables are what build() makes', async () => {
    const names = ['HEADER', 'DEFINITIONS', 'CELLS', 'DESCRIPTIONS'].flatMap((part) => [
      `__TYPED_PERMISSIONS_TABLES_${part}__`,
      `__TYPED_PERMISSIONS_TABLES_${part}_Ω__`,
    ]);
    const dir = join(temp as string, '__TYPED_PERMISSIONS_TABLES_DESCRIPTIONS__');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, '__TYPED_PERMISSIONS_TABLES_CELLS__.permissions.json'),
      JSON.stringify([{ roles: names, resource: 'doc', descr: names.join(' '), grant: { 'read:any': ['*'] } }]),
    );
    const outDir = join(temp as string, 'out');
    const result = await compile({ definitionsDir: dir, outDir });
    if (!result.ok) throw new Error(`does not compile: ${JSON.stringify(result.problems)}`);
    const { tables } = runtimeTables(dir);
    expect(tablesFromGenerated(join(outDir, 'tables.ts'))).toEqual(tables);
    const descriptions = readFileSync(join(outDir, 'descriptions.ts'), 'utf8');
    expect(descriptions).toContain(`export const definitionDescriptions: string =`);
    expect(descriptions.match(/__TYPED_PERMISSIONS_TABLES_DESCRIPTIONS__/g)).toHaveLength(2);
  }, 30_000);
});
