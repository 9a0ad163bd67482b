/**
 * Attribute plans: attribute patterns compiled once (at build) into a trie that says, for every key
 * of an object, keep it, drop it, or descend into it. `pick` walks the plan, never the patterns.
 */
import { isSyntaxProblem, parseAttributePattern } from './grant-syntax.js';

/**
 * A compiled set of attribute patterns. `all` is the verdict for keys without an entry in `keys`;
 * `nested[i]` is the plan for `keys[i]`, or `undefined` when that key simply has the opposite verdict.
 */
export interface AttributePlan {
  readonly all: boolean;
  readonly keys: readonly string[];
  readonly nested: readonly (AttributePlan | undefined)[];
  /** Position of each key in `keys`, for plans that keep every other key. */
  readonly index: ReadonlyMap<string, number>;
  /** Whether the plan keeps at least one attribute. */
  readonly allowsAny: boolean;
}

/** The serialisable form of a plan: `[all, [[key, plan | null], …]]`, keys sorted. */
export type AttributePlanJson = readonly [all: 0 | 1, children: readonly (readonly [key: string, plan: AttributePlanJson | null])[]];

const EMPTY_INDEX: ReadonlyMap<string, number> = new Map();

function makePlan(all: boolean, children: ReadonlyMap<string, AttributePlan>): AttributePlan {
  // Normalise: a child that only repeats the parent's verdict is dropped; a leaf child is stored as `undefined`.
  const entries = [...children].filter(([, child]) => !(child.all === all && child.keys.length === 0)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const keys = entries.map(([key]) => key);
  const nested = entries.map(([, child]) => (child.keys.length === 0 ? undefined : child));
  const allowsAny = all || nested.some((child) => child === undefined || child.allowsAny);
  return { all, keys, nested, index: all && keys.length > 0 ? new Map(keys.map((key, i) => [key, i])) : EMPTY_INDEX, allowsAny };
}

/** The plan that keeps nothing. */
export const NOTHING: AttributePlan = makePlan(false, new Map());
/** The plan that keeps every attribute. */
export const EVERYTHING: AttributePlan = makePlan(true, new Map());

function childOf(plan: AttributePlan, key: string): AttributePlan {
  const i = plan.keys.indexOf(key);
  if (i === -1) return plan.all ? EVERYTHING : NOTHING;
  return plan.nested[i] ?? (plan.all ? NOTHING : EVERYTHING);
}

function childrenOf(plan: AttributePlan): Map<string, AttributePlan> {
  return new Map(plan.keys.map((key) => [key, childOf(plan, key)]));
}

function setPath(plan: AttributePlan, path: readonly string[], allow: boolean): AttributePlan {
  if (path.length === 0) return allow ? EVERYTHING : NOTHING;
  const [head, ...rest] = path as [string, ...string[]];
  const children = childrenOf(plan);
  children.set(head, setPath(childOf(plan, head), rest, allow));
  return makePlan(plan.all, children);
}

/**
 * Compiles attribute patterns, applied in order: `'*'` keeps all, `'name'` keeps, `'!name'` drops;
 * dotted paths reach nested objects. Patterns must be valid (see `parseAttributePattern`).
 *
 * @example
 * ```ts
 * const plan = compileAttributePatterns(['*', '!confidential']);
 * pickWithPlan(plan, { title: 't', confidential: 'c' }); // { title: 't' }
 * ```
 */
export function compileAttributePatterns(patterns: readonly string[]): AttributePlan {
  let plan = NOTHING;
  for (const pattern of patterns) {
    const parsed = parseAttributePattern(pattern);
    if (isSyntaxProblem(parsed)) throw new TypeError(`invalid attribute pattern ${JSON.stringify(pattern)}: ${parsed.message}`);
    plan = setPath(plan, parsed.path, parsed.allow);
  }
  return plan;
}

/**
 * The plan that keeps what either plan keeps (set union), used to combine roles and definitions.
 *
 * @example
 * ```ts
 * unionPlans(compileAttributePatterns(['title']), compileAttributePatterns(['date'])); // keeps title and date
 * ```
 */
export function unionPlans(a: AttributePlan, b: AttributePlan): AttributePlan {
  if (a === b || b === NOTHING || a === EVERYTHING) return a;
  if (a === NOTHING || b === EVERYTHING) return b;
  const keys = new Set([...a.keys, ...b.keys]);
  const children = new Map<string, AttributePlan>();
  for (const key of keys) children.set(key, unionPlans(childOf(a, key), childOf(b, key)));
  return makePlan(a.all || b.all, children);
}

/** Whether two plans keep exactly the same attributes. */
export function equalPlans(a: AttributePlan, b: AttributePlan): boolean {
  return JSON.stringify(planToJson(a)) === JSON.stringify(planToJson(b));
}

/**
 * The serialisable form of a plan, stable for equal plans.
 *
 * @example
 * ```ts
 * planToJson(compileAttributePatterns(['*', '!confidential'])); // [1, [['confidential', null]]]
 * ```
 */
export function planToJson(plan: AttributePlan): AttributePlanJson {
  return [plan.all ? 1 : 0, plan.keys.map((key, i) => {
    const child = plan.nested[i];
    return [key, child === undefined ? null : planToJson(child)] as const;
  })];
}

/**
 * Rebuilds a plan from {@link planToJson}'s output (the compiler's tables hold this form).
 *
 * @example
 * ```ts
 * const plan = planFromJson([0, [['date', null], ['title', null]]]); // keeps title and date
 * ```
 */
export function planFromJson(json: AttributePlanJson): AttributePlan {
  const [all, entries] = json;
  if (all === 1 && entries.length === 0) return EVERYTHING;
  if (all === 0 && entries.length === 0) return NOTHING;
  const children = new Map<string, AttributePlan>();
  for (const [key, child] of entries) children.set(key, child === null ? (all === 1 ? NOTHING : EVERYTHING) : planFromJson(child));
  return makePlan(all === 1, children);
}

/**
 * The canonical patterns of a plan, shortest first: `['*', '!confidential']`, `['title', 'date']`.
 * This is what `permit.anyAttributes` and the permission matrix show.
 *
 * @example
 * ```ts
 * planToPatterns(unionPlans(compileAttributePatterns(['title']), compileAttributePatterns(['date']))); // ['date', 'title']
 * ```
 */
export function planToPatterns(plan: AttributePlan): string[] {
  const patterns: string[] = [];
  const visit = (node: AttributePlan, prefix: string, parentAll: boolean): void => {
    if (node.all !== parentAll) patterns.push(`${node.all ? '' : '!'}${prefix === '' ? '*' : prefix}`);
    node.keys.forEach((key, i) => {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const child = node.nested[i];
      if (child === undefined) patterns.push(`${node.all ? '!' : ''}${path}`);
      else visit(child, path, node.all);
    });
  };
  visit(plan, '', false);
  return patterns;
}

const isEnumerableOwn = Object.prototype.propertyIsEnumerable;

/** Sets a key as a data property: a key named `__proto__` must not change the result's prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function pickNested(plan: AttributePlan, value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const element of value) if (typeof element === 'object' && element !== null && !Array.isArray(element)) out.push(pickWithPlan(plan, element));
    return out;
  }
  // A partial plan over a primitive: the pattern named parts of it that cannot exist, so nothing is kept.
  if (typeof value !== 'object' || value === null) return undefined;
  return pickWithPlan(plan, value);
}

/**
 * Returns a new object with the own enumerable attributes of `item` that `plan` keeps. Never returns
 * `item` itself and never reads inherited properties. Nested plans apply to nested objects and to
 * each object in a nested array.
 *
 * @example
 * ```ts
 * pickWithPlan(compileAttributePatterns(['title', 'address.city']), { title: 't', address: { city: 'c', street: 's' } });
 * // { title: 't', address: { city: 'c' } }
 * ```
 */
export function pickWithPlan(plan: AttributePlan, item: object): Record<string, unknown> {
  const source = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const { keys, nested } = plan;
  if (!plan.all) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (!isEnumerableOwn.call(source, key)) continue;
      const child = nested[i];
      if (child === undefined) put(out, key, source[key]);
      else {
        const value = pickNested(child, source[key]);
        if (value !== undefined) put(out, key, value);
      }
    }
    return out;
  }
  const own = Object.keys(source);
  if (keys.length === 0) {
    for (let i = 0; i < own.length; i++) put(out, own[i] as string, source[own[i] as string]);
    return out;
  }
  const index = plan.index;
  for (let i = 0; i < own.length; i++) {
    const key = own[i] as string;
    const at = index.get(key);
    if (at === undefined) {
      put(out, key, source[key]);
      continue;
    }
    const child = nested[at];
    if (child === undefined) continue;
    const value = pickNested(child, source[key]);
    if (value !== undefined) put(out, key, value);
  }
  return out;
}
