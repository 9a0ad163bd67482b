/**
 * The one way the runtime checks the shape of a value it did not make: options given to a function, a bundle's
 * tests, a slice from the network, a request body. A shape is a plain function that appends what is wrong with a
 * value, at its path, to a list — so shapes compose (an object of arrays of strings) and a check can report every
 * problem (a test file) or the first one (an option). Every problem carries the message the library has always
 * given for it: the shapes say what is checked, the caller says how a failure reads. Written here rather than
 * taken from a schema library because the smallest that fits (valibot, 1.9 MB installed; zod 8.2 MB) would more
 * than double the runtime-only install, and this file has to stay small enough for the browser client too: no
 * Node import, no code compiled at run time.
 */
import { PermissionsUsageError } from '../common/errors.js';

/** Where in the checked value a problem is: keys and indexes from its root. */
export type ShapePath = readonly (string | number)[];

/** One problem a shape found. */
export interface ShapeIssue {
  readonly path: ShapePath;
  /** What is wrong, as a sentence a user reads. */
  readonly message: string;
  /** How to fix it, when the caller's format has fixes. */
  readonly fix?: string | undefined;
  /** The caller's code for the kind of problem (`invalid-id`, `too-large`), when its format has codes. */
  readonly code?: string | undefined;
}

/** A message, or how to write it from the refused value and its path. */
export type Say = string | ((value: unknown, path: ShapePath) => string);

/**
 * What a failed shape reports: a message, or a message with its fix and code.
 *
 * @example
 * ```ts
 * const problem: Problem = (value) => `port must be a whole number, got ${JSON.stringify(value)}.`;
 * ```
 */
export type Problem = Say | { readonly message: Say; readonly fix?: Say | undefined; readonly code?: string | undefined };

/**
 * A shape: appends the problems of `value` (at `path`) to `issues`, and says whether it found none. `T` is the
 * type a value has once it passed. A field of an {@link object} is also given the object it is in (`parent`), for
 * a rule between fields (an option that needs another).
 *
 * @example
 * ```ts
 * const port: Shape<number> = (value, path, issues) => Number.isInteger(value) || report(issues, path, value, 'port must be a whole number');
 * ```
 */
export type Shape<T = unknown> = ((value: unknown, path: ShapePath, issues: ShapeIssue[], parent?: Record<string, unknown>) => boolean) & {
  readonly checks?: T;
};

/**
 * The type a shape's values have once checked.
 *
 * @example
 * ```ts
 * type Port = ShapeType<typeof port>; // number
 * ```
 */
export type ShapeType<S> = S extends Shape<infer T> ? T : never;

const say = (text: Say | undefined, value: unknown, path: ShapePath): string | undefined => (typeof text === 'function' ? text(value, path) : text);

/**
 * Appends the issue `problem` describes for `value` at `path`; returns false, for shapes to return.
 *
 * @example
 * ```ts
 * const positive: Shape<number> = (value, path, issues) => (typeof value === 'number' && value > 0) || report(issues, path, value, 'must be positive');
 * ```
 */
export function report(issues: ShapeIssue[], path: ShapePath, value: unknown, problem: Problem): false {
  if (typeof problem !== 'object') issues.push({ path, message: say(problem, value, path) as string });
  else issues.push({ path, message: say(problem.message, value, path) as string, fix: say(problem.fix, value, path), code: problem.code });
  return false;
}

/**
 * A shape from a test of the value: `problem` when the test fails.
 *
 * @example
 * ```ts
 * const fn = valid((value) => typeof value === 'function', 'onDecision must be a function (event) => void.');
 * ```
 */
export function valid<T>(test: (value: unknown) => boolean, problem: Problem): Shape<T> {
  return (value, path, issues) => test(value) || report(issues, path, value, problem);
}

/**
 * A string of `min` to `max` characters (default: any length).
 *
 * @example
 * ```ts
 * const name = text({ min: 1 }, 'must be a non-empty string');
 * ```
 */
export function text(bounds: { readonly min?: number; readonly max?: number }, problem: Problem): Shape<string> {
  const { min = 0, max = Infinity } = bounds;
  return valid((value) => typeof value === 'string' && value.length >= min && value.length <= max, problem);
}

/**
 * A whole number (a safe integer) from `min` to `max`.
 *
 * @example
 * ```ts
 * const port = integer(1, 65535, (value) => `port must be a whole number from 1 to 65535, got ${String(value)}.`);
 * ```
 */
export function integer(min: number, max: number, problem: Problem): Shape<number> {
  return valid((value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max, problem);
}

/**
 * One of the listed values (compared with `===`).
 *
 * @example
 * ```ts
 * const expect = oneOf(['granted', 'denied'], 'expect must be "granted" or "denied"');
 * ```
 */
export function oneOf<const T extends readonly unknown[]>(values: T, problem: Problem): Shape<T[number]> {
  return valid((value) => values.includes(value), problem);
}

/**
 * `shape`, or `undefined`.
 *
 * @example
 * ```ts
 * const timeout = optional(integer(1, 1000, 'timeout must be from 1 to 1000 ms'));
 * ```
 */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value, path, issues, parent) => value === undefined || shape(value, path, issues, parent);
}

/**
 * Every shape in turn, each on the same value; stops at the first that fails, so later shapes may rely on the
 * earlier ones (a type, then a rule).
 *
 * @example
 * ```ts
 * const name = both(text({ min: 1 }, 'not a name'), valid((value) => !/\s/.test(value as string), 'has spaces'));
 * ```
 */
export function both<T>(first: Shape<unknown>, ...rest: readonly Shape<unknown>[]): Shape<T> {
  return (value, path, issues, parent) => first(value, path, issues, parent) && rest.every((shape) => shape(value, path, issues, parent));
}

/**
 * Whether `value` is a plain object (not null, not an array).
 *
 * @example
 * ```ts
 * isObject({ id: 1 }); // true
 * isObject([1]); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a collection (an array, or the keys of an object) reports being over its limit. */
export interface Limit {
  readonly max: number;
  /** Reported at the first entry past the limit, given the count. */
  readonly tooMany: (count: number, path: ShapePath) => Problem;
}

function within(count: number, limit: Limit | undefined, path: ShapePath, firstPast: string | number, issues: ShapeIssue[]): boolean {
  if (limit === undefined || count <= limit.max) return true;
  return report(issues, [...path, firstPast], count, limit.tooMany(count, path));
}

/**
 * An array of at most `limit.max` items (when given), each checked by `item`; an array over its limit is
 * reported at its first item past it, and its items are not read.
 *
 * @example
 * ```ts
 * const roles = list(text({}, 'a role is a string'), 'roles must be an array', { max: 64, tooMany: (n) => `${n} roles, more than 64` });
 * ```
 */
export function list<T>(item: Shape<T>, problem: Problem, limit?: Limit): Shape<T[]> {
  return (value, path, issues) => {
    if (!Array.isArray(value)) return report(issues, path, value, problem);
    if (!within(value.length, limit, path, limit?.max ?? 0, issues)) return false;
    let ok = true;
    for (let i = 0; i < value.length; i++) ok = item(value[i], [...path, i], issues) && ok;
    return ok;
  };
}

/**
 * An object used as a map: each own key's value checked by `entry` (at the key's path), at most `limit.max` keys.
 *
 * @example
 * ```ts
 * const idTypes = record(oneOf(['number', 'string'], 'must be "number" or "string"'), 'must be an object');
 * ```
 */
export function record<T>(entry: Shape<T>, problem: Problem, limit?: Limit): Shape<Record<string, T>> {
  return (value, path, issues) => {
    if (!isObject(value)) return report(issues, path, value, problem);
    const keys = Object.keys(value);
    if (!within(keys.length, limit, path, keys[limit?.max ?? 0] ?? '', issues)) return false;
    let ok = true;
    for (const key of keys) ok = entry(value[key], [...path, key], issues) && ok;
    return ok;
  };
}

/**
 * How {@link object} reports a value that is not an object, and a key it does not know.
 *
 * @example
 * ```ts
 * const problems: ObjectProblems = {
 *   notObject: 'options must be an object',
 *   unknownKey: (key, known) => `no option ${key}; the options are ${known.join(', ')}`,
 * };
 * ```
 */
export interface ObjectProblems {
  readonly notObject: Problem;
  /**
   * Reported at the unknown key's path, given the known keys; every unknown key, unless `firstUnknownOnly`. Or,
   * as an array of one function, every unknown key in one problem at the object's path.
   */
  readonly unknownKey: ((key: string, known: readonly string[]) => Problem) | readonly [all: (keys: readonly string[]) => Problem];
  readonly firstUnknownOnly?: boolean;
}

/**
 * The fields of an object shape: one shape per known key.
 *
 * @example
 * ```ts
 * const fields = { port: integer(1, 65535, 'port must be from 1 to 65535'), host: optional(text({ min: 1 }, 'host must be a name')) } satisfies Fields;
 * ```
 */
export type Fields = { readonly [key: string]: Shape<any> };

/**
 * An object with known keys only: unknown keys are reported first, then each field in the order written here
 * (which is the order problems are found in, so the first problem is the first field written wrong). Each field's
 * shape is given the object too, for rules between fields.
 *
 * @example
 * ```ts
 * const user = object({ id: integer(1, 100, 'bad id'), roles: list(text({}, 'bad role'), 'not an array') }, {
 *   notObject: 'a user must be an object',
 *   unknownKey: (key, known) => `unknown field ${key}; the fields are ${known.join(', ')}`,
 * });
 * ```
 */
export function object<F extends Fields>(fields: F, problems: ObjectProblems): Shape<{ [K in keyof F]: ShapeType<F[K]> }> {
  const known = Object.keys(fields);
  return (value, path, issues) => {
    if (!isObject(value)) return report(issues, path, value, problems.notObject);
    let ok = true;
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(fields, key));
    const { unknownKey } = problems;
    if (typeof unknownKey !== 'function') ok = unknown.length === 0 || report(issues, path, value, unknownKey[0](unknown));
    else for (const key of problems.firstUnknownOnly === true ? unknown.slice(0, 1) : unknown) ok = report(issues, [...path, key], key, unknownKey(key, known));
    for (const key of known) ok = (fields[key] as Shape)(value[key], [...path, key], issues, value) && ok;
    return ok;
  };
}

/**
 * The problems of `value` against `shape`; none when it fits.
 *
 * @example
 * ```ts
 * issuesOf(integer(1, 10, 'from 1 to 10'), 11); // [{ path: [], message: 'from 1 to 10' }]
 * ```
 */
export function issuesOf(shape: Shape<unknown>, value: unknown, path: ShapePath = []): ShapeIssue[] {
  const issues: ShapeIssue[] = [];
  shape(value, path, issues);
  return issues;
}

/**
 * `value`, typed as the shape says, or the error `fail` makes of its first problem (options are refused one
 * mistake at a time, the first one written).
 *
 * @example
 * ```ts
 * const limits = checked(limitsShape, options.limits, (issue) => new PermissionsUsageError(issue.message));
 * ```
 */
export function checked<T>(shape: Shape<T>, value: unknown, fail: (issue: ShapeIssue) => Error): T {
  const [first] = issuesOf(shape, value);
  if (first !== undefined) throw fail(first);
  return value as T;
}

/**
 * `value`, typed as the shape says, or a PermissionsUsageError with the message of its first problem: how
 * options are checked when something is made.
 *
 * @example
 * ```ts
 * const { maxChecks } = usageChecked(limitsShape, options.limits);
 * ```
 */
export function usageChecked<T>(shape: Shape<T>, value: unknown): T {
  return checked(shape, value, (issue) => new PermissionsUsageError(issue.message));
}
