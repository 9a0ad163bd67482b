/**
 * The filter type of the example app's `limitOwned` hooks.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { ExampleDatabase } from './example-database.js';

/**
 * A where-clause factory over the `documents` table: given kysely's expression builder, it returns a
 * boolean SQL expression. It configures a condition and never runs a query, so it can be passed
 * around (a permit's `limitOwn()` returns one) and added to any query that selects from `documents`.
 * It refers to columns as `documents.<column>`, so it stays unambiguous in joins.
 *
 * @example
 * ```ts
 * const mine: DocumentFilter = (eb) => eb('documents.creatorId', '=', 1);
 * const rows = await db.selectFrom('documents').selectAll().where(mine).execute();
 * ```
 */
export type DocumentFilter = (eb: ExpressionBuilder<ExampleDatabase, 'documents'>) => Expression<SqlBool>;

/**
 * A condition over the `documents` table as a query's `.where()` takes it: a where-clause factory (what
 * `permit.limitOwn()` returns) or an expression (what the ownership rule source's `where(permit)` returns).
 *
 * @example
 * ```ts
 * const listable: DocumentCondition = ownershipRules.where(permit);
 * const rows = await db.selectFrom('documents').selectAll().where(listable).execute();
 * ```
 */
export type DocumentCondition = DocumentFilter | Expression<SqlBool>;
