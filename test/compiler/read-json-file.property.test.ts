/**
 * The JSON reader places values as TypeScript's parser does: for random JSON texts (any nesting, keys written twice,
 * line breaks of every kind, characters outside ASCII), every value's line and column and every duplicate-key problem
 * equal what reading the same text with TypeScript's JSON parser gives — without loading TypeScript for JSON.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ts } from 'ts-morph';
import { readJsonText } from '../../compiler/reading/read-json-file.js';
import { readStaticValue } from '../../compiler/reading/static-value.js';
import type { StaticValue } from '../../compiler/reading/value-positions.js';
import type { ValuePath } from '../../compiler/problems/compile-problem.js';

/** A JSON text's tree as written: an object is its entries in order, a key may be written twice. */
type Written = { scalar: unknown } | { array: Written[] } | { entries: [string, Written][] };

/** Keys from a small set, so that some objects write one twice; some need escapes or are not ASCII. */
const key = fc.constantFrom('a', 'b', 'roles', 'é', 'line\u2028break', 'quote"d', '__proto__', '😀');
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('\u2028', '\u2029', 'tab\there', 'naïve', '\\', '😀 x'));

const written = fc.letrec<{ node: Written }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)).map((scalar) => ({ scalar })),
    fc.array(tie('node'), { maxLength: 4 }).map((array) => ({ array })),
    fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map((entries) => ({ entries })),
  ),
})).node;

/** Spacing between tokens, and the line break written. */
const layout = fc.record({ space: fc.constantFrom('', ' ', '  ', '\t'), newline: fc.constantFrom('', '\n', '\r\n', '\r') });

function serialize(node: Written, { space, newline }: { space: string; newline: string }, depth = 0): string {
  const indent = newline === '' ? space : newline + space.repeat(depth + 1);
  const close = newline === '' ? space : newline + space.repeat(depth);
  if ('scalar' in node) return JSON.stringify(node.scalar);
  if ('array' in node)
    return node.array.length === 0 ? '[]' : `[${node.array.map((item) => indent + serialize(item, { space, newline }, depth + 1)).join(',')}${close}]`;
  if (node.entries.length === 0) return '{}';
  const fields = node.entries.map(([name, value]) => `${indent}${JSON.stringify(name)}:${space}${serialize(value, { space, newline }, depth + 1)}`);
  return `{${fields.join(',')}${close}}`;
}

/** What TypeScript's JSON parser and the literal reader give for `json` (the compiler's reader before). */
function readWithTypeScript(json: string): StaticValue {
  const sourceFile = ts.parseJsonText('a.json', json);
  return readStaticValue(sourceFile, (sourceFile.statements[0] as ts.ExpressionStatement).expression);
}

/** Every path of a parsed JSON value, the root included. */
function pathsOf(value: unknown, path: ValuePath = []): ValuePath[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => pathsOf(item, [...path, i]))];
  if (typeof value === 'object' && value !== null) return [path, ...Object.entries(value).flatMap(([name, item]) => pathsOf(item, [...path, name]))];
  return [path];
}

/** `path` lies within (or is) one of `prefixes`. */
function within(path: ValuePath, prefixes: readonly ValuePath[]): boolean {
  return prefixes.some((prefix) => prefix.length <= path.length && prefix.every((part, i) => path[i] === part));
}

describe('the JSON reader', () => {
  it("places every value and every key written twice where TypeScript's parser does", () => {
    fc.assert(
      fc.property(written, layout, (tree, spacing) => {
        const json = serialize(tree, spacing);
        const ours = readJsonText('a.json', json);
        const theirs = readWithTypeScript(json);
        const duplicates = theirs.problems.map((problem) => problem.path);
        // TypeScript's reading skips the value of a key written twice (JSON.parse keeps it, and so does this reader):
        // what lies under one is compared only where both read it.
        const compared = pathsOf(JSON.parse(json)).filter((path) => !within(path, duplicates));
        for (const path of compared) expect([path, ours.read?.positions.nearest(path)]).toEqual([path, theirs.positions.nearest(path)]);
        const expected = theirs.problems.map(({ position, ...problem }) => ({ file: 'a.json', ...position, ...problem }));
        // Under a key written twice, TypeScript's reading sees the first value only, this reader every one.
        const underDuplicate = (problem: { path: ValuePath }) =>
          duplicates.some((prefix) => prefix.length < problem.path.length && within(problem.path, [prefix]));
        expect(ours.problems.filter((problem) => !underDuplicate(problem))).toEqual(expected.filter((problem) => !underDuplicate(problem)));
        expect(ours.problems).toEqual(expect.arrayContaining(expected.filter(underDuplicate)));
        expect(ours.read?.value).toEqual(JSON.parse(json));
      }),
      { numRuns: 300 },
    );
  });

  it('reports a key written twice inside the value that counts, which is the last one (as JSON.parse keeps it)', () => {
    const json = '{\n  "a": { "b": 1 },\n  "a": { "b": 1, "b": 2 }\n}';
    const read = readJsonText('a.json', json);
    expect(read.problems.map(({ line, column, path, code }) => ({ line, column, path, code }))).toEqual([
      { line: 3, column: 3, path: ['a'], code: 'duplicate-key' },
      { line: 3, column: 18, path: ['a', 'b'], code: 'duplicate-key' },
    ]);
    expect(read.read?.positions.nearest(['a', 'b'])).toEqual({ line: 3, column: 23 });
    expect(read.read?.value).toEqual({ a: { b: 2 } });
  });
});
