/**
 * Attribute projection on the server: a plan is interpreted for its first picks and compiled into a
 * projection function (`new Function`, keys embedded only as JSON string literals) once it proves hot,
 * where the environment allows compiling and the engine has not opted out (`compileProjections: false`).
 */
import type { AttributePlan } from './attribute-plan.js';
import { defineData, interpretPicker, isEnumerableOwn, nestedPicker, type NestedPicker, type Picker } from './attribute-projection.js';

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
 * The projection of a plan: interpreted for its first picks, compiled once it proves hot (when `compile` is
 * allowed and the environment lets it). The generated code only ever embeds keys as JSON string literals,
 * assigns `__proto__` as a data property, and reads own enumerable string keys only.
 */
function pickerFor(plan: AttributePlan, compile: boolean): Picker {
  const picker = pickers.get(plan);
  if (picker !== undefined) return picker;
  // Tiered: a plan made for a one-off combination of roles would otherwise cost a compiled function (time
  // and tens of kilobytes) for a single use.
  const uses = (pickCounts.get(plan) ?? 0) + 1;
  if (uses < COMPILE_AFTER_PICKS || !compile || !canCompile()) {
    let interpreted = interpretedPickers.get(plan);
    if (interpreted === undefined) interpretedPickers.set(plan, (interpreted = interpretPicker(plan)));
    if (compile && uses < COMPILE_AFTER_PICKS) pickCounts.set(plan, uses);
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

/** How the generated code stores `value` under `key`: `__proto__` as a data property, never as the prototype. */
const store = (key: string, value: string): string => (key === '__proto__' ? `defineData(o, "__proto__", ${value});` : `o[${JSON.stringify(key)}] = ${value};`);

/** The statements of a plan that keeps only the keys it lists (children of nested keys through `nestedFor`). */
function listedKeysCode(plan: AttributePlan, nestedFor: (child: AttributePlan) => string): string[] {
  const code = ['const o = {};'];
  plan.keys.forEach((key, i) => {
    const child = plan.nested[i];
    const k = JSON.stringify(key);
    if (child === undefined) code.push(`if (e.call(s, ${k})) ${store(key, `s[${k}]`)}`);
    else code.push(`if (e.call(s, ${k})) { const v = ${nestedFor(child)}(s[${k}]); if (v !== undefined) ${store(key, 'v')} }`);
  });
  code.push('return o;');
  return code;
}

/** The statements of a plan that keeps every key but those it lists (or descends into them). */
function allButCode(plan: AttributePlan, nestedFor: (child: AttributePlan) => string, haveKeys: boolean): string[] {
  const code = haveKeys ? [] : ['const ks = keys(s);'];
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
  return code;
}

/** Makes the literal projection of records whose own keys are exactly `keys` (in the key order the generic path gives). */
function shapeMaker(plan: AttributePlan): (keys: readonly string[]) => Shape {
  const listed = new Set(plan.keys);
  return (keys) => {
    // Same key order as the generic path: the record's order for "all but" plans, the plan's for lists.
    const present = new Set(keys);
    const kept = plan.all ? keys.filter((key) => !listed.has(key)) : plan.keys.filter((key) => present.has(key));
    const literal = kept.map((key) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}: s[${JSON.stringify(key)}]`).join(', ');
    // Keys are embedded only as JSON string literals, so the generated source cannot be steered by data.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return { keys: [...keys], build: new Function('s', `"use strict"; return { ${literal} };`) as Picker };
  };
}

/** The compiled projection of one plan (keys only ever embedded as JSON string literals). */
function compilePicker(plan: AttributePlan): Picker {
  const nested: NestedPicker[] = [];
  const nestedFor = (child: AttributePlan) => {
    nested.push(nestedPicker(pickerFor(child, true)));
    return `n[${nested.length - 1}]`;
  };
  const flat = plan.nested.every((child) => child === undefined);
  const code: string[] = ['"use strict";'];
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
  code.push(...(plan.all ? allButCode(plan, nestedFor, flat) : listedKeysCode(plan, nestedFor)));
  const shapes: Shape[] = [];
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
    make: (keys: readonly string[]) => Shape,
    maxShapes: number,
    maxShapeKeys: number,
  ) => Picker;
  return factory(isEnumerableOwn, Object.keys, defineData, nested, shapes, sameKeys, shapeMaker(plan), MAX_SHAPES, MAX_SHAPE_KEYS);
}

let compileAllowed: boolean | undefined;

/**
 * Whether this environment lets the library compile functions (a Content-Security-Policy may forbid it):
 * probed once, the first time a plan is hot enough to compile — never at import, where a strict CSP would
 * report the probe itself as a violation.
 */
function canCompile(): boolean {
  if (compileAllowed === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe itself: does a CSP allow compiling?
      compileAllowed = (new Function('return 1') as () => number)() === 1;
    } catch {
      compileAllowed = false;
    }
  }
  return compileAllowed;
}

/**
 * Returns a new object with the own enumerable attributes of `item` that `plan` keeps. Never returns
 * `item` itself and never reads inherited properties. Nested plans apply to nested objects and to
 * each object in a nested array. A plan is interpreted for its first seven picks and compiled into a
 * projection function on the eighth, where the environment allows compiling; with `compile: false`
 * (the engine option `compileProjections: false`, for a strict Content-Security-Policy) it is always
 * interpreted and nothing is ever compiled or probed.
 *
 * @example
 * ```ts
 * pickWithPlan(compileAttributePatterns(['title', 'address.city']), { title: 't', address: { city: 'c', street: 's' } });
 * // { title: 't', address: { city: 'c' } }
 * ```
 */
export function pickWithPlan(plan: AttributePlan, item: object, compile = true): Record<string, unknown> {
  return pickerFor(plan, compile)(item);
}
