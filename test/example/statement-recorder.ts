/**
 * Records the SQL statements a kysely instance executes, as a kysely plugin (`db.withPlugin(recorder)`): the example
 * app's e2e tests read how many statements one request costs and what each read. kysely calls `transformQuery` for
 * every query it compiles (some are never run) and `transformResult` once per executed statement, with the same
 * query id: a statement is recorded when its result arrives.
 */
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** What a statement was: its kind and, for a select, the table it reads first. */
export interface RecordedStatement {
  readonly kind: string;
  readonly table: string | undefined;
}

/** The first table a select reads (`from documents` → 'documents'); undefined for anything else. */
function firstTable(node: RootOperationNode): string | undefined {
  if (node.kind !== 'SelectQueryNode') return undefined;
  const from = node.from?.froms[0] as
    (OperationNode & { table?: { identifier?: { name?: string } }; node?: { table?: { identifier?: { name?: string } } } }) | undefined;
  return from?.table?.identifier?.name ?? from?.node?.table?.identifier?.name;
}

/**
 * A kysely plugin that records each executed statement.
 *
 * @example
 * ```ts
 * const recorder = new StatementRecorder();
 * const db = (await seededTestDatabase()).withPlugin(recorder);
 * await db.selectFrom('documents').selectAll().execute();
 * recorder.take(); // [{ kind: 'SelectQueryNode', table: 'documents' }]
 * ```
 */
export class StatementRecorder implements KyselyPlugin {
  private readonly compiled = new WeakMap<object, RootOperationNode>();
  private recorded: RecordedStatement[] = [];

  /** The statements executed since the last take, and starts again. */
  take(): RecordedStatement[] {
    const taken = this.recorded;
    this.recorded = [];
    return taken;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    this.compiled.set(queryId, node);
    return node;
  }

  transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.compiled.get(queryId);
    this.recorded.push({ kind: node?.kind ?? 'unknown', table: node === undefined ? undefined : firstTable(node) });
    return Promise.resolve(result);
  }
}
