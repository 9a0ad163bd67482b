/**
 * A rule as a kysely expression, for `.where()`: built with the query's own ExpressionBuilder, so the
 * application's dialect and plugins (such as CamelCasePlugin) apply, and every value is a parameter. The same
 * shape as the SQL text form: a path through relations is an `exists` sub-query per relation. Only kysely's types
 * are imported: kysely stays the application's.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { writeOwnershipRule, type OwnershipAttributePath, type OwnershipContext, type OwnershipLiteral, type OwnershipScope } from '../ownership/index.js';
import { PermissionsUsageError } from '../permissions/precompiled.js';

/** Where each resource's records live, as the query names them. */
export interface KyselyOwnershipOptions {
  /** The table of each resource the rule reaches; the rule's own resource as the outer query names it (its alias, if it has one). */
  readonly tables: Readonly<Record<string, string>>;
}

/** Table and column names are the rule's, known only at run time: the builder is used with open names. */
export type OpenDatabase = Record<string, Record<string, unknown>>;
type OpenBuilder = ExpressionBuilder<OpenDatabase, string>;

/** The table of `resource`, or a PermissionsUsageError saying to add it. */
export function kyselyTableOf(options: KyselyOwnershipOptions, resource: string): string {
  const table = Object.hasOwn(options.tables, resource) ? options.tables[resource] : undefined;
  if (typeof table !== 'string') throw new PermissionsUsageError(`No table is given for resource ${JSON.stringify(resource)}: add it to "tables".`);
  return table;
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
  let aliases = 0;
  /** `leaf` on the column at the end of `path`, inside one `exists` per relation. */
  const alongPath = (path: OwnershipAttributePath, leaf: (column: string) => Expression<SqlBool>): Expression<SqlBool> => {
    const outer = kyselyTableOf(options, context.resource);
    const qualifiers = path.steps.map(() => `ownership_${(aliases += 1)}`);
    const step = (index: number, qualifier: string): Expression<SqlBool> => {
      const current = path.steps[index];
      if (current === undefined) return leaf(`${qualifier}.${path.attribute}`);
      const alias = qualifiers[index] as string;
      return open.exists(
        open
          .selectFrom(`${kyselyTableOf(options, current.relation.resource)} as ${alias}`)
          .select((sub) => sub.lit(1).as('found'))
          .where((sub) => sub.and([sub(`${alias}.id`, '=', sub.ref(`${qualifier}.${current.relation.on}`)), step(index + 1, alias)])),
      );
    };
    return step(0, outer);
  };
  return writeOwnershipRule<Expression<SqlBool>>(scope, context, user, {
    everything: () => open.lit(true),
    nothing: () => open.lit(false),
    all: (parts) => open.and([...parts]),
    any: (parts) => open.or([...parts]),
    // eb.val keeps a null a parameter (`= $1`, never rewritten to `is null`): null equals nothing, as in SQL.
    equals: (path, value) => alongPath(path, (column) => open(column, '=', open.val(value))),
    inLiterals: (path, literals: readonly OwnershipLiteral[]) =>
      alongPath(path, (column) =>
        open(
          column,
          'in',
          literals.map((literal) => open.val(literal)),
        ),
      ),
    // One array parameter, whatever its length: the text is the same for an empty list and for 10,000 values.
    inUserList: (path, values) => alongPath(path, (column) => open(column, '=', open.fn.any(open.val([...values])))),
  });
}
