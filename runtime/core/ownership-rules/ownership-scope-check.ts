/**
 * The check of a scope an evaluator is handed (`ownershipPredicate`, `sqlOwnershipCondition`,
 * `writeOwnershipRule`, and so every adapter). The policy's rules were checked when it was compiled and loaded, but
 * the evaluators are public: a rule built by hand reaches them unchecked, and a malformed one did not fail alike
 * everywhere — an empty "all" selected every record in memory, kysely and Prisma, none in Drizzle, and was a syntax
 * error in SQL text. The check is the one loading the tables runs (rule-structure.ts); each scope object is checked
 * once, and a later question with it costs one look-up.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import type { OwnershipContext } from './ownership-context.js';
import type { OwnershipScope } from './ownership-rule.js';
import { formatRulePath, ruleStructureProblem, type RuleStructureProblem } from './rule-structure.js';

/** The rules found well formed: a rule lives as long as its policy (or its caller's constant), and goes with it. */
const wellFormed = new WeakSet<object>();

/**
 * How a malformed rule is written well, for the refusal.
 *
 * @example
 * ```ts
 * `${problem} ${MALFORMED_RULE_FIX}`;
 * ```
 */
export const MALFORMED_RULE_FIX =
  'Write each condition as { "attribute": …, "equals": { "user": … } }, { "attribute": …, "equals": { "tenant": "id" } }, ' +
  '{ "attribute": …, "in": [ … ] }, { "attribute": …, "in": { "user": … } }, { "all": [ … ] } or { "any": [ … ] }, no list empty (docs/ownership-rules.md).';

/** The first problem of `rule`, its path below `prefix`, or undefined when it is well formed (remembered, so checked once). */
function ruleProblem(rule: unknown, prefix: readonly (string | number)[]): RuleStructureProblem | undefined {
  if (typeof rule === 'object' && rule !== null && wellFormed.has(rule)) return undefined;
  const problem = ruleStructureProblem(rule);
  if (problem === undefined) wellFormed.add(rule as object);
  return problem === undefined ? undefined : { path: [...prefix, ...problem.path], what: problem.what };
}

/**
 * The rules of an `any` the engine makes of the rules of a user's roles (a new object for every question), or
 * undefined for any other scope. Each of them is checked as a rule of its own: each keeps its own limits, and the
 * next question's `any` of the same rules costs one look-up per rule.
 */
function rulesOfAny(scope: object): readonly unknown[] | undefined {
  const keys = Object.keys(scope);
  const rules: unknown = (scope as { readonly any?: unknown }).any;
  return keys.length === 1 && keys[0] === 'any' && Array.isArray(rules) && rules.length > 0 ? rules : undefined;
}

/** The first problem of `scope`, or undefined when it is well formed. */
function scopeProblem(scope: unknown): RuleStructureProblem | undefined {
  const rules = typeof scope === 'object' && scope !== null && !wellFormed.has(scope) ? rulesOfAny(scope) : undefined;
  if (rules === undefined) return ruleProblem(scope, []);
  for (let i = 0; i < rules.length; i += 1) {
    const problem = ruleProblem(rules[i], ['any', i]);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Refuses a malformed `scope` with a PermissionsUsageError saying what is wrong, where in the rule (`$` is the rule)
 * and how to write it: a node none of the forms, an empty `all` or `any`, a rule past its limits. `everything` and
 * `nothing` are well formed.
 *
 * @example
 * ```ts
 * checkOwnershipScope({ attribute: 'creatorId', equals: { user: 'id' } }, context); // returns
 * checkOwnershipScope({ all: [] }, context);
 * // PermissionsUsageError: The ownership rule of resource "document" is malformed: $.all is not a list of conditions ($ is the rule). …
 * ```
 */
export function checkOwnershipScope(scope: OwnershipScope, context: OwnershipContext): void {
  if (scope === 'everything' || scope === 'nothing') return;
  const problem = scopeProblem(scope);
  if (problem === undefined) return;
  // The context is the caller's too: read defensively, for the message only.
  const resource: unknown = (context as Partial<OwnershipContext> | undefined)?.resource;
  const of = typeof resource === 'string' ? ` of resource ${quoteForMessage(resource)}` : '';
  throw new PermissionsUsageError(
    `The ownership rule${of} is malformed: ${formatRulePath('$', problem.path)} ${problem.what} ($ is the rule). ${MALFORMED_RULE_FIX}`,
  );
}
