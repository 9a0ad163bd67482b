/**
 * Definitions that name an ownership rule (`"owner": "creator"`): the rule must be one its resource declares, and
 * the tables carry every rule named, with the user attributes beside it and the relations rules walk through.
 */
import type { DefinitionProblem } from '../common/errors.js';
import { didYouMean } from '../common/nearest-name.js';
import type { OwnershipCondition, RelationDeclaration, TenantIdType, UserAttributeType } from '../ownership-rules/ownership-rule.js';
import type { OwnershipRulesTable, ResourceIdType } from '../tables/grant-tables.js';
import type { LocatedDefinition } from './definition-parts.js';

/** What one resource's `*.resource.json` declares for ownership rules. */
export interface ResourceRules {
  readonly rules: Readonly<Record<string, OwnershipCondition>>;
  readonly userAttributes: Readonly<Record<string, UserAttributeType>>;
  readonly relations: Readonly<Record<string, RelationDeclaration>>;
  /** How its records hold the tenant id: a string when left out. */
  readonly tenantIdType?: TenantIdType | undefined;
  /** The id type it declares (`"idType"`), kept in the tables for a resource that only relations reach. */
  readonly idType?: ResourceIdType | undefined;
}

/**
 * A problem for each definition whose `owner` names no rule its resource declares.
 *
 * @example
 * ```ts
 * unknownRuleProblems(located, new Map([['document', { rules: { creator }, userAttributes, relations }]]));
 * // [{ code: 'unknown-ownership-rule', path: ['owner'], message: 'Resource "document" declares no ownership rule "creater". Did you mean "creator"?', … }]
 * ```
 */
export function unknownRuleProblems(located: readonly LocatedDefinition[], declared: ReadonlyMap<string, ResourceRules>): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const { definition, location } of located) {
    const { owner, resource } = definition;
    if (owner === undefined || resource === '*') continue;
    const rules = declared.get(resource)?.rules;
    if (rules !== undefined && Object.hasOwn(rules, owner)) continue;
    const known = rules === undefined ? [] : Object.keys(rules);
    problems.push({
      code: 'unknown-ownership-rule',
      ...location,
      path: ['owner'],
      message:
        known.length === 0
          ? `Resource ${JSON.stringify(resource)} declares no ownership rules, so "owner": ${JSON.stringify(owner)} names nothing.`
          : `Resource ${JSON.stringify(resource)} declares no ownership rule ${JSON.stringify(owner)}.${didYouMean(owner, known)}`,
      fix:
        known.length === 0
          ? `Declare the rule under "ownership" in ${resource}.resource.json (rules need the compiler), or decide ownership with hooks.`
          : `Name one of the rules ${known.map((name) => JSON.stringify(name)).join(', ')}, or declare it under "ownership" in ${resource}.resource.json.`,
    });
  }
  return problems;
}

/**
 * The declared id types of the resources `relations` reach that are not among `resources` (those the tables index),
 * by name and sorted; undefined when none declares one.
 */
function relatedIdTypesOf(
  relations: OwnershipRulesTable['relations'],
  declared: ReadonlyMap<string, ResourceRules>,
  resources: readonly string[],
): Record<string, ResourceIdType> | undefined {
  const indexed = new Set(resources);
  const related = new Set(Object.values(relations).flatMap((byName) => Object.values(byName).map((relation) => relation.resource)));
  const typed = [...related]
    .filter((resource) => !indexed.has(resource))
    .sort()
    .flatMap((resource) => {
      const idType = declared.get(resource)?.idType;
      return idType === undefined ? [] : [[resource, idType] as const];
    });
  // fromEntries defines own properties, so no resource name can reach a prototype.
  return typed.length === 0 ? undefined : Object.fromEntries(typed);
}

/**
 * The tables' part for the rules definitions name (`named`, as the hook registry met them): each rule's condition
 * and user attributes, the relations of every resource that declares any, and the declared id types of the resources
 * only relations reach (not among `resources`). Undefined when no rule is named.
 *
 * @example
 * ```ts
 * ownershipRulesTable([['document', 'creator']], declared, ['document']);
 * // { rules: [{ resource: 'document', name: 'creator', condition, userAttributes }],
 * //   relations: { document: { author: { resource: 'user', on: 'authorId' } } }, relatedIdTypes: { user: 'number' } }
 * ```
 */
export function ownershipRulesTable(
  named: readonly (readonly [resource: string, name: string])[],
  declared: ReadonlyMap<string, ResourceRules>,
  resources: readonly string[],
): OwnershipRulesTable | undefined {
  if (named.length === 0) return undefined;
  const rules = named.map(([resource, name]) => {
    const declaration = declared.get(resource) as ResourceRules;
    const rule = { resource, name, condition: declaration.rules[name] as OwnershipCondition, userAttributes: declaration.userAttributes };
    // Only a number type is written: the tables of a policy that compares strings (the default) stay as they were.
    return declaration.tenantIdType === 'number' ? { ...rule, tenantIdType: declaration.tenantIdType } : rule;
  });
  // fromEntries defines own properties, so no resource name can reach a prototype.
  const relations = Object.fromEntries(
    [...declared]
      .filter(([, declaration]) => Object.keys(declaration.relations).length > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([resource, declaration]) => [resource, declaration.relations]),
  );
  const relatedIdTypes = relatedIdTypesOf(relations, declared, resources);
  return relatedIdTypes === undefined ? { rules, relations } : { rules, relations, relatedIdTypes };
}
