/**
 * A rule as a kysely expression, for `.where()`: its nodes are the query's own, so the application's dialect and
 * plugins (such as CamelCasePlugin) apply when the query is compiled, and every value is a parameter.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { OwnershipContext, OwnershipScope } from '../ownership/index.js';
import { conditionTemplate, ruleValues, type KyselyOwnershipOptions } from './kysely-condition-template.js';

/**
 * The kysely condition selecting the records `scope` selects for `user` in `tenant` (undefined without one: a
 * tenant condition then selects no record): `true` for `everything`, `false` for `nothing`, else the rule. Pass
 * the builder `.where()` gives; it ANDs with the query's other conditions. Each call builds the rule's nodes anew;
 * `kyselyOwnership(db, { tables })` builds them once per rule.
 *
 * @example
 * ```ts
 * const rows = await db
 *   .selectFrom('documents')
 *   .selectAll()
 *   .where('status', '=', 'draft')
 *   .where((eb) => kyselyOwnershipCondition(eb, rule, context, user, { tables: { document: 'documents', user: 'users' } }))
 *   .execute();
 * ```
 */
export function kyselyOwnershipCondition<Database, Tables extends keyof Database>(
  eb: ExpressionBuilder<Database, Tables>,
  scope: OwnershipScope,
  context: OwnershipContext,
  user: object,
  options: KyselyOwnershipOptions,
  tenant?: string,
): Expression<SqlBool> {
  // The user's values first: a missing or mistyped attribute is refused before anything is built.
  const values = ruleValues(scope, context, user, tenant);
  return conditionTemplate(eb, scope, context, user, options).bind(values);
}
