/**
 * The bound on expanding `'*'`: checked before anything is expanded, so that a policy that would expand to
 * millions of grants is refused in time linear in its size.
 */
import { isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import type { DefinitionLocation, DefinitionProblem } from '../common/errors.js';
import { formatCount, grantEntries, rolesOf, type LocatedDefinition } from './definition-parts.js';
import type { KnownNames } from './known-names.js';

/**
 * The most role × resource × action expansions, summed over every grant entry of every definition
 * (a cell reached by several definitions counts once per definition). Bounds the build's time, as
 * MAX_GRANT_CELLS bounds its memory.
 */
export const MAX_GRANT_EXPANSIONS = 1_000_000;

/**
 * The `too-large` problem when the definitions expand past {@link MAX_GRANT_EXPANSIONS}, naming the
 * definition that expands most; undefined within the limit.
 *
 * @example
 * ```ts
 * const tooLarge = expansionProblem(located, names);
 * if (tooLarge !== undefined) return emptyTables([...problems, tooLarge]);
 * ```
 */
export function expansionProblem(located: readonly LocatedDefinition[], names: KnownNames): DefinitionProblem | undefined {
  const { roles, resources, actions } = names;
  let expansions = 0;
  let largest = { expansions: -1, location: undefined as DefinitionLocation | undefined };
  for (const { definition, location } of located) {
    const roleNames = rolesOf(definition);
    const roleCount = roleNames.includes('*') ? roles.length : new Set(roleNames).size;
    const resourceCount = definition.resource === '*' ? resources.length : 1;
    let own = 0;
    for (const [key] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (!isSyntaxProblem(parsed)) own += roleCount * resourceCount * (parsed.action === '*' ? actions.length : 1);
    }
    expansions += own;
    if (own > largest.expansions) largest = { expansions: own, location };
  }
  if (expansions <= MAX_GRANT_EXPANSIONS) return undefined;
  return {
    code: 'too-large',
    ...(largest.location as DefinitionLocation),
    path: [],
    message:
      `The definitions expand to ${formatCount(expansions)} grants of a role, resource and action (every '*' is expanded), ` +
      `more than the limit of ${formatCount(MAX_GRANT_EXPANSIONS)}; this definition alone expands to ${formatCount(largest.expansions)} ` +
      `(${roles.length} roles, ${resources.length} resources, ${actions.length} actions are known).`,
    fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
  };
}
