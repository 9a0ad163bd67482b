/**
 * The shape check of a scope an evaluator is handed (`ownershipPredicate`, `sqlOwnershipCondition`,
 * `writeOwnershipRule`, and so every adapter). The policy's rules were checked when it was compiled, but the
 * evaluators are public: a rule built by hand reaches them unchecked, and a malformed one does not fail alike
 * everywhere — an empty "all" selected every record in memory, kysely and Prisma, none in Drizzle, and was a syntax
 * error in SQL text. Each scope object is checked once: a later question with it costs one look-up.
 */
import { formatProblemLocation, PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import type { OwnershipContext } from './ownership-context.js';
import type { OwnershipScope } from './ownership-rule.js';
import { ownershipConditionProblems, type OwnershipProblem } from './ownership-rule-parser.js';

/** The rules found well formed: a rule lives as long as its policy (or its caller's constant), and goes with it. */
const wellFormed = new WeakSet<object>();

/** The first problem of `rule` at `path`, or undefined when it is well formed (remembered, so checked once). */
function ruleProblem(rule: unknown, path: readonly (string | number)[]): OwnershipProblem | undefined {
  if (typeof rule === 'object' && rule !== null && wellFormed.has(rule)) return undefined;
  // Literals are parameters here, never shown: a hostile text is the database's to compare, not a malformed rule.
  const [problem] = ownershipConditionProblems(rule, path, { printableLiterals: false });
  if (problem === undefined) wellFormed.add(rule as object);
  return problem;
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
function scopeProblem(scope: unknown): OwnershipProblem | undefined {
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
 * and how to fix it: a node none of the four forms, an empty `all` or `any`, a name or literal of the wrong kind, a
 * rule past its limits. `everything` and `nothing` are well formed.
 *
 * @example
 * ```ts
 * checkOwnershipScope({ attribute: 'creatorId', equals: { user: 'id' } }, context); // returns
 * checkOwnershipScope({ all: [] }, context);
 * // PermissionsUsageError: The ownership rule of resource "document" is malformed at $.all ($ is the rule):
 * // Field "all" must be a non-empty array of conditions. …
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
    `The ownership rule${of} is malformed at ${formatProblemLocation({ index: -1, path: problem.path })} ($ is the rule): ${problem.message} ${problem.fix}`,
  );
}
