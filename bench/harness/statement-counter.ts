/**
 * Counts the SQL statements a kysely instance executes, as a kysely plugin: added with
 * `db.withPlugin(counter)`, it sees every query run through that instance (and through anything
 * built on it, such as an ownership service constructed with it) without touching the dialect.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * A kysely plugin that counts executed statements. It counts in `transformResult`, which kysely
 * calls once per executed statement; `transformQuery` also runs for queries that are only compiled
 * and never executed, so counting there would overcount. A statement that fails is not counted
 * (the bench asserts results, so a failure surfaces anyway).
 *
 * @example
 * ```ts
 * const counter = new StatementCounter();
 * const counted = db.withPlugin(counter);
 * await counted.selectFrom('documents').selectAll().execute();
 * counter.count; // 1
 * ```
 */
export class StatementCounter implements KyselyPlugin {
  private executed = 0;

  /** Statements executed since creation or the last {@link StatementCounter.reset}. */
  get count(): number {
    return this.executed;
  }

  /** Starts counting from zero. */
  reset(): void {
    this.executed = 0;
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.executed++;
    return Promise.resolve(result);
  }
}
