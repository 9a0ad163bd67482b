/**
 * The structure of a rule's condition, as every evaluator reads it: `all` / `any` of conditions (never empty), or
 * an attribute path that `equals` a user reference or the tenant's id, or is `in` literals or a user reference;
 * nesting and size within the rules' limits. Checked without an author's messages: the compiler's parser tells an
 * author what is wrong and how to write it; this is what loading tables and an evaluator handed a rule refuse.
 */
import { OWNERSHIP_LIMITS } from './ownership-rule.js';

/** Where a problem is in a rule: the keys and indexes from the rule itself (`['all', 1]`). */
export type RulePath = readonly (string | number)[];

/** What is wrong with a rule's structure, and where. */
export interface RuleStructureProblem {
  readonly path: RulePath;
  /** Words that continue the place: `is not a list of conditions`. */
  readonly what: string;
}

/** A name of the rules' vocabulary: a plain identifier, never `__proto__` (what the compiler's checks allow). */
const RULE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Why `name` is no name of the rules' vocabulary (a plain identifier of at most 64 characters, never `__proto__`),
 * or undefined when it is one.
 *
 * @example
 * ```ts
 * ruleNameProblem('companyId'); // undefined
 * ruleNameProblem('__proto__'); // 'is not a rule name'
 * ```
 */
export const ruleNameProblem = (name: string): string | undefined => (RULE_NAME.test(name) && name !== '__proto__' ? undefined : 'is not a rule name');

/** A reference `{ [key]: name }` with that one key, whose value `valid` accepts. */
const isReference = (value: unknown, key: string, valid: (name: unknown) => boolean): boolean => {
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  return keys.length === 1 && keys[0] === key && valid((value as Record<string, unknown>)[key]);
};
const isUserReference = (value: unknown): boolean => isReference(value, 'user', (name) => typeof name === 'string');
const isTenantReference = (value: unknown): boolean => isReference(value, 'tenant', (name) => name === 'id');
const isLiteral = (item: unknown): boolean => typeof item === 'string' || typeof item === 'boolean' || Number.isFinite(item);

/**
 * The first structural problem of the condition `value`, or undefined when every evaluator can read it. Walked with
 * a stack, so a hostile nesting cannot exhaust the call stack; a rule past the limits is refused whole.
 *
 * @example
 * ```ts
 * ruleStructureProblem({ all: [] }); // { path: ['all'], what: 'is not a list of conditions' }
 * ruleStructureProblem({ attribute: 'creatorId', equals: { user: 'id' } }); // undefined
 * ```
 */
export function ruleStructureProblem(value: unknown): RuleStructureProblem | undefined {
  const stack: [node: unknown, path: RulePath, depth: number][] = [[value, [], 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, path, depth] = stack.pop() as [unknown, RulePath, number];
    if ((nodes += 1) > OWNERSHIP_LIMITS.maxNodes || depth > OWNERSHIP_LIMITS.maxDepth) return { path: [], what: 'is larger than a rule may be' };
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return { path, what: 'is not a condition' };
    const keys = Object.keys(node).sort().join(',');
    const { all, any, attribute, equals, in: among } = node as Record<string, unknown>;
    const children = keys === 'all' ? all : keys === 'any' ? any : undefined;
    if (children !== undefined) {
      if (!Array.isArray(children) || children.length === 0) return { path: [...path, keys], what: 'is not a list of conditions' };
      children.forEach((child, i) => stack.push([child, [...path, keys, i], depth + 1]));
      continue;
    }
    if (typeof attribute !== 'string' || !attribute.split('.').every((part) => ruleNameProblem(part) === undefined))
      return { path, what: 'has no attribute path' };
    const fits =
      keys === 'attribute,equals'
        ? isUserReference(equals) || isTenantReference(equals)
        : keys === 'attribute,in' && ((Array.isArray(among) && among.every(isLiteral)) || isUserReference(among));
    if (!fits) return { path, what: 'is not a comparison of an attribute with a user attribute, the tenant id or literals' };
  }
  return undefined;
}

/**
 * `path` written after `base`: keys as `.key`, indexes as `[i]`.
 *
 * @example
 * ```ts
 * formatRulePath('$', ['all', 1, 'any']); // '$.all[1].any'
 * ```
 */
export function formatRulePath(base: string, path: RulePath): string {
  return base + path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
}
