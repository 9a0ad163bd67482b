/**
 * Whether a policy version can be activated: a well-formed bundle whose tables hash to its version, within
 * the running code's vocabulary (its resources, their actions, id types and declared actions — what the compiled
 * code is written against), whose hooks name methods the ownership service has, whose own policy tests (the
 * `"tests"` it carries) run and pass against its tables, and which passes any extra check. A version that
 * fails is rejected with every reason.
 */
import { PermissionDefinitionError } from '../core/common/errors.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import { policyBundleProblem, type PolicyBundle } from './policy-bundle.js';
import type { GrantIndex } from '../core/tables/table-loader.js';
import { embeddedTestReasons } from '../core/policy-test/embedded-policy-tests.js';
import { bindTables, type OwnershipSources } from '../core/decision/bind-hooks.js';
import type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
import { ownershipStandIn } from './ownership-stand-in.js';
import type { FollowerCapabilities, RegisteredVocabulary, SourcedPolicy } from './policy-source.js';
import { declaredActionsOf, type Vocabulary } from '../core/tables/vocabulary.js';

/** A further check of a candidate's tables: the reasons it fails, none when it passes. */
export type CandidateCheck = (bundle: PolicyBundle, tables: GrantTables) => readonly string[] | Promise<readonly string[]>;

/** A version that can be activated: its loaded tables and where it stands. */
export interface AcceptedPolicy {
  readonly index: GrantIndex;
  readonly version: string;
  readonly sequence: number | undefined;
}

/** A version that cannot: why, and which one it was (when its bundle said). */
export interface RejectedPolicy {
  readonly version: string | undefined;
  readonly sequence: number | undefined;
  readonly reasons: readonly string[];
}

/**
 * Where `tables` change what the running code may ask of a resource: removing an action it declares (the compiled types
 * allow asking it, and the version would refuse it), or declaring the actions of a resource the code declares none of (its
 * types allow what was granted when it was compiled, which the version cannot know). Declaring more actions, or none, is
 * within what the code asks.
 */
function declaredActionProblems(tables: GrantTables, vocabulary: Vocabulary): string[] {
  const problems: string[] = [];
  const candidate = declaredActionsOf(tables);
  for (const [resource, actions] of candidate) {
    if (!vocabulary.resources.has(resource)) continue;
    const running = vocabulary.declaredActions.get(resource);
    if (running === undefined) {
      problems.push(
        `it declares the actions of ${JSON.stringify(resource)}, which the running code does not declare (its compiled types allow every action ` +
          'granted on it): deploy code compiled with the declaration first',
      );
      continue;
    }
    const removed = [...running].filter((action) => !actions.has(action)).sort();
    if (removed.length > 0)
      problems.push(
        `it removes actions of ${JSON.stringify(resource)} that the running code may ask: ${removed.map((action) => JSON.stringify(action)).join(', ')}`,
      );
  }
  return problems;
}

/** Where `tables` leave the vocabulary: a resource or action the code does not know, an id type it does not expect, a declared action removed. */
function vocabularyProblems(tables: GrantTables, vocabulary: Vocabulary): string[] {
  const problems: string[] = [];
  const resources = tables.resources.filter((resource) => !vocabulary.resources.has(resource));
  if (resources.length > 0) problems.push(`it names resources the running code does not know: ${resources.map((r) => JSON.stringify(r)).join(', ')}`);
  const actions = tables.actions.filter((action) => !vocabulary.actions.has(action));
  if (actions.length > 0) problems.push(`it names actions the running code does not know: ${actions.map((a) => JSON.stringify(a)).join(', ')}`);
  tables.resources.forEach((resource, i) => {
    const expected = vocabulary.idTypes.get(resource);
    const declared = tables.idTypes?.[i] ?? null;
    if (expected !== undefined && expected !== declared)
      problems.push(
        `it declares the ids of ${JSON.stringify(resource)} as ${declared ?? 'undeclared'}, but the running code has them as ${expected ?? 'undeclared'}`,
      );
  });
  problems.push(...declaredActionProblems(tables, vocabulary));
  return problems;
}

/** The vocabulary a follower registered, as the checks read it. */
function vocabularyOfRegistered(registered: RegisteredVocabulary): Vocabulary {
  return {
    resources: new Set(registered.resources.map(([resource]) => resource)),
    actions: new Set(registered.actions),
    idTypes: new Map(registered.resources),
    declaredActions: new Map((registered.declaredActions ?? []).map(([resource, actions]) => [resource, new Set(actions)])),
  };
}

const registeredVocabularyOf = (capabilities: FollowerCapabilities): Vocabulary | undefined =>
  capabilities.vocabulary === undefined ? undefined : vocabularyOfRegistered(capabilities.vocabulary);

/** Loads `tables` against a vocabulary and an ownership service: the loaded index, or every reason it cannot be. */
function loadAgainst(tables: GrantTables, vocabulary: Vocabulary | undefined, ownership: OwnershipSources): { index?: GrantIndex; problems: string[] } {
  const problems = vocabulary === undefined ? [] : vocabularyProblems(tables, vocabulary);
  try {
    return { index: bindTables(tables, ownership), problems };
  } catch (error) {
    // Whatever loading throws is a reason to reject: a follower never throws for a version's sake.
    if (error instanceof PermissionDefinitionError) problems.push(...error.problems.map((problem) => `${problem.message} ${problem.fix}`));
    else problems.push(`its tables cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
    return { problems };
  }
}

/**
 * Checks a sourced version against the running code, binds its hooks to `ownership`, and runs the policy tests
 * the bundle carries (their ownership stated by the tests, never asked of `ownership`). Only a version that
 * passes everything else has its tests run.
 *
 * @example
 * ```ts
 * const outcome = await checkCandidate(await source.read(), vocabularyOf(current.tables), ownership);
 * if ('index' in outcome) install(outcome);
 * ```
 */
export async function checkCandidate(
  sourced: SourcedPolicy,
  vocabulary: Vocabulary | undefined,
  ownership: OwnershipSources,
  extraCheck?: CandidateCheck,
): Promise<AcceptedPolicy | RejectedPolicy> {
  const bundle = sourced.bundle as Partial<PolicyBundle> | null;
  const version = typeof bundle?.version === 'string' && /^[0-9a-f]{64}$/.test(bundle.version) ? bundle.version : undefined;
  const reject = (reasons: readonly string[]): RejectedPolicy => ({ version, sequence: sourced.sequence, reasons });
  const shape = policyBundleProblem(sourced.bundle);
  if (shape !== undefined) return reject([`the bundle ${shape}`]);
  const valid = sourced.bundle as PolicyBundle;
  const tables = valid.tables as GrantTables;
  const { index, problems } = loadAgainst(tables, vocabulary, ownership);
  if (problems.length === 0) problems.push(...(await embeddedTestReasons(valid, tables)));
  if (problems.length === 0 && extraCheck !== undefined) problems.push(...(await extraCheck(valid, tables)));
  if (problems.length > 0 || index === undefined) return reject(problems);
  return { index, version: valid.version, sequence: sourced.sequence };
}

/** A follower's rule source, as a check of a policy version stands it in: bound, never asked. */
const ruleSourceStandIn: OwnershipRuleSource = {
  filter: () => undefined,
  ownedAmong: () => Promise.resolve([]),
  listOwned: () => Promise.resolve([]),
};

/**
 * Why a follower that registered `capabilities` would reject `bundle` — its vocabulary and ownership methods,
 * checked exactly as the follower checks them — or none when it would take it. The bundle's own policy tests
 * (which the publisher runs once) and any check of the application's own are not part of it.
 *
 * @example
 * ```ts
 * capabilityProblems(bundle, { vocabulary: { resources: [['document', 'number']], actions: ['read'] }, ownershipMethods: ['isCreator'] });
 * // ['it names actions the running code does not know: "approve"']
 * ```
 */
export function capabilityProblems(bundle: PolicyBundle, capabilities: FollowerCapabilities): string[] {
  const shape = policyBundleProblem(bundle);
  if (shape !== undefined) return [`the bundle ${shape}`];
  const { ownershipMethods: methods, ownershipService } = capabilities;
  // A follower without an ownership service is checked without one, so that the reasons read as its own would.
  const ownership =
    methods !== 'any' && ownershipService === undefined
      ? undefined
      : ownershipStandIn(methods === 'any' ? undefined : methods, (name) => `${name} is not run by a check of a policy version.`, ownershipService);
  const ownershipRules = capabilities.ownershipRules === true ? ruleSourceStandIn : undefined;
  return loadAgainst(bundle.tables as GrantTables, registeredVocabularyOf(capabilities), { ownership, ownershipRules }).problems;
}
