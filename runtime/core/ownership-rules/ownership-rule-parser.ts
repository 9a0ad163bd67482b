/**
 * The shape check of a rule as written in JSON: every node one of the four condition forms with exactly its keys,
 * names and literals of the right kinds, and the rule within its limits (depth, nodes, list size, path steps). It
 * walks the value without trusting it: a rule nested 100,000 levels deep is refused at level 9, never recursed into.
 * Whether the names exist is the semantic check's question (`ownership-rule-checks.ts`).
 */
import { didYouMean } from '../common/nearest-name.js';
import { printableText, quoteForMessage } from '../common/printable-text.js';
import { OWNERSHIP_LIMITS } from './ownership-rule.js';

/** A problem of a rule: where inside the value that holds it, what is wrong, and how to fix it. */
export interface OwnershipProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_MAX_LENGTH = 64;

/** The fix of a node that is none of the four forms. */
export const CONDITION_FIX =
  'Write { "attribute": "creatorId", "equals": { "user": "id" } }, { "attribute": "companyId", "equals": { "tenant": "id" } }, ' +
  '{ "attribute": "status", "in": ["draft"] }, ' +
  '{ "attribute": "creatorId", "in": { "user": "managedUserIds" } }, { "all": [ … ] } or { "any": [ … ] }.';

/**
 * Why `name` cannot name an attribute, relation, rule or user attribute, or undefined when it can: a letter or `_`,
 * then letters, digits and `_`, at most 64 characters — a name that is also a plain SQL identifier and a property.
 *
 * @example
 * ```ts
 * ownershipNameProblem('creatorId'); // undefined
 * ownershipNameProblem('creator id'); // 'must start with a letter or "_" and hold only letters, digits and "_"'
 * ```
 */
export function ownershipNameProblem(name: string): string | undefined {
  if (name.length > NAME_MAX_LENGTH) return `is longer than ${NAME_MAX_LENGTH} characters`;
  if (!NAME.test(name)) return 'must start with a letter or "_" and hold only letters, digits and "_"';
  // Assigning it to a plain object replaces the object's prototype: no name may be it.
  if (name === '__proto__') return 'is reserved: it is the prototype of every JavaScript object';
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The keys of a node as a sorted list, for comparing with a form's. */
function keysOf(value: Record<string, unknown>): string {
  return Object.keys(value).sort().join(',');
}

/** Problems of an attribute path: one to four names joined by dots, at most three of them relations. */
function attributePathProblems(value: unknown, path: readonly (string | number)[]): OwnershipProblem[] {
  const fix = 'Name a declared attribute ("creatorId"), or a path through declared relations ("creator.companyId").';
  if (typeof value !== 'string') return [{ path, message: 'Field "attribute" must be a string.', fix }];
  const parts = value.split('.');
  if (parts.length - 1 > OWNERSHIP_LIMITS.maxPathSteps)
    return [
      {
        path,
        message: `Attribute path ${quoteForMessage(value)} goes through ${parts.length - 1} relations; at most ${OWNERSHIP_LIMITS.maxPathSteps} are allowed.`,
        fix: 'Shorten the path, or declare a relation that reaches the record in fewer steps.',
      },
    ];
  for (const part of parts) {
    const problem = ownershipNameProblem(part);
    if (problem !== undefined) return [{ path, message: `Attribute path ${quoteForMessage(value)}: ${quoteForMessage(part)} ${problem}.`, fix }];
  }
  return [];
}

/** Problems of a `{ "user": "<name>" }` reference. */
function userReferenceProblems(value: unknown, path: readonly (string | number)[]): OwnershipProblem[] {
  const fix = 'Write { "user": "id" }, naming a user attribute declared in "userAttributes".';
  if (!isPlainObject(value) || keysOf(value) !== 'user' || typeof value['user'] !== 'string')
    return [{ path, message: 'A user attribute is written { "user": "<name>" }.', fix }];
  const problem = ownershipNameProblem(value['user']);
  return problem === undefined ? [] : [{ path: [...path, 'user'], message: `User attribute ${quoteForMessage(value['user'])} ${problem}.`, fix }];
}

/** The fix of an `equals` value that is neither a user attribute nor the tenant id. */
const EQUALS_FIX = 'Write { "user": "id" } for a user attribute declared in "userAttributes", or { "tenant": "id" } for the id of the tenant asked in.';

/** Problems of what `equals` compares with: `{ "user": "<name>" }` or `{ "tenant": "id" }`. */
function comparedProblems(value: unknown, path: readonly (string | number)[]): OwnershipProblem[] {
  const keys = isPlainObject(value) ? Object.keys(value) : [];
  if (keys.length === 1 && keys[0] === 'user') return userReferenceProblems(value, path);
  if (keys.length === 1 && keys[0] === 'tenant') {
    const read = (value as Record<string, unknown>)['tenant'];
    if (read === 'id') return [];
    const shown = typeof read === 'string' ? quoteForMessage(read) : 'a value that is not a string';
    return [
      {
        path: [...path, 'tenant'],
        message: `A rule reads the tenant's id only: write { "tenant": "id" }, not ${shown}.${typeof read === 'string' ? didYouMean(read, ['id']) : ''}`,
        fix: 'Write { "tenant": "id" }.',
      },
    ];
  }
  const meant = keys.length === 1 ? didYouMean(keys[0] as string, ['user', 'tenant']) : '';
  return [{ path, message: `The value of "equals" is written { "user": "<name>" } or { "tenant": "id" }.${meant}`, fix: EQUALS_FIX }];
}

/** The attribute a node names, for a fix that repeats it; a placeholder when it names none. */
const attributeOr = (attribute: unknown): string => (typeof attribute === 'string' ? attribute : 'companyId');

/** Problems of an `in` list of literals: at most 100 strings, finite numbers or booleans, all of one kind. */
function literalListProblems(list: readonly unknown[], path: readonly (string | number)[]): OwnershipProblem[] {
  const fix = 'List strings, finite numbers or booleans, all of one kind: ["draft", "review"].';
  if (list.length > OWNERSHIP_LIMITS.maxInLiterals)
    return [
      {
        path,
        message: `The "in" list holds ${list.length} values; at most ${OWNERSHIP_LIMITS.maxInLiterals} are allowed.`,
        fix: 'Shorten the list, or keep the values in a list user attribute: { "user": "allowedIds" }.',
      },
    ];
  const problems: OwnershipProblem[] = [];
  let kind: string | undefined;
  list.forEach((literal, i) => {
    const ok = typeof literal === 'string' || typeof literal === 'boolean' || (typeof literal === 'number' && Number.isFinite(literal));
    if (!ok) problems.push({ path: [...path, i], message: 'An "in" list holds only strings, finite numbers and booleans.', fix });
    // A character that does not show would make the rule read as another (in PERMISSIONS.md, in explanations).
    else if (typeof literal === 'string' && printableText(literal) !== literal)
      problems.push({
        path: [...path, i],
        message: `The "in" list value ${JSON.stringify(printableText(literal))} holds a control, format or line-separator character, which does not show.`,
        fix: 'Write the value with characters that show.',
      });
    else if (kind === undefined) kind = typeof literal;
    else if (typeof literal !== kind)
      problems.push({ path: [...path, i], message: `An "in" list holds values of one kind: this ${typeof literal} follows a ${kind}.`, fix });
  });
  return problems;
}

/**
 * The problems of one rule's value, each at its path below `path`; none when it is a well-formed rule within the
 * limits. Depth and node counts stop the walk as soon as they pass their limit.
 *
 * @example
 * ```ts
 * ownershipConditionProblems({ attribute: 'creatorId', equals: { user: 'id' } }, ['ownership', 'creator']); // []
 * ownershipConditionProblems({ attribute: 'creatorId' }, ['ownership', 'creator']);
 * // [{ path: ['ownership', 'creator'], message: 'A condition must be one of: …', fix: … }]
 * ```
 */
export function ownershipConditionProblems(value: unknown, path: readonly (string | number)[]): OwnershipProblem[] {
  const problems: OwnershipProblem[] = [];
  let nodes = 0;
  // Depth-first with an explicit stack, so that a hostile nesting cannot exhaust the call stack.
  const stack: { value: unknown; path: readonly (string | number)[]; depth: number }[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as (typeof stack)[number];
    nodes += 1;
    if (nodes > OWNERSHIP_LIMITS.maxNodes) {
      problems.push({
        path,
        message: `The rule has more than ${OWNERSHIP_LIMITS.maxNodes} conditions; at most ${OWNERSHIP_LIMITS.maxNodes} are allowed.`,
        fix: 'Split the rule, or use an "in" list instead of many "any" branches.',
      });
      break;
    }
    const form = isPlainObject(node.value) ? keysOf(node.value) : '';
    if (form === 'attribute,equals') {
      const object = node.value as Record<string, unknown>;
      problems.push(...attributePathProblems(object['attribute'], [...node.path, 'attribute']));
      problems.push(...comparedProblems(object['equals'], [...node.path, 'equals']));
    } else if (form === 'attribute,in') {
      const object = node.value as Record<string, unknown>;
      problems.push(...attributePathProblems(object['attribute'], [...node.path, 'attribute']));
      const list = object['in'];
      if (Array.isArray(list)) problems.push(...literalListProblems(list, [...node.path, 'in']));
      else if (isPlainObject(list) && Object.hasOwn(list, 'tenant'))
        // The tenant is one id: a list of it would be "equals", spelled another way.
        problems.push({
          path: [...node.path, 'in'],
          message: '"in" cannot read the tenant: the tenant is one id, not a list. Compare with "equals": { "tenant": "id" }.',
          fix: `Write { "attribute": ${JSON.stringify(attributeOr(object['attribute']))}, "equals": { "tenant": "id" } }.`,
        });
      else problems.push(...userReferenceProblems(list, [...node.path, 'in']));
    } else if (form === 'all' || form === 'any') {
      const children = (node.value as Record<string, unknown>)[form];
      if (!Array.isArray(children) || children.length === 0) {
        problems.push({
          path: [...node.path, form],
          message: `Field ${quoteForMessage(form)} must be a non-empty array of conditions.`,
          fix: `Write { "${form}": [ { "attribute": "creatorId", "equals": { "user": "id" } }, … ] }.`,
        });
      } else if (node.depth + 1 > OWNERSHIP_LIMITS.maxDepth) {
        problems.push({
          path: node.path,
          message: `The rule nests "all" and "any" more than ${OWNERSHIP_LIMITS.maxDepth} levels deep.`,
          fix: 'Flatten the rule: an "all" inside an "all" (or an "any" inside an "any") can be one list.',
        });
      } else {
        for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ value: children[i], path: [...node.path, form, i], depth: node.depth + 1 });
      }
    } else {
      problems.push({
        path: node.path,
        message: 'A condition must be one of: { "attribute", "equals" }, { "attribute", "in" }, { "all" } or { "any" }, with no other field.',
        fix: CONDITION_FIX,
      });
    }
  }
  return problems;
}
