/**
 * Ownership rules decided in the service, on the record a check carries: each rule group of the answer is
 * evaluated in memory (`ownershipPredicate`, the evaluator of the embedded engine and of policy tests) on the
 * check's `record`, its `related` records and the user's `attributes`. A user or record attribute a rule reads
 * that the check does not carry is a 400 naming it — never an answer.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { quoteForMessage } from '../core/common/printable-text.js';
import { ruleContext } from '../core/decision/bind-rules.js';
import { ownershipPredicate, type OwnershipRecord } from '../core/ownership-rules/in-memory-ownership.js';
import type { OwnershipContext } from '../core/ownership-rules/ownership-context.js';
import type { OwnershipCondition } from '../core/ownership-rules/ownership-rule.js';
import type { GrantTables, RuleTable } from '../core/tables/grant-tables.js';
import { ServiceProblem } from './problem-details.js';

/** A record as a check carries it: its attributes. */
export type CheckRecord = Readonly<Record<string, string | number | boolean | null>>;

/** The records rules reach through relations, by resource. */
export type RelatedRecords = Readonly<Record<string, readonly CheckRecord[]>>;

/** What a check carries for the service to decide its rule groups. */
export interface RecordEvidence {
  readonly record: CheckRecord;
  readonly related?: RelatedRecords | undefined;
  readonly user: { readonly id: string | number; readonly roles: readonly string[]; readonly attributes?: Readonly<Record<string, unknown>> | undefined };
  /** The tenant the check is asked in, which a rule's tenant condition compares with (without one it holds for no record). */
  readonly tenant?: string | undefined;
}

/** The rule of each ownership group of `tables` that names one, with its context, made once per tables. */
const rulesOf = new WeakMap<GrantTables, Map<number, { readonly rule: RuleTable; readonly context: OwnershipContext }>>();

/**
 * The ownership rule that decides group `group` of `tables`, or undefined when hooks decide it.
 *
 * @example
 * ```ts
 * groupRule(tables, 0)?.rule.name; // 'creator'
 * ```
 */
export function groupRule(tables: GrantTables, group: number): { readonly rule: RuleTable; readonly context: OwnershipContext } | undefined {
  let known = rulesOf.get(tables);
  if (known === undefined) {
    known = new Map();
    tables.owners.forEach((owner, i) => {
      const rule = owner.rule === undefined ? undefined : tables.ownershipRules?.rules[owner.rule];
      if (rule !== undefined) known?.set(i, { rule, context: ruleContext(tables, rule) });
    });
    rulesOf.set(tables, known);
  }
  return known.get(group);
}

/** The resources a rule of `tables` may reach through a relation: the only keys `related` may have. */
function reachable(tables: GrantTables): Set<string> {
  const resources = new Set<string>();
  for (const byName of Object.values(tables.ownershipRules?.relations ?? {})) for (const relation of Object.values(byName)) resources.add(relation.resource);
  return resources;
}

/**
 * Refuses `related` records a check cannot use: more than `maxRelatedRecords` over every resource, a resource no
 * relation reaches, a record without an `id` or two with the same one. `at` is the check's place in the batch.
 *
 * @example
 * ```ts
 * checkRelated(tables, { user: [{ id: 1, companyId: 10 }] }, 'checks[0]', 256);
 * ```
 */
export function checkRelated(tables: GrantTables, related: RelatedRecords, at: string, maxRelatedRecords: number): void {
  const resources = reachable(tables);
  let count = 0;
  for (const [resource, records] of Object.entries(related)) {
    if (!resources.has(resource))
      throw new ServiceProblem(
        'invalid-request',
        `${at}.related[${quoteForMessage(resource)}]: no relation of an ownership rule reaches ${quoteForMessage(resource)}` +
          (resources.size === 0 ? '; this policy has none.' : ` (they reach ${[...resources].sort().join(', ')}).`),
      );
    count += records.length;
    if (count > maxRelatedRecords)
      throw new ServiceProblem('invalid-request', `${at}.related holds more than ${maxRelatedRecords} records; send only those the record's relations name.`);
    const ids = new Set<unknown>();
    records.forEach((record, i) => {
      const id = Object.hasOwn(record, 'id') ? record['id'] : undefined;
      if (id === undefined || id === null)
        throw new ServiceProblem('invalid-request', `${at}.related[${quoteForMessage(resource)}][${i}] has no id; a related record is found by its id.`);
      if (ids.has(id))
        throw new ServiceProblem('invalid-request', `${at}.related[${quoteForMessage(resource)}][${i}] has the id ${JSON.stringify(id)} of an earlier record.`);
      ids.add(id);
    });
  }
}

/** The names of the user attributes `condition` reads. */
function userAttributesRead(condition: OwnershipCondition, into = new Set<string>()): Set<string> {
  if ('all' in condition) for (const child of condition.all) userAttributesRead(child, into);
  else if ('any' in condition) for (const child of condition.any) userAttributesRead(child, into);
  else if ('equals' in condition) {
    if ('user' in condition.equals) into.add(condition.equals.user);
  } else if (!Array.isArray(condition.in)) into.add((condition.in as { readonly user: string }).user);
  return into;
}

/**
 * The user a rule reads: the check's user attributes, with `id` the user's own. An attribute named `id` or `roles`
 * is refused (they are the user's own fields).
 */
function ruleUser(user: RecordEvidence['user'], at: string): object {
  const attributes = user.attributes ?? {};
  for (const own of ['id', 'roles'])
    if (Object.hasOwn(attributes, own))
      throw new ServiceProblem('invalid-request', `${at}.user.attributes has ${quoteForMessage(own)}, the user's own field: send it as user.${own}.`);
  // fromEntries defines own properties: no attribute name reaches a prototype.
  return { ...Object.fromEntries(Object.entries(attributes)), id: user.id, roles: user.roles };
}

/**
 * The groups of `groups` decided by a rule that own the check's record: each rule evaluated in memory on the record,
 * the related records and the user's attributes. A missing or mistyped user attribute, a record attribute the rule
 * reads that the record lacks, or a relation to a resource `related` has no list for: a 400 ServiceProblem naming it.
 *
 * @example
 * ```ts
 * ruleGroupsOwning(tables, [0, 3], { record: { id: 100, creatorId: 1 }, user: { id: 1, roles: ['EMPLOYEE'], attributes: {} } }, 'checks[0]');
 * // [0]: the creator rule holds; group 3 is decided by hooks
 * ```
 */
export function ruleGroupsOwning(tables: GrantTables, groups: readonly number[], evidence: RecordEvidence, at: string): number[] {
  const decided = groups.flatMap((group) => {
    const found = groupRule(tables, group);
    return found === undefined ? [] : [{ group, ...found }];
  });
  if (decided.length === 0) return [];
  const user = ruleUser(evidence.user, at);
  const related = evidence.related ?? {};
  const indexes = new Map<string, Map<unknown, OwnershipRecord>>();
  const lookup = (resource: string, id: unknown): OwnershipRecord | undefined => {
    let index = indexes.get(resource);
    if (index === undefined) {
      const records = Object.hasOwn(related, resource) ? related[resource] : undefined;
      if (records === undefined)
        throw new ServiceProblem(
          'invalid-request',
          `${at}.related has no records of ${quoteForMessage(resource)}, which an ownership rule reaches through a relation: send ` +
            `related.${resource} (the records the record's relations name; [] when none).`,
        );
      indexes.set(resource, (index = new Map(records.map((record) => [record['id'], record]))));
    }
    return index.get(id);
  };
  const attributes = evidence.user.attributes ?? {};
  return decided.flatMap(({ group, rule, context }) => {
    for (const name of userAttributesRead(rule.condition))
      if (name !== 'id' && !Object.hasOwn(attributes, name))
        throw new ServiceProblem(
          'invalid-request',
          `${at}.user.attributes has no ${quoteForMessage(name)}, which ownership rule ${quoteForMessage(rule.name)} reads: ` +
            'send it (null when the user has none).',
        );
    try {
      return ownershipPredicate(rule.condition, context, user, lookup, evidence.tenant)(evidence.record) ? [group] : [];
    } catch (error) {
      if (error instanceof PermissionsUsageError) throw new ServiceProblem('invalid-request', `${at}, rule ${quoteForMessage(rule.name)}: ${error.message}`);
      throw error;
    }
  });
}
