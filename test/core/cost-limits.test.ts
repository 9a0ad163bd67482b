/**
 * No input drives the engine into unbounded cost. Memory of multi-role
 * users is bounded; building is near-linear in the number of attribute patterns; '*' expansion has
 * stated limits with a clear error at them; attribute paths have a stated depth. Every limit is
 * tested at the limit and one past it. (No timed assertions: a size that took minutes or crashed
 * before must now simply finish within jest's time-out.)
 */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { MAX_MEMOISED_UNIONS } from '../../runtime/core/projection/attribute-plan.js';
import { MAX_ATTRIBUTE_PATH_DEPTH } from '../../runtime/core/definition/grant-syntax.js';
import { MAX_DEFINITIONS_FILE_LENGTH } from '../../runtime/core/definition/definitions-file.js';
import { parseDefinitionsJson, PermissionDefinitionError, Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { MAX_CACHED_COMBINATIONS } from '../../runtime/core/tables/table-loader.js';
import {
  buildGrantTables,
  MAX_GRANT_CELLS,
  MAX_GRANT_EXPANSIONS,
  type LocatedDefinition,
  type ValidDefinition,
} from '../../runtime/core/table-building/table-builder.js';
import { makeTempDir, removeTempDir } from '../compiler/helpers.js';

const quiet = { warn: () => undefined };

function built(definitions: readonly PermissionDefinition[]): Permissions {
  const permissions = new Permissions({ logger: quiet });
  permissions.addPermissions(definitions);
  return permissions.build();
}

function buildError(definitions: readonly PermissionDefinition[]): PermissionDefinitionError {
  try {
    built(definitions);
  } catch (error) {
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    return error as PermissionDefinitionError;
  }
  throw new Error('build() was expected to fail');
}

const binomials = new Map<string, number>();
function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  if (k === 0 || k === n) return 1;
  const key = `${n},${k}`;
  let value = binomials.get(key);
  if (value === undefined) binomials.set(key, (value = binomial(n - 1, k - 1) + binomial(n - 1, k)));
  return value;
}

/** The `rank`-th k-subset of 0…n-1 in lexicographic order (the combinatorial number system). */
function unrankSubset(rank: number, n: number, k: number): number[] {
  const subset: number[] = [];
  let left = rank;
  for (let x = 0, i = 0; i < k; x++) {
    const withX = binomial(n - x - 1, k - i - 1);
    if (left < withX) {
      subset.push(x);
      i++;
    } else left -= withX;
  }
  return subset;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

describe('memory of multi-role users is bounded', () => {
  it('the role-combination cache and the memoised unions have the stated bounds', () => {
    expect([MAX_CACHED_COMBINATIONS, MAX_MEMOISED_UNIONS]).toEqual([1024, 4096]);
  });

  // Without the caches' bounds (by count and by bytes) these 10,000 sets, ten times the combinations a resource's
  // action keeps and twice the memoised unions, keep 129 MB: each set's combination and unions are about 13 KB.
  it('10,000 distinct sets of 3–12 roles out of 60 grow the heap by less than 50 MB', () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('function');
    const roles = Array.from({ length: 60 }, (_, i) => `R${i}`);
    const permissions = built(
      roles.map((role, i) => ({
        roles: [role],
        resource: 'doc',
        grant: { 'read:any': ['id', ...Array.from({ length: 20 }, (_, k) => `f${(i * 7 + k * 3) % 120}`), `nested${i % 5}.x${i}`] },
      })),
    );
    const item: Record<string, unknown> = { id: 1, nested0: { x0: 1, x5: 2 } };
    for (let k = 0; k < 120; k++) item[`f${k}`] = k;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i++) {
      // Distinct by construction: 1,000 ranks of each size 3 to 12, spread by a prime over the C(60, k) subsets.
      const size = 3 + (i % 10);
      const set = unrankSubset((Math.floor(i / 10) * 7919) % binomial(60, size), 60, size).map((index) => roles[index] as string);
      const permit = permissions.grantPermitSync({ user: { id: 1, roles: set }, resource: 'doc', action: 'read' });
      permit.pickSync(item);
      expect(permit.anyAttributes.length).toBeGreaterThan(0);
    }
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 2 ** 20);
  }, 120_000);
});

describe('building is near-linear in the number of attribute patterns', () => {
  const patternsOf = (n: number): string[] => [
    '*',
    ...Array.from({ length: n - 1 }, (_, i) => (i % 3 === 0 ? `!a${i}` : i % 3 === 1 ? `n${i}.x` : `!n${i - 1}.y`)),
  ];

  it.each([8_000, 50_000])(
    '%i patterns in one grant build (minutes or more before) and pick exactly',
    (n) => {
      const patterns = patternsOf(n);
      const permissions = built([{ roles: ['A', 'B'], resource: 'doc', grant: { read: patterns, 'list:any': patterns.slice(0, n / 2) } }]);
      const permit = permissions.grantPermitSync({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
      expect(permit.pickSync({ a0: 1, a1: 2, n1: { x: 3, y: 4 }, other: 5 })).toEqual({ a1: 2, n1: { x: 3 }, other: 5 });
      expect(permit.anyAttributes).toEqual(['*', ...patterns.filter((pattern) => pattern.startsWith('!')).sort()]);
    },
    60_000,
  );
});

describe("'*' expansion has stated limits, with a clear error at them", () => {
  const roles = Array.from({ length: 1000 }, (_, i) => `ROLE_${i}`);
  const resources = Array.from({ length: 50 }, (_, i) => `res_${i}`);
  const customActions = Array.from({ length: 6 }, (_, i) => `act_${i}`);
  /** 1,000 roles × 50 resources × 10 actions: exactly the cell limit. */
  const universe: PermissionDefinition[] = [
    { roles, resource: resources[0] as string, grant: customActions.map((action) => `${action}:any`) },
    ...resources.slice(1).map((resource): PermissionDefinition => ({ roles: roles[0] as string, resource, grant: ['read:any'] })),
  ];
  const everything: PermissionDefinition = { roles, resource: '*', grant: ['*:any'] };
  const extra: PermissionDefinition = { roles: 'EXTRA', resource: 'res_0', grant: ['read:any'] };
  const located = (definitions: readonly PermissionDefinition[]): LocatedDefinition[] =>
    definitions.map((definition, index) => ({ definition: definition as unknown as ValidDefinition, location: { index } }));

  it('the cell and expansion limits have the stated values, and the test universe is exactly at the cell limit', () => {
    expect([MAX_GRANT_CELLS, MAX_GRANT_EXPANSIONS]).toEqual([500_000, 1_000_000]);
    expect(roles.length * resources.length * (4 + customActions.length)).toBe(MAX_GRANT_CELLS);
  });

  it('definitions that expand to exactly the cell limit build', () => {
    const permissions = built([...universe, everything]);
    expect(permissions.tables.cells.length).toBe(MAX_GRANT_CELLS);
    expect(permissions.grantPermitSync({ user: { id: 1, roles: ['ROLE_999'] }, resource: 'res_49', action: 'act_5' }).granted).toBe(true);
  }, 60_000);

  it('one cell more is a clear error at the definition that crossed the limit', () => {
    const error = buildError([...universe, everything, extra]);
    expect(error.problems).toEqual([
      {
        code: 'too-large',
        index: 51,
        path: ['grant', 0],
        message: "With this grant the definitions need more than 500,000 distinct grants of a role, resource and action (every '*' is expanded), the limit.",
        fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
      },
    ]);
  }, 60_000);

  it('one cell more is counted before any cell is built: the expanding phase never starts', () => {
    const phases: string[] = [];
    const progress = (phase: string, definitions: number) => phases.push(`${phase} ${definitions}`);
    const refused = buildGrantTables(located([...universe, everything, extra]), { progress });
    expect(refused.problems.map((problem) => problem.code)).toEqual(['too-large']);
    expect([refused.tables.cells.length, phases]).toEqual([0, []]);
    const accepted = buildGrantTables(located([...universe, extra]), { progress });
    expect([accepted.problems, accepted.tables.cells.length, phases]).toEqual([[], 6050, ['expanding 51']]);
  }, 60_000);

  /** Definitions inside the universe that expand to exactly `count` grants (several may repeat a grant; that only warns). */
  function filler(count: number): PermissionDefinition[] {
    const definitions: PermissionDefinition[] = [];
    let left = count;
    for (let i = 0; left >= 10_000; i++, left -= 10_000) definitions.push({ roles, resource: resources[i % resources.length] as string, grant: ['*:any'] });
    for (; left >= 1_000; left -= 1_000) definitions.push({ roles, resource: 'res_0', grant: ['read:any'] });
    if (left > 0) definitions.push({ roles: roles.slice(0, left), resource: 'res_0', grant: ['read:any'] });
    return definitions;
  }
  const universeExpansions = 1000 * customActions.length + (resources.length - 1);

  it('definitions that expand to exactly the expansion limit build', () => {
    const definitions = [...universe, everything, ...filler(MAX_GRANT_EXPANSIONS - universeExpansions - MAX_GRANT_CELLS)];
    expect(built(definitions).tables.cells.length).toBe(MAX_GRANT_CELLS);
  }, 60_000);

  it('one expansion more is refused before anything is expanded, naming the largest definition', () => {
    const definitions = [...universe, everything, ...filler(MAX_GRANT_EXPANSIONS - universeExpansions - MAX_GRANT_CELLS + 1)];
    expect(buildError(definitions).problems).toEqual([
      {
        code: 'too-large',
        index: 50,
        path: [],
        message:
          "The grant entries reach 1,000,001 role × resource × action combinations in all, every '*' expanded and a combination " +
          'counted once for each entry that reaches it: more than the limit of 1,000,000. This definition reaches the most, ' +
          '500,000 (1000 roles, 50 resources, 10 actions are known).',
        fix: "Use fewer '*' wildcards in roles, resource and grant (name the roles, resources and actions that are meant), or split the policy.",
      },
    ]);
    const phases: string[] = [];
    buildGrantTables(located(definitions), { progress: (phase) => phases.push(phase) });
    expect(phases).toEqual([]);
  }, 60_000);
});

describe('attribute paths have a stated depth', () => {
  const deep = (segments: number) => Array.from({ length: segments }, (_, i) => `s${i}`).join('.');

  it('the stated limit, a path at it, and one past it', () => {
    expect(MAX_ATTRIBUTE_PATH_DEPTH).toBe(32);
    const permit = built([{ roles: 'A', resource: 'doc', grant: { 'read:any': [deep(32)] } }]).grantPermitSync({
      user: { id: 1, roles: ['A'] },
      resource: 'doc',
      action: 'read',
    });
    expect(permit.anyAttributes).toEqual([deep(32)]);
    const error = buildError([{ roles: 'A', resource: 'doc', grant: { 'read:any': [deep(33)] } }]);
    expect(error.problems).toEqual([
      {
        code: 'bad-attribute',
        index: 0,
        path: ['grant', 'read:any', 0],
        message: `Attribute pattern ${JSON.stringify(deep(33).slice(0, 60))}… is 33 levels deep; the limit is 32.`,
        fix: "Name nested attributes at most 32 levels deep ('address.city').",
      },
    ]);
  });

  it('a path of 1,500 segments is a clear error in build() and in the compiler, never a RangeError', () => {
    const definitions: PermissionDefinition[] = [{ roles: 'A', resource: 'doc', grant: { 'read:any': ['title', `!${deep(1500)}`] } }];
    expect(buildError(definitions).problems.map((problem) => [problem.code, problem.path])).toEqual([['bad-attribute', ['grant', 'read:any', 1]]]);
    const dir = makeTempDir('deep-path');
    try {
      mkdirSync(join(dir, 'definitions'));
      writeFileSync(join(dir, 'definitions', 'deep.permissions.json'), JSON.stringify(definitions));
      const result = compileModel(join(dir, 'definitions'));
      expect(result.ok).toBe(false);
      expect(result.ok ? [] : result.problems.map((problem) => [problem.code, problem.path])).toEqual([['bad-attribute', [0, 'grant', 'read:any', 1]]]);
    } finally {
      removeTempDir(dir);
    }
  });
});

describe('a definitions file has a stated size', () => {
  it('a file at the limit is read; one character more is refused, by the runtime and the compiler alike', () => {
    expect(MAX_DEFINITIONS_FILE_LENGTH).toBe(8 * 1024 * 1024);
    const definition = JSON.stringify({ roles: 'A', resource: 'doc', descr: '', grant: ['read:any'] });
    const atLimit = `[${definition.replace('"descr":""', `"descr":"${'d'.repeat(MAX_DEFINITIONS_FILE_LENGTH - definition.length - 2)}"`)}]`;
    expect(atLimit.length).toBe(MAX_DEFINITIONS_FILE_LENGTH);
    expect(parseDefinitionsJson(atLimit)).toHaveLength(1);
    const overLimit = `${atLimit} `;
    expect(() => parseDefinitionsJson(overLimit)).toThrow(
      `Syntax error at line 1, column 1: a file of ${MAX_DEFINITIONS_FILE_LENGTH + 1} characters, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH}.`,
    );
    const dir = makeTempDir('file-limit');
    try {
      writeFileSync(join(dir, 'big.permissions.json'), overLimit);
      const result = compileModel(dir);
      expect(result.ok ? [] : result.problems.map((problem) => [problem.code, problem.message])).toEqual([
        ['syntax-error', `Syntax error: a file of ${MAX_DEFINITIONS_FILE_LENGTH + 1} characters, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH}.`],
      ]);
    } finally {
      removeTempDir(dir);
    }
  });
});
