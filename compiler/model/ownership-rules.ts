/**
 * The checks of the ownership declarations of every `*.resource.json` against each other: relations reach
 * declared resources, rules name declared attributes, relations and user attributes. Each problem is placed at
 * its line and column in the file that declares the rule.
 */
import { ownershipDeclarationProblems, type OwnershipResourceDeclarations } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';
import { positionOf } from '../reading/static-value.js';

/**
 * An `invalid-ownership-rule` problem for every name an ownership declaration gets wrong, across all metadata files.
 *
 * @example
 * ```ts
 * problems.push(...ownershipRuleProblems(metadata));
 * ```
 */
export function ownershipRuleProblems(metadata: ReadonlyMap<string, ResourceMetadata>): CompileProblem[] {
  const declarations = new Map<string, OwnershipResourceDeclarations>(
    [...metadata].map(([resource, meta]) => [
      resource,
      { file: meta.file, attributes: meta.attributes, relations: meta.relations, userAttributes: meta.userAttributes, ownership: meta.ownership },
    ]),
  );
  return [...metadata.values()].flatMap((meta) =>
    ownershipDeclarationProblems(meta.resource, declarations).map(({ path, message, fix }) => ({
      file: meta.file,
      ...(positionOf(meta.positions, path) ?? { line: 1, column: 1 }),
      path,
      code: 'invalid-ownership-rule',
      message,
      fix,
    })),
  );
}
