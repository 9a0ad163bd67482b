/**
 * What `build()` does with the definitions added to an engine: validates each one (zod), checks that the
 * hook names exist on the ownership service, builds the tables, and reports every problem at once, in the
 * order the definitions were added.
 */
import { validateDefinition } from '../definition/definition-schema.js';
import { quoteForMessage } from '../common/printable-text.js';
import { PermissionDefinitionError, type DefinitionLocation, type DefinitionProblem } from '../common/errors.js';
import type { GrantTables, ResourceIdType } from '../tables/grant-tables.js';
import { missingExecutorProblem, missingMethodProblem, resolveMethod } from './ownership-methods.js';
import { buildGrantTables, type HookValue, type LocatedDefinition, type ValidDefinition } from './table-builder.js';

/** A definition as added, not validated yet, with where it came from. */
export interface AddedDefinition {
  readonly definition: unknown;
  readonly location: DefinitionLocation;
}

/** What building needs besides the definitions. */
export interface BuildSettings {
  readonly ownership: object | undefined;
  readonly ownedAmong: ReadonlyMap<string, HookValue>;
  readonly idTypes: ReadonlyMap<string, ResourceIdType>;
  /** The declared actions of each resource that declares them (checked lists: the `resourceActions` option). */
  readonly declaredActions: ReadonlyMap<string, readonly string[]>;
}

/** The built tables, the hook given for each of their hooks, and the warnings to log. */
export interface BuiltDefinitions {
  readonly tables: GrantTables;
  readonly hookValues: readonly HookValue[];
  readonly warnings: readonly string[];
}

const hasMethod = (ownership: object | undefined, name: string): boolean => ownership !== undefined && resolveMethod(ownership, name) !== undefined;

/** The problems of the hook names of one valid definition that name no method of the ownership service. */
function hookProblems(definition: ValidDefinition, location: DefinitionLocation, ownership: object | undefined): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const kind of ['isOwner', 'listOwned', 'limitOwned'] as const) {
    const hook = definition[kind];
    if (typeof hook === 'string' && !hasMethod(ownership, hook)) problems.push(missingMethodProblem(ownership, hook, kind, location));
  }
  return problems;
}

/** Problems in the order their definitions were added, whichever check found them. */
function inAddedOrder(added: readonly AddedDefinition[], problems: readonly DefinitionProblem[]): DefinitionProblem[] {
  const order = new Map(added.map(({ location }, i) => [`${location.source ?? ''}\u0000${location.index}`, i]));
  const rank = (p: DefinitionProblem) => order.get(`${p.source ?? ''}\u0000${p.index}`) ?? 0;
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => p);
}

/**
 * Validates and builds the definitions added to an engine. Throws one PermissionDefinitionError listing every
 * problem (shape, grant syntax, hooks, unknown methods, conflicts, limits).
 *
 * @example
 * ```ts
 * const { tables, hookValues, warnings } = buildDefinitions([{ definition, location: { index: 0, source: 'rules' } }], settings);
 * ```
 */
export function buildDefinitions(added: readonly AddedDefinition[], settings: BuildSettings): BuiltDefinitions {
  const problems: DefinitionProblem[] = [];
  const valid: LocatedDefinition[] = [];
  for (const { definition, location } of added) {
    const found = validateDefinition(definition, 'functions-or-names');
    for (const problem of found) problems.push({ ...location, ...problem });
    if (found.length > 0) continue;
    problems.push(...hookProblems(definition as ValidDefinition, location, settings.ownership));
    valid.push({ definition: definition as ValidDefinition, location });
  }
  for (const [resource, executor] of settings.ownedAmong) {
    if (typeof executor === 'string' && !hasMethod(settings.ownership, executor)) problems.push(missingExecutorProblem(settings.ownership, executor, resource));
  }
  const actions = new Map(
    [...settings.declaredActions].map(([resource, declared]) => [
      resource,
      { actions: declared, declaredIn: `the actions of ${quoteForMessage(resource)} in the resourceActions option` },
    ]),
  );
  const built = buildGrantTables(valid, { ownedAmong: settings.ownedAmong, idTypes: settings.idTypes, actions });
  problems.push(...built.problems);
  if (problems.length > 0) throw new PermissionDefinitionError(inAddedOrder(added, problems));
  return { tables: built.tables, hookValues: built.hookValues, warnings: built.warnings };
}
