/**
 * Reads the metadata of a `*.resource.json` file, checked against the runtime's zod schema of
 * metadata files (the one `resource.schema.json` is emitted from).
 */
import {
  validateResourceMetadata,
  type OwnershipCondition,
  type RelationDeclaration,
  type TenantIdType,
  type UserAttributeType,
} from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { positionOf, type Positions, type StaticValue } from './value-positions.js';

/** A resource's declared metadata. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly idType: 'number' | 'string';
  readonly attributes: readonly string[] | undefined;
  /** The resource's actions, when it declares them: grants may name only these, and `'*'` expands to them. */
  readonly actions: readonly string[] | undefined;
  /** The method of the ownership service that runs this resource's limitOwned filters over given ids. */
  readonly ownedAmong: string | undefined;
  /** To-one relations by name: the record's attribute `on` holds the id of a record of `resource`. */
  readonly relations: Readonly<Record<string, RelationDeclaration>> | undefined;
  /** The user attributes the ownership rules read, with their types. */
  readonly userAttributes: Readonly<Record<string, UserAttributeType>> | undefined;
  /** Named ownership rules. */
  readonly ownership: Readonly<Record<string, OwnershipCondition>> | undefined;
  /** How the records hold the tenant id `{ "tenant": "id" }` conditions compare with; undefined: a string. */
  readonly tenantIdType: TenantIdType | undefined;
  readonly file: string;
  readonly positions: Positions;
}

/**
 * The metadata a `*.resource.json` file holds, or `undefined` when it has problems (added to `problems`).
 *
 * @example
 * ```ts
 * const metadata = readResourceMetadata('document.resource.json', readJsonFile(dir, 'document.resource.json').read, problems);
 * ```
 */
export function readResourceMetadata(file: string, read: StaticValue, problems: CompileProblem[]): ResourceMetadata | undefined {
  const checked = validateResourceMetadata(read.value);
  if (!checked.ok) {
    for (const { path, message, fix } of checked.problems)
      problems.push({ file, ...(positionOf(read.positions, path) ?? { line: 1, column: 1 }), path, code: 'invalid-metadata', message, fix });
    return undefined;
  }
  const { resource, idType, attributes, actions, ownedAmong, relations, userAttributes, ownership, tenantIdType } = checked.metadata;
  return { resource, idType, attributes, actions, ownedAmong, relations, userAttributes, ownership, tenantIdType, file, positions: read.positions };
}
