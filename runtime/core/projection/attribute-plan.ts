/**
 * Attribute plans: attribute patterns compiled once (at build) into a trie that says, for every key
 * of an object, keep it, drop it, or descend into it. `pick` walks the plan, never the patterns.
 */
import { BoundedCache, CacheBudget } from '../common/bounded-cache.js';
import { isSyntaxProblem, parseAttributePattern } from '../definition/grant-syntax.js';

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

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A plan from children whose keys are already sorted. Normalises: a child that only repeats the
 * parent's verdict is dropped; a leaf child (the opposite verdict) is stored as `undefined`.
 */
function makeSortedPlan(all: boolean, sortedKeys: readonly string[], children: readonly AttributePlan[]): AttributePlan {
  const keys: string[] = [];
  const nested: (AttributePlan | undefined)[] = [];
  let allowsAny = all;
  for (let i = 0; i < sortedKeys.length; i++) {
    const child = children[i] as AttributePlan;
    const leaf = child.keys.length === 0;
    if (leaf && child.all === all) continue;
    keys.push(sortedKeys[i] as string);
    nested.push(leaf ? undefined : child);
    if (leaf || child.allowsAny) allowsAny = true;
  }
  return { all, keys, nested, index: all && keys.length > 0 ? new Map(keys.map((key, i) => [key, i])) : EMPTY_INDEX, allowsAny };
}

function makePlan(all: boolean, children: ReadonlyMap<string, AttributePlan>): AttributePlan {
  const keys = [...children.keys()].sort(byCodeUnit);
  return makeSortedPlan(
    all,
    keys,
    keys.map((key) => children.get(key) as AttributePlan),
  );
}

const planSizes = new WeakMap<AttributePlan, number>();

/**
 * An estimate of the memory a plan takes, in bytes (objects, key strings, the key index), for the byte budgets
 * of the caches that keep plans. Computed once per plan.
 *
 * @example
 * ```ts
 * planBytes(compileAttributePatterns(['*', '!confidential'])); // 328
 * ```
 */
export function planBytes(plan: AttributePlan): number {
  let bytes = planSizes.get(plan);
  if (bytes === undefined) {
    bytes = 160 + (plan.index.size > 0 ? 64 : 0);
    for (let i = 0; i < plan.keys.length; i++) {
      const child = plan.nested[i];
      bytes += 48 + 2 * (plan.keys[i] as string).length + (plan.index.size > 0 ? 32 : 0) + (child === undefined ? 0 : planBytes(child));
    }
    planSizes.set(plan, bytes);
  }
  return bytes;
}

/** The plan that keeps nothing. */
export const NOTHING: AttributePlan = makePlan(false, new Map());
/** The plan that keeps every attribute. */
export const EVERYTHING: AttributePlan = makePlan(true, new Map());

/** The child plan of `plan` at position `i` of its keys, or for a key it does not list (`i === -1`). */
function childAt(plan: AttributePlan, i: number): AttributePlan {
  if (i === -1) return plan.all ? EVERYTHING : NOTHING;
  return plan.nested[i] ?? (plan.all ? NOTHING : EVERYTHING);
}

/** A node of the mutable trie that patterns are applied to, before it is frozen into plans. */
interface DraftNode {
  all: boolean;
  readonly children: Map<string, DraftNode>;
}

function freeze(node: DraftNode): AttributePlan {
  if (node.children.size === 0) return node.all ? EVERYTHING : NOTHING;
  const children = new Map<string, AttributePlan>();
  for (const [key, child] of node.children) children.set(key, freeze(child));
  return makePlan(node.all, children);
}

/** Pattern lists longer than this (in characters) are not memoised: their text would be the key. */
const MAX_MEMOISED_PATTERNS_LENGTH = 4096;

/**
 * Compiles attribute patterns, applied in order: `'*'` keeps all, `'name'` keeps, `'!name'` drops;
 * dotted paths reach nested objects. Patterns must be valid (see `parseAttributePattern`).
 * Linear in the total length of the patterns: they are applied to a mutable trie (a pattern
 * replaces the subtree it names), which is frozen into plans once at the end.
 *
 * @example
 * ```ts
 * const plan = compileAttributePatterns(['*', '!confidential']);
 * pickWithPlan(plan, { title: 't', confidential: 'c' }); // { title: 't' }
 * ```
 */
export function compileAttributePatterns(patterns: readonly string[]): AttributePlan {
  // Equal patterns give the same plan object, so that unions and interning downstream work by identity.
  const key = patterns.join('\u0000');
  const memoise = key.length <= MAX_MEMOISED_PATTERNS_LENGTH;
  const known = memoise ? compiledPatterns.get(key) : undefined;
  if (known !== undefined) return known;
  const root: DraftNode = { all: false, children: new Map() };
  for (const pattern of patterns) {
    const parsed = parseAttributePattern(pattern);
    if (isSyntaxProblem(parsed)) throw new TypeError(`invalid attribute pattern ${JSON.stringify(pattern)}: ${parsed.message}`);
    let node = root;
    for (const segment of parsed.path) {
      let child = node.children.get(segment);
      // A key not named yet has its parent's verdict until a pattern names it.
      if (child === undefined) node.children.set(segment, (child = { all: node.all, children: new Map() }));
      node = child;
    }
    node.all = parsed.allow;
    node.children.clear();
  }
  const plan = freeze(root);
  if (memoise) compiledPatterns.set(key, plan, 2 * key.length + planBytes(plan));
  return plan;
}

/** The most pattern lists kept compiled, and their estimated bytes (keys and plans together). */
export const MAX_COMPILED_PATTERNS = 10_000;
export const MAX_COMPILED_PATTERNS_BYTES = 16 * 1024 * 1024;
/** Compiled patterns by their text; bounded so a process that builds many policies cannot grow it forever. */
const compiledPatterns = new BoundedCache<string, AttributePlan>(MAX_COMPILED_PATTERNS, new CacheBudget(MAX_COMPILED_PATTERNS_BYTES));

/**
 * Unions already made, by their two operands. A user's combination of roles makes new unions, so
 * the number of distinct role sets a process sees would grow this without end: it is bounded by
 * count and by bytes, and forgets the oldest first (a union made again is equal, only not the same object).
 */
const unions = new Map<AttributePlan, Map<AttributePlan, AttributePlan>>();
/** The most unions remembered at once, and their estimated bytes. */
export const MAX_MEMOISED_UNIONS = 4096;
export const MAX_MEMOISED_UNIONS_BYTES = 16 * 1024 * 1024;
/** Each remembered union with its operands, oldest first: forgetting one drops it from `unions`. */
const unionOperands = new BoundedCache<AttributePlan, readonly [AttributePlan, AttributePlan]>(
  MAX_MEMOISED_UNIONS,
  new CacheBudget(MAX_MEMOISED_UNIONS_BYTES),
  (_union, [a, b]) => {
    const withA = unions.get(a);
    withA?.delete(b);
    if (withA?.size === 0) unions.delete(a);
  },
);

/**
 * The plan that keeps what either plan keeps (set union), used to combine roles and definitions.
 * Linear in the size of the two plans (their keys are sorted, so they are merged).
 *
 * @example
 * ```ts
 * unionPlans(compileAttributePatterns(['title']), compileAttributePatterns(['date'])); // keeps title and date
 * ```
 */
export function unionPlans(a: AttributePlan, b: AttributePlan): AttributePlan {
  if (a === b || b === NOTHING || a === EVERYTHING) return a;
  if (a === NOTHING || b === EVERYTHING) return b;
  let withA = unions.get(a);
  let union = withA?.get(b);
  if (union !== undefined) return union;
  const keys: string[] = [];
  const children: AttributePlan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.keys.length || j < b.keys.length) {
    const keyA = a.keys[i];
    const keyB = b.keys[j];
    if (keyB === undefined || (keyA !== undefined && keyA < keyB)) {
      keys.push(keyA as string);
      children.push(unionPlans(childAt(a, i), childAt(b, -1)));
      i++;
    } else if (keyA === undefined || keyB < keyA) {
      keys.push(keyB);
      children.push(unionPlans(childAt(a, -1), childAt(b, j)));
      j++;
    } else {
      keys.push(keyA);
      children.push(unionPlans(childAt(a, i), childAt(b, j)));
      i++;
      j++;
    }
  }
  union = makeSortedPlan(a.all || b.all, keys, children);
  if (withA === undefined) unions.set(a, (withA = new Map<AttributePlan, AttributePlan>()));
  withA.set(b, union);
  unionOperands.set(union, [a, b], planBytes(union));
  return union;
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
  return [
    plan.all ? 1 : 0,
    plan.keys.map((key, i) => {
      const child = plan.nested[i];
      return [key, child === undefined ? null : planToJson(child)] as const;
    }),
  ];
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
