/**
 * An ownership rule source over PostgreSQL through any driver that runs parameterised text: the filter is the
 * rule's SQL condition, and `ownedAmong` / `listOwned` are one statement each through the application's `query`.
 */
import { describeValue } from '../core/common/describe-value.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { OwnershipRuleSource, OwnershipQuestion } from '../core/ownership-rules/ownership-rule-source.js';
import { sqlOwnershipCondition, sqlRecordId, type SqlCondition } from '../core/ownership-rules/sql-ownership.js';
import { checkedOwnershipIds, idsOfRows } from './owned-ids.js';
import type { OwnershipScoped } from './permit-scope.js';

/** Runs one statement with `$n` placeholders and resolves to its rows. */
export type SqlQuery = (text: string, values: readonly unknown[]) => Promise<readonly object[]>;

/** Where the records live and how statements run. */
export interface SqlOwnershipSourceOptions {
  /** The table of each resource the rules reach, by resource name. */
  readonly tables: Readonly<Record<string, string>>;
  /** The column of an attribute (the record's id is the attribute `id`); the attribute's own name when left out. */
  readonly column?: (resource: string, attribute: string) => string;
  /**
   * Runs a statement: with `pg`, `(text, values) => client.query(text, [...values]).then((result) => result.rows)`;
   * with PGlite, `(text, values) => db.query(text, [...values]).then((result) => result.rows)`.
   */
  readonly query: SqlQuery;
}

/** The SQL source: an OwnershipRuleSource whose filters are SQL conditions, and `where(permit)`. */
export interface SqlOwnershipSource extends OwnershipRuleSource<SqlCondition> {
  /**
   * The condition selecting the records `permit` may list, its placeholders numbered from `firstPlaceholder`
   * (1 when left out) to follow the application's own.
   */
  where(permit: OwnershipScoped, firstPlaceholder?: number): SqlCondition;
}

/** The options are checked when the source is made, so that a mistake shows at start, not at the first question. */
function checkOptions(options: SqlOwnershipSourceOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError(`sqlOwnership() needs options { tables, query }, got ${describeValue(options)}.`);
  if (typeof options.tables !== 'object' || options.tables === null)
    throw new PermissionsUsageError(`Option "tables" of sqlOwnership() must map each resource to its table, got ${describeValue(options.tables)}.`);
  if (typeof options.query !== 'function')
    throw new PermissionsUsageError(
      `Option "query" of sqlOwnership() must be a function (text, values) => Promise<rows>, got ${describeValue(options.query)}.`,
    );
  if (options.column !== undefined && typeof options.column !== 'function')
    throw new PermissionsUsageError(
      `Option "column" of sqlOwnership() must be a function (resource, attribute) => column, got ${describeValue(options.column)}.`,
    );
}

/**
 * An ownership rule source over PostgreSQL: `filter(question)` is the rule as `{ text, values }` (to AND into your
 * WHERE), `ownedAmong(question, ids)` is one statement
 * `SELECT "id" FROM "<table>" WHERE "id" = ANY($1) AND (<rule>)` (none for no ids, or when the scope is
 * `'nothing'`), `listOwned(question)` one `SELECT "id" FROM "<table>" WHERE <rule>`.
 *
 * @example
 * ```ts
 * const ownership = sqlOwnership({
 *   tables: { document: 'documents', user: 'users' },
 *   query: (text, values) => client.query(text, [...values]).then((result) => result.rows),
 * });
 * const owned = ownership.where(permit, 2);
 * await client.query(`SELECT * FROM "documents" WHERE "status" = $1 AND ${owned.text}`, ['draft', ...owned.values]);
 * ```
 */
export function sqlOwnership(options: SqlOwnershipSourceOptions): SqlOwnershipSource {
  checkOptions(options);
  const { tables, column, query } = options;
  const conditionOptions = column === undefined ? { tables } : { tables, column };
  const condition = (question: OwnershipQuestion, firstPlaceholder: number): SqlCondition =>
    sqlOwnershipCondition(question.scope, question.context, question.user, { ...conditionOptions, firstPlaceholder }, question.tenant);
  const rows = async (text: string, values: readonly unknown[]): Promise<readonly unknown[]> => idsOfRows(await query(text, values));
  return {
    filter: (question) => condition(question, 1),
    where: (permit, firstPlaceholder = 1) => condition(permit.ownershipScope(), firstPlaceholder),
    async ownedAmong(question, ids) {
      const asked = checkedOwnershipIds(ids);
      if (asked.length === 0 || question.scope === 'nothing') return [];
      const { table, id } = sqlRecordId(question.context.resource, conditionOptions);
      const rule = condition(question, 2);
      return rows(`SELECT ${id} AS "id" FROM ${table} WHERE ${id} = ANY($1) AND (${rule.text})`, [[...asked], ...rule.values]);
    },
    async listOwned(question) {
      if (question.scope === 'nothing') return [];
      const { table, id } = sqlRecordId(question.context.resource, conditionOptions);
      const rule = condition(question, 1);
      return rows(`SELECT ${id} AS "id" FROM ${table} WHERE ${rule.text}`, rule.values);
    },
  };
}
