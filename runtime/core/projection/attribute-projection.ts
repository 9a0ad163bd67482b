/**
 * Attribute projection by interpretation: walks an {@link AttributePlan} over a record at run time and
 * builds the picked copy. No generated code, so it runs where `new Function` is forbidden (a browser with
 * a strict Content-Security-Policy: the `typed-permissions/client` entry uses only this), and the server's
 * compiled projections (attribute-picker.ts) are checked against it.
 */
import type { AttributePlan } from './attribute-plan.js';

// Always called as isEnumerableOwn.call(item, key), never detached from a receiver.
// eslint-disable-next-line @typescript-eslint/unbound-method
export const isEnumerableOwn: (this: unknown, key: PropertyKey) => boolean = Object.prototype.propertyIsEnumerable;
/** Stores `value` under `key` as plain data: an own `"__proto__"` key never becomes the prototype. */
export const defineData = (target: object, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/** A compiled projection of one plan. */
export type Picker = (item: object) => Record<string, unknown>;

/** A compiled projection of a nested value: undefined means "omit the key". */
export type NestedPicker = (value: unknown) => unknown;

/**
 * The projection of a nested attribute: an object is picked, each object of an array is picked (other
 * elements dropped), anything else is left out.
 *
 * @example
 * ```ts
 * nestedPicker(interpretPicker(compileAttributePatterns(['city'])))([{ city: 'c', street: 's' }, 3]); // [{ city: 'c' }]
 * ```
 */
export function nestedPicker(pick: Picker): NestedPicker {
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
