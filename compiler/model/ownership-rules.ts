/**
 * The checks of the ownership declarations of every `*.resource.json` against each other: relations reach
 * declared resources, rules name declared attributes, relations and user attributes. Each problem is placed at
 * its line and column in the file that declares the rule.
 */
import { ownershipDeclarationProblems, type GrantTables, type OwnershipResourceDeclarations, type UserAttributeType } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';
import { positionOf } from '../reading/value-positions.js';

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

/**
 * The user attributes the rules that definitions name read, with their types, sorted by name — what the generated
 * code requires of the application's user. Two resource files that give one attribute different types is an
 * `invalid-ownership-rule` problem at the second file's declaration.
 *
 * @example
 * ```ts
 * ruleUserAttributes(tables, metadata, problems); // [['companyId', 'number'], ['id', 'number'], ['managedUserIds', 'number[]']]
 * ```
 */
export function ruleUserAttributes(
  tables: GrantTables,
  metadata: ReadonlyMap<string, ResourceMetadata>,
  problems: CompileProblem[],
): (readonly [name: string, type: UserAttributeType])[] {
  const seen = new Map<string, { readonly type: UserAttributeType; readonly file: string }>();
  const resources = [...new Set((tables.ownershipRules?.rules ?? []).map((rule) => rule.resource))].sort();
  for (const resource of resources) {
    const meta = metadata.get(resource) as ResourceMetadata;
    for (const [name, type] of Object.entries(meta.userAttributes ?? {})) {
      const earlier = seen.get(name);
      if (earlier === undefined) seen.set(name, { type, file: meta.file });
      else if (earlier.type !== type)
        problems.push({
          file: meta.file,
          ...(positionOf(meta.positions, ['userAttributes', name]) ?? { line: 1, column: 1 }),
          path: ['userAttributes', name],
          code: 'invalid-ownership-rule',
          message:
            `User attribute ${JSON.stringify(name)} is declared "${type}" here and "${earlier.type}" in ${earlier.file}; ` +
            "the application's user has one type for it.",
          fix: 'Give the user attribute the same type in every *.resource.json that declares it.',
        });
    }
  }
  return [...seen].map(([name, { type }]) => [name, type] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
