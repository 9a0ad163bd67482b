/**
 * The checks of ownership declarations against what the resource files declare: a relation's attribute and
 * resource, every attribute path of every rule (each relation, then the attribute it ends on), and every user
 * attribute (declared, and a scalar for "equals", a list for "in"). What is unknown gets "Did you mean".
 * They run after each file's shape is valid (`ownership-rule-parser.ts`), over all files at once, since a path
 * reaches into other resources.
 */
import { didYouMean } from '../common/nearest-name.js';
import { quoteForMessage } from '../common/printable-text.js';
import { RELATED_ID_ATTRIBUTE, splitAttributePath, type OwnershipCondition, type RelationDeclaration, type UserAttributeType } from './ownership-rule.js';
import type { OwnershipProblem } from './ownership-rule-parser.js';

/** What one resource file declares that ownership checks read. */
export interface OwnershipResourceDeclarations {
  /** The file, for fixes that send the reader to it. */
  readonly file: string;
  readonly attributes: readonly string[] | undefined;
  readonly relations?: Readonly<Record<string, RelationDeclaration>> | undefined;
  readonly userAttributes?: Readonly<Record<string, UserAttributeType>> | undefined;
  readonly ownership?: Readonly<Record<string, OwnershipCondition>> | undefined;
}

type Path = readonly (string | number)[];

function own<T>(record: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}

/** Problems of the relations of `resource`: `on` is one of its attributes, and the related resource declares `id`. */
function relationProblems(
  resource: string,
  declared: OwnershipResourceDeclarations,
  all: ReadonlyMap<string, OwnershipResourceDeclarations>,
): OwnershipProblem[] {
  const problems: OwnershipProblem[] = [];
  for (const [name, relation] of Object.entries(declared.relations ?? {})) {
    const attributes = declared.attributes ?? [];
    if (!attributes.includes(relation.on))
      problems.push({
        path: ['relations', name, 'on'],
        message:
          `Relation ${quoteForMessage(name)} is on ${quoteForMessage(relation.on)}, which is not an attribute of ${resource}.` +
          didYouMean(relation.on, attributes),
        fix: `Name the attribute that holds the related record's id, or add it to "attributes" in ${declared.file}.`,
      });
    const target = all.get(relation.resource);
    if (target === undefined)
      problems.push({
        path: ['relations', name, 'resource'],
        message:
          `Relation ${quoteForMessage(name)} reaches resource ${quoteForMessage(relation.resource)}, which no *.resource.json describes.` +
          didYouMean(relation.resource, all.keys()),
        fix: `Correct the resource name, or add ${relation.resource}.resource.json with its "attributes".`,
      });
    else if (!(target.attributes ?? []).includes(RELATED_ID_ATTRIBUTE))
      problems.push({
        path: ['relations', name, 'resource'],
        message:
          `Relation ${quoteForMessage(name)} reaches resource ${quoteForMessage(relation.resource)}, ` +
          `whose attributes do not include "${RELATED_ID_ATTRIBUTE}".`,
        fix: `Add "${RELATED_ID_ATTRIBUTE}" (the attribute "on" holds the value of) to "attributes" in ${target.file}.`,
      });
  }
  return problems;
}

/** Problems of one attribute path of a rule of `resource`. */
function pathProblems(resource: string, attributePath: string, at: Path, all: ReadonlyMap<string, OwnershipResourceDeclarations>): OwnershipProblem[] {
  const { relations, attribute } = splitAttributePath(attributePath);
  let current = resource;
  for (const name of relations) {
    const declared = all.get(current);
    const relation = own(declared?.relations, name);
    if (relation === undefined)
      return [
        {
          path: at,
          message:
            `Attribute path ${quoteForMessage(attributePath)}: ${current} has no relation ${quoteForMessage(name)}.` +
            didYouMean(name, Object.keys(declared?.relations ?? {})),
          fix: `Correct the relation's name, or declare it in "relations" in ${declared?.file ?? `${current}.resource.json`}.`,
        },
      ];
    current = relation.resource;
  }
  const declared = all.get(current);
  // A relation to a resource without a file is reported at the relation; its path says nothing more.
  if (declared === undefined) return [];
  const attributes = declared.attributes ?? [];
  if (attributes.includes(attribute)) return [];
  const whose = relations.length === 0 ? `an attribute of ${current}` : `an attribute of ${current} (reached through ${relations.join('.')})`;
  return [
    {
      path: at,
      message: `Attribute path ${quoteForMessage(attributePath)}: ${quoteForMessage(attribute)} is not ${whose}.${didYouMean(attribute, attributes)}`,
      fix: `Correct the spelling, or add it to "attributes" in ${declared.file}.`,
    },
  ];
}

/** Problems of a user attribute a rule reads: declared, and of the kind its place needs. */
function userProblems(name: string, need: 'scalar' | 'list', at: Path, declared: OwnershipResourceDeclarations): OwnershipProblem[] {
  const types = declared.userAttributes ?? {};
  const type = own(types, name);
  if (type === undefined)
    return [
      {
        path: at,
        message: `User attribute ${quoteForMessage(name)} is not declared.${didYouMean(name, Object.keys(types))}`,
        fix: `Correct the spelling, or declare it in "userAttributes" in ${declared.file}: "${name}": "number".`,
      },
    ];
  const isList = type.endsWith('[]');
  if (need === 'list' && !isList)
    return [
      {
        path: at,
        message: `User attribute ${quoteForMessage(name)} is a ${type}; "in" needs a list ("${type}[]").`,
        fix: `Compare with "equals": { "user": "${name}" }, or declare it as a list.`,
      },
    ];
  if (need === 'scalar' && isList)
    return [
      {
        path: at,
        message: `User attribute ${quoteForMessage(name)} is a list (${type}); "equals" needs a single value.`,
        fix: `Write "in": { "user": "${name}" } to match any of its values.`,
      },
    ];
  return [];
}

/** Problems of every node of one rule, walked with a stack (the rule's size is already bounded). */
function ruleProblems(
  resource: string,
  rule: string,
  condition: OwnershipCondition,
  all: ReadonlyMap<string, OwnershipResourceDeclarations>,
): OwnershipProblem[] {
  const declared = all.get(resource) as OwnershipResourceDeclarations;
  const problems: OwnershipProblem[] = [];
  const stack: { condition: OwnershipCondition; path: Path }[] = [{ condition, path: ['ownership', rule] }];
  while (stack.length > 0) {
    const { condition: node, path } = stack.pop() as (typeof stack)[number];
    if ('all' in node || 'any' in node) {
      const [form, children] = 'all' in node ? (['all', node.all] as const) : (['any', node.any] as const);
      children.forEach((child, i) => stack.push({ condition: child, path: [...path, form, i] }));
      continue;
    }
    problems.push(...pathProblems(resource, node.attribute, [...path, 'attribute'], all));
    // The tenant's id needs no declaration: the question brings it, and the resource's "tenantIdType" types it.
    if ('equals' in node) {
      if ('user' in node.equals) problems.push(...userProblems(node.equals.user, 'scalar', [...path, 'equals', 'user'], declared));
    } else if (!Array.isArray(node.in)) {
      const reference = node.in as { readonly user: string };
      problems.push(...userProblems(reference.user, 'list', [...path, 'in', 'user'], declared));
    }
  }
  return problems;
}

/**
 * The problems of the ownership declarations of `resource` (relations and rules), each at its path in the
 * resource's file; `all` holds every resource file's declarations, by resource.
 *
 * @example
 * ```ts
 * ownershipDeclarationProblems('document', new Map([
 *   ['document', { file: 'document.resource.json', attributes: ['id', 'creatorId'], userAttributes: { id: 'number' },
 *     ownership: { creator: { attribute: 'creatorID', equals: { user: 'id' } } } }],
 * ]));
 * // [{ path: ['ownership', 'creator', 'attribute'],
 * //    message: 'Attribute path "creatorID": "creatorID" is not an attribute of document. Did you mean "creatorId"?', fix: … }]
 * ```
 */
export function ownershipDeclarationProblems(resource: string, all: ReadonlyMap<string, OwnershipResourceDeclarations>): OwnershipProblem[] {
  const declared = all.get(resource);
  if (declared === undefined) return [];
  const problems = relationProblems(resource, declared, all);
  for (const [rule, condition] of Object.entries(declared.ownership ?? {})) problems.push(...ruleProblems(resource, rule, condition, all));
  return problems;
}
