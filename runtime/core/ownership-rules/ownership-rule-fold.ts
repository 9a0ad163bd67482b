/**
 * A rule walked for an adapter that writes it in another query language (Drizzle, Prisma, …): the user's values
 * read and checked once, every attribute path resolved into the relations it goes through, and each node handed
 * to the adapter's writer. An adapter then only says how its language spells a comparison, AND, OR and a step
 * through a relation — the meaning (null equals nothing, an empty list holds nothing) is decided here, once.
 */
import type { OwnershipContext } from './ownership-context.js';
import {
  relationSteps,
  splitAttributePath,
  type OwnershipCondition,
  type OwnershipLiteral,
  type OwnershipScope,
  type RelationDeclaration,
} from './ownership-rule.js';
import { userList } from './ownership-user-values.js';
import { comparedValue } from './ownership-compared-value.js';
import { checkOwnershipScope } from './ownership-scope-check.js';

/** One relation an attribute path goes through: from a record of `from`, by its attribute `relation.on`, to a record of `relation.resource`. */
export interface OwnershipPathStep {
  readonly from: string;
  readonly name: string;
  readonly relation: RelationDeclaration;
}

/** Where a comparison reads: through `steps` (none for the record's own attribute), then `attribute` of `resource`. */
export interface OwnershipAttributePath {
  readonly steps: readonly OwnershipPathStep[];
  /** The resource whose attribute is compared: the rule's own, or the one the last step reaches. */
  readonly resource: string;
  readonly attribute: string;
}

/** How an adapter spells each node of a rule; each method returns the adapter's own form. */
export interface OwnershipRuleWriter<T> {
  /** Every record (the permit reads `any`). */
  everything(): T;
  /** No record (no rule applies, or an `in` list of the rule that is empty). */
  nothing(): T;
  all(parts: readonly T[]): T;
  any(parts: readonly T[]): T;
  /**
   * The attribute equals `value` (a user attribute's, or the tenant id); a `null` value must select no record (null
   * equals nothing, as in SQL): a question without a tenant reaches a tenant condition as null.
   */
  equals(path: OwnershipAttributePath, value: OwnershipLiteral | null): T;
  /** The attribute is one of the rule's own literals: never empty (an empty list is `nothing()`). */
  inLiterals(path: OwnershipAttributePath, literals: readonly OwnershipLiteral[]): T;
  /** The attribute is one of a list user attribute's values: may be empty, which selects no record. */
  inUserList(path: OwnershipAttributePath, values: readonly OwnershipLiteral[]): T;
}

function pathOf(attributePath: string, context: OwnershipContext): OwnershipAttributePath {
  const { relations, attribute } = splitAttributePath(attributePath);
  const steps = relationSteps(context.resource, relations, context.relations);
  const last = steps[steps.length - 1];
  return { steps, resource: last === undefined ? context.resource : last.relation.resource, attribute };
}

function fold<T>(condition: OwnershipCondition, context: OwnershipContext, user: object, tenant: unknown, writer: OwnershipRuleWriter<T>): T {
  if ('all' in condition) return writer.all(condition.all.map((child) => fold(child, context, user, tenant, writer)));
  if ('any' in condition) return writer.any(condition.any.map((child) => fold(child, context, user, tenant, writer)));
  if ('equals' in condition) return writer.equals(pathOf(condition.attribute, context), comparedValue(condition, context, user, tenant));
  if (Array.isArray(condition.in)) {
    const literals: readonly OwnershipLiteral[] = condition.in;
    return literals.length === 0 ? writer.nothing() : writer.inLiterals(pathOf(condition.attribute, context), literals);
  }
  const values = userList(user, (condition.in as { readonly user: string }).user, context.userAttributes);
  return writer.inUserList(pathOf(condition.attribute, context), values);
}

/**
 * The rule `scope` written by `writer` for `user` in `tenant` (the question's; undefined without one, and a tenant
 * condition then compares with null): `everything()` and `nothing()` for those scopes, else one call per node,
 * children first. A user attribute that is missing or of the wrong type, or a relation that is not declared, is a
 * PermissionsUsageError before the writer sees anything of it, and so is a malformed rule (an empty `all`, a node
 * none of the four forms), naming where in the rule: no adapter reads one its own way.
 *
 * @example
 * ```ts
 * const text = writeOwnershipRule(rule, context, user, {
 *   everything: () => 'true',
 *   nothing: () => 'false',
 *   all: (parts) => `(${parts.join(' and ')})`,
 *   any: (parts) => `(${parts.join(' or ')})`,
 *   equals: (path, value) => `${[...path.steps.map((step) => step.name), path.attribute].join('.')} = ${JSON.stringify(value)}`,
 *   inLiterals: (path, literals) => `${path.attribute} in ${JSON.stringify(literals)}`,
 *   inUserList: (path, values) => `${path.attribute} in ${JSON.stringify(values)}`,
 * });
 * ```
 */
export function writeOwnershipRule<T>(scope: OwnershipScope, context: OwnershipContext, user: object, writer: OwnershipRuleWriter<T>, tenant?: string): T {
  if (scope === 'everything') return writer.everything();
  if (scope === 'nothing') return writer.nothing();
  checkOwnershipScope(scope, context);
  return fold(scope, context, user, tenant, writer);
}
