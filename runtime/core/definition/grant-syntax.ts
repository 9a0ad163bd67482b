/**
 * The small grammars inside a definition: grant keys (`action[:possession]`) and attribute
 * patterns (`*`, `name`, `!name`, dotted paths). One parser each, used by validation, the table
 * builder and the compiler alike.
 */
import type { Possession } from './definition-types.js';
import { MAX_NAME_LENGTH, nameProblem } from './names.js';
import { quoteForMessage } from '../common/printable-text.js';

/** The deepest attribute path (`a.b.c` has 3 segments): nested objects deeper than this cannot be named, so plans and picks stay shallow. */
export const MAX_ATTRIBUTE_PATH_DEPTH = 32;

/** The four actions that `'*'` grants when no definition names a custom action. */
export const CRUD_ACTIONS = ['create', 'read', 'update', 'delete'] as const;

/** A grant key split into its action and explicit possession (undefined when no suffix was written). */
export interface ParsedGrantKey {
  readonly action: string;
  readonly possession: Possession | undefined;
}

/** Why a grant key or attribute pattern is invalid, with the fix. */
export interface SyntaxProblem {
  readonly code: 'bad-action' | 'bad-possession' | 'bad-attribute';
  readonly message: string;
  readonly fix: string;
}

/**
 * Parses `'read'`, `'read:own'`, `'*:any'`.
 *
 * @example
 * ```ts
 * parseGrantKey('approve:own'); // { action: 'approve', possession: 'own' }
 * parseGrantKey('read:mine');   // { code: 'bad-possession', message: …, fix: … }
 * ```
 */
export function parseGrantKey(key: string): ParsedGrantKey | SyntaxProblem {
  const colon = key.indexOf(':');
  const action = colon === -1 ? key : key.slice(0, colon);
  const suffix = colon === -1 ? undefined : key.slice(colon + 1);
  if (action.length === 0) {
    return {
      code: 'bad-action',
      message: `Grant entry ${quoteForMessage(key)} has an empty action.`,
      fix: `Write an action name before the colon, for example 'read:own', or '*' for every action.`,
    };
  }
  if (/\s/.test(action)) {
    return {
      code: 'bad-action',
      message: `Action ${quoteForMessage(action)} contains whitespace.`,
      fix: `Remove the whitespace: actions are single words such as 'approve'.`,
    };
  }
  const problem = nameProblem(action);
  if (problem !== undefined) {
    return {
      code: 'bad-action',
      message: `Action ${quoteForMessage(action)} ${problem}.`,
      fix: `Name actions with printable words of at most ${MAX_NAME_LENGTH} characters, such as 'approve'.`,
    };
  }
  if (suffix === undefined) return { action, possession: undefined };
  if (suffix !== 'any' && suffix !== 'own') {
    return {
      code: 'bad-possession',
      message: `Grant entry ${quoteForMessage(key)} has possession ${quoteForMessage(suffix)}; only 'any' and 'own' exist.`,
      fix: `Write '${action}:own' or '${action}:any', or '${action}' to use the definition's possession.`,
    };
  }
  return { action, possession: suffix };
}

/** An attribute pattern parsed into its effect and path (`['address', 'city']`); `[]` means every attribute. */
export interface ParsedAttributePattern {
  readonly allow: boolean;
  readonly path: readonly string[];
}

/**
 * Parses `'*'`, `'title'`, `'!confidential'`, `'address.city'`, `'!address.street'`; `'a.*'` equals `'a'`.
 *
 * @example
 * ```ts
 * parseAttributePattern('!address.street'); // { allow: false, path: ['address', 'street'] }
 * ```
 */
export function parseAttributePattern(pattern: string): ParsedAttributePattern | SyntaxProblem {
  const allow = !pattern.startsWith('!');
  const body = allow ? pattern : pattern.slice(1);
  if (body === '*') return { allow, path: [] };
  const path = body.split('.');
  if (path.at(-1) === '*') path.pop();
  if (path.length > MAX_ATTRIBUTE_PATH_DEPTH) {
    return {
      code: 'bad-attribute',
      message: `Attribute pattern ${quoteForMessage(pattern)} is ${path.length} levels deep; the limit is ${MAX_ATTRIBUTE_PATH_DEPTH}.`,
      fix: `Name nested attributes at most ${MAX_ATTRIBUTE_PATH_DEPTH} levels deep ('address.city').`,
    };
  }
  const bad = path.length === 0 || path.some((segment) => segment.length === 0 || segment === '*' || segment.startsWith('!'));
  if (bad) {
    return {
      code: 'bad-attribute',
      message: `Attribute pattern ${quoteForMessage(pattern, 200)} is not valid.`,
      fix: `Use '*', a name ('title'), a dotted path ('address.city'), or one of those prefixed with '!' to exclude it.`,
    };
  }
  for (const segment of path) {
    const problem = nameProblem(segment);
    if (problem !== undefined) {
      return {
        code: 'bad-attribute',
        message: `Attribute pattern ${quoteForMessage(pattern, 200)}: the name ${quoteForMessage(segment)} ${problem}.`,
        fix: `Name attributes with printable names of at most ${MAX_NAME_LENGTH} characters, without leading or trailing whitespace.`,
      };
    }
  }
  return { allow, path };
}

/**
 * True for a parse result that is a problem.
 *
 * @example
 * ```ts
 * const parsed = parseAttributePattern('a..b');
 * if (isSyntaxProblem(parsed)) console.error(parsed.message);
 * ```
 */
export function isSyntaxProblem(value: object): value is SyntaxProblem {
  return 'code' in value;
}
