/**
 * An ownership rule source through the application's kysely instance: the filter is a function for `.where()`,
 * and `ownedAmong` / `listOwned` are one query each through the same instance (its dialect and plugins apply).
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { checkedOwnershipIds, idsOfRows, type OwnershipQuestion, type OwnershipRuleSource, type OwnershipScoped } from '../ownership/index.js';
import { PermissionsUsageError } from '../permissions/precompiled.js';
import { ConditionTemplates } from './kysely-condition-cache.js';
import { kyselyTableOf, type KyselyOwnershipOptions, type OpenDatabase } from './kysely-condition-template.js';

/** The filter the engine hands out (`permit.limitOwn()`): a function for any query's `.where()`. */
export type KyselyOwnershipFilter = <Database, Tables extends keyof Database>(eb: ExpressionBuilder<Database, Tables>) => Expression<SqlBool>;

/** The kysely source: an OwnershipRuleSource whose filters go into `.where()`, and `where(permit)`. */
export interface KyselyOwnershipSource extends OwnershipRuleSource<KyselyOwnershipFilter> {
  /**
   * The condition selecting the records `permit` may list, for `.where()` (or inside `eb.and([...])`): an
   * expression, not a function, because kysely makes a whole expression builder for each function it is given.
   */
  where(permit: OwnershipScoped): Expression<SqlBool>;
}

/**
 * An ownership rule source over kysely: `filter(question)` is a function for `.where()`, `ownedAmong(question,
 * ids)` one query `select id from <table> where id = any($1) and (<rule>)` (none for no ids, or when the scope is
 * `'nothing'`), `listOwned(question)` one `select id from <table> where <rule>`. Tables are named as the database
 * knows them (your plugins, such as CamelCasePlugin, map columns as in every other query), read once here. Each
 * rule's condition is built on its first query and reused, only the user's values put in (at most
 * `KYSELY_OWNERSHIP_LIMITS.maxTemplates` rules kept).
 *
 * @example
 * ```ts
 * const ownership = kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
 * const owned = await db.selectFrom('documents').selectAll().where(ownership.where(permit)).execute();
 * ```
 */
export function kyselyOwnership<Database>(db: Kysely<Database>, options: KyselyOwnershipOptions): KyselyOwnershipSource {
  if (typeof db !== 'object' || db === null || typeof (db as { selectFrom?: unknown }).selectFrom !== 'function')
    throw new PermissionsUsageError("kyselyOwnership() needs the application's Kysely instance as its first argument.");
  if (typeof options !== 'object' || options === null || typeof options.tables !== 'object' || options.tables === null)
    throw new PermissionsUsageError('kyselyOwnership() needs options { tables }: the table of each resource the rules reach.');
  const open = db as unknown as Kysely<OpenDatabase>;
  // Read once: the rules' templates are built from these names, so a later change to the caller's object changes nothing.
  const tables: KyselyOwnershipOptions = { tables: { ...options.tables } };
  const templates = new ConditionTemplates(tables);
  const filter =
    (question: OwnershipQuestion): KyselyOwnershipFilter =>
    () =>
      templates.condition(question);
  const select = (question: OwnershipQuestion) => {
    const table = kyselyTableOf(tables, question.context.resource);
    return open.selectFrom(table).select(`${table}.id as id`);
  };
  return {
    filter,
    where: (permit) => templates.condition(permit.ownershipScope()),
    async ownedAmong(question, ids) {
      const asked = checkedOwnershipIds(ids);
      if (asked.length === 0 || question.scope === 'nothing') return [];
      const table = kyselyTableOf(tables, question.context.resource);
      const rows = await select(question)
        .where((eb) => eb.and([eb(`${table}.id`, '=', eb.fn.any(eb.val([...asked]))), templates.condition(question)]))
        .execute();
      return idsOfRows(rows);
    },
    async listOwned(question) {
      if (question.scope === 'nothing') return [];
      return idsOfRows(await select(question).where(templates.condition(question)).execute());
    },
  };
}
