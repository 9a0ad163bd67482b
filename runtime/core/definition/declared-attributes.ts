/**
 * The attributes a resource declares (`"attributes"` in its `*.resource.json`): the one check that a grant names
 * only those, shared by the compiler (which places each problem in its file) and the runtime (which reads the
 * declared attributes from the compiled tables).
 */
import { isSyntaxProblem, parseAttributePattern } from './grant-syntax.js';
import { quoteForMessage } from '../common/printable-text.js';

/** The attributes one resource declares, and where they are declared (for the fix of a grant naming another). */
export interface DeclaredResourceAttributes {
  /** The declared attribute names, dotted for nested ones (`address.city`). */
  readonly attributes: readonly string[];
  /** Where the declaration is written, as a fix names it: `"attributes" in document.resource.json`. */
  readonly declaredIn: string;
}

/** A grant's attribute pattern that names an undeclared attribute: where in the definition, what, and how to fix it. */
export interface UndeclaredAttributeProblem {
  /** `['grant', key, i]`: pattern number `i` of the grant of `key`. */
  readonly path: readonly ['grant', string, number];
  readonly message: string;
  readonly fix: string;
}

/**
 * Why `name` cannot be declared as an attribute (a pattern that is not a name, or no valid pattern at all); undefined
 * when it can. The one rule of the metadata schema and of the compiled tables' shape check.
 *
 * @example
 * ```ts
 * attributeNameProblem('address.city'); // undefined
 * attributeNameProblem('!secret');      // 'Attribute "!secret" is a pattern, not a name.'
 * ```
 */
export function attributeNameProblem(name: string): string | undefined {
  const parsed = parseAttributePattern(name);
  if (isSyntaxProblem(parsed)) return parsed.message;
  return !parsed.allow || parsed.path.length === 0 ? `Attribute ${quoteForMessage(name)} is a pattern, not a name.` : undefined;
}

/** Whether an attribute path is declared, is inside a declared attribute, or holds one (`address` when `address.city` is declared). */
function attributeDeclared(path: readonly string[], declared: readonly string[]): boolean {
  if (path.length === 0) return true;
  const dotted = path.join('.');
  return declared.some((attribute) => attribute === dotted || attribute.startsWith(`${dotted}.`) || dotted.startsWith(`${attribute}.`));
}

/**
 * Each attribute pattern of `definition`'s grants that names an attribute its resource does not declare, with the
 * message and fix. A grant as a list names no attributes, and `'*'` (with or without `!`) is always allowed: only
 * the patterns of a grant object are checked. The definition is a valid one, so each pattern parses.
 *
 * @example
 * ```ts
 * undeclaredAttributePaths(
 *   { roles: 'EDITOR', resource: 'document', grant: { 'read:any': ['*', '!confidenial'] } },
 *   { attributes: ['confidential', 'id'], declaredIn: '"attributes" in document.resource.json' },
 * );
 * // [{ path: ['grant', 'read:any', 1], message: 'Attribute "!confidenial" is not an attribute of document (declared: confidential, id).',
 * //    fix: 'Correct the spelling, or add it to "attributes" in document.resource.json.' }]
 * ```
 */
export function undeclaredAttributePaths(
  definition: { readonly resource: string; readonly grant: readonly string[] | Readonly<Record<string, readonly string[]>> },
  declared: DeclaredResourceAttributes,
): UndeclaredAttributeProblem[] {
  if (Array.isArray(definition.grant)) return [];
  const problems: UndeclaredAttributeProblem[] = [];
  for (const [key, patterns] of Object.entries(definition.grant as Readonly<Record<string, readonly string[]>>)) {
    patterns.forEach((pattern, i) => {
      const parsed = parseAttributePattern(pattern);
      if ('path' in parsed && !attributeDeclared(parsed.path, declared.attributes))
        problems.push({
          path: ['grant', key, i],
          message: `Attribute ${JSON.stringify(pattern)} is not an attribute of ${definition.resource} (declared: ${declared.attributes.join(', ')}).`,
          fix: `Correct the spelling, or add it to ${declared.declaredIn}.`,
        });
    });
  }
  return problems;
}
