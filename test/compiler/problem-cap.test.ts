/**
 * How many problems a compile lists: at most 100 of a file and 1,000 in all, then one line counting the others. A file's
 * definitions past its hundredth problem are not validated at all — the count of problems the compile collected
 * shows that its cost stays bounded however many broken definitions a file holds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { MAX_LISTED_PROBLEMS, MAX_PROBLEMS_PER_FILE } from '../../compiler/problems/problem-cap.js';
import { collectIo, makeTempDir, removeTempDir } from './helpers.js';

let temp: string | undefined;

const CAPS = '(a compile lists at most 100 problems a file and 1,000 in all). Fix the problems listed and compile again to see the rest.';

/** A fresh definitions folder holding `files` (name → content). */
function folder(name: string, files: Record<string, string>): string {
  const dir = join(temp as string, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  return dir;
}

/** A definitions file of `count` definitions that are each one problem (a number is no definition). */
const numbers = (count: number): string => JSON.stringify(new Array<number>(count).fill(0));

/** What `compile` says about `dir`: its exit code and its error lines. */
async function compileErrors(dir: string): Promise<{ code: number; errors: string[] }> {
  const { errors, io } = collectIo();
  const code = await main(['compile', dir, '--out', join(temp as string, 'generated')], io);
  return { code, errors };
}

describe('the problems a compile lists', () => {
  beforeAll(() => {
    temp = makeTempDir('problem-cap');
  });
  afterAll(() => removeTempDir(temp));

  it('are at most 100 of a file and 1,000 in all', () => {
    expect([MAX_PROBLEMS_PER_FILE, MAX_LISTED_PROBLEMS]).toEqual([100, 1000]);
  });

  it('lists every problem of a file at the cap, with no count after them', async () => {
    const dir = folder('at-file-cap', { 'a.permissions.json': numbers(100) });
    const { code, errors } = await compileErrors(dir);
    expect(code).toBe(1);
    expect(errors).toHaveLength(101);
    expect(errors[99]).toBe(
      `${dir}/a.permissions.json:1:200 $[99] [invalid-shape] A definition must be an object, not number. ` +
        'Fix: Write the definition as an object with roles, resource and grant.',
    );
    expect(errors[100]).toBe(`typed-permissions: 100 problems in ${dir}; ${join(temp as string, 'generated')} was not changed.`);
  });

  it('stops checking a file past its cap, and ends the list with what was left out', async () => {
    const dir = folder('past-file-cap', { 'a.permissions.json': numbers(101) });
    const { code, errors } = await compileErrors(dir);
    expect(code).toBe(1);
    expect(errors).toHaveLength(102);
    expect(errors[100]).toBe(`typed-permissions: 1 definition was not checked ${CAPS}`);
  });

  it('does not validate the definitions of a file past its cap: a file of 10,000 broken ones collects 100 problems', () => {
    const dir = folder('many-broken', { 'a.permissions.json': numbers(10_000) });
    const result = compileModel(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(100);
    expect(result.unlisted).toEqual({ problems: 0, definitions: 9_900 });
  });

  it('counts the problems found past the cap of a definition that crosses it', async () => {
    // Each empty object is three problems (no roles, resource, grant): the 34th brings the file from 99 to 102.
    const dir = folder('crossing', { 'a.permissions.json': JSON.stringify(new Array(40).fill({})) });
    const { errors } = await compileErrors(dir);
    expect(errors).toHaveLength(102);
    expect(errors[100]).toBe(`typed-permissions: 2 more problems were not listed and 6 definitions were not checked ${CAPS}`);
    expect(errors[101]).toBe(`typed-permissions: 102 problems in ${dir}; ${join(temp as string, 'generated')} was not changed.`);
  });

  it('lists 1,000 problems in all, 100 of each file, and counts the others', async () => {
    const files = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${String(i).padStart(2, '0')}.permissions.json`, numbers(100)]));
    const dir = folder('past-total-cap', files);
    const { errors } = await compileErrors(dir);
    expect(errors).toHaveLength(1002);
    expect(errors[999]).toMatch(/\/f09\.permissions\.json:1:200 \$\[99\] \[invalid-shape\] /);
    expect(errors[1000]).toBe(`typed-permissions: 100 more problems were not listed ${CAPS}`);
    expect(errors[1001]).toBe(`typed-permissions: 1100 problems in ${dir}; ${join(temp as string, 'generated')} was not changed.`);
  });

  it('keeps the first 100 keys written twice in a JSON file and counts the others, as it reads them', () => {
    const keys = Array.from({ length: 150 }, () => '"roles": "A"').join(', ');
    const dir = folder('duplicate-keys', { 'a.permissions.json': `[{ "resource": "doc", "grant": ["read"], "roles": "A", ${keys} }]` });
    const result = compileModel(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.code)).toEqual(new Array(100).fill('duplicate-key'));
    // The file had its 100 problems as it was read: its one definition is not checked.
    expect(result.unlisted).toEqual({ problems: 50, definitions: 1 });
  });

  it('keeps the first 100 parts of a TypeScript file that are not static and counts the others', () => {
    const spreads = Array.from({ length: 120 }, () => '...more').join(', ');
    const dir = folder('not-static', { 'a.permissions.ts': `const more = [];\nexport default [${spreads}];\n` });
    const result = compileModel(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.code)).toEqual(new Array(100).fill('not-static'));
    // The file had its 100 problems before any definition was checked: none of its definitions is.
    expect(result.unlisted).toEqual({ problems: 20, definitions: 120 });
  });
});
