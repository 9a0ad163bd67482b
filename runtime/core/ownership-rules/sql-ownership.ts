/**
 * A rule as parameterised SQL for PostgreSQL: `{ text, values }` with `$1…` placeholders, to AND into the
 * application's own WHERE. Identifiers are quoted; every value — the user's, and the rule's literals — is a
 * parameter, so no value can change the text. A path through relations is an `EXISTS (SELECT 1 FROM … WHERE …)`
 * sub-query per relation, which keeps one row per record whatever the relations hold.
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import type { OwnershipContext } from './ownership-context.js';
import { RELATED_ID_ATTRIBUTE, relationSteps, splitAttributePath, type OwnershipCondition, type OwnershipScope } from './ownership-rule.js';
import { userList } from './ownership-user-values.js';
import { comparedValue } from './ownership-compared-value.js';
import { checkOwnershipScope } from './ownership-scope-check.js';

/** Parameterised SQL: the text with `$n` placeholders, and the value of each. */
export interface SqlCondition {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Where each resource's records live, and how an attribute is spelled as a column. */
export interface SqlOwnershipOptions {
  /** The table of each resource the rule reaches (the rule's own resource as the outer query names it). */
  readonly tables: Readonly<Record<string, string>>;
  /** The column of an attribute; the attribute's own name when left out. */
  readonly column?: (resource: string, attribute: string) => string;
  /** The number of the first placeholder, to follow the application's own parameters: 1 when left out. */
  readonly firstPlaceholder?: number;
}

/** A PostgreSQL identifier, quoted: doubled quotes inside; NUL, which PostgreSQL cannot hold, refused. */
function quoteIdentifier(name: unknown, what: string): string {
  // `tables` and `column` are the application's: JavaScript callers can hand anything.
  if (typeof name !== 'string') throw new PermissionsUsageError(`The SQL name of ${what} must be a string, got ${describeValue(name)}.`);
  if (name.length === 0 || name.includes('\u0000'))
    throw new PermissionsUsageError(`SQL identifier ${quoteForMessage(name)} is empty or holds NUL; name tables and columns with other text.`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** The text and values being written, with the placeholder numbering and sub-query aliases of one statement. */
class SqlWriter {
  readonly values: unknown[] = [];
  private aliases = 0;

  constructor(
    private readonly options: SqlOwnershipOptions,
    private readonly first: number,
  ) {}

  parameter(value: unknown): string {
    this.values.push(value);
    return `$${this.first + this.values.length - 1}`;
  }

  alias(): string {
    this.aliases += 1;
    return quoteIdentifier(`ownership_${this.aliases}`, 'a sub-query');
  }

  table(resource: string): string {
    const { tables } = this.options;
    const table = Object.hasOwn(tables, resource) ? tables[resource] : undefined;
    if (table === undefined) throw new PermissionsUsageError(`No table is given for resource ${quoteForMessage(resource)}: add it to "tables".`);
    return quoteIdentifier(table, `the table of resource ${quoteForMessage(resource)} (in "tables")`);
  }

  column(qualifier: string, resource: string, attribute: string): string {
    const name: unknown = this.options.column?.(resource, attribute) ?? attribute;
    return `${qualifier}.${quoteIdentifier(name, `the column of attribute ${quoteForMessage(attribute)} of resource ${quoteForMessage(resource)}`)}`;
  }
}

/** `leaf` applied to the column at the end of `attributePath`, inside one EXISTS per relation. */
function alongPath(attributePath: string, context: OwnershipContext, writer: SqlWriter, leaf: (column: string) => string): string {
  const { relations, attribute } = splitAttributePath(attributePath);
  const steps = relationSteps(context.resource, relations, context.relations);
  let qualifier = writer.table(context.resource);
  const opened: string[] = [];
  for (const { from, relation } of steps) {
    const alias = writer.alias();
    const joined = `${writer.column(alias, relation.resource, RELATED_ID_ATTRIBUTE)} = ${writer.column(qualifier, from, relation.on)}`;
    opened.push(`EXISTS (SELECT 1 FROM ${writer.table(relation.resource)} AS ${alias} WHERE ${joined} AND `);
    qualifier = alias;
  }
  const resourceAtEnd = steps.length === 0 ? context.resource : (steps[steps.length - 1]?.relation.resource as string);
  return `${opened.join('')}${leaf(writer.column(qualifier, resourceAtEnd, attribute))}${')'.repeat(opened.length)}`;
}

function write(condition: OwnershipCondition, context: OwnershipContext, user: object, tenant: unknown, writer: SqlWriter): string {
  if ('all' in condition) return `(${condition.all.map((child) => write(child, context, user, tenant, writer)).join(' AND ')})`;
  if ('any' in condition) return `(${condition.any.map((child) => write(child, context, user, tenant, writer)).join(' OR ')})`;
  if ('equals' in condition) {
    const value = comparedValue(condition, context, user, tenant);
    return alongPath(condition.attribute, context, writer, (column) => `${column} = ${writer.parameter(value)}`);
  }
  if (Array.isArray(condition.in)) {
    const literals = condition.in;
    // The rule's own list: its length is the rule's, not a value's, so the text depends on the rule alone.
    if (literals.length === 0) return 'FALSE';
    return alongPath(condition.attribute, context, writer, (column) => `${column} IN (${literals.map((literal) => writer.parameter(literal)).join(', ')})`);
  }
  const list = userList(user, (condition.in as { readonly user: string }).user, context.userAttributes);
  // One array parameter, whatever its length: the text is the same for an empty list and for 10,000 values.
  return alongPath(condition.attribute, context, writer, (column) => `${column} = ANY(${writer.parameter([...list])})`);
}

/**
 * The quoted table of `resource` and its id column (the attribute `id`, through `column` when given), as
 * `sqlOwnershipCondition` writes them: `{ table: '"documents"', id: '"documents"."id"' }`.
 *
 * @example
 * ```ts
 * sqlRecordId('document', { tables: { document: 'documents' } }); // { table: '"documents"', id: '"documents"."id"' }
 * ```
 */
export function sqlRecordId(resource: string, options: SqlOwnershipOptions): { readonly table: string; readonly id: string } {
  const writer = new SqlWriter(options, 1);
  const table = writer.table(resource);
  return { table, id: writer.column(table, resource, RELATED_ID_ATTRIBUTE) };
}

/**
 * The SQL condition selecting the records `scope` selects for `user` in `tenant` (undefined without one: a tenant
 * condition then compares with a NULL parameter, which selects no record): `TRUE` for `everything`, `FALSE` for
 * `nothing`, else the rule with every value — the tenant id too — a parameter. AND it into the application's WHERE; start the
 * placeholders after the application's own with `firstPlaceholder`. A malformed rule (an empty `all`, a node none of
 * the four forms) is a PermissionsUsageError naming where in the rule.
 *
 * @example
 * ```ts
 * const owned = sqlOwnershipCondition(rule, context, user, { tables: { document: 'documents', user: 'users' }, firstPlaceholder: 2 });
 * await client.query(`SELECT * FROM "documents" WHERE "status" = $1 AND ${owned.text}`, ['draft', ...owned.values]);
 * ```
 */
export function sqlOwnershipCondition(
  scope: OwnershipScope,
  context: OwnershipContext,
  user: object,
  options: SqlOwnershipOptions,
  tenant?: string,
): SqlCondition {
  if (scope === 'everything') return { text: 'TRUE', values: [] };
  if (scope === 'nothing') return { text: 'FALSE', values: [] };
  checkOwnershipScope(scope, context);
  const first = options.firstPlaceholder ?? 1;
  if (!Number.isSafeInteger(first) || first < 1) throw new PermissionsUsageError(`Option "firstPlaceholder" must be a positive integer, got ${String(first)}.`);
  const writer = new SqlWriter(options, first);
  const text = write(scope, context, user, tenant, writer);
  return { text, values: writer.values };
}
