/**
 * A rule as a kysely expression, for `.where()`: built with the query's own ExpressionBuilder, so the
 * application's dialect and plugins (such as CamelCasePlugin) apply, and every value is a parameter. The same
 * shape as the SQL text form: a path through relations is an `exists` sub-query per relation. Only kysely's types
 * are imported: kysely stays the application's.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import type { OwnershipContext } from './ownership-context.js';
import { RELATED_ID_ATTRIBUTE, relationSteps, splitAttributePath, type OwnershipCondition, type OwnershipScope } from './ownership-rule.js';
import { userList, userScalar } from './ownership-user-values.js';

/** Where each resource's records live, as the query names them. */
export interface KyselyOwnershipOptions {
  /** The table of each resource the rule reaches; the rule's own resource as the outer query names it (its alias, if it has one). */
  readonly tables: Readonly<Record<string, string>>;
}

/** Table and column names are the rule's, known only at run time: the builder is used with open names. */
type OpenDatabase = Record<string, Record<string, unknown>>;
type OpenBuilder = ExpressionBuilder<OpenDatabase, string>;

function tableOf(options: KyselyOwnershipOptions, resource: string): string {
  const table = Object.hasOwn(options.tables, resource) ? options.tables[resource] : undefined;
  if (table === undefined) throw new PermissionsUsageError(`No table is given for resource ${quoteForMessage(resource)}: add it to "tables".`);
  return table;
}

/** `leaf` on the column at the end of `attributePath`, inside one `exists` per relation. */
function alongPath(
  eb: OpenBuilder,
  attributePath: string,
  context: OwnershipContext,
  options: KyselyOwnershipOptions,
  aliases: { count: number },
  leaf: (eb: OpenBuilder, column: string) => Expression<SqlBool>,
): Expression<SqlBool> {
  const { relations, attribute } = splitAttributePath(attributePath);
  const steps = relationSteps(context.resource, relations, context.relations);
  const from = (builder: OpenBuilder, qualifier: string, index: number): Expression<SqlBool> => {
    const step = steps[index];
    if (step === undefined) return leaf(builder, `${qualifier}.${attribute}`);
    aliases.count += 1;
    const alias = `ownership_${aliases.count}`;
    return builder.exists(
      builder
        .selectFrom(`${tableOf(options, step.relation.resource)} as ${alias}`)
        .select((sub) => sub.lit(1).as('found'))
        .where((sub) => sub.and([sub(`${alias}.${RELATED_ID_ATTRIBUTE}`, '=', sub.ref(`${qualifier}.${step.relation.on}`)), from(sub, alias, index + 1)])),
    );
  };
  return from(eb, tableOf(options, context.resource), 0);
}

function build(
  eb: OpenBuilder,
  condition: OwnershipCondition,
  context: OwnershipContext,
  user: object,
  options: KyselyOwnershipOptions,
  aliases: { count: number },
): Expression<SqlBool> {
  if ('all' in condition) return eb.and(condition.all.map((child) => build(eb, child, context, user, options, aliases)));
  if ('any' in condition) return eb.or(condition.any.map((child) => build(eb, child, context, user, options, aliases)));
  if ('equals' in condition) {
    const value = userScalar(user, condition.equals.user, context.userAttributes);
    // eb.val keeps a null a parameter (`= $1`, never rewritten to `is null`): null equals nothing, as in SQL.
    return alongPath(eb, condition.attribute, context, options, aliases, (sub, column) => sub(column, '=', sub.val(value)));
  }
  if (Array.isArray(condition.in)) {
    const literals = condition.in;
    if (literals.length === 0) return eb.lit(false);
    return alongPath(eb, condition.attribute, context, options, aliases, (sub, column) =>
      sub(
        column,
        'in',
        literals.map((literal) => sub.val(literal)),
      ),
    );
  }
  const list = userList(user, (condition.in as { readonly user: string }).user, context.userAttributes);
  return alongPath(eb, condition.attribute, context, options, aliases, (sub, column) => sub(column, '=', sub.fn.any(sub.val([...list]))));
}

/**
 * The kysely condition selecting the records `scope` selects for `user`: `true` for `everything`, `false` for
 * `nothing`, else the rule. Pass the builder `.where()` gives; it ANDs with the query's other conditions.
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
): Expression<SqlBool> {
  const open = eb as unknown as OpenBuilder;
  if (scope === 'everything') return open.lit(true);
  if (scope === 'nothing') return open.lit(false);
  return build(open, scope, context, user, options, { count: 0 });
}
