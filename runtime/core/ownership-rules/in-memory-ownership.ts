/**
 * A rule evaluated on records in memory: for arrays, for policy tests, for the browser. The same semantics as the
 * SQL forms: null equals nothing, an empty list holds nothing, a path through a relation holds when the related
 * record exists and the rest of the path holds on it.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import type { OwnershipContext } from './ownership-context.js';
import { relationSteps, splitAttributePath, type OwnershipCondition, type OwnershipScope } from './ownership-rule.js';
import { userList } from './ownership-user-values.js';
import { comparedValue } from './ownership-compared-value.js';
import { checkOwnershipScope } from './ownership-scope-check.js';

/** A record: an object whose own properties are its attributes. */
export type OwnershipRecord = object;

/** Finds the record of `resource` whose `id` is `id`, or undefined when there is none. */
export type RelatedRecordLookup = (resource: string, id: unknown) => OwnershipRecord | undefined;

/** A test of one record, with the user's values already read. */
export type RecordTest = (record: OwnershipRecord) => boolean;

/** The record's own attribute `name`; an attribute it does not have is the caller's mistake, refused by name. */
function attributeOf(record: OwnershipRecord, resource: string, name: string): unknown {
  const value: unknown = Object.hasOwn(record, name) ? (record as Record<string, unknown>)[name] : undefined;
  if (value === undefined)
    throw new PermissionsUsageError(
      `A ${resource} record has no attribute ${quoteForMessage(name)}, which an ownership rule reads. Load it with the record (null when it has no value).`,
    );
  return value;
}

/** A test on the record at the end of `attributePath`: through each relation, then `leaf` on the attribute. */
function alongPath(attributePath: string, context: OwnershipContext, related: RelatedRecordLookup, leaf: (value: unknown) => boolean): RecordTest {
  const { relations, attribute } = splitAttributePath(attributePath);
  const steps = relationSteps(context.resource, relations, context.relations);
  const resourceAtEnd = steps.length === 0 ? context.resource : (steps[steps.length - 1]?.relation.resource as string);
  return (record) => {
    let current: OwnershipRecord | undefined = record;
    for (const { from, relation } of steps) {
      const id = attributeOf(current, from, relation.on);
      current = id === null ? undefined : related(relation.resource, id);
      if (current === undefined) return false;
    }
    return leaf(attributeOf(current, resourceAtEnd, attribute));
  };
}

function compile(condition: OwnershipCondition, context: OwnershipContext, user: object, tenant: unknown, related: RelatedRecordLookup): RecordTest {
  if ('all' in condition) {
    const tests = condition.all.map((child) => compile(child, context, user, tenant, related));
    return (record) => tests.every((test) => test(record));
  }
  if ('any' in condition) {
    const tests = condition.any.map((child) => compile(child, context, user, tenant, related));
    return (record) => tests.some((test) => test(record));
  }
  if ('equals' in condition) {
    const expected = comparedValue(condition, context, user, tenant);
    return alongPath(condition.attribute, context, related, (value) => expected !== null && value === expected);
  }
  const values = new Set<unknown>(
    Array.isArray(condition.in) ? condition.in : userList(user, (condition.in as { readonly user: string }).user, context.userAttributes),
  );
  return alongPath(condition.attribute, context, related, (value) => value !== null && values.has(value));
}

/**
 * The test of which records `scope` selects for `user` in `tenant` (undefined without one: a tenant condition then
 * holds for no record): `everything` selects every record, `nothing` none, a rule the records it holds for. The
 * user's attributes are read (and checked) once, here; related records are found through `related`. A missing user
 * or record attribute is a PermissionsUsageError naming it, and so is a malformed rule (an empty `all`, a node none of
 * the four forms), naming where in the rule.
 *
 * @example
 * ```ts
 * const owns = ownershipPredicate({ attribute: 'creatorId', equals: { user: 'id' } }, context, { id: 1, roles: [] }, () => undefined);
 * documents.filter(owns); // the documents user 1 created
 * ```
 */
export function ownershipPredicate(scope: OwnershipScope, context: OwnershipContext, user: object, related: RelatedRecordLookup, tenant?: string): RecordTest {
  if (scope === 'everything') return () => true;
  if (scope === 'nothing') return () => false;
  checkOwnershipScope(scope, context);
  return compile(scope, context, user, tenant, related);
}
