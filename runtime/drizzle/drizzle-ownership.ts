/**
 * An ownership rule source through the application's Drizzle database (PostgreSQL): the filter is a Drizzle `SQL`
 * condition built with Drizzle's own operators on the application's table objects, and `ownedAmong` / `listOwned`
 * are one query each through the same database. Every value is a parameter; a path through relations is one
 * `exists` sub-query per relation, as in the SQL text form.
 */
import { and, eq, exists, getTableColumns, inArray, is, or, sql, type SQL } from 'drizzle-orm';
import { alias, PgColumn, PgTable, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import {
  checkedOwnershipIds,
  idsOfRows,
  writeOwnershipRule,
  type OwnershipAttributePath,
  type OwnershipQuestion,
  type OwnershipRuleSource,
  type OwnershipScoped,
} from '../ownership/index.js';
import { PermissionsUsageError } from '../permissions/precompiled.js';

/** A Drizzle database over PostgreSQL: `drizzle-orm/node-postgres`, `drizzle-orm/pglite`, … */
export type DrizzlePgDatabase = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** The table object of each resource, and how an attribute is found on it. */
export interface DrizzleOwnershipOptions {
  /** The table object (`pgTable(…)`) of each resource the rules reach, by resource name. */
  readonly tables: Readonly<Record<string, PgTable>>;
  /** The property of the table object holding an attribute's column; the attribute's own name when left out. */
  readonly column?: (resource: string, attribute: string) => string;
}

/** The Drizzle source: an OwnershipRuleSource whose filters are Drizzle `SQL` conditions, and `where(permit)`. */
export interface DrizzleOwnershipSource extends OwnershipRuleSource<SQL> {
  /** The condition selecting the records `permit` may list, for `.where()`. */
  where(permit: OwnershipScoped): SQL;
}

/** The names a table is read under, checked once: the table object of each resource and the column of each attribute. */
class DrizzleNames {
  constructor(private readonly options: DrizzleOwnershipOptions) {}

  table(resource: string): PgTable {
    const { tables } = this.options;
    const table = Object.hasOwn(tables, resource) ? tables[resource] : undefined;
    if (table === undefined) throw new PermissionsUsageError(`No table is given for resource ${JSON.stringify(resource)}: add it to "tables".`);
    // Drizzle's own check of its objects' kinds: anything else (a table's name, as kysely takes it) is refused as what it is.
    if (!is(table, PgTable))
      throw new PermissionsUsageError(
        `The table of resource ${JSON.stringify(resource)} (in "tables") must be a Drizzle table made with pgTable(), ` +
          `got ${table === null ? 'null' : typeof table}.`,
      );
    return table;
  }

  column(table: PgTable, resource: string, attribute: string): PgColumn {
    const property = this.options.column?.(resource, attribute) ?? attribute;
    const columns: Record<string, unknown> = getTableColumns(table);
    const column = Object.hasOwn(columns, property) ? columns[property] : undefined;
    // Drizzle's own check of its objects' kinds, which holds across copies of the package.
    if (!is(column, PgColumn))
      throw new PermissionsUsageError(
        `The table of resource ${JSON.stringify(resource)} has no column ${JSON.stringify(property)} for attribute ${JSON.stringify(attribute)}: ` +
          'add it to the table, or map the attribute to its property with "column".',
      );
    return column;
  }
}

/** Combines two or more conditions; Drizzle's and/or return undefined only for none, which a rule never has. */
function joined(combine: typeof and, parts: readonly SQL[]): SQL {
  return combine(...parts) ?? sql`false`;
}

/** The rule of `question` as a Drizzle condition on the table of its resource. */
function ruleCondition(db: DrizzlePgDatabase, names: DrizzleNames, question: OwnershipQuestion): SQL {
  const { context } = question;
  let aliases = 0;
  const alongPath = (path: OwnershipAttributePath, leaf: (column: PgColumn) => SQL): SQL => {
    const outer = names.table(context.resource);
    const step = (index: number, table: PgTable, resource: string): SQL => {
      const current = path.steps[index];
      if (current === undefined) return leaf(names.column(table, resource, path.attribute));
      aliases += 1;
      const related = alias(names.table(current.relation.resource), `ownership_${aliases}`);
      const joinedOn = eq(names.column(related, current.relation.resource, 'id'), names.column(table, resource, current.relation.on));
      return exists(
        db
          .select({ found: sql`1` })
          .from(related)
          .where(joined(and, [joinedOn, step(index + 1, related, current.relation.resource)])),
      );
    };
    return step(0, outer, context.resource);
  };
  return writeOwnershipRule<SQL>(
    question.scope,
    context,
    question.user,
    {
      everything: () => sql`true`,
      nothing: () => sql`false`,
      all: (parts) => joined(and, parts),
      any: (parts) => joined(or, parts),
      // A null stays a parameter (`= $1`): null equals nothing, as in SQL.
      equals: (path, value) => alongPath(path, (column) => eq(column, value)),
      inLiterals: (path, literals) => alongPath(path, (column) => inArray(column, [...literals])),
      // One array parameter, whatever its length: the text is the same for an empty list and for 10,000 values.
      inUserList: (path, values) => alongPath(path, (column) => sql`${column} = ANY(${sql.param([...values])})`),
    },
    question.tenant,
  );
}

/**
 * An ownership rule source over Drizzle (PostgreSQL): `filter(question)` is a Drizzle `SQL` condition,
 * `ownedAmong(question, ids)` one query `select "id" from <table> where "id" = ANY($1) and (<rule>)` (none for no
 * ids, or when the scope is `'nothing'`), `listOwned(question)` one `select "id" from <table> where <rule>`. An
 * attribute is the table object's property of that name, unless `column` maps it.
 *
 * @example
 * ```ts
 * const ownership = drizzleOwnership(db, { tables: { document: documents, user: users } });
 * const owned = await db.select().from(documents).where(and(eq(documents.status, 'draft'), ownership.where(permit)));
 * ```
 */
export function drizzleOwnership(db: DrizzlePgDatabase, options: DrizzleOwnershipOptions): DrizzleOwnershipSource {
  if (typeof db !== 'object' || db === null || typeof (db as { select?: unknown }).select !== 'function')
    throw new PermissionsUsageError("drizzleOwnership() needs the application's Drizzle database as its first argument.");
  if (typeof options !== 'object' || options === null || typeof options.tables !== 'object' || options.tables === null)
    throw new PermissionsUsageError('drizzleOwnership() needs options { tables }: the table object of each resource the rules reach.');
  if (options.column !== undefined && typeof options.column !== 'function')
    throw new PermissionsUsageError('Option "column" of drizzleOwnership() must be a function (resource, attribute) => property of the table object.');
  const names = new DrizzleNames(options);
  const filter = (question: OwnershipQuestion): SQL => ruleCondition(db, names, question);
  const idOf = (question: OwnershipQuestion) => {
    const table = names.table(question.context.resource);
    return { table, id: names.column(table, question.context.resource, 'id') };
  };
  return {
    filter,
    where: (permit) => filter(permit.ownershipScope()),
    async ownedAmong(question, ids) {
      const asked = checkedOwnershipIds(ids);
      if (asked.length === 0 || question.scope === 'nothing') return [];
      const { table, id } = idOf(question);
      const rows = await db
        .select({ id })
        .from(table)
        .where(joined(and, [sql`${id} = ANY(${sql.param([...asked])})`, filter(question)]));
      return idsOfRows(rows);
    },
    async listOwned(question) {
      if (question.scope === 'nothing') return [];
      const { table, id } = idOf(question);
      return idsOfRows(await db.select({ id }).from(table).where(filter(question)));
    },
  };
}
