/**
 * The compiled projections (one function per plan, with a bounded cache of record shapes) agree
 * with the naive reading of the patterns, whichever path — shape literal or generic loop — runs, and
 * with the interpreted projection used where generated code is forbidden.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { interpretPicker } from '../../runtime/core/projection/attribute-projection.js';
import { pickWithPlan } from '../../runtime/core/projection/attribute-picker.js';
import { compileAttributePatterns } from '../../runtime/core/projection/attribute-plan.js';
import { attributePatternArb } from './arbitraries.js';
import { patternsKeep } from './reference-interpreter.js';

const KEYS = ['id', 'title', 'secret', 'status', '__proto__', 'constructor', 'a b', 'ü'];
const pattern = attributePatternArb(fc.constantFrom(...KEYS));
const record = fc.dictionary(fc.constantFrom(...KEYS, 'x', 'y', 'z'), fc.oneof(fc.integer(), fc.string()), { maxKeys: 8 });

function naive(patterns: readonly string[], item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(item))
    if (patternsKeep(patterns, key)) Object.defineProperty(out, key, { value: item[key], enumerable: true, writable: true, configurable: true });
  return out;
}

describe('compiled pick ≡ the interpreted pick ≡ the naive reading of the patterns', () => {
  it('for many record shapes per plan (more than the shape cache holds)', () => {
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 4 }), fc.array(record, { minLength: 1, maxLength: 12 }), (patterns, items) => {
        const plan = compileAttributePatterns(patterns);
        for (const item of items) {
          const picked = pickWithPlan(plan, item);
          expect(picked).toEqual(naive(patterns, item));
          expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
          // The same record always gives the same key order, whichever path produced it — also without generated code.
          expect(Object.keys(pickWithPlan(plan, { ...item }))).toEqual(Object.keys(picked));
          expect(Object.keys(interpretPicker(plan)(item))).toEqual(Object.keys(picked));
          expect(interpretPicker(plan)(item)).toEqual(picked);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('for nested (dotted) patterns over nested objects and arrays, the compiled and interpreted projections agree', () => {
    const NAMES = ['a', 'b', 'c', '__proto__'];
    const path = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }).map((segments) => segments.join('.'));
    const nestedPattern = attributePatternArb(path);
    const value: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.string({ maxLength: 3 }),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...NAMES, 'd'), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.array(nestedPattern, { minLength: 1, maxLength: 4 }),
        fc.dictionary(fc.constantFrom(...NAMES, 'd'), value, { maxKeys: 4 }),
        (patterns, item) => {
          const plan = compileAttributePatterns(patterns);
          const compiled = pickWithPlan(plan, item);
          expect(interpretPicker(plan)(item)).toEqual(compiled);
          expect(JSON.stringify(interpretPicker(plan)(item))).toBe(JSON.stringify(compiled));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
