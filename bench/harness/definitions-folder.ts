/**
 * Writes a scenario as a definitions folder the compiler reads: the example files in their hook form as they are
 * (test/fixtures/example-hooks/definitions, what the scenario's example definitions are read from), one
 * `*.permissions.json` per filler role and one `*.resource.json` (number ids, the ten attributes)
 * per filler resource that a definition names.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILLER_FIELDS, type Scenario } from './scenario.js';

const EXAMPLE_FILES = ['document.permissions.json', 'document.resource.json'] as const;

/**
 * Writes `scenario` into `dir` (created if missing) and returns the number of files written.
 *
 * @example
 * ```ts
 * writeDefinitionsFolder(createScenario(10), 'bench/.tmp/run/definitions-10x'); // 2 + 200 roles + used resources
 * ```
 */
export function writeDefinitionsFolder(scenario: Scenario, dir: string): number {
  mkdirSync(dir, { recursive: true });
  for (const name of EXAMPLE_FILES) copyFileSync(new URL(`../../test/fixtures/example-hooks/definitions/${name}`, import.meta.url), join(dir, name));
  let files = EXAMPLE_FILES.length;
  const used = new Set<string>();
  for (const [role, definitions] of scenario.fillerByRole) {
    writeFileSync(join(dir, `${role.toLowerCase()}.permissions.json`), `${JSON.stringify({ definitions }, null, 2)}\n`);
    for (const definition of definitions) used.add(definition.resource);
    files++;
  }
  for (const resource of scenario.fillerResources.filter((name) => used.has(name))) {
    writeFileSync(join(dir, `${resource}.resource.json`), `${JSON.stringify({ resource, idType: 'number', attributes: FILLER_FIELDS }, null, 2)}\n`);
    files++;
  }
  return files;
}
