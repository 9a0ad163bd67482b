/**
 * How much of the example's decision log is kept: at most a number of rows and rows of at most an age. The
 * embedded database is the process's memory, and anonymous traffic alone is a decision per request: without a
 * bound, the log would grow until the process runs out of memory. Set by `DECISION_LOG_MAX_ROWS` and
 * `DECISION_LOG_MAX_AGE_DAYS`; a value that is not a bound stops the start, rather than silently keep everything.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the example's decision log keeps, and how often it deletes the rest. */
export interface DecisionLogBounds {
  /** The most rows kept: the oldest beyond them are deleted. */
  readonly maxRows: number;
  /** The oldest a row may be, in ms (by the decision's time): older ones are deleted. */
  readonly maxAgeMs: number;
  /**
   * How long, in ms, after deleting the rows beyond the bounds the next write waits before deleting again — unless
   * 1,000 rows were written since (the decision log then deletes at once, so fast traffic cannot outrun the row bound).
   */
  readonly pruneIntervalMs: number;
}

/** 10,000 rows (a few MB of events), 7 days, deleted at most every 10 seconds. */
export const DEFAULT_DECISION_LOG_BOUNDS: DecisionLogBounds = { maxRows: 10_000, maxAgeMs: 7 * DAY_MS, pruneIntervalMs: 10_000 };

/** The most rows `DECISION_LOG_MAX_ROWS` may keep: ten million. */
export const MAX_DECISION_LOG_ROWS = 10_000_000;
/** The oldest `DECISION_LOG_MAX_AGE_DAYS` may keep: ten years. */
export const MAX_DECISION_LOG_AGE_DAYS = 3650;

/**
 * The bounds `env` sets, each one it leaves out at its default; an Error naming the variable when one is not a
 * bound (a whole number of rows from 1 to {@link MAX_DECISION_LOG_ROWS}; a number of days above 0, at most
 * {@link MAX_DECISION_LOG_AGE_DAYS}).
 *
 * @example
 * ```ts
 * decisionLogBoundsOf({ DECISION_LOG_MAX_ROWS: '500', DECISION_LOG_MAX_AGE_DAYS: '0.5' });
 * // { maxRows: 500, maxAgeMs: 43200000, pruneIntervalMs: 10000 }
 * ```
 */
export function decisionLogBoundsOf(env: Readonly<Record<string, string | undefined>>): DecisionLogBounds {
  const rows = env['DECISION_LOG_MAX_ROWS'];
  const days = env['DECISION_LOG_MAX_AGE_DAYS'];
  const maxRows = rows === undefined ? DEFAULT_DECISION_LOG_BOUNDS.maxRows : Number(rows);
  if (rows !== undefined && !(/^\d+$/.test(rows) && maxRows >= 1 && maxRows <= MAX_DECISION_LOG_ROWS))
    throw new Error(`DECISION_LOG_MAX_ROWS must be a whole number of rows from 1 to ${MAX_DECISION_LOG_ROWS}, got ${JSON.stringify(rows)}.`);
  const maxAgeDays = days === undefined ? undefined : Number(days);
  if (days !== undefined && !(/^\d+(\.\d+)?$/.test(days) && (maxAgeDays as number) > 0 && (maxAgeDays as number) <= MAX_DECISION_LOG_AGE_DAYS))
    throw new Error(`DECISION_LOG_MAX_AGE_DAYS must be a number of days above 0, at most ${MAX_DECISION_LOG_AGE_DAYS}, got ${JSON.stringify(days)}.`);
  return {
    ...DEFAULT_DECISION_LOG_BOUNDS,
    maxRows,
    maxAgeMs: maxAgeDays === undefined ? DEFAULT_DECISION_LOG_BOUNDS.maxAgeMs : Math.round(maxAgeDays * DAY_MS),
  };
}
