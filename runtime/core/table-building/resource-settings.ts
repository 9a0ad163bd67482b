/**
 * What each resource declares besides its definitions: its ownedAmong executor, its id type, its actions and its attributes —
 * and the check that every definition deciding ownership with limitOwned alone can decide it for one record.
 */
import { quoteForMessage } from '../common/printable-text.js';
import type { DefinitionProblem } from '../common/errors.js';
import type { ResourceIdType } from '../tables/grant-tables.js';
import type { HookValue, LocatedDefinition } from './definition-parts.js';
import type { HookRegistry } from './hook-registry.js';
import type { KnownNames } from './known-names.js';

/** The actions one resource declares, and where they are declared (for the fix of a grant naming another). */
export interface DeclaredResourceActions {
  readonly actions: readonly string[];
  /** Where the declaration is written, as a fix names it: `"actions" in document.resource.json`. */
  readonly declaredIn: string;
}

/**
 * Per known resource (in the order of `names.resources`): its executor (a hook index, or -1), its id type (or
 * null), its declared actions (indexes into `names.actions`, ascending; null when it declares none) and its
 * declared attributes (sorted; null when it declares none).
 */
export interface ResourceSettings {
  readonly ownedAmong: readonly number[];
  readonly idTypes: readonly (ResourceIdType | null)[];
  readonly actions: readonly (readonly number[] | null)[];
  /** The declared attributes of each resource, sorted and each once; null when it declares none. */
  readonly attributes: readonly (readonly string[] | null)[];
}

/**
 * Whether resource number `resource` takes action number `action`: it declares it, or declares no actions.
 *
 * @example
 * ```ts
 * const reached = resourceIds.filter((resource) => resourceTakes(settings, resource, action));
 * ```
 */
export function resourceTakes(settings: ResourceSettings, resource: number, action: number): boolean {
  const declared = settings.actions[resource];
  return declared === null || declared === undefined || declared.includes(action);
}

/**
 * The executors (interned as hooks, before any definition's), id types, declared actions and attributes of the known
 * resources; a setting for a resource no definition names is a warning, declared attributes excepted.
 *
 * @example
 * ```ts
 * const settings = resourceSettings(names, registry, { ownedAmong: new Map([['document', 'ownedDocumentsAmong']]) }, warnings);
 * ```
 */
export function resourceSettings(
  names: KnownNames,
  registry: HookRegistry,
  given: {
    readonly ownedAmong?: ReadonlyMap<string, HookValue> | undefined;
    readonly idTypes?: ReadonlyMap<string, ResourceIdType> | undefined;
    readonly actions?: ReadonlyMap<string, DeclaredResourceActions> | undefined;
    readonly attributes?: ReadonlyMap<string, readonly string[]> | undefined;
  },
  warnings: string[],
): ResourceSettings {
  const { ownedAmong, idTypes, actions } = given;
  const executors = names.resources.map((resource) => {
    const executor = ownedAmong?.get(resource);
    return executor === undefined ? -1 : registry.hook('ownedAmong', executor);
  });
  for (const resource of ownedAmong?.keys() ?? []) {
    if (!names.resourceIndex.has(resource))
      warnings.push(`ownedAmong is given for resource ${quoteForMessage(resource)}, which no definition names; it is not used.`);
  }
  const types = names.resources.map((resource) => idTypes?.get(resource) ?? null);
  for (const resource of idTypes?.keys() ?? []) {
    if (!names.resourceIndex.has(resource))
      warnings.push(`An id type is given for resource ${quoteForMessage(resource)}, which no definition names; it is not used.`);
  }
  const declared = names.resources.map((resource) => {
    const list = actions?.get(resource)?.actions;
    return list === undefined ? null : list.map((action) => names.actionIndex.get(action) as number).sort((a, b) => a - b);
  });
  for (const resource of actions?.keys() ?? []) {
    if (!names.resourceIndex.has(resource))
      warnings.push(`Actions are declared for resource ${quoteForMessage(resource)}, which no definition names; they are not used.`);
  }
  // Not warned of for a resource no definition names: one that only a rule's relation reaches declares the attributes the rule reads.
  const attributes = names.resources.map((resource) => {
    const list = given.attributes?.get(resource);
    return list === undefined ? null : [...new Set(list)].sort();
  });
  return { ownedAmong: executors, idTypes: types, actions: declared, attributes };
}

/**
 * The problems of definitions that decide ownership with limitOwned and no isOwner on a resource without an
 * ownedAmong executor: whether one record is owned could not be computed there.
 *
 * @example
 * ```ts
 * problems.push(...uncomputableOwnership(located, names, settings.ownedAmong));
 * ```
 */
export function uncomputableOwnership(located: readonly LocatedDefinition[], names: KnownNames, ownedAmong: readonly number[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const { definition, location } of located) {
    if (definition.limitOwned === undefined || definition.isOwner !== undefined) continue;
    const covered = definition.resource === '*' ? names.resources : [definition.resource];
    const missing = covered.filter((resource) => ownedAmong[names.resourceIndex.get(resource) as number] === -1);
    if (missing.length === 0) continue;
    const named = `${missing
      .slice(0, 5)
      .map((resource) => quoteForMessage(resource))
      .join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`;
    problems.push({
      code: 'own-without-is-owner',
      ...location,
      path: ['limitOwned'],
      message:
        `The definition decides ownership with limitOwned and has no isOwner, but resource${missing.length === 1 ? '' : 's'} ${named} ` +
        `declare${missing.length === 1 ? 's' : ''} no ownedAmong executor, so whether one record is owned cannot be computed.`,
      fix:
        `Declare an ownedAmong executor for ${quoteForMessage(missing[0] as string)} ("ownedAmong": "<method>" in its *.resource.json, ` +
        `or new Permissions({ ownedAmong: { ... } })), or add isOwner.`,
    });
  }
  return problems;
}
