/**
 * Arbitrary definition files: the compiler reports problems (with file, position and fix) or
 * succeeds — it never throws, whatever the bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compileModel } from '../../compiler/model/compile-model.js';
import { DEFINITION_FIELDS } from '../core/arbitraries.js';

const folder = mkdtempSync(join(process.cwd(), 'test', '.tmp-compiler-fuzz-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function compileText(file: string, text: string) {
  rmSync(join(folder, 'a.permissions.json'), { force: true });
  rmSync(join(folder, 'a.permissions.ts'), { force: true });
  writeFileSync(join(folder, file), text);
  return compileModel(folder);
}

function expectWellFormed(result: ReturnType<typeof compileModel>): void {
  if (result.ok) return;
  expect(result.problems.length).toBeGreaterThan(0);
  for (const problem of result.problems) {
    expect(problem.file).toMatch(/^a\.permissions\.(json|ts)$/);
    expect(problem.message.length).toBeGreaterThan(0);
    expect(problem.fix.length).toBeGreaterThan(0);
    expect(problem.line).toBeGreaterThanOrEqual(1);
  }
}

/** A key of a definition or of the `{ definitions }` wrapper, or one that must stay data. */
const fields = fc.constantFrom<string>(...DEFINITION_FIELDS, '__proto__', 'constructor', 'definitions', '$schema');
/** JSON only (what can be written to a file); definition-fuzz's values also hold functions and undefined. */
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom('read:own', 'read:mine', '*', '!x', 'isOwner', 'A', 'doc'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fields, fc.string({ maxLength: 5 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the compiler on arbitrary files', () => {
  it('JSON values of any shape, as a plain array or the { definitions } wrapper', () => {
    fc.assert(
      fc.property(json, fc.boolean(), (value, wrap) => {
        expectWellFormed(compileText('a.permissions.json', JSON.stringify(wrap ? { definitions: value } : value) ?? 'null'));
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary text as JSON or TypeScript (syntax errors, truncation, garbage)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          json.map((value) => (JSON.stringify(value) ?? '').slice(0, 40)),
        ),
        fc.constantFrom('a.permissions.json', 'a.permissions.ts'),
        (text, file) => {
          expectWellFormed(compileText(file, file.endsWith('.ts') ? `export default ${text}` : text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('duplicate keys in JSON are reported, not silently resolved', () => {
    const result = compileText('a.permissions.json', '[{ "roles": "A", "resource": "doc", "grant": ["read"], "grant": ["*:any"] }]');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => [p.code, p.line, p.column, p.path])).toEqual([['duplicate-key', 1, 56, [0, 'grant']]]);
  });

  it('deeply nested JSON does not overflow the stack', () => {
    const depth = 3000;
    expectWellFormed(compileText('a.permissions.json', `${'['.repeat(depth)}${']'.repeat(depth)}`));
  });
});
