/**
 * Replaying logged decisions against a candidate policy: each logged question is decided again by the engine
 * over the candidate's tables, and the answers that would change are counted and grouped by roles, resource and
 * action. Ownership is never asked of an application: where the candidate grants the action on owned records
 * only, the record's ownership is the answer the log holds (a decision that asked ownership was granted exactly
 * when the user owned the record); a decision that did not ask it leaves the candidate's answer undecided.
 */
import {
  fileTenantRoles,
  ownershipRulesStandIn,
  ownershipStandIn,
  permissionsFromTables,
  type GrantTables,
  type PrecompiledPermissions,
} from 'typed-permissions/internal';
import type { LogEntry } from './decision-log-sources.js';
import type { LoggedDecision, UnreadableLine } from './logged-decision.js';

/** How an answer moves from the log to the candidate. */
export type ReplayChange = 'granted → refused' | 'refused → granted' | 'undecided';

/** A logged decision shown as an example of a group. */
export interface ReplayExample {
  readonly line: number;
  readonly callId?: string;
  readonly userId: unknown;
  readonly tenant?: string;
  readonly resourceId?: unknown;
}

/** The decisions of one set of roles, resource and action whose answer moves the same way. */
export interface ReplayGroup {
  readonly roles: readonly string[];
  readonly resource: string;
  readonly action: string;
  readonly change: ReplayChange;
  readonly count: number;
  readonly examples: readonly ReplayExample[];
}

/** What a replay found. */
export interface ReplayReport {
  readonly candidate: { readonly label: string; readonly version: string };
  /** Decisions read from the log (unreadable lines excluded). */
  readonly decisions: number;
  readonly unchanged: number;
  readonly grantedToRefused: number;
  readonly refusedToGranted: number;
  /** Decisions the candidate would decide by the ownership of a record the log holds no answer for. */
  readonly undecided: number;
  /** Decisions asked in a tenant while no tenants' custom roles were given: decided with the policy's roles alone. */
  readonly inTenantsWithoutCustomRoles: number;
  readonly unreadable: number;
  /** The first unreadable lines, with why. */
  readonly unreadableExamples: readonly UnreadableLine[];
  /** Changed and undecided decisions, most first (then by roles, resource, action). */
  readonly groups: readonly ReplayGroup[];
  /** Changed or undecided decisions in groups beyond {@link MAX_REPLAY_GROUPS} (or {@link MAX_REPLAY_GROUP_CHARACTERS}), counted only. */
  readonly decisionsInGroupsLeftOut: number;
}

/** The most groups a report lists; the decisions of further groups are counted. */
export const MAX_REPLAY_GROUPS = 10_000;
/** Examples kept per group by default. */
export const DEFAULT_REPLAY_EXAMPLES = 3;
/** Unreadable lines shown. */
const MAX_UNREADABLE_EXAMPLES = 10;
/** Distinct questions (tenant, roles, resource, action) whose candidate answer is kept; the memo is emptied past it. */
const MAX_REMEMBERED_QUESTIONS = 100_000;
/**
 * Characters of the questions the memo holds, in all (a question of 1,000 long role names is about a million): the
 * memo is emptied past it too, so a log of many long questions is answered again rather than kept in memory.
 */
const MAX_REMEMBERED_CHARACTERS = 16 * 1024 * 1024;
/**
 * Characters of the groups' questions kept, in all: the decisions of further groups are counted only, as past
 * {@link MAX_REPLAY_GROUPS}, so that 10,000 groups of long role lists do not hold gigabytes.
 */
export const MAX_REPLAY_GROUP_CHARACTERS = 16 * 1024 * 1024;
/** An example's user or record id whose JSON is longer than this is kept as the start of its JSON text and "…". */
export const MAX_EXAMPLE_ID_CHARACTERS = 1_024;

/** What replaying needs besides the log. */
export interface ReplayOptions {
  readonly candidate: GrantTables;
  /** The candidate as the report names it (a folder, a file, a store version). */
  readonly label: string;
  /** A folder store of tenants' custom roles (as `typed-permissions tenant publish --store` writes): decisions in a tenant use its custom roles. */
  readonly tenantRoles?: string | undefined;
  /** Examples kept per group (default {@link DEFAULT_REPLAY_EXAMPLES}). */
  readonly examples?: number | undefined;
}

/** The candidate's answer to a question without a record: granted on any record, on owned ones only, or refused. */
type Answer = 'any' | 'own' | 'none';

interface GroupCount {
  readonly group: Omit<ReplayGroup, 'count' | 'examples'>;
  count: number;
  readonly examples: ReplayExample[];
}

/** The engine over the candidate: ownership stands in (never asked: questions are asked without a record). */
async function candidateEngine(options: ReplayOptions): Promise<{ engine: PrecompiledPermissions; close: () => Promise<void> }> {
  const refusal = 'A replay never asks the ownership of a record: it takes the logged answer.';
  const engine = permissionsFromTables(options.candidate, {
    ownership: ownershipStandIn(undefined, () => refusal),
    ownershipRules: ownershipRulesStandIn(refusal),
    // Roles, resources and actions the candidate does not know grant nothing: that is a change the report shows.
    logger: { warn: () => undefined },
  }) as PrecompiledPermissions;
  // Followed only to read tenants as they come; closed when the replay ends (its watch would keep the process alive).
  const followed = options.tenantRoles === undefined ? undefined : await engine.followTenantRoles(fileTenantRoles(options.tenantRoles));
  return { engine, close: async () => followed?.close() };
}

/**
 * Re-decides every decision of `log` under `options.candidate` and reports what would change.
 *
 * @example
 * ```ts
 * const report = await replayDecisions(decisionsOfJsonLines('decisions.jsonl'), { candidate: tables, label: 'definitions' });
 * report.grantedToRefused; // 12
 * ```
 */
export async function replayDecisions(log: AsyncIterable<LogEntry>, options: ReplayOptions): Promise<ReplayReport> {
  const { engine, close } = await candidateEngine(options);
  try {
    return await replayWith(engine, log, options);
  } finally {
    await close();
  }
}

async function replayWith(engine: PrecompiledPermissions, log: AsyncIterable<LogEntry>, options: ReplayOptions): Promise<ReplayReport> {
  const examplesPerGroup = options.examples ?? DEFAULT_REPLAY_EXAMPLES;
  const answers = new Map<string, Answer>();
  let rememberedCharacters = 0;
  let groupCharacters = 0;
  const declaredActions = declaredActionsOf(options.candidate);
  const groups = new Map<string, GroupCount>();
  const unreadableExamples: UnreadableLine[] = [];
  const counts = { decisions: 0, unchanged: 0, grantedToRefused: 0, refusedToGranted: 0, undecided: 0, inTenants: 0, unreadable: 0, leftOut: 0 };

  const unreadable = (entry: UnreadableLine): void => {
    counts.unreadable++;
    if (unreadableExamples.length < MAX_UNREADABLE_EXAMPLES) unreadableExamples.push(entry);
  };

  // A question asked before is answered from the memo without a promise: most of a log asks the same few questions.
  const answerOf = (decision: LoggedDecision): Answer | Promise<Answer> => {
    const key = JSON.stringify([decision.tenant ?? null, decision.roles, decision.resource, decision.action]);
    return answers.get(key) ?? newAnswer(decision, key);
  };

  const newAnswer = async (decision: LoggedDecision, key: string): Promise<Answer> => {
    let answer: Answer;
    // An action the candidate's resource does not declare is refused there (the engine would call the question a
    // mistake of the code that asks; here it is a change of the policy).
    const declared = declaredActions.get(decision.resource);
    if (declared !== undefined && !declared.has(decision.action)) answer = 'none';
    else {
      // Asked without a record, the engine asks no ownership; asynchronously, a tenant's custom roles are read first.
      const permit = await engine.grantPermit({
        user: { id: decision.userId, roles: decision.roles },
        resource: decision.resource,
        action: decision.action,
        ...(decision.tenant === undefined ? {} : { tenant: decision.tenant }),
      });
      answer = permit.anyGranted ? 'any' : permit.granted ? 'own' : 'none';
    }
    if (answers.size >= MAX_REMEMBERED_QUESTIONS || rememberedCharacters + key.length > MAX_REMEMBERED_CHARACTERS) {
      answers.clear();
      rememberedCharacters = 0;
    }
    answers.set(key, answer);
    rememberedCharacters += key.length;
    return answer;
  };

  const count = (decision: LoggedDecision, change: ReplayChange): void => {
    const key = JSON.stringify([decision.roles, decision.resource, decision.action, change]);
    let group = groups.get(key);
    if (group === undefined) {
      if (groups.size >= MAX_REPLAY_GROUPS || groupCharacters + key.length > MAX_REPLAY_GROUP_CHARACTERS) {
        counts.leftOut++;
        return;
      }
      group = { group: { roles: decision.roles, resource: decision.resource, action: decision.action, change }, count: 0, examples: [] };
      groups.set(key, group);
      groupCharacters += key.length;
    }
    group.count++;
    if (group.examples.length < examplesPerGroup) group.examples.push(exampleOf(decision));
  };

  for await (const entry of log) {
    if ('problem' in entry) {
      unreadable(entry);
      continue;
    }
    let answer: Answer;
    try {
      const known = answerOf(entry);
      answer = typeof known === 'string' ? known : await known;
    } catch (error) {
      unreadable({ line: entry.line, problem: `it cannot be decided: ${(error as Error).message}` });
      continue;
    }
    counts.decisions++;
    if (entry.tenant !== undefined && options.tenantRoles === undefined) counts.inTenants++;
    const granted = candidateGrants(answer, entry);
    if (granted === undefined) {
      counts.undecided++;
      count(entry, 'undecided');
    } else if (granted === entry.granted) counts.unchanged++;
    else {
      if (entry.granted) counts.grantedToRefused++;
      else counts.refusedToGranted++;
      count(entry, entry.granted ? 'granted → refused' : 'refused → granted');
    }
  }

  return {
    candidate: { label: options.label, version: engine.policyVersion },
    decisions: counts.decisions,
    unchanged: counts.unchanged,
    grantedToRefused: counts.grantedToRefused,
    refusedToGranted: counts.refusedToGranted,
    undecided: counts.undecided,
    inTenantsWithoutCustomRoles: counts.inTenants,
    unreadable: counts.unreadable,
    unreadableExamples,
    groups: [...groups.values()].map(({ group, count: n, examples }) => ({ ...group, count: n, examples })).sort(byCountThenName),
    decisionsInGroupsLeftOut: counts.leftOut,
  };
}

/** The actions each resource that declares its actions takes, by resource. */
function declaredActionsOf(tables: GrantTables): Map<string, ReadonlySet<string>> {
  const declared = new Map<string, ReadonlySet<string>>();
  tables.declaredActions?.forEach((indexes, r) => {
    if (indexes !== null) declared.set(tables.resources[r] as string, new Set(indexes.map((a) => tables.actions[a] as string)));
  });
  return declared;
}

/**
 * The candidate's answer to a logged decision: by the grant alone, or by the record's ownership as the log holds
 * it; undefined when it depends on an ownership the log does not hold. A decision granted as any holds no
 * ownership answer, even where its event says ownership was checked (the decision service said so before it
 * mirrored `grantPermit`): its grant says nothing of whether the user owns the record.
 */
function candidateGrants(answer: Answer, decision: LoggedDecision): boolean | undefined {
  if (answer === 'none') return false;
  if (answer === 'any' || decision.resourceId === undefined) return true;
  return decision.ownershipChecked && !decision.anyGranted ? decision.granted : undefined;
}

/** A logged id as an example keeps it: as it is, or when its JSON is long, the start of that text and "…". */
function exampleId(id: unknown): unknown {
  const text = JSON.stringify(id);
  if (text === undefined || text.length <= MAX_EXAMPLE_ID_CHARACTERS) return id;
  // Cut between two characters, not inside a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_EXAMPLE_ID_CHARACTERS - 1)) ? MAX_EXAMPLE_ID_CHARACTERS - 1 : MAX_EXAMPLE_ID_CHARACTERS;
  return `${text.slice(0, end)}…`;
}

function exampleOf(decision: LoggedDecision): ReplayExample {
  return {
    line: decision.line,
    ...(decision.callId === undefined ? {} : { callId: decision.callId }),
    userId: exampleId(decision.userId),
    ...(decision.tenant === undefined ? {} : { tenant: decision.tenant }),
    ...(decision.resourceId === undefined ? {} : { resourceId: exampleId(decision.resourceId) }),
  };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function byCountThenName(a: ReplayGroup, b: ReplayGroup): number {
  return (
    b.count - a.count ||
    compareText(a.roles.join('+'), b.roles.join('+')) ||
    compareText(a.resource, b.resource) ||
    compareText(a.action, b.action) ||
    compareText(a.change, b.change)
  );
}
