/**
 * The answers of `POST /v1/check`, read from the user's slice — what `permissions.sliceFor(user)` cuts from the
 * very combinations `grantPermit` decides with (its any attributes, whether the action is granted as own, the
 * ownership groups and the attributes each adds) — and from the tables for the names of each group's ownership
 * methods. Ownership itself is the asking application's: it says which groups own the record (`ownedBy`), and
 * the answer applies the engine's rule to that: granted as any, or as own and owned; the any attributes plus
 * those of the groups that own it.
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
import { ServiceProblem } from './problem-details.js';

/** The user of a question: the id and role names. */
export interface CheckUser {
  readonly id: string | number;
  readonly roles: readonly string[];
}

/** One question of a batch: may `user` perform `action` on `resource` (the record `resourceId`, owned by the groups `ownedBy`)? */
export interface CheckQuery {
  readonly user: CheckUser;
  readonly resource: string;
  readonly action: string;
  readonly resourceId?: string | number | undefined;
  /** The ownership groups that own the record (numbers of an answer's `ownership`, or of the user's slice). Needs `resourceId`. */
  readonly ownedBy?: readonly number[] | undefined;
}

/** An ownership group of the user's roles for one action: the methods that decide it, and the attributes it adds. */
export interface OwnershipGroupAnswer {
  /** The group's number in this policy version (the numbers of the user's slice). */
  readonly group: number;
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
  sliceFor(user: CheckUser): PermissionSlice;
  readonly tables: GrantTables;
  readonly policyVersion: string;
  logDecision?(decision: Omit<LoggedDecision, 'callSequence'>, via: 'service', ownershipChecked: boolean): string | undefined;
}

/** Logs a final answer as a decision (`via: 'service'`) and adds its call id; an answer still needing ownership is not a decision yet. */
function logged(engine: SliceEngine, check: CheckQuery, answer: CheckAnswer): CheckAnswer {
  if (answer.needsOwnership || engine.logDecision === undefined) return answer;
  const { user, resource, action, resourceId } = check;
  const { granted, anyGranted, ownGranted } = answer;
  const callId = engine.logDecision({ user, resource, action, resourceId, granted, anyGranted, ownGranted }, 'service', check.ownedBy !== undefined);
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
): CheckAnswer {
  return {
    granted,
    anyGranted,
    ownGranted: granted,
    needsOwnership,
    anyAttributes: parts.anyAttributes,
    attributes,
    ownership: parts.ownership,
    policyVersion,
  };
}

const NO_PARTS = { anyAttributes: NONE, ownership: Object.freeze([]) as readonly OwnershipGroupAnswer[] };

/** The answer to one check whose resource, action and id are known good. */
function answerOne(entry: SliceEntry | undefined, check: CheckQuery, tables: GrantTables, policyVersion: string): CheckAnswer {
  if (entry === undefined) return answer(false, false, false, NO_PARTS, NONE, policyVersion);
  const anyGranted = entry.any !== undefined;
  const parts = entryParts(entry, tables, check.resource);
  // Without a record: granted in some possession, as grantPermit answers without a resource id.
  if (check.resourceId === undefined) return answer(anyGranted || entry.ownGranted, anyGranted, false, parts, parts.anyAttributes, policyVersion);
  const { ownedBy } = check;
  if (ownedBy === undefined) {
    // Owned or not, the record is granted as any; its attributes still depend on who owns it when a group adds some.
    const decidedByOwnership = !anyGranted && entry.ownGranted && entry.owners.length > 0;
    const needsOwnership = decidedByOwnership || (anyGranted && entry.own.size > 0);
    return answer(anyGranted, anyGranted, needsOwnership, parts, parts.anyAttributes, policyVersion);
  }
  const owned = entry.owners.some((group) => ownedBy.includes(group));
  return answer(anyGranted || (entry.ownGranted && owned), anyGranted, false, parts, ownedAttributes(entry, parts, ownedBy), policyVersion);
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
  if (check.resourceId === undefined) {
    if (check.ownedBy !== undefined)
      throw new ServiceProblem('invalid-request', `${at}.ownedBy needs ${at}.resourceId: it names the groups that own that record.`);
    return check;
  }
  const idType = (vocabulary.idTypes.get(check.resource) ?? undefined) as ResourceIdType | undefined;
  try {
    return { ...check, resourceId: resourceIdOfType(check.resourceId, check.resource, idType) as string | number };
  } catch (error) {
    if (error instanceof PermissionsInvalidIdError) throw new ServiceProblem('invalid-request', `${at}.resourceId: ${error.message}`);
    throw error;
  }
}

/**
 * The answers to a batch of checks, in order, all from the engine's current policy version (read in one go, so
 * no swap of the policy falls between two answers). A check naming a resource or action the vocabulary lacks, an
 * action its resource does not declare, an id not of the resource's id type, or `ownedBy` without `resourceId`,
 * refuses the batch with a ServiceProblem naming its index.
 *
 * @example
 * ```ts
 * const [answer] = answerChecks(permissions, vocabularyOf(permissions.tables), [
 *   { user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 },
 * ]);
 * answer.needsOwnership; // true: ask the groups of answer.ownership, then send ownedBy
 * ```
 */
export function answerChecks(engine: SliceEngine, vocabulary: Vocabulary, checks: readonly CheckQuery[]): CheckAnswer[] {
  const { tables, policyVersion } = engine;
  const declared = declaredActionsOf(tables);
  const queries = checks.map((check, i) => checkedQuery(check, i, vocabulary, declared));
  return queries.map((check) =>
    logged(engine, check, answerOne(entriesOf(engine.sliceFor(check.user)).get(check.resource)?.get(check.action), check, tables, policyVersion)),
  );
}
