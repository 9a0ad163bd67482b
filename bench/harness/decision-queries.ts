/**
 * Decision queries sampled from a scenario: the timed ones (granted or denied, one or three roles, CRUD actions so
 * that accesscontrol 2 answers them too) and the mixed ones of the agreement check.
 */
import { CRUD_ACTIONS } from './scenario.js';
import type { NestedTable } from './peers/nested-object.js';
import type { BenchUser, DecisionQuery } from './peers/peer.js';
import type { Random } from './random.js';
import type { BenchSubjects } from './subjects.js';

const crud: readonly string[] = CRUD_ACTIONS;

/**
 * Whether the nested table grants `action` on `resource` to one of `roles`: the expected answer of every decider.
 *
 * @example
 * ```ts
 * grantedInTable(subjects.table, ['EMPLOYEE'], 'document', 'read'); // true
 * ```
 */
export function grantedInTable(table: NestedTable, roles: readonly string[], resource: string, action: string): boolean {
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
      if (!grantedInTable(table, roles, resource, action)) queries.push({ user, resource, action });
    }
  }
  return queries;
}

/**
 * Random queries over every action (custom ones too) and one to three roles, SUPER_ADMIN included: what every
 * decider must answer like the baseline before it is timed.
 *
 * @example
 * ```ts
 * const mixed = sampleMixedQueries(subjects, new Random(7), 500, 100_000); // users 100000…100499
 * ```
 */
export function sampleMixedQueries(subjects: BenchSubjects, random: Random, count: number, firstUserId: number): DecisionQuery[] {
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
 * Whether `action` is create, read, update or delete: the only queries a CRUD-only peer (accesscontrol 2) answers.
 *
 * @example
 * ```ts
 * isCrudAction('approve'); // false
 * ```
 */
export function isCrudAction(action: string): boolean {
  return crud.includes(action);
}
