/**
 * An earlier version of the example's definitions for the review page's comparisons: employees listed other
 * documents by title only (now title and date), managers could not delete (now they delete their own), and a
 * CONTRACTOR role read every document's title (now gone).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';

interface DefinitionsFile {
  definitions: { roles: string[]; resource: string; possession?: string; grant: Record<string, string[]>; descr?: string; owner?: string }[];
}

/**
 * Copies the example's definitions into `folder` and turns them into the earlier version.
 *
 * @example
 * ```ts
 * writeEarlierDefinitions(join(temp, 'before')); // then: render definitions --out site --before <that folder>
 * ```
 */
export function writeEarlierDefinitions(folder: string): void {
  cpSync(join(repoRoot, 'definitions'), folder, { recursive: true });
  const path = join(folder, 'document.permissions.json');
  const file = JSON.parse(readFileSync(path, 'utf8')) as DefinitionsFile;
  const [employee, manager] = file.definitions;
  if (employee === undefined || manager === undefined) throw new Error('the example changed: document.permissions.json has no employee and manager');
  employee.grant['list:any'] = ['title'];
  delete manager.grant['delete'];
  file.definitions.push({ roles: ['CONTRACTOR'], resource: 'document', possession: 'any', grant: { read: ['title'] }, descr: 'Contractors read titles.' });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}
