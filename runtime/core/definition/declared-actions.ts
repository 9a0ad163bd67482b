/**
 * The actions a resource declares (`"actions"` in its `*.resource.json`, or the `resourceActions` option of
 * `new Permissions()`): one rule for both, so that the compiler and `build()` accept exactly the same lists.
 * A declared list is the resource's whole vocabulary: grants may name only those actions there, and `'*'`
 * expands to them.
 */
import { isSyntaxProblem, parseGrantKey } from './grant-syntax.js';
import { quoteForMessage } from '../common/printable-text.js';

/** The most actions one resource may declare: far more than a real resource has, few enough that a generated union stays small. */
export const MAX_DECLARED_ACTIONS = 256;

/** A problem of a declared list: where in it (`[]` for the list, `[2]` for one action), what, and how to fix it. */
export interface DeclaredActionsProblem {
  readonly path: readonly number[];
  readonly message: string;
  readonly fix: string;
}

/** What a list that is not a list of names is told (also the message of the zod schema's type check). */
export const DECLARED_ACTIONS_MESSAGE = 'The declared actions must be an array of action names.';
/** The fix of a list that is not a list of names. */
export const DECLARED_ACTIONS_FIX = 'List the actions of the resource, such as ["read", "approve"], or declare none to accept any action.';

/** Why one declared name cannot be an action, with the fix; undefined when it can. */
function actionNameProblem(name: string): Omit<DeclaredActionsProblem, 'path'> | undefined {
  if (name.length === 0) return { message: 'An action name is empty.', fix: DECLARED_ACTIONS_FIX };
  if (name === '*')
    return { message: 'Action "*" means every action; it cannot be declared.', fix: "List the actions themselves: a grant's '*' expands to them." };
  if (name.includes(':'))
    return {
      message: `Action ${quoteForMessage(name)} holds a possession; an action is declared without one.`,
      fix: `Declare ${quoteForMessage(name.slice(0, name.indexOf(':')) || 'approve')}: each grant says whether it is 'any' or 'own'.`,
    };
  const parsed = parseGrantKey(name);
  return isSyntaxProblem(parsed) ? { message: parsed.message, fix: parsed.fix } : undefined;
}

/**
 * The problems of a declared list of actions, given as anything (a parsed file, an option): not an array of
 * strings, empty, longer than {@link MAX_DECLARED_ACTIONS}, a name that is no action (`*`, `read:own`, blank,
 * too long, unprintable), or a name declared twice. None when the list is valid.
 *
 * @example
 * ```ts
 * declaredActionsProblems(['read', 'approve']); // []
 * declaredActionsProblems(['read', 'read']);    // [{ path: [1], message: 'Action "read" is declared twice …', fix: … }]
 * ```
 */
export function declaredActionsProblems(value: unknown): DeclaredActionsProblem[] {
  if (!Array.isArray(value)) return [{ path: [], message: DECLARED_ACTIONS_MESSAGE, fix: DECLARED_ACTIONS_FIX }];
  if (value.length === 0)
    return [{ path: [], message: 'The declared actions are empty; a resource that declares its actions has at least one.', fix: DECLARED_ACTIONS_FIX }];
  if (value.length > MAX_DECLARED_ACTIONS)
    return [
      {
        path: [],
        message: `${value.length} actions are declared; the limit is ${MAX_DECLARED_ACTIONS}.`,
        fix: `Declare at most ${MAX_DECLARED_ACTIONS} actions, or declare none to accept any action.`,
      },
    ];
  const problems: DeclaredActionsProblem[] = [];
  const first = new Map<string, number>();
  value.forEach((name: unknown, i) => {
    if (typeof name !== 'string') {
      problems.push({ path: [i], message: DECLARED_ACTIONS_MESSAGE, fix: DECLARED_ACTIONS_FIX });
      return;
    }
    const problem = actionNameProblem(name);
    if (problem !== undefined) {
      problems.push({ path: [i], ...problem });
      return;
    }
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, i);
    else
      problems.push({ path: [i], message: `Action ${quoteForMessage(name)} is declared twice (also at index ${earlier}).`, fix: 'Declare each action once.' });
  });
  return problems;
}

/** The most declared actions a message names before it says how many more there are. */
const MAX_NAMED_IN_MESSAGE = 20;

/**
 * Declared actions as a message lists them: quoted, the first twenty, then how many more.
 *
 * @example
 * ```ts
 * actionsForMessage(['approve', 'read']); // '"approve", "read"'
 * ```
 */
export function actionsForMessage(actions: readonly string[]): string {
  const named = actions
    .slice(0, MAX_NAMED_IN_MESSAGE)
    .map((action) => quoteForMessage(action))
    .join(', ');
  return actions.length > MAX_NAMED_IN_MESSAGE ? `${named} and ${actions.length - MAX_NAMED_IN_MESSAGE} more` : named;
}

/**
 * Why `action` is asked in vain of `resource`, which declares `declared` (what `grantPermit`, explanations and the
 * decision service say of it).
 *
 * @example
 * ```ts
 * undeclaredActionMessage('document', 'aprove', ['approve', 'read']);
 * // '"aprove" is not an action of "document"; its actions are "approve", "read".'
 * ```
 */
export function undeclaredActionMessage(resource: string, action: string, declared: readonly string[]): string {
  return `${quoteForMessage(action)} is not an action of ${quoteForMessage(resource)}; its actions are ${actionsForMessage(declared)}.`;
}
