/**
 * What the engine asks of the records behind ownership rules: an adapter to the application's database (kysely,
 * Drizzle, Prisma, SQL text) or to records in memory implements it once, and every ownership answer — one record,
 * many records, every owned record, a filter for the application's own query — follows from the rules.
 */
import type { OwnershipContext } from './ownership-context.js';
import type { OwnershipScope } from './ownership-rule.js';

/**
 * Which records of `context.resource` to select for `user`: every record, none, or those a rule (or an `any` of
 * the rules of several roles) holds for.
 */
export interface OwnershipQuestion {
  readonly scope: OwnershipScope;
  readonly context: OwnershipContext;
  /** The user the permit is for: the rules read its attributes. */
  readonly user: object;
  /**
   * The tenant the permit was decided in, compared by `{ "tenant": "id" }` conditions; left out for a question
   * without a tenant, where such a condition selects no record.
   */
  readonly tenant?: string | undefined;
}

/**
 * The records behind ownership rules. A record is identified by its attribute `id`; ids are compared with `===`, so
 * an adapter answers with ids of the type the application asks with (the resource's `idType`).
 *
 * @example
 * ```ts
 * const permissions = createPermissions({ ownershipRules: kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } }) });
 * ```
 */
export interface OwnershipRuleSource<TFilter = unknown> {
  /** The filter selecting the question's records, in the adapter's own form: configured, never executed. */
  filter(question: OwnershipQuestion): TFilter;
  /** Which of `ids` the question selects, in one statement (ids it was not asked about are ignored). */
  ownedAmong(question: OwnershipQuestion, ids: readonly unknown[]): Promise<readonly unknown[]>;
  /** The ids of every record the question selects. */
  listOwned(question: OwnershipQuestion): Promise<readonly unknown[]>;
}
