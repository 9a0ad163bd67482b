/**
 * Scale: a generated definitions folder of 200 roles × 500 resources × 10 actions compiles, and its
 * output type-checks with the TypeScript API. Timings are printed, never asserted: machines differ.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type CompileResult } from '../../compiler/compile.js';
import { EMITTED_FILES, formatDiagnostics, makeTempDir, removeTempDir, typeCheck } from './helpers.js';
import { writeScaleDefinitions, type ScaleFolder, type ScaleSize } from './scale-definitions.js';

const size: ScaleSize = { roles: 200, resources: 500, actions: 10 };

describe(`compiling ${size.roles} roles × ${size.resources} resources × ${size.actions} actions`, () => {
  let temp: string | undefined;
  let folder: ScaleFolder;
  let result: CompileResult;
  let compileMs = 0;
  const outDir = () => join(temp as string, 'generated');

  beforeAll(async () => {
    temp = makeTempDir('scale');
    folder = writeScaleDefinitions(join(temp, 'definitions'), size);
    const started = performance.now();
    result = await compile({ definitionsDir: join(temp, 'definitions'), outDir: outDir() });
    compileMs = performance.now() - started;
  }, 600_000);
  afterAll(() => removeTempDir(temp));

  it('compiles, with every role, resource and action in the tables', () => {
    if (!result.ok) throw new Error(`problems: ${JSON.stringify(result.problems.slice(0, 5))}`);
    expect(result.written).toBe(true);
    expect(result.model.tables.roles).toEqual(folder.roles);
    expect(result.model.tables.resources).toEqual(folder.resources);
    expect(result.model.tables.actions).toEqual(folder.actions);
    const sizes = Object.fromEntries(EMITTED_FILES.map((name) => [name, `${Math.round(statSync(join(outDir(), name)).size / 1024)} KiB`]));
    console.log(
      `scale ${size.roles} roles × ${size.resources} resources × ${size.actions} actions: ${folder.files} files, ${folder.definitions} definitions, ` +
        `${result.model.tables.cells.length} grant cells; compile ${Math.round(compileMs)} ms; output ${JSON.stringify(sizes)}`,
    );
  });

  it('the output type-checks with a consumer, with no diagnostics', () => {
    const consumer = join(temp as string, 'consumer.ts');
    const last = folder.resources.at(-1) as string;
    writeFileSync(
      consumer,
      `import { createPermissions, type PermissionsOwnershipService } from './generated/index.js';
declare const ownership: PermissionsOwnershipService;
const permissions = createPermissions({ ownership });
export const permit = permissions.grantPermit({ user: { id: 1, roles: ['ROLE_000'] }, resource: '${last}', action: 'read' });
`,
    );
    const started = performance.now();
    const checked = typeCheck([consumer, ...EMITTED_FILES.filter((name) => name.endsWith('.ts')).map((name) => join(outDir(), name))]);
    const tscMs = performance.now() - started;
    console.log(`scale ${size.roles} roles × ${size.resources} resources × ${size.actions} actions: type-check ${Math.round(tscMs)} ms`);
    if (checked.count > 0) throw new Error(formatDiagnostics(checked.byFile).slice(0, 4000));
    expect(checked.count).toBe(0);
  }, 600_000);
});
