/**
 * The answers of `POST /v1/check`, read from the user's slice — what `permissions.sliceFor(user)` cuts from the
 * very combinations `grantPermit` decides with (its any attributes, whether the action is granted as own, the
 * ownership groups and the attributes each adds) — and from the tables for the names of each group's ownership
 * methods. Ownership itself is the asking application's: it says which groups own the record (`ownedBy`), and
 * the answer applies the engine's rule to that: granted as any, or as own and owned; the any attributes plus
 * those of the groups that own it. A group decided by an ownership rule is decided here when the check carries
 * the record (and the user's attributes): the rule is evaluated on it.
 */
import { quoteForMessage } from '../core/common/printable-text.js';
import type { LoggedDecision } from '../core/decision/engine-settings.js';
import { readSlice, type PermissionSlice, type SliceEntries, type SliceEntry } from '../core/decision/permission-slice.js';
import { declaredActionsOf, type Vocabulary } from '../core/tables/vocabulary.js';
import { undeclaredActionMessage } from '../core/definition/declared-actions.js';
import { didYouMean } from '../core/common/nearest-name.js';
import { resourceIdOfType } from '../core/decision/resource-id.js';
import { PermissionsInvalidIdError } from '../core/common/errors.js';
import { NOTHING, unionPlans, type AttributePlan } from '../core/projection/attribute-plan.js';
import type { GrantTables, ResourceIdType } from '../core/tables/grant-tables.js';
import { canonicalPatterns } from '../core/tables/table-loader.js';
import { reasonOf, type PermitReason, type RefusalReason } from '../core/decision/permit-reason.js';
import { ServiceProblem } from './problem-details.js';
import { checkRelated, groupRule, ruleGroupsOwning, type CheckRecord, type RelatedRecords } from './record-ownership.js';
import { DEFAULT_SERVICE_LIMITS } from './service-limits.js';

/** The user of a question: the id and role names, and the attributes ownership rules read. */
export interface CheckUser {
  readonly id: string | number;
  readonly roles: readonly string[];
  /** The user attributes ownership rules read (`id` is the user's own); needed only with a record. */
  readonly attributes?: Readonly<Record<string, string | number | boolean | null | readonly (string | number)[]>> | undefined;
}

/** One question of a batch: may `user` perform `action` on `resource` (the record `resourceId`, owned by the groups `ownedBy`)? */
export interface CheckQuery {
  readonly user: CheckUser;
  /** The tenant asked in: `user.roles` are the roles the user holds there. Its custom roles must be loaded (`loadTenants`). */
  readonly tenant?: string | undefined;
  readonly resource: string;
  readonly action: string;
  readonly resourceId?: string | number | undefined;
  /** The ownership groups that own the record (numbers of an answer's `ownership`, or of the user's slice). Needs `resourceId`. */
  readonly ownedBy?: readonly number[] | undefined;
  /** The record `resourceId` names, as its attributes: the service evaluates the answer's rule groups on it. Needs `resourceId`. */
  readonly record?: CheckRecord | undefined;
  /** The records rules reach through relations, by resource. Needs `record`. */
  readonly related?: RelatedRecords | undefined;
}

/** An ownership group of the user's roles for one action: the methods that decide it, and the attributes it adds. */
export interface OwnershipGroupAnswer {
  /** The group's number in this policy version (the numbers of the user's slice). */
  readonly group: number;
  /** The ownership rule that decides the group, when it names one (then it has no methods). */
  readonly rule?: string;
  readonly isOwner?: string;
  readonly listOwned?: string;
  readonly limitOwned?: string;
  /** The resource's executor, when the group has limitOwned and the resource declares one. */
  readonly ownedAmong?: string;
  /** The attribute patterns the group adds to `anyAttributes` for records it owns; `[]` when it adds none. */
  readonly attributes: readonly string[];
}

/** One answer: what the embedded engine's Permit says, and what the application must still ask when ownership decides. */
export interface CheckAnswer {
  /** The decision, as `grantPermit` gives it; false while `needsOwnership` says the record's ownership is still to be asked. */
  readonly granted: boolean;
  readonly anyGranted: boolean;
  /** Granted on the user's own records (for `resourceId`: that record is owned); true whenever `anyGranted` is. */
  readonly ownGranted: boolean;
  /** The answer for `resourceId` depends on which groups own it, and `ownedBy` did not say. */
  readonly needsOwnership: boolean;
  /**
   * Why, as the embedded permit's `reason` says it; null while `needsOwnership` leaves the decision open (not
   * granted yet). Never `'unknown-resource'` nor `'unknown-action'`: a check naming those is refused as a whole.
   */
  readonly reason: PermitReason | null;
  readonly anyAttributes: readonly string[];
  /** The attribute patterns of the record: `anyAttributes` plus those of the groups in `ownedBy`; `[]` when nothing is visible. */
  readonly attributes: readonly string[];
  readonly ownership: readonly OwnershipGroupAnswer[];
  readonly policyVersion: string;
  /** The decision's call id in the service's decision log (only when the service logs decisions, and the answer is final). */
  readonly callId?: string;
}

/** What the answers are read from: the engine's slices and tables, one policy version; and its decision log. */
export interface SliceEngine {
  sliceFor(user: CheckUser, options?: { readonly tenant?: string | undefined }): PermissionSlice;
  readonly tables: GrantTables;
  readonly policyVersion: string;
  logDecision?(decision: Omit<LoggedDecision, 'callSequence'>, via: 'service', ownershipChecked: boolean, tenant?: string): string | undefined;
}

/**
 * Whether the record's ownership decided the answer, as it does for `grantPermit`: a record was asked about, the
 * action is not granted as any but is as own, and the check said who owns the record (`ownedBy`, or the record
 * for the rules). A replay takes a logged answer with this flag as the record's ownership: set for an answer granted
 * as any, it would hold a grant that owning never decided as "owned".
 */
function ownershipDecided(entry: SliceEntry | undefined, check: CheckQuery): boolean {
  if (entry === undefined || check.resourceId === undefined || entry.any !== undefined || !entry.ownGranted) return false;
  return check.ownedBy !== undefined || check.record !== undefined;
}

/** Logs a final answer as a decision (`via: 'service'`) and adds its call id; an answer still needing ownership is not a decision yet. */
function logged(engine: SliceEngine, check: CheckQuery, answer: CheckAnswer, ownershipChecked: boolean): CheckAnswer {
  if (answer.needsOwnership || engine.logDecision === undefined) return answer;
  const { user, resource, action, resourceId } = check;
  const { granted, anyGranted, ownGranted } = answer;
  const callId = engine.logDecision({ user, resource, action, resourceId, granted, anyGranted, ownGranted }, 'service', ownershipChecked, check.tenant);
  return callId === undefined ? answer : { ...answer, callId };
}

/** Slices read, per slice (the engine keeps each slice, frozen, while it keeps its policy). */
const readSlices = new WeakMap<PermissionSlice, SliceEntries>();

function entriesOf(slice: PermissionSlice): SliceEntries {
  let entries = readSlices.get(slice);
  if (entries === undefined) readSlices.set(slice, (entries = readSlice(slice)));
  return entries;
}

/** The ownership methods of each group on each resource, per tables. */
const groupMethodsOf = new WeakMap<GrantTables, Map<string, Omit<OwnershipGroupAnswer, 'attributes'>>>();

function methodsOf(tables: GrantTables, resource: string, group: number): Omit<OwnershipGroupAnswer, 'attributes'> {
  let known = groupMethodsOf.get(tables);
  if (known === undefined) groupMethodsOf.set(tables, (known = new Map<string, Omit<OwnershipGroupAnswer, 'attributes'>>()));
  const key = `${group}/${resource}`;
  let methods = known.get(key);
  if (methods === undefined) {
    const owner = tables.owners[group];
    const rule = groupRule(tables, group)?.rule.name;
    if (rule !== undefined) {
      methods = { group, rule };
      known.set(key, methods);
      return methods;
    }
    const name = (hook: number | undefined) => (hook === undefined || hook === -1 ? undefined : tables.hooks[hook]?.name);
    const isOwner = name(owner?.isOwner);
    const listOwned = name(owner?.listOwned);
    const limitOwned = name(owner?.limitOwned);
    const ownedAmong = limitOwned === undefined ? undefined : name(tables.ownedAmong?.[tables.resources.indexOf(resource)]);
    methods = {
      group,
      ...(isOwner === undefined ? {} : { isOwner }),
      ...(listOwned === undefined ? {} : { listOwned }),
      ...(limitOwned === undefined ? {} : { limitOwned }),
      ...(ownedAmong === undefined ? {} : { ownedAmong }),
    };
    known.set(key, methods);
  }
  return methods;
}

const NONE: readonly string[] = Object.freeze([]);

/** What every answer of one slice entry shares, made once per entry: its any attributes and ownership groups. */
interface EntryParts {
  readonly anyAttributes: readonly string[];
  readonly ownership: readonly OwnershipGroupAnswer[];
  /** The attributes of a record owned by a set of groups, by the sorted groups that add any (bounded). */
  readonly ownedAttributes: Map<string, readonly string[]>;
}

/** The most sets of owning groups whose attributes one entry keeps. */
const MAX_OWNED_ATTRIBUTE_SETS = 64;

const partsOf = new WeakMap<SliceEntry, EntryParts>();

function entryParts(entry: SliceEntry, tables: GrantTables, resource: string): EntryParts {
  let parts = partsOf.get(entry);
  if (parts === undefined) {
    const groups = [...new Set([...entry.owners, ...entry.own.keys()])].sort((a, b) => a - b);
    parts = {
      anyAttributes: entry.any === undefined ? NONE : canonicalPatterns(entry.any),
      ownership: Object.freeze(
        groups.map((group) => {
          const adds = entry.own.get(group);
          return Object.freeze({ ...methodsOf(tables, resource, group), attributes: adds === undefined ? NONE : canonicalPatterns(adds) });
        }),
      ),
      ownedAttributes: new Map(),
    };
    partsOf.set(entry, parts);
  }
  return parts;
}

/** The attribute patterns of a record owned by `ownedBy`, as Permit.pick makes them: the any attributes plus each owning group's. */
function ownedAttributes(entry: SliceEntry, parts: EntryParts, ownedBy: readonly number[]): readonly string[] {
  const adding = [...entry.own.keys()].filter((group) => ownedBy.includes(group));
  if (adding.length === 0) return parts.anyAttributes;
  const key = adding.join(',');
  let attributes = parts.ownedAttributes.get(key);
  if (attributes === undefined) {
    let plan = entry.any;
    for (const group of adding) plan = unionPlans(plan ?? NOTHING, entry.own.get(group) as AttributePlan);
    attributes = plan === undefined ? NONE : canonicalPatterns(plan);
    if (parts.ownedAttributes.size >= MAX_OWNED_ATTRIBUTE_SETS) parts.ownedAttributes.clear();
    parts.ownedAttributes.set(key, attributes);
  }
  return attributes;
}

/** An answer, its fields always in one order (one object shape for every answer). */
function answer(
  granted: boolean,
  anyGranted: boolean,
  needsOwnership: boolean,
  parts: Pick<EntryParts, 'anyAttributes' | 'ownership'>,
  attributes: readonly string[],
  policyVersion: string,
  reason: PermitReason | null,
): CheckAnswer {
  return {
    granted,
    anyGranted,
    ownGranted: granted,
    needsOwnership,
    reason,
    anyAttributes: parts.anyAttributes,
    attributes,
    ownership: parts.ownership,
    policyVersion,
  };
}

const NO_PARTS = { anyAttributes: NONE, ownership: Object.freeze([]) as readonly OwnershipGroupAnswer[] };

/**
 * The answer to a check that carries its record: the rule groups are decided on it; the groups hooks decide are
 * taken from `ownedBy`, and while it is missing and such a group could still grant the action or add attributes,
 * the answer says what the rules decided so far and that ownership is still to be asked.
 */
function answerWithRecord(
  entry: SliceEntry,
  parts: EntryParts,
  check: CheckQuery,
  tables: GrantTables,
  policyVersion: string,
  at: string,
  refusal: RefusalReason,
): CheckAnswer {
  const anyGranted = entry.any !== undefined;
  const groups = parts.ownership.map((group) => group.group);
  const record = check.record as CheckRecord;
  const byRules = ruleGroupsOwning(tables, groups, { record, related: check.related, user: check.user, tenant: check.tenant }, at);
  const hookGroups = groups.filter((group) => groupRule(tables, group) === undefined);
  const ownedBy = [...byRules, ...(check.ownedBy ?? []).filter((group) => hookGroups.includes(group))];
  const granted = anyGranted || (entry.ownGranted && entry.owners.some((group) => ownedBy.includes(group)));
  const undecided =
    check.ownedBy === undefined &&
    (granted ? hookGroups.some((group) => entry.own.has(group)) : entry.ownGranted && hookGroups.some((group) => entry.owners.includes(group)));
  const reason = undecided && !granted ? null : reasonOf(granted, anyGranted, entry.ownGranted, () => refusal);
  return answer(granted, anyGranted, undecided, parts, granted ? ownedAttributes(entry, parts, ownedBy) : NONE, policyVersion, reason);
}

/** The answer to one check whose resource, action and id are known good; `at` is its place in the batch. */
function answerOne(
  entry: SliceEntry | undefined,
  check: CheckQuery,
  tables: GrantTables,
  policyVersion: string,
  at: string,
  refusal: RefusalReason,
): CheckAnswer {
  if (entry === undefined) return answer(false, false, false, NO_PARTS, NONE, policyVersion, refusal);
  const why = (granted: boolean): PermitReason => reasonOf(granted, anyGranted, entry.ownGranted, () => refusal);
  const anyGranted = entry.any !== undefined;
  const parts = entryParts(entry, tables, check.resource);
  // Without a record: granted in some possession, as grantPermit answers without a resource id.
  if (check.resourceId === undefined) {
    const granted = anyGranted || entry.ownGranted;
    return answer(granted, anyGranted, false, parts, parts.anyAttributes, policyVersion, why(granted));
  }
  if (check.record !== undefined) return answerWithRecord(entry, parts, check, tables, policyVersion, at, refusal);
  const { ownedBy } = check;
  if (ownedBy === undefined) {
    // Owned or not, the record is granted as any; its attributes still depend on who owns it when a group adds some.
    const decidedByOwnership = !anyGranted && entry.ownGranted && entry.owners.length > 0;
    const needsOwnership = decidedByOwnership || (anyGranted && entry.own.size > 0);
    return answer(anyGranted, anyGranted, needsOwnership, parts, parts.anyAttributes, policyVersion, decidedByOwnership ? null : why(anyGranted));
  }
  const owned = entry.owners.some((group) => ownedBy.includes(group));
  const granted = anyGranted || (entry.ownGranted && owned);
  return answer(granted, anyGranted, false, parts, ownedAttributes(entry, parts, ownedBy), policyVersion, why(granted));
}

/**
 * Refuses a check naming what the policy's vocabulary does not have, or an action its resource does not declare (in
 * the active version, `declared`); returns the check with its id in the declared type.
 */
function checkedQuery(check: CheckQuery, index: number, vocabulary: Vocabulary, declared: ReadonlyMap<string, ReadonlySet<string>>): CheckQuery {
  const at = `checks[${index}]`;
  const listed = '(GET /v1/policy lists them).';
  if (!vocabulary.resources.has(check.resource))
    throw new ServiceProblem(
      'invalid-request',
      `${at}.resource: ${quoteForMessage(check.resource)} is not a resource of this policy ${listed}${didYouMean(check.resource, vocabulary.resources)}`,
    );
  if (!vocabulary.actions.has(check.action))
    throw new ServiceProblem(
      'invalid-request',
      `${at}.action: ${quoteForMessage(check.action)} is not an action of this policy ${listed}${didYouMean(check.action, vocabulary.actions)}`,
    );
  const actions = declared.get(check.resource);
  if (actions !== undefined && !actions.has(check.action)) {
    const names = [...actions].sort();
    throw new ServiceProblem(
      'invalid-request',
      `${at}.action: ${undeclaredActionMessage(check.resource, check.action, names)}${didYouMean(check.action, names)}`,
    );
  }
  if (check.related !== undefined && check.record === undefined)
    throw new ServiceProblem('invalid-request', `${at}.related needs ${at}.record: it holds the records that record's relations name.`);
  if (check.resourceId === undefined) {
    if (check.ownedBy !== undefined)
      throw new ServiceProblem('invalid-request', `${at}.ownedBy needs ${at}.resourceId: it names the groups that own that record.`);
    if (check.record !== undefined) throw new ServiceProblem('invalid-request', `${at}.record needs ${at}.resourceId: it is the record that id names.`);
    return check;
  }
  const idType = (vocabulary.idTypes.get(check.resource) ?? undefined) as ResourceIdType | undefined;
  let resourceId: string | number;
  try {
    resourceId = resourceIdOfType(check.resourceId, check.resource, idType) as string | number;
  } catch (error) {
    if (error instanceof PermissionsInvalidIdError) throw new ServiceProblem('invalid-request', `${at}.resourceId: ${error.message}`);
    throw error;
  }
  const recordId = check.record !== undefined && Object.hasOwn(check.record, 'id') ? check.record['id'] : undefined;
  if (recordId !== undefined && recordId !== resourceId)
    throw new ServiceProblem(
      'invalid-request',
      `${at}.record.id is ${JSON.stringify(recordId)}, not the resourceId ${JSON.stringify(resourceId)}: send the record that resourceId names.`,
    );
  return { ...check, resourceId };
}

/**
 * The answers to a batch of checks, in order, all from the engine's current policy version (read in one go, so
 * no swap of the policy falls between two answers). A check naming a resource or action the vocabulary lacks, an
 * action its resource does not declare, an id not of the resource's id type, `ownedBy` or `record` without
 * `resourceId`, related records a rule cannot use (more than `maxRelatedRecords` of them, over every resource), or a
 * record or user without an attribute its rules read, refuses the batch with a ServiceProblem naming its index.
 *
 * @example
 * ```ts
 * const [answer] = answerChecks(permissions, vocabularyOf(permissions.tables), [
 *   { user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 },
 * ]);
 * answer.needsOwnership; // true: ask the groups of answer.ownership, then send ownedBy
 * ```
 */
export function answerChecks(
  engine: SliceEngine,
  vocabulary: Vocabulary,
  checks: readonly CheckQuery[],
  maxRelatedRecords: number = DEFAULT_SERVICE_LIMITS.maxRelatedRecords,
): CheckAnswer[] {
  const { tables, policyVersion } = engine;
  const declared = declaredActionsOf(tables);
  const queries = checks.map((check, i) => {
    const checked = checkedQuery(check, i, vocabulary, declared);
    if (checked.related !== undefined) checkRelated(tables, checked.related, `checks[${i}]`, maxRelatedRecords);
    return checked;
  });
  // Every check is answered before any is logged: a refused batch logs no decision.
  const decidedByOwnership: boolean[] = [];
  const answers = queries.map((check, i) => {
    const slice = engine.sliceFor(check.user, { tenant: check.tenant });
    const entry = entriesOf(slice).get(check.resource)?.get(check.action);
    decidedByOwnership.push(ownershipDecided(entry, check));
    // Roles that are all unknown are refused for that reason, as the embedded permit says it.
    return answerOne(entry, check, tables, policyVersion, `checks[${i}]`, slice.refusal ?? 'no-grant');
  });
  return answers.map((answer, i) => logged(engine, queries[i] as CheckQuery, answer, decidedByOwnership[i] === true));
}
