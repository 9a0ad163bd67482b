/**
 * The example's definitions and ownedAmong executors in their hook form, read from test/fixtures/example-hooks —
 * the example's grants with its ownership decided by hook methods (limitToCreator, isCreatedInSameCompany, …), as
 * the example app declared them before its ownership became rules. The benchmarks build engines at run time
 * (`new Permissions`) and count hook calls, and an engine built at run time cannot name ownership rules (they need
 * the compiler), so every benchmark models these same grants with the hooks of the fixture.
 */
import { readFileSync } from 'node:fs';
import type { PermissionDefinitionJson } from '../../runtime/permissions/index.js';

const EXAMPLE_FILE = new URL('../../test/fixtures/example-hooks/definitions/document.permissions.json', import.meta.url);

const EXAMPLE_RESOURCE_FILE = new URL('../../test/fixtures/example-hooks/definitions/document.resource.json', import.meta.url);

/**
 * The example's ownedAmong executors, as `new Permissions({ ownedAmong })` takes them, read from the fixture's
 * document.resource.json so that the bench builds what the compiler reads.
 *
 * @example
 * ```ts
 * readExampleOwnedAmong(); // { document: 'ownedDocumentsAmong' }
 * ```
 */
export function readExampleOwnedAmong(): Readonly<Record<string, string>> {
  const { resource, ownedAmong } = JSON.parse(readFileSync(EXAMPLE_RESOURCE_FILE, 'utf8')) as { resource: string; ownedAmong?: string };
  return ownedAmong === undefined ? {} : { [resource]: ownedAmong };
}

/**
 * The example definitions in their hook form, read from the fixture's document.permissions.json.
 *
 * @example
 * ```ts
 * readExampleDefinitions().map((definition) => definition.roles); // [['EMPLOYEE'], ['EMPLOYEE_MANAGER'], …]
 * ```
 */
export function readExampleDefinitions(): PermissionDefinitionJson[] {
  const parsed = JSON.parse(readFileSync(EXAMPLE_FILE, 'utf8')) as { definitions: PermissionDefinitionJson[] } | PermissionDefinitionJson[];
  return Array.isArray(parsed) ? parsed : parsed.definitions;
}
