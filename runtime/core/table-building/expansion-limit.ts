/**
 * The bound on expanding `'*'`: checked before anything is expanded, so that a policy that would expand to
 * millions of grants is refused in time linear in its size.
 */
import { isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import type { DefinitionLocation, DefinitionProblem } from '../common/errors.js';
import { formatCount, grantEntries, rolesOf, type LocatedDefinition } from './definition-parts.js';
import type { KnownNames } from './known-names.js';
import { resourceTakes, type ResourceSettings } from './resource-settings.js';

/**
 * The most role × resource × action combinations the grant entries may reach, summed over every entry of every
 * definition, with every `'*'` expanded (a combination reached by several entries counts once for each; an
 * explicit entry counts its roles). Bounds the build's time, as MAX_GRANT_CELLS bounds its memory.
 */
export const MAX_GRANT_EXPANSIONS = 1_000_000;

/**
 * How many combinations the grant entries reach (see {@link MAX_GRANT_EXPANSIONS}), and the `too-large` problem
 * when that passes the limit, naming the definition that reaches the most; no problem within the limit.
 *
 * @example
 * ```ts
 * const { expansions, problem } = expansionProblem(located, names, settings);
 * if (problem !== undefined) return emptyTables([...problems, problem]);
 * ```
 */
export function expansionProblem(
  located: readonly LocatedDefinition[],
  names: KnownNames,
  settings: ResourceSettings,
): { readonly expansions: number; readonly problem: DefinitionProblem | undefined } {
  const { roles, resources, actions } = names;
  // What '*' reaches on each resource (its declared actions, or every action), and on all of them; computed once.
  const wildcardOn = resources.map((_, r) => settings.actions[r]?.length ?? actions.length);
  const wildcardEverywhere = wildcardOn.reduce((sum, count) => sum + count, 0);
  // A named action on every resource reaches those that declare nothing, and those that declare it.
  let undeclared = 0;
  const declaring = new Map<number, number>();
  for (const declared of settings.actions) {
    if (declared === null) undeclared++;
    else for (const action of declared) declaring.set(action, (declaring.get(action) ?? 0) + 1);
  }
  const takers = (action: number): number => undeclared + (declaring.get(action) ?? 0);
  let expansions = 0;
  let largest = { expansions: -1, location: undefined as DefinitionLocation | undefined };
  for (const { definition, location } of located) {
    const roleNames = rolesOf(definition);
    const roleCount = roleNames.includes('*') ? roles.length : new Set(roleNames).size;
    const resource = definition.resource === '*' ? undefined : (names.resourceIndex.get(definition.resource) as number);
    let own = 0;
    for (const [key] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (isSyntaxProblem(parsed)) continue;
      const action = parsed.action === '*' ? undefined : (names.actionIndex.get(parsed.action) as number);
      // Resource × action pairs this entry reaches; a named action a resource does not take reaches nothing there.
      const pairs =
        resource === undefined
          ? action === undefined
            ? wildcardEverywhere
            : takers(action)
          : action === undefined
            ? (wildcardOn[resource] as number)
            : resourceTakes(settings, resource, action)
              ? 1
              : 0;
      own += roleCount * pairs;
    }
    expansions += own;
    if (own > largest.expansions) largest = { expansions: own, location };
  }
  if (expansions <= MAX_GRANT_EXPANSIONS) return { expansions, problem: undefined };
  const problem: DefinitionProblem = {
    code: 'too-large',
    ...(largest.location as DefinitionLocation),
    path: [],
    message:
      `The grant entries reach ${formatCount(expansions)} role × resource × action combinations in all, every '*' expanded and a ` +
      `combination counted once for each entry that reaches it: more than the limit of ${formatCount(MAX_GRANT_EXPANSIONS)}. ` +
      `This definition reaches the most, ${formatCount(largest.expansions)} ` +
      `(${roles.length} roles, ${resources.length} resources, ${actions.length} actions are known).`,
    fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
  };
  return { expansions, problem };
}
