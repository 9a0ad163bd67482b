/**
 * The shape check of a slice a client receives: it comes over the network, so it is checked by hand
 * (no zod in the browser) before anything is read from it, and a malformed or foreign one is refused
 * rather than half understood.
 */
import type { AttributePlanJson } from '../core/projection/attribute-plan.js';
import type { PermissionSlice } from '../core/decision/permission-slice.js';

/** How deep attribute plans may nest: attribute paths have at most 32 segments. */
const MAX_PLAN_DEPTH = 32;

const isIndex = (value: unknown, size: number): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) < size;

function planProblem(plan: unknown, depth: number): string | undefined {
  if (depth > MAX_PLAN_DEPTH) return `nests deeper than ${MAX_PLAN_DEPTH} levels`;
  if (!Array.isArray(plan) || plan.length !== 2 || (plan[0] !== 0 && plan[0] !== 1) || !Array.isArray(plan[1])) return 'is not [0 | 1, children]';
  const keys = new Set<string>();
  for (const child of plan[1] as unknown[]) {
    if (!Array.isArray(child) || child.length !== 2 || typeof child[0] !== 'string' || keys.has(child[0])) return 'has a malformed or repeated child';
    keys.add(child[0]);
    if (child[1] !== null) {
      const inner = planProblem(child[1], depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function groupsProblem(list: unknown, pairs: boolean, planCount: number): boolean {
  if (!Array.isArray(list) || (pairs && list.length % 2 !== 0)) return true;
  return list.some((value, i) => (pairs && i % 2 === 1 ? !isIndex(value, planCount) : !Number.isInteger(value) || (value as number) < 0));
}

/**
 * What a well-formed action entry says against itself, as a slice is never cut: it is listed only when granted, its
 * extra attributes for owned records come from own grants, and each of them belongs to a group that decides
 * ownership. A picker trusting such an entry would hand out attributes of an action it refuses.
 */
function entryContradiction([, anyPlan, ownGranted, own, owners]: readonly [string, number, 0 | 1, readonly number[], readonly number[]]): string | undefined {
  if (anyPlan === -1 && ownGranted === 0) return 'grants nothing, and a slice lists granted actions only';
  if (ownGranted === 0 && own.length > 0) return 'adds attributes for owned records without granting the action as own';
  // A set: an entry with many groups would otherwise cost the square of its size to check.
  const groups = new Set(owners);
  for (let i = 0; i < own.length; i += 2)
    if (!groups.has(own[i] as number)) return `adds attributes for records of ownership group ${own[i]}, which is not among its owners`;
  return undefined;
}

/**
 * What is wrong with `value` as a {@link PermissionSlice}, or `undefined` when it is one.
 *
 * @example
 * ```ts
 * sliceProblem({ format: 2 }); // 'format is not 1'
 * ```
 */
export function sliceProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not an object';
  const { format, version, plans, grants, refusal } = value as Partial<Record<keyof PermissionSlice, unknown>>;
  if (format !== 1) return 'format is not 1';
  if (refusal !== undefined && refusal !== 'unknown-role' && refusal !== 'unknown-tenant') return 'refusal is neither "unknown-role" nor "unknown-tenant"';
  if (typeof version !== 'string') return 'version is not a string';
  if (!Array.isArray(plans)) return 'plans is not an array';
  for (let i = 0; i < plans.length; i++) {
    const problem = planProblem(plans[i] as AttributePlanJson, 1);
    if (problem !== undefined) return `plans[${i}] ${problem}`;
  }
  if (!Array.isArray(grants)) return 'grants is not an array';
  const resources = new Set<string>();
  for (let r = 0; r < grants.length; r++) {
    const entry: unknown = grants[r];
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !Array.isArray(entry[1]) || resources.has(entry[0]))
      return `grants[${r}] is not [resource, actions] (or repeats a resource)`;
    resources.add(entry[0]);
    const actions = new Set<string>();
    for (let a = 0; a < (entry[1] as unknown[]).length; a++) {
      const action: unknown = (entry[1] as unknown[])[a];
      if (
        !Array.isArray(action) ||
        action.length !== 5 ||
        typeof action[0] !== 'string' ||
        actions.has(action[0]) ||
        !(action[1] === -1 || isIndex(action[1], plans.length)) ||
        (action[2] !== 0 && action[2] !== 1) ||
        groupsProblem(action[3], true, plans.length) ||
        groupsProblem(action[4], false, plans.length)
      )
        return `grants[${r}][1][${a}] is not [action, anyPlan, ownGranted, own, owners] (or repeats an action)`;
      const contradiction = entryContradiction(action as [string, number, 0 | 1, number[], number[]]);
      if (contradiction !== undefined) return `grants[${r}][1][${a}] ${contradiction}`;
      actions.add(action[0]);
    }
  }
  return undefined;
}
