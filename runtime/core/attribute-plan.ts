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
  // Equal patterns give the same plan object, so that unions and interning downstream work by identity.
  const key = patterns.join('\u0000');
  const known = compiledPatterns.get(key);
  if (known !== undefined) return known;
  let plan = NOTHING;
  for (const pattern of patterns) {
    const parsed = parseAttributePattern(pattern);
    if (isSyntaxProblem(parsed)) throw new TypeError(`invalid attribute pattern ${JSON.stringify(pattern)}: ${parsed.message}`);
    plan = setPath(plan, parsed.path, parsed.allow);
  }
  if (compiledPatterns.size >= MAX_COMPILED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(key, plan);
  return plan;
}

/** Compiled patterns by their text; bounded so a process that builds many policies cannot grow it forever. */
const compiledPatterns = new Map<string, AttributePlan>();
const MAX_COMPILED_PATTERNS = 10_000;
const unions = new WeakMap<AttributePlan, WeakMap<AttributePlan, AttributePlan>>();

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
  let withA = unions.get(a);
  if (withA === undefined) unions.set(a, (withA = new WeakMap()));
  let union = withA.get(b);
  if (union === undefined) {
    const keys = new Set([...a.keys, ...b.keys]);
    const children = new Map<string, AttributePlan>();
    for (const key of keys) children.set(key, unionPlans(childOf(a, key), childOf(b, key)));
    union = makePlan(a.all || b.all, children);
    withA.set(b, union);
  }
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
      for (const element of value) if (typeof element === 'object' && element !== null && !Array.isArray(element)) out.push(pick(element));
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
  let picker = pickers.get(plan);
  if (picker !== undefined) return picker;
  if (!canCompile) {
    picker = interpretPicker(plan);
    pickers.set(plan, picker);
    return picker;
  }
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
        else code.push(`case ${JSON.stringify(key)}: { const v = ${nestedFor(child)}(s[k]); if (v !== undefined) { if (k === "__proto__") defineData(o, k, v); else o[k] = v; } continue; }`);
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
    return { keys: [...keys], build: new Function('s', `"use strict"; return { ${literal} };`) as Picker };
  };
  const factory = new Function('e', 'keys', 'defineData', 'n', 'shapes', 'sameKeys', 'makeShape', 'MAX_SHAPES', 'MAX_SHAPE_KEYS', `return function pick(s) {\n${code.join('\n')}\n};`) as (
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
  picker = factory(isEnumerableOwn, Object.keys, defineData, nested, shapes, sameKeys, makeShape, MAX_SHAPES, MAX_SHAPE_KEYS);
  pickers.set(plan, picker);
  return picker;
}

/** Whether this environment lets the library compile functions (a Content-Security-Policy may forbid it). */
const canCompile = ((): boolean => {
  try {
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
