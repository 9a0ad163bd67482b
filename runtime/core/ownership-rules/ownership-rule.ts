/**
 * What a declared ownership rule is: a condition over a record's attributes, the attributes of records its to-one
 * relations reach, and the user's own attributes. The parser, the checks and every evaluator (in memory, SQL text,
 * kysely) read this one tree.
 */
import { PermissionsUsageError } from '../common/errors.js';

/** A literal an `in` list may hold: a string, a finite number or a boolean. */
export type OwnershipLiteral = string | number | boolean;

/** A value read from the user the permit is for: `{ "user": "companyId" }`. */
export interface UserAttributeReference {
  readonly user: string;
}

/**
 * The id of the tenant the question is asked in: `{ "tenant": "id" }`. A question without a tenant has no id,
 * so a condition reading it selects no record.
 */
export interface TenantIdReference {
  readonly tenant: 'id';
}

/**
 * The record's attribute (or a path through relations, `creator.companyId`) equals a scalar user attribute, or the
 * id of the question's tenant.
 */
export interface EqualsCondition {
  readonly attribute: string;
  readonly equals: UserAttributeReference | TenantIdReference;
}

/** The record's attribute is one of the listed literals, or one of the values of a list user attribute. */
export interface InCondition {
  readonly attribute: string;
  readonly in: readonly OwnershipLiteral[] | UserAttributeReference;
}

/** Every condition holds (AND). */
export interface AllCondition {
  readonly all: readonly OwnershipCondition[];
}

/** At least one condition holds (OR). */
export interface AnyCondition {
  readonly any: readonly OwnershipCondition[];
}

/** One node of a rule. */
export type OwnershipCondition = EqualsCondition | InCondition | AllCondition | AnyCondition;

/** A to-one relation: the record's attribute `on` holds the id (attribute `id`) of one record of `resource`. */
export interface RelationDeclaration {
  readonly resource: string;
  readonly on: string;
}

/** The declared type of a user attribute a rule reads: a scalar (which may be null at run time) or a list. */
export type UserAttributeType = 'string' | 'number' | 'boolean' | 'string[]' | 'number[]';

/** The attribute related records are found by: a relation's `on` holds its value (a primary key: one record each). */
export const RELATED_ID_ATTRIBUTE = 'id';

/**
 * How a resource's records hold the tenant id a rule compares with: as a string (the tenant id as it is), or as a
 * number (the tenant id read as a canonical integer; any other id selects no record).
 */
export type TenantIdType = 'string' | 'number';

/** The tenant id types, in the order messages list them. */
export const TENANT_ID_TYPES: readonly TenantIdType[] = ['string', 'number'];

/** The user attribute types, in the order messages list them. */
export const USER_ATTRIBUTE_TYPES: readonly UserAttributeType[] = ['string', 'number', 'boolean', 'string[]', 'number[]'];

/**
 * Which records an ownership filter selects: every record (the permit reads `any`), none (no rule applies), or
 * those a condition selects.
 */
export type OwnershipScope = 'everything' | 'nothing' | OwnershipCondition;

/** What the evaluators know of each resource: its relations, by name. */
export type ResourceRelations = ReadonlyMap<string, Readonly<Record<string, RelationDeclaration>>>;

/** The limits of one rule and of the declarations around it. */
export const OWNERSHIP_LIMITS = {
  /** Nested `all` / `any` levels below the rule itself (a rule that is one comparison has depth 0). */
  maxDepth: 8,
  /** Nodes of one rule: comparisons, `all` and `any` each count one. */
  maxNodes: 64,
  /** Literals in one `in` list. */
  maxInLiterals: 100,
  /** Relations one attribute path goes through (`creator.companyId` goes through one). */
  maxPathSteps: 3,
  /** Rules, relations and user attributes one resource file declares, each. */
  maxDeclarations: 64,
  /** Values of a list user attribute at run time. */
  maxUserListLength: 10_000,
} as const;

/**
 * The relations an attribute path goes through and the attribute it ends on: `creator.companyId` →
 * `{ relations: ['creator'], attribute: 'companyId' }`.
 *
 * @example
 * ```ts
 * splitAttributePath('creator.companyId'); // { relations: ['creator'], attribute: 'companyId' }
 * splitAttributePath('status'); // { relations: [], attribute: 'status' }
 * ```
 */
export function splitAttributePath(path: string): { readonly relations: readonly string[]; readonly attribute: string } {
  const parts = path.split('.');
  return { relations: parts.slice(0, -1), attribute: parts[parts.length - 1] as string };
}

/**
 * The resources an attribute path walks through, from `resource`: one step per relation, each with the resource it
 * leaves, the relation, and the resource it reaches. A relation that is not declared (the checks refuse such a
 * rule before any evaluator runs) is a PermissionsUsageError.
 *
 * @example
 * ```ts
 * relationSteps('document', ['creator'], relations); // [{ from: 'document', name: 'creator', relation: { resource: 'user', on: 'creatorId' } }]
 * ```
 */
export function relationSteps(
  resource: string,
  names: readonly string[],
  relations: ResourceRelations,
): readonly { readonly from: string; readonly name: string; readonly relation: RelationDeclaration }[] {
  let from = resource;
  return names.map((name) => {
    const declared = relations.get(from);
    const relation = declared !== undefined && Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (relation === undefined) throw new PermissionsUsageError(`Resource ${JSON.stringify(from)} declares no relation ${JSON.stringify(name)}.`);
    const step = { from, name, relation };
    from = relation.resource;
    return step;
  });
}
