/**
 * Injection tokens of the example app.
 */

/**
 * The Nest injection token of the example app's `Kysely<ExampleDatabase>` instance.
 *
 * @example
 * ```ts
 * @Module({ providers: [{ provide: EXAMPLE_DATABASE, useFactory: () => createSeededDatabase({ databaseUrl: process.env.DATABASE_URL }) }] })
 * class DatabaseModule {}
 * ```
 */
export const EXAMPLE_DATABASE = 'EXAMPLE_DATABASE';

/**
 * The Nest injection token of the example's decision log bounds (`DecisionLogBounds`): how many rows, and how old,
 * the `decision_log` table keeps.
 *
 * @example
 * ```ts
 * @Module({ providers: [{ provide: DECISION_LOG_BOUNDS, useValue: decisionLogBoundsOf(process.env) }] })
 * class DecisionLogModule {}
 * ```
 */
export const DECISION_LOG_BOUNDS = 'DECISION_LOG_BOUNDS';

/**
 * The Nest injection token of the example's ownership rule source (`KyselyOwnershipSource`, from
 * `documentOwnershipRules`): the records the rules of definitions/document.resource.json read, and the filter a list
 * puts in its query.
 *
 * @example
 * ```ts
 * constructor(@Inject(EXAMPLE_OWNERSHIP_RULES) private readonly ownershipRules: KyselyOwnershipSource) {}
 * ```
 */
export const EXAMPLE_OWNERSHIP_RULES = 'EXAMPLE_OWNERSHIP_RULES';
