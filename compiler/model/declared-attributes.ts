/**
 * The check only the compiler can make: that every attribute a grant names is one the resource's
 * `*.resource.json` declares (the runtime has no metadata files).
 */
import { parseAttributePattern, type ValidDefinition } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { problemAt } from './definition-problem.js';
import type { ReadDefinition } from '../reading/read-definitions.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';

/** Whether an attribute path is declared, is inside a declared attribute, or holds one (`address` when `address.city` is declared). */
function attributeDeclared(path: readonly string[], declared: readonly string[]): boolean {
  if (path.length === 0) return true;
  const dotted = path.join('.');
  return declared.some((attribute) => attribute === dotted || attribute.startsWith(`${dotted}.`) || dotted.startsWith(`${attribute}.`));
}

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
  const declared = meta?.attributes;
  if (declared === undefined || Array.isArray(definition.grant)) return [];
  const problems: CompileProblem[] = [];
  for (const [key, patterns] of Object.entries(definition.grant as Record<string, readonly string[]>)) {
    patterns.forEach((pattern, i) => {
      const parsed = parseAttributePattern(pattern);
      if ('path' in parsed && !attributeDeclared(parsed.path, declared)) {
        problems.push(
          problemAt(entry, ['grant', key, i], {
            code: 'unknown-attribute',
            message: `Attribute ${JSON.stringify(pattern)} is not an attribute of ${definition.resource} (declared: ${declared.join(', ')}).`,
            fix: `Correct the spelling, or add it to "attributes" in ${meta?.file}.`,
          }),
        );
      }
    });
  }
  return problems;
}
