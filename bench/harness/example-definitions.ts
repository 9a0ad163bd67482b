/**
 * The example's definitions and ownedAmong executors, read from the repository's definitions folder — what the
 * compiler reads — so that every benchmark models the same policy the example app runs.
 */
import { readFileSync } from 'node:fs';
import type { PermissionDefinitionJson } from '../../runtime/permissions/index.js';

const EXAMPLE_FILE = new URL('../../definitions/document.permissions.json', import.meta.url);

const EXAMPLE_RESOURCE_FILE = new URL('../../definitions/document.resource.json', import.meta.url);

/**
 * The example's ownedAmong executors, as `new Permissions({ ownedAmong })` takes them, read from
 * definitions/document.resource.json so that the bench builds what the compiler reads.
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
 * The example definitions, read from the repository's definitions folder.
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
