/**
 * An ownership rule bound to the application's rule source: the hooks the engine calls for one record, many
 * records, every owned record and a filter, each a question to the source about the rule. So a group decided by a
 * rule goes through the very machinery (time-outs, answer checks, batching, memo) hooks go through.
 */
import { OWNERSHIP_SOURCE_LIMITS } from '../ownership-rules/ownership-ids.js';
import { describeValue } from '../common/describe-value.js';
import type { OwnershipContext } from '../ownership-rules/ownership-context.js';
import type { OwnershipRuleSource, OwnershipQuestion } from '../ownership-rules/ownership-rule-source.js';
import type { OwnershipScope } from '../ownership-rules/ownership-rule.js';
import type { GrantTables, RuleTable } from '../tables/grant-tables.js';
import type { BoundRule, LoadedOwner } from '../tables/table-loader.js';

/**
 * What a rule of `tables` is evaluated with: its resource, the relations of every resource, its user attributes.
 *
 * @example
 * ```ts
 * ruleContext(tables, tables.ownershipRules.rules[0]); // { resource: 'document', relations: Map { … }, userAttributes: { id: 'number' } }
 * ```
 */
export function ruleContext(tables: GrantTables, rule: RuleTable): OwnershipContext {
  const relations = new Map(Object.entries(tables.ownershipRules?.relations ?? {}));
  const context = { resource: rule.resource, relations, userAttributes: rule.userAttributes };
  return rule.tenantIdType === undefined ? context : { ...context, tenantIdType: rule.tenantIdType };
}

/** The question of `rule` for the user and tenant of a hook's arguments (`tenant` is there only with a tenant). */
function questionOf(rule: RuleTable, context: OwnershipContext, args: object): OwnershipQuestion {
  const { user, tenant } = args as { readonly user: object; readonly tenant?: string };
  return tenant === undefined ? { scope: rule.condition, context, user } : { scope: rule.condition, context, user, tenant };
}

/**
 * `source.ownedAmong` for any number of ids: one call per {@link OWNERSHIP_SOURCE_LIMITS}.maxIds ids, one after
 * another (a page of `filterPick` over 25,000 records is three statements, not a refusal; never several at once
 * on one connection pool), their answers joined.
 */
async function ownedAmongInBatches(source: OwnershipRuleSource, question: OwnershipQuestion, ids: readonly unknown[]): Promise<readonly unknown[]> {
  const { maxIds } = OWNERSHIP_SOURCE_LIMITS;
  if (!Array.isArray(ids) || ids.length <= maxIds) return source.ownedAmong(question, ids);
  const owned: unknown[] = [];
  for (let start = 0; start < ids.length; start += maxIds) {
    const answer: unknown = await source.ownedAmong(question, ids.slice(start, start + maxIds));
    if (!Array.isArray(answer)) return answer as readonly unknown[]; // refused by the caller, as one call's answer is
    owned.push(...(answer as unknown[]));
  }
  return owned;
}

/**
 * The hooks of `rule`, asking `source`: isOwner is `ownedAmong` of one id, ownedAmong ignores the filter it is
 * handed (the rule is the filter).
 *
 * @example
 * ```ts
 * const bound = bindRule(source, rule, ruleContext(tables, rule));
 * await bound.isOwner.call({ user, resourceId: 3 }); // true when the rule holds for record 3
 * ```
 */
export function bindRule(source: OwnershipRuleSource, rule: RuleTable, context: OwnershipContext): BoundRule {
  const name = `rule ${rule.name}`;
  const question = (args: object): OwnershipQuestion => questionOf(rule, context, args);
  return {
    rule,
    context,
    isOwner: {
      name,
      call: (args) => {
        const id = (args as { readonly resourceId: unknown }).resourceId;
        return source.ownedAmong(question(args), [id]).then((ids: unknown) => {
          // Checked before use: a string answer would "include" the id.
          if (!Array.isArray(ids)) throw new TypeError(`ownedAmong did not answer an array of ids (it answered ${describeValue(ids)})`);
          return ids.includes(id);
        });
      },
    },
    listOwned: { name, call: (args) => source.listOwned(question(args)) },
    limitOwned: { name, call: (args) => source.filter(question(args)) },
    ownedAmong: { name, call: (args) => ownedAmongInBatches(source, question(args), (args as { readonly resourceIds: readonly unknown[] }).resourceIds) },
    filter: (asked) => source.filter(asked),
  };
}

/**
 * The question for the records of `resource` that `rules` select together for `user` in `tenant` (undefined: no
 * tenant): every record when `everything`, else their OR (one rule as itself; none: nothing).
 *
 * @example
 * ```ts
 * anyOfRules([creator, sameCompany], 'document', user, false, 'acme');
 * // { scope: { any: [creator.condition, sameCompany.condition] }, context, user, tenant: 'acme' }
 * ```
 */
export function anyOfRules(rules: readonly BoundRule[], resource: string, user: object, everything: boolean, tenant: string | undefined): OwnershipQuestion {
  const first = rules[0];
  const context: OwnershipContext = first?.context ?? { resource, relations: new Map(), userAttributes: {} };
  let scope: OwnershipScope;
  if (everything) scope = 'everything';
  else if (first === undefined) scope = 'nothing';
  else if (rules.length === 1) scope = first.rule.condition;
  else scope = { any: rules.map((bound) => bound.rule.condition) };
  // The rules of one resource are declared in one file, beside the user attributes they read: one context serves all.
  return tenant === undefined ? { scope, context, user } : { scope, context, user, tenant };
}

/**
 * The rules of ownership groups `owners`, or undefined when some group is decided by hooks.
 *
 * @example
 * ```ts
 * rulesOf(combination.owners); // [creatorRule] — or undefined beside an isOwner hook
 * ```
 */
export function rulesOf(owners: readonly LoadedOwner[]): BoundRule[] | undefined {
  const rules: BoundRule[] = [];
  for (const owner of owners) {
    if (owner.rule === undefined) return undefined;
    rules.push(owner.rule);
  }
  return rules;
}
