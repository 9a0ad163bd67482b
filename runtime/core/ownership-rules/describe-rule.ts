/**
 * An ownership rule in plain words, for people who read a policy rather than write it: PERMISSIONS.md shows each
 * rule a definition names this way.
 */
import type { OwnershipCondition, OwnershipLiteral } from './ownership-rule.js';

/** A literal as written in a rule: a string quoted, a number or boolean as is. */
const literal = (value: OwnershipLiteral): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

function describe(condition: OwnershipCondition, nested: boolean): string {
  if ('all' in condition || 'any' in condition) {
    const [parts, word] = 'all' in condition ? [condition.all, 'and'] : [condition.any, 'or'];
    const text = parts.map((part) => describe(part, true)).join(` ${word} `);
    return nested && parts.length > 1 ? `(${text})` : text;
  }
  if ('equals' in condition)
    return 'user' in condition.equals ? `${condition.attribute} is the user's ${condition.equals.user}` : `${condition.attribute} is the tenant's id`;
  if (Array.isArray(condition.in)) return `${condition.attribute} is one of ${condition.in.map(literal).join(', ') || 'nothing'}`;
  return `${condition.attribute} is one of the user's ${(condition.in as { readonly user: string }).user}`;
}

/**
 * The records a rule owns, in words: "creatorId is the user's id or creatorId is one of the user's managedUserIds".
 * A dotted attribute reads through relations as written (`creator.companyId`).
 *
 * @example
 * ```ts
 * describeRule({ any: [{ attribute: 'creatorId', equals: { user: 'id' } }, { attribute: 'status', in: ['draft'] }] });
 * // 'creatorId is the user\'s id or status is one of "draft"'
 * ```
 */
export function describeRule(condition: OwnershipCondition): string {
  return describe(condition, false);
}
