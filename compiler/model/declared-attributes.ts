/**
 * The compiler's side of the declared-attributes check: the runtime's shared check, with each problem placed in
 * the definitions file and its fix naming the resource's `*.resource.json`.
 */
import { undeclaredAttributePaths, type ValidDefinition } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { problemAt } from './definition-problem.js';
import type { ReadDefinition } from '../reading/read-definitions.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';

/**
 * An `unknown-attribute` problem for every attribute pattern of `definition` that names an attribute
 * its resource's metadata does not declare; none when the resource declares no attributes.
 *
 * @example
 * ```ts
 * problems.push(...undeclaredAttributeProblems(entry, definition, metadata));
 * ```
 */
export function undeclaredAttributeProblems(
  entry: ReadDefinition,
  definition: ValidDefinition,
  metadata: ReadonlyMap<string, ResourceMetadata>,
): CompileProblem[] {
  const meta = definition.resource === '*' ? undefined : metadata.get(definition.resource);
  if (meta?.attributes === undefined) return [];
  return undeclaredAttributePaths(definition, { attributes: meta.attributes, declaredIn: `"attributes" in ${meta.file}` }).map((problem) =>
    problemAt(entry, problem.path, { code: 'unknown-attribute', message: problem.message, fix: problem.fix }),
  );
}
