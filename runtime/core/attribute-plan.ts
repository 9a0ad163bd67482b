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
  if (memoise) {
    if (compiledPatterns.size >= MAX_COMPILED_PATTERNS) compiledPatterns.clear();
    compiledPatterns.set(key, plan);
  }
  return plan;
}

/** Compiled patterns by their text; bounded so a process that builds many policies cannot grow it forever. */
const compiledPatterns = new Map<string, AttributePlan>();
const MAX_COMPILED_PATTERNS = 10_000;

/**
 * Unions already made, by their two operands. A user's combination of roles makes new unions, so
 * the number of distinct role sets a process sees would grow this without end: it is bounded, and
 * emptied when full (a union made again is equal, only not the same object).
 */
const unions = new Map<AttributePlan, Map<AttributePlan, AttributePlan>>();
let unionCount = 0;
/** The most unions remembered at once. */
export const MAX_MEMOISED_UNIONS = 4096;

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
  if (unionCount >= MAX_MEMOISED_UNIONS) {
    unions.clear();
    unionCount = 0;
    withA = undefined;
  }
  if (withA === undefined) unions.set(a, (withA = new Map<AttributePlan, AttributePlan>()));
  withA.set(b, union);
  unionCount++;
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

// Always called as isEnumerableOwn.call(item, key), never detached from a receiver.
// eslint-disable-next-line @typescript-eslint/unbound-method
const isEnumerableOwn: (this: unknown, key: PropertyKey) => boolean = Object.prototype.propertyIsEnumerable;
const defineData = (target: object, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/** A compiled projection of one plan. */
type Picker = (item: object) => Record<string, unknown>;

/** A compiled projection of a nested value: undefined means "omit the key". */
type NestedPicker = (value: unknown) => unknown;

function nestedPicker(pick: Picker): NestedPicker {
  return (value) => {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const element of value as readonly unknown[])
        if (typeof element === 'object' && element !== null && !Array.isArray(element)) out.push(pick(element));
      return out;
    }
    // A partial plan over a primitive: the pattern named parts of it that cannot exist, so nothing is kept.
    return typeof value === 'object' && value !== null ? pick(value) : undefined;
  };
}

const pickers = new WeakMap<AttributePlan, Picker>();

/** A key list seen before, and the literal that projects records of exactly that list. */
interface Shape {
  readonly keys: readonly string[];
  readonly build: Picker;
}
const MAX_SHAPES = 4;
const MAX_SHAPE_KEYS = 64;

function sameKeys(known: readonly string[], keys: readonly string[]): boolean {
  if (known.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (known[i] !== keys[i]) return false;
  return true;
}

/**
 * Compiles a plan into a projection function, once per plan. The generated code only ever embeds
 * keys as JSON string literals, assigns `__proto__` as a data property, and reads own enumerable
 * string keys only (no inherited data, no symbol-keyed internals).
 */
function pickerFor(plan: AttributePlan): Picker {
  const picker = pickers.get(plan);
  if (picker !== undefined) return picker;
  // Tiered: a plan is interpreted for its first picks and compiled once it proves hot. A plan made
  // for a one-off combination of roles would otherwise cost a compiled function (time and tens of
  // kilobytes) for a single use.
  const uses = (pickCounts.get(plan) ?? 0) + 1;
  if (uses < COMPILE_AFTER_PICKS || !canCompile) {
    let interpreted = interpretedPickers.get(plan);
    if (interpreted === undefined) interpretedPickers.set(plan, (interpreted = interpretPicker(plan)));
    if (canCompile) pickCounts.set(plan, uses);
    else pickers.set(plan, interpreted);
    return interpreted;
  }
  pickCounts.delete(plan);
  interpretedPickers.delete(plan);
  const compiled = compilePicker(plan);
  pickers.set(plan, compiled);
  return compiled;
}

/** How many picks a plan answers by interpretation before it is compiled. */
const COMPILE_AFTER_PICKS = 8;
const pickCounts = new WeakMap<AttributePlan, number>();
const interpretedPickers = new WeakMap<AttributePlan, Picker>();

function compilePicker(plan: AttributePlan): Picker {
  const nested: NestedPicker[] = [];
  const code: string[] = ['"use strict";'];
  const store = (key: string, value: string) => (key === '__proto__' ? `defineData(o, "__proto__", ${value});` : `o[${JSON.stringify(key)}] = ${value};`);
  const nestedFor = (child: AttributePlan) => {
    nested.push(nestedPicker(pickerFor(child)));
    return `n[${nested.length - 1}]`;
  };
  const flat = plan.nested.every((child) => child === undefined);
  if (flat) {
    // Records of one resource mostly share one key list: recognise it (Object.keys is exactly the own
    // enumerable string keys) and build the result as one literal. Few shapes per plan, bounded in
    // number and size, so odd inputs cannot grow this; anything else takes the generic path below.
    code.push(
      'const ks = keys(s);',
      'for (let c = 0; c < shapes.length; c++) { const shape = shapes[c]; if (sameKeys(shape.keys, ks)) return shape.build(s); }',
      'if (shapes.length < MAX_SHAPES && ks.length <= MAX_SHAPE_KEYS) { const shape = makeShape(ks); shapes.push(shape); return shape.build(s); }',
    );
  }
  if (!plan.all) {
    code.push('const o = {};');
    plan.keys.forEach((key, i) => {
      const child = plan.nested[i];
      const k = JSON.stringify(key);
      if (child === undefined) code.push(`if (e.call(s, ${k})) ${store(key, `s[${k}]`)}`);
      else code.push(`if (e.call(s, ${k})) { const v = ${nestedFor(child)}(s[${k}]); if (v !== undefined) ${store(key, 'v')} }`);
    });
    code.push('return o;');
  } else {
    if (!flat) code.push('const ks = keys(s);');
    code.push('const o = {};', 'for (let i = 0; i < ks.length; i++) {', 'const k = ks[i];');
    if (plan.keys.length > 0) {
      code.push('switch (k) {');
      plan.keys.forEach((key, i) => {
        const child = plan.nested[i];
        if (child === undefined) code.push(`case ${JSON.stringify(key)}: continue;`);
        else
          code.push(
            `case ${JSON.stringify(key)}: { const v = ${nestedFor(child)}(s[k]); ` +
              'if (v !== undefined) { if (k === "__proto__") defineData(o, k, v); else o[k] = v; } continue; }',
          );
      });
      code.push('}');
    }
    code.push('if (k === "__proto__") defineData(o, k, s[k]); else o[k] = s[k];', '}', 'return o;');
  }
  const listed = new Set(plan.keys);
  const shapes: Shape[] = [];
  const makeShape = (keys: readonly string[]): Shape => {
    // Same key order as the generic path: the record's order for "all but" plans, the plan's for lists.
    const present = new Set(keys);
    const kept = plan.all ? keys.filter((key) => !listed.has(key)) : plan.keys.filter((key) => present.has(key));
    const literal = kept.map((key) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}: s[${JSON.stringify(key)}]`).join(', ');
    // Keys are embedded only as JSON string literals, so the generated source cannot be steered by data.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return { keys: [...keys], build: new Function('s', `"use strict"; return { ${literal} };`) as Picker };
  };
  // The projection is compiled once per plan; keys appear only as JSON string literals (see above).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(
    'e',
    'keys',
    'defineData',
    'n',
    'shapes',
    'sameKeys',
    'makeShape',
    'MAX_SHAPES',
    'MAX_SHAPE_KEYS',
    `return function pick(s) {\n${code.join('\n')}\n};`,
  ) as (
    e: typeof isEnumerableOwn,
    keys: typeof Object.keys,
    define: typeof defineData,
    n: readonly NestedPicker[],
    shapes: Shape[],
    same: typeof sameKeys,
    make: typeof makeShape,
    maxShapes: number,
    maxShapeKeys: number,
  ) => Picker;
  return factory(isEnumerableOwn, Object.keys, defineData, nested, shapes, sameKeys, makeShape, MAX_SHAPES, MAX_SHAPE_KEYS);
}

/** Whether this environment lets the library compile functions (a Content-Security-Policy may forbid it). */
const canCompile = ((): boolean => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe itself: does a CSP allow compiling?
    return (new Function('return 1') as () => number)() === 1;
  } catch {
    return false;
  }
})();

/**
 * The projection of a plan without generated code: the same decisions, walked at run time. Used
 * where `new Function` is forbidden (a browser with a strict Content-Security-Policy), and by the
 * tests as an independent check of the generated projections.
 *
 * @example
 * ```ts
 * interpretPicker(compileAttributePatterns(['*', '!secret']))({ id: 1, secret: 's' }); // { id: 1 }
 * ```
 */
export function interpretPicker(plan: AttributePlan): Picker {
  const nested = plan.nested.map((child) => (child === undefined ? undefined : nestedPicker(interpretPicker(child))));
  const store = (out: Record<string, unknown>, key: string, value: unknown): void => {
    if (key === '__proto__') defineData(out, key, value);
    else out[key] = value;
  };
  if (!plan.all) {
    return (source) => {
      const item = source as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      plan.keys.forEach((key, i) => {
        if (!isEnumerableOwn.call(item, key)) return;
        const child = nested[i];
        const value = child === undefined ? item[key] : child(item[key]);
        if (value !== undefined || child === undefined) store(out, key, value);
      });
      return out;
    };
  }
  return (source) => {
    const item = source as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) {
      const at = plan.index.get(key);
      if (at === undefined) store(out, key, item[key]);
      else if (plan.nested[at] !== undefined) {
        const value = (nested[at] as NestedPicker)(item[key]);
        if (value !== undefined) store(out, key, value);
      }
    }
    return out;
  };
}

/**
 * Returns a new object with the own enumerable attributes of `item` that `plan` keeps. Never returns
 * `item` itself and never reads inherited properties. Nested plans apply to nested objects and to
 * each object in a nested array. The plan is compiled into a projection function on first use.
 *
 * @example
 * ```ts
 * pickWithPlan(compileAttributePatterns(['title', 'address.city']), { title: 't', address: { city: 'c', street: 's' } });
 * // { title: 't', address: { city: 'c' } }
 * ```
 */
export function pickWithPlan(plan: AttributePlan, item: object): Record<string, unknown> {
  return pickerFor(plan)(item);
}
