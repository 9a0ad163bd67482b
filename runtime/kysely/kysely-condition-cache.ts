/**
 * The condition templates of one kysely source: each rule's nodes are built on its first query and reused by
 * every later one, so a page query only reads the user's values and puts them in.
 */
import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { OwnershipQuestion } from '../ownership/index.js';
import { conditionTemplate, ruleValues, type ConditionTemplate, type KyselyOwnershipOptions, type OpenDatabase } from './kysely-condition-template.js';

/** The limits of a kysely source. */
export const KYSELY_OWNERSHIP_LIMITS = {
  /**
   * Rule templates one source keeps (one per rule, or per `any` of the rules of a set of roles, and context). The
   * one past it starts the cache anew: the templates kept so far are dropped (so are those of a policy replaced
   * since) and built again on their next query. Templates hold no user's values.
   */
  maxTemplates: 1_000,
} as const;

/** A node of the look-up: the template reached by the keys so far, and the next keys. */
interface TemplateNode {
  template: ConditionTemplate | undefined;
  readonly next: WeakMap<object, TemplateNode>;
}

const newNode = (): TemplateNode => ({ template: undefined, next: new WeakMap() });

/** Keys of the two scopes that are words: their conditions (`true`, `false`) read no context. */
const SCOPE_KEYS = { everything: {}, nothing: {} } as const;
/** Marks the keys of an `any` of rules, so that an `any` of one rule is not taken for the rule itself. */
const ANY_OF = {};

/**
 * The keys of a question's template: the context, then the rule — the engine makes a new `{ any: [...] }` of the
 * rules of a user's roles for each permit, so such a scope is keyed by its rules, which live as long as the policy.
 */
function keysOf({ scope, context }: OwnershipQuestion): readonly object[] {
  if (typeof scope === 'string') return [SCOPE_KEYS[scope]];
  const children: unknown = (scope as { readonly any?: unknown }).any;
  const onlyAny = Array.isArray(children) && Object.keys(scope).length === 1 && children.every((child) => typeof child === 'object' && child !== null);
  return onlyAny ? [context, ANY_OF, ...(children as object[])] : [context, scope];
}

/**
 * The templates of one source, keyed weakly by the rule's own objects (a rule that is dropped takes its template
 * with it), at most `KYSELY_OWNERSHIP_LIMITS.maxTemplates` at once.
 *
 * @example
 * ```ts
 * const templates = new ConditionTemplates({ tables: { document: 'documents', user: 'users' } });
 * const rows = await db.selectFrom('documents').selectAll().where(templates.condition(question)).execute();
 * ```
 */
export class ConditionTemplates {
  readonly #options: KyselyOwnershipOptions;
  #root: TemplateNode = newNode();
  /** Builds the templates: nodes carry no query of their own, and plugins apply when the query holding them is compiled. */
  readonly #builder = expressionBuilder<OpenDatabase, string>();
  #size = 0;

  constructor(options: KyselyOwnershipOptions) {
    this.#options = options;
  }

  /** Templates kept. */
  get size(): number {
    return this.#size;
  }

  /** The question's condition: the user's values read (and checked), then put into the rule's template. */
  condition(question: OwnershipQuestion): Expression<SqlBool> {
    const { scope, context, user, tenant } = question;
    // The tenant id is one of the values: the template, built without it, holds a value node where it goes.
    const values = ruleValues(scope, context, user, tenant);
    const keys = keysOf(question);
    let node: TemplateNode | undefined = this.#root;
    for (const key of keys) node = node?.next.get(key);
    // A template of another count of values would belong to a rule changed since: it is built again.
    if (node?.template !== undefined && node.template.valueCount === values.length) return node.template.bind(values);
    const template = conditionTemplate(this.#builder, scope, context, user, this.#options);
    if (node?.template !== undefined) node.template = template;
    else this.#keep(keys, template);
    return template.bind(values);
  }

  #keep(keys: readonly object[], template: ConditionTemplate): void {
    // The size counts every template kept, also those whose rule is gone: starting anew forgets both.
    if (this.#size === KYSELY_OWNERSHIP_LIMITS.maxTemplates) {
      this.#root = newNode();
      this.#size = 0;
    }
    let node = this.#root;
    for (const key of keys) {
      let next = node.next.get(key);
      if (next === undefined) node.next.set(key, (next = newNode()));
      node = next;
    }
    node.template = template;
    this.#size += 1;
  }
}
