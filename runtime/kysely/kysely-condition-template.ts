/**
 * A rule's kysely condition built once and reused: kysely's expression builder makes a new node for every
 * comparison, relation and parameter, which costs more than running a short page query's remaining JavaScript.
 * The node tree of a rule depends only on the rule, its context and the tables — never on the user or the tenant,
 * whose values are all parameters — so it is built once, and each query only puts its values into its value nodes.
 */
import {
  ExpressionWrapper,
  OperationNodeTransformer,
  ValueNode,
  type Expression,
  type ExpressionBuilder,
  type OperationNode,
  type QueryId,
  type SqlBool,
} from 'kysely';
import {
  writeOwnershipRule,
  type OwnershipAttributePath,
  type OwnershipRuleWriter,
  type OwnershipContext,
  type OwnershipLiteral,
  type OwnershipScope,
} from '../ownership/index.js';
import { PermissionsUsageError } from '../permissions/precompiled.js';

/** Where each resource's records live, as the query names them. */
export interface KyselyOwnershipOptions {
  /** The table of each resource the rule reaches; the rule's own resource as the outer query names it (its alias, if it has one). */
  readonly tables: Readonly<Record<string, string>>;
}

/** Table and column names are the rule's, known only at run time: the builder is used with open names. */
export type OpenDatabase = Record<string, Record<string, unknown>>;
type OpenBuilder = ExpressionBuilder<OpenDatabase, string>;

/**
 * The table of `resource`, or a PermissionsUsageError saying to add it.
 *
 * @example
 * ```ts
 * kyselyTableOf({ tables: { document: 'documents' } }, 'document'); // 'documents'
 * ```
 */
export function kyselyTableOf(options: KyselyOwnershipOptions, resource: string): string {
  const table = Object.hasOwn(options.tables, resource) ? options.tables[resource] : undefined;
  if (typeof table !== 'string') throw new PermissionsUsageError(`No table is given for resource ${JSON.stringify(resource)}: add it to "tables".`);
  return table;
}

/** The values a rule reads from the user and the tenant, in the order its nodes are written: a scalar, or a list (one array parameter). */
export type RuleValues = readonly (OwnershipLiteral | null | readonly OwnershipLiteral[])[];

/**
 * The values of a rule for `user` in `tenant` (the tenant id of a tenant condition, null without a tenant), each
 * user attribute checked (a missing or mistyped one is a PermissionsUsageError), in the order the condition's value
 * nodes are written. The walk is the one that writes the rule, so the two orders
 * are one.
 *
 * @example
 * ```ts
 * ruleValues(rule, context, { id: 3, managedUserIds: [2, 5] }); // [3, [2, 5]] for creatorOrManaged
 * ```
 */
export function ruleValues(scope: OwnershipScope, context: OwnershipContext, user: object, tenant?: string): RuleValues {
  const collector = new ValueCollector();
  writeOwnershipRule(scope, context, user, collector, tenant);
  return collector.values;
}

/** The writer that only collects the user's values: methods, not closures, so a query allocates one object for it. */
class ValueCollector implements OwnershipRuleWriter<void> {
  readonly values: (OwnershipLiteral | null | readonly OwnershipLiteral[])[] = [];
  everything(): void {}
  nothing(): void {}
  all(): void {}
  any(): void {}
  equals(_path: OwnershipAttributePath, value: OwnershipLiteral | null): void {
    this.values.push(value);
  }
  inLiterals(): void {}
  inUserList(_path: OwnershipAttributePath, list: readonly OwnershipLiteral[]): void {
    // A copy: the user's own array is never handed to the driver.
    this.values.push([...list]);
  }
}

/**
 * Puts a query's values into a template's value nodes: only the nodes on the way to a value node are copied, the
 * rest of the tree is shared between queries. Transformations run synchronously, so one binder per template is
 * reused, its values set for the length of one call.
 */
class ValueBinder extends OperationNodeTransformer {
  /** Each value node of the template, by the index of its value. */
  readonly #slots: ReadonlyMap<OperationNode, number>;
  /** The nodes that hold a value node somewhere beneath them. */
  readonly #holders: ReadonlySet<OperationNode>;
  #values: RuleValues = [];

  constructor(slots: ReadonlyMap<OperationNode, number>, holders: ReadonlySet<OperationNode>) {
    super();
    this.#slots = slots;
    this.#holders = holders;
  }

  bind(node: OperationNode, values: RuleValues): OperationNode {
    this.#values = values;
    try {
      return this.transformNode(node);
    } finally {
      this.#values = [];
    }
  }

  override transformNode<T extends OperationNode | undefined>(node: T, queryId?: QueryId): T {
    if (node === undefined) return node;
    const slot = this.#slots.get(node);
    // ValueNode.create: always a parameter, whatever the value holds.
    if (slot !== undefined) return ValueNode.create(this.#values[slot]) as OperationNode as T;
    return this.#holders.has(node) ? super.transformNode(node, queryId) : node;
  }
}

/** A rule's condition for every user: the node tree with a value node per user value, and how to fill them. */
export interface ConditionTemplate {
  /** How many values the rule reads from the user. */
  readonly valueCount: number;
  /** The condition with `values` (as `ruleValues` gives them) in its value nodes. */
  bind(values: RuleValues): Expression<SqlBool>;
}

/** An Expression over a finished node: kysely's own wrapper, so nothing is allocated beyond it. */
const expressionOf = (node: OperationNode): Expression<SqlBool> => new ExpressionWrapper<OpenDatabase, string, SqlBool>(node);

/** Every node of `tree` that holds one of `slots` beneath it (the slot itself excluded). */
function holdersOf(tree: OperationNode, slots: ReadonlyMap<OperationNode, number>): Set<OperationNode> {
  const holders = new Set<OperationNode>();
  // A generic walk of the frozen tree (objects and arrays), so that no node kind is left out.
  const walk = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    if (slots.has(value as OperationNode)) return true;
    let holds = false;
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (walk(child)) holds = true;
    if (holds && !Array.isArray(value)) holders.add(value as OperationNode);
    return holds;
  };
  walk(tree);
  return holders;
}

/**
 * The template of `scope` in `context` with `options`' tables, built with `eb` (any expression builder: the nodes
 * carry no query of their own; plugins apply when the query that holds the condition is compiled). `user` only
 * serves to walk the rule: the value nodes are filled by `bind`. It is given no tenant: a tenant condition is a
 * value node like a user attribute's, so no tenant's id can be kept in a template another tenant's query reuses. The same shape as the SQL text form: a path
 * through relations is an `exists` sub-query per relation.
 *
 * @example
 * ```ts
 * const template = conditionTemplate(eb, rule, context, user, { tables: { document: 'documents', user: 'users' } });
 * const condition = template.bind(ruleValues(rule, context, user));
 * ```
 */
export function conditionTemplate<Database, Tables extends keyof Database>(
  eb: ExpressionBuilder<Database, Tables>,
  scope: OwnershipScope,
  context: OwnershipContext,
  user: object,
  options: KyselyOwnershipOptions,
): ConditionTemplate {
  const open = eb as unknown as OpenBuilder;
  const slots = new Map<OperationNode, number>();
  /** A value node of its own for the next user value (null as a stand-in: its value is bound per query). */
  const slot = <T>(): Expression<T> => {
    const node = ValueNode.create(null);
    slots.set(node, slots.size);
    return new ExpressionWrapper<OpenDatabase, string, T>(node);
  };
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
  const tree = writeOwnershipRule<Expression<SqlBool>>(scope, context, user, {
    everything: () => open.lit(true),
    nothing: () => open.lit(false),
    all: (parts) => open.and([...parts]),
    any: (parts) => open.or([...parts]),
    // A value node, not eb.val: a null stays a parameter (`= $1`, never rewritten to `is null`): null equals nothing, as in SQL.
    equals: (path) => alongPath(path, (column) => open(column, '=', slot<unknown>())),
    inLiterals: (path, literals: readonly OwnershipLiteral[]) =>
      alongPath(path, (column) =>
        open(
          column,
          'in',
          literals.map((literal) => open.val(literal)),
        ),
      ),
    // One array parameter, whatever its length: the text is the same for an empty list and for 10,000 values.
    inUserList: (path) => alongPath(path, (column) => open(column, '=', open.fn.any(slot<readonly unknown[]>()))),
  }).toOperationNode();
  if (slots.size === 0) {
    const fixed = expressionOf(tree);
    return { valueCount: 0, bind: () => fixed };
  }
  const binder = new ValueBinder(slots, holdersOf(tree, slots));
  return { valueCount: slots.size, bind: (values) => expressionOf(binder.bind(tree, values)) };
}
