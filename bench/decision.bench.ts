/**
 * Benchmark 1: the decision without a resource id — one role and three roles, granted and denied —
 * for this library (sync, async, typed wrapper), the peers and the nested-object baseline. Before
 * timing, every implementation answers the same sampled queries and must agree with the baseline.
 */
import { accessControl2Decider, accessControl3Decider } from './peers/accesscontrol.js';
import { casbinDecider } from './peers/casbin.js';
import { caslDecider } from './peers/casl.js';
import { nestedObjectDecider, type NestedTable } from './peers/nested-object.js';
import type { BenchUser, Decider, DecisionQuery } from './peers/peer.js';
import { typedPermissionsDeciders } from './peers/typed-permissions.js';
import { medianNs, type BenchSettings } from './measure.js';
import { CRUD_ACTIONS, Random, type Scale } from './scenario.js';
import type { BenchSubjects } from './subjects.js';

/** The four timed cases. Their queries use CRUD actions, so that accesscontrol 2 answers the same ones. */
export const DECISION_CASES = [
  { name: '1 role, granted', roles: 1, granted: true },
  { name: '1 role, denied', roles: 1, granted: false },
  { name: '3 roles, granted', roles: 3, granted: true },
  { name: '3 roles, denied', roles: 3, granted: false },
] as const;

export type DecisionCaseName = (typeof DECISION_CASES)[number]['name'];

/** The baseline's name, for ratios. */
export const DECISION_BASELINE = 'nested object (baseline)';

/** One implementation's time in one case. */
export interface DecisionRow {
  readonly implementation: string;
  readonly medianNs: number;
  /** medianNs / the baseline's medianNs in the same case. */
  readonly ratioToBaseline: number;
}

export interface DecisionCaseResult {
  readonly scale: Scale;
  readonly case: DecisionCaseName;
  readonly rows: readonly DecisionRow[];
}

/** An implementation that answered a query differently from the baseline. */
export interface Disagreement {
  readonly scale: Scale;
  readonly implementation: string;
  readonly query: { readonly roles: readonly string[]; readonly resource: string; readonly action: string };
  readonly expected: boolean;
  readonly got: boolean;
}

export interface DecisionResult {
  readonly cases: readonly DecisionCaseResult[];
  /** Queries every implementation answered before timing (custom actions included except for CRUD-only peers). */
  readonly checkedQueries: number;
  readonly disagreements: readonly Disagreement[];
}

const crud: readonly string[] = CRUD_ACTIONS;

function grants(table: NestedTable, roles: readonly string[], resource: string, action: string): boolean {
  return roles.some((role) => table[role]?.[resource]?.[action] === true);
}

/**
 * Samples queries: `roleCount` distinct roles (never SUPER_ADMIN, who is granted everything), and a
 * CRUD action on a resource that is granted (from one of the roles' grants) or denied to all of them.
 *
 * @example
 * ```ts
 * const queries = sampleDecisionQueries(subjects, new Random(7), 64, 3, true, 100); // 64 granted queries, 3 roles each, users 100…163
 * ```
 */
export function sampleDecisionQueries(
  subjects: BenchSubjects,
  random: Random,
  count: number,
  roleCount: number,
  granted: boolean,
  firstUserId: number,
): DecisionQuery[] {
  const { table, universe } = subjects;
  const pool = subjects.scenario.roles.filter((role) => role !== 'SUPER_ADMIN');
  const queries: DecisionQuery[] = [];
  while (queries.length < count) {
    const roles = random.sample(pool, roleCount);
    const user: BenchUser = { id: firstUserId + queries.length, roles };
    if (granted) {
      const role = random.pick(roles);
      const options = Object.entries(table[role] ?? {}).flatMap(([resource, actions]) =>
        Object.keys(actions)
          .filter((action) => crud.includes(action))
          .map((action) => ({ resource, action })),
      );
      if (options.length === 0) continue;
      queries.push({ user, ...random.pick(options) });
    } else {
      // Half on a resource one of the roles works with (the action is what is missing), half anywhere.
      const touched = Object.keys(table[random.pick(roles)] ?? {});
      const resource = random.next() < 0.5 && touched.length > 0 ? random.pick(touched) : random.pick(universe.resources);
      const action = random.pick(crud);
      if (!grants(table, roles, resource, action)) queries.push({ user, resource, action });
    }
  }
  return queries;
}

/** Random queries over every action (custom ones too) and one to three roles, SUPER_ADMIN included: the agreement check. */
function sampleMixedQueries(subjects: BenchSubjects, random: Random, count: number, firstUserId: number): DecisionQuery[] {
  const { universe } = subjects;
  return Array.from({ length: count }, (_, i) => {
    const roles = random.sample(subjects.scenario.roles, 1 + random.below(3));
    // Bias towards resources the roles use, so that granted answers are common.
    const used = roles.flatMap((role) => Object.keys(subjects.table[role] ?? {}));
    const resource = used.length > 0 && random.next() < 0.7 ? random.pick(used) : random.pick(universe.resources);
    return { user: { id: firstUserId + i, roles }, resource, action: random.pick(universe.actions) };
  });
}

/**
 * Every decider of a scenario, baseline last.
 *
 * @example
 * ```ts
 * decidersOf(subjects).map((decider) => decider.name); // ['grantPermitSync', …, 'nested object (baseline)']
 * ```
 */
export function decidersOf(subjects: BenchSubjects): Decider[] {
  return [
    ...typedPermissionsDeciders(subjects.permissions, subjects.typed),
    accessControl3Decider(subjects.accessControl3),
    accessControl2Decider(subjects.accessControl2),
    caslDecider(subjects.rules),
    casbinDecider(subjects.rules),
    nestedObjectDecider(subjects.table),
  ];
}

async function checkAgreement(
  subjects: BenchSubjects,
  deciders: readonly Decider[],
  querySets: readonly (readonly DecisionQuery[])[],
): Promise<{ checked: number; disagreements: Disagreement[] }> {
  const disagreements: Disagreement[] = [];
  let checked = 0;
  for (const queries of querySets) {
    for (const decider of deciders) {
      const usable = decider.crudOnly ? queries.filter((query) => crud.includes(query.action)) : queries;
      const check = await decider.prepare(usable);
      for (let i = 0; i < usable.length; i++) {
        const query = usable[i] as DecisionQuery;
        const expected = grants(subjects.table, query.user.roles, query.resource, query.action);
        const got = await check(i);
        checked++;
        if (got !== expected)
          disagreements.push({
            scale: subjects.scenario.scale,
            implementation: decider.name,
            query: { roles: query.user.roles, resource: query.resource, action: query.action },
            expected,
            got,
          });
      }
    }
  }
  return { checked, disagreements };
}

/**
 * Runs benchmark 1 for the given scenarios' subjects.
 *
 * @example
 * ```ts
 * const result = await runDecisionBench([createSubjects(createScenario(1))], benchSettings('smoke'));
 * result.disagreements; // []
 * ```
 */
export async function runDecisionBench(
  subjectsPerScale: readonly BenchSubjects[],
  settings: BenchSettings,
  log: (line: string) => void = () => undefined,
): Promise<DecisionResult> {
  const cases: DecisionCaseResult[] = [];
  const disagreements: Disagreement[] = [];
  let checkedQueries = 0;
  for (const subjects of subjectsPerScale) {
    const random = new Random(7 * subjects.scenario.scale);
    const deciders = decidersOf(subjects);
    const querySets = DECISION_CASES.map((decisionCase, c) =>
      sampleDecisionQueries(subjects, random, settings.queriesPerCase, decisionCase.roles, decisionCase.granted, 1000 * (c + 1)),
    );
    const mixed = sampleMixedQueries(subjects, random, settings.smoke ? 200 : 500, 100_000);
    const agreement = await checkAgreement(subjects, deciders, [...querySets, mixed]);
    checkedQueries += agreement.checked;
    disagreements.push(...agreement.disagreements);

    for (const [c, decisionCase] of DECISION_CASES.entries()) {
      const queries = querySets[c] as DecisionQuery[];
      const mask = queries.length - 1;
      const times = new Map<string, number>();
      for (const decider of deciders) {
        const check = await decider.prepare(queries);
        let i = 0;
        const ns = await medianNs(() => check(i++ & mask), settings);
        times.set(decider.name, ns);
        log(`  decision ${subjects.scenario.scale}x ${decisionCase.name.padEnd(17)} ${decider.name.padEnd(30)} ${ns.toFixed(1)} ns`);
      }
      const baseline = times.get(DECISION_BASELINE) as number;
      cases.push({
        scale: subjects.scenario.scale,
        case: decisionCase.name,
        rows: [...times].map(([implementation, ns]) => ({ implementation, medianNs: ns, ratioToBaseline: ns / baseline })),
      });
    }
  }
  return { cases, checkedQueries, disagreements };
}
