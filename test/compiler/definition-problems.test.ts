/**
 * The bad-definitions corpus (test/fixtures/compiler/bad/<case>/): one folder per mistake, in JSON
 * and in TypeScript files. For each, the CLI must exit 1, report the problem code, the file with
 * line and column, the JSON path inside the file and a fix, and leave the out folder (holding a
 * previous good output) byte-for-byte as it was.
 *
 * TypeScript files of the corpus are named `bad-*.permissions.ts`: tsconfig.json excludes
 * `test/fixtures/**\/bad-*`, so `tsc --noEmit -p .` never sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { compile } from '../../compiler/compile.js';
import { collectIo, compilerFixtures, fixture, makeTempDir, readFolderBytes, removeTempDir, sameBytes } from './helpers.js';

interface ExpectedProblem {
  readonly file: string;
  readonly code: string;
  /** The JSON path inside the file, as printed: `$.definitions[0].grant[1]`. */
  readonly path: string;
  /** Exact position, for the cases where it was worked out by hand from the fixture. */
  readonly at?: readonly [line: number, column: number];
  /** Text the message (or fix) must contain. */
  readonly says?: string;
}

interface BadCase {
  readonly name: string;
  readonly mistake: string;
  readonly problems: readonly ExpectedProblem[];
}

const CASES: readonly BadCase[] = [
  {
    name: 'possession-suffix',
    mistake: "a possession suffix other than any/own ('read:mine')",
    problems: [{ file: 'document.permissions.json', code: 'bad-possession', path: '$.definitions[0].grant[1]', at: [7, 25], says: '"read:mine"' }],
  },
  {
    name: 'empty-action',
    mistake: "a grant entry with no action (':own'), in TypeScript",
    problems: [{ file: 'bad-actions.permissions.ts', code: 'bad-action', path: '$[0].grant[1]', at: [6, 21], says: 'empty action' }],
  },
  { name: 'empty-grant', mistake: 'an empty grant', problems: [{ file: 'document.permissions.json', code: 'empty-grant', path: '$[0].grant', at: [2, 59] }] },
  {
    name: 'missing-roles',
    mistake: 'no roles',
    problems: [{ file: 'document.permissions.json', code: 'invalid-shape', path: '$.definitions[0].roles', at: [3, 5], says: 'Field "roles" is missing' }],
  },
  {
    name: 'missing-resource',
    mistake: 'no resource, in TypeScript (export const definitions)',
    problems: [{ file: 'bad-missing-resource.permissions.ts', code: 'invalid-shape', path: '$[0].resource', at: [3, 3], says: 'Field "resource" is missing' }],
  },
  {
    name: 'unknown-field',
    mistake: "a misspelt field ('possesion')",
    problems: [{ file: 'document.permissions.json', code: 'invalid-shape', path: '$[0]', at: [2, 3], says: 'Unknown field "possesion"' }],
  },
  {
    name: 'own-without-any-hook',
    mistake: 'an own action without any ownership hook',
    problems: [{ file: 'document.permissions.json', code: 'own-without-list-or-limit', path: '$[0]', at: [2, 3], says: 'neither callback' }],
  },
  {
    name: 'own-without-is-owner',
    mistake: 'limitOwned without isOwner on a resource that declares no ownedAmong executor',
    problems: [{ file: 'document.permissions.json', code: 'own-without-is-owner', path: '$[0].limitOwned', at: [7, 19], says: 'no ownedAmong executor' }],
  },
  {
    name: 'is-owner-without-list-or-limit',
    mistake: 'isOwner without listOwned or limitOwned on an own action, in TypeScript',
    problems: [{ file: 'bad-hooks.permissions.ts', code: 'own-without-list-or-limit', path: '$[0]', at: [2, 3], says: 'neither callback' }],
  },
  {
    name: 'both-list-and-limit',
    mistake: 'both listOwned and limitOwned',
    problems: [{ file: 'document.permissions.json', code: 'both-list-and-limit', path: '$.definitions[0].limitOwned', at: [9, 21] }],
  },
  {
    name: 'conflicting-redefinition',
    mistake: 'the same explicit grant with different attributes in two files',
    problems: [
      {
        file: 'b-employee.permissions.json',
        code: 'conflicting-redefinition',
        path: '$[0].grant["read:any"]',
        at: [5, 28],
        says: 'a-employee.permissions.json',
      },
    ],
  },
  {
    name: 'attribute-typo',
    mistake: "an attribute that the resource metadata does not declare ('!confidenial')",
    problems: [{ file: 'document.permissions.json', code: 'unknown-attribute', path: '$[0].grant["read:any"][1]', at: [5, 34], says: '"!confidenial"' }],
  },
  {
    name: 'hook-not-identifier',
    mistake: 'a hook name that is not an identifier',
    problems: [{ file: 'document.permissions.json', code: 'invalid-shape', path: '$[0].isOwner', at: [6, 16], says: 'JavaScript identifier' }],
  },
  {
    name: 'hook-object-member',
    mistake: "a hook name every object has ('constructor')",
    problems: [{ file: 'document.permissions.json', code: 'invalid-shape', path: '$[0].isOwner', at: [6, 16], says: 'constructor' }],
  },
  {
    name: 'hook-kind-conflict',
    mistake: 'one method used as two hook kinds, in TypeScript',
    problems: [{ file: 'bad-hooks.permissions.ts', code: 'hook-kind-conflict', path: '$[1].isOwner', at: [14, 14], says: '"listDocuments"' }],
  },
  {
    name: 'json-syntax-error',
    mistake: 'a JSON syntax error (missing comma)',
    problems: [{ file: 'document.permissions.json', code: 'syntax-error', path: '$', at: [4, 5], says: "',' expected" }],
  },
  {
    name: 'ts-syntax-error',
    mistake: 'a TypeScript syntax error',
    problems: [{ file: 'bad-syntax.permissions.ts', code: 'syntax-error', path: '$', at: [6, 3] }],
  },
  {
    name: 'function-hook',
    mistake: 'a function as hook in a TypeScript file (not static)',
    problems: [{ file: 'bad-function-hook.permissions.ts', code: 'not-static', path: '$[0].isOwner', at: [6, 14], says: 'A function is not a static value' }],
  },
  {
    name: 'variable-reference',
    mistake: 'a variable reference in a TypeScript file (not static)',
    problems: [{ file: 'bad-variable.permissions.ts', code: 'not-static', path: '$[0].grant', at: [7, 12], says: 'not a static value' }],
  },
  {
    name: 'ts-spread',
    mistake: 'a spread in a TypeScript file (not static)',
    problems: [{ file: 'bad-spread.permissions.ts', code: 'not-static', path: '$[0].grant[1]', at: [5, 21], says: 'spread' }],
  },
  {
    name: 'ts-no-export',
    mistake: 'a TypeScript file that exports no definitions',
    problems: [{ file: 'bad-no-export.permissions.ts', code: 'invalid-file', path: '$', at: [1, 1], says: 'exports no definitions' }],
  },
  {
    name: 'duplicate-json-key',
    mistake: 'a key written twice in one JSON object',
    problems: [{ file: 'document.permissions.json', code: 'duplicate-key', path: '$[0].grant', at: [6, 5], says: 'appears twice' }],
  },
  {
    name: 'metadata-without-definition',
    mistake: 'metadata for a resource no definition names',
    problems: [{ file: 'invoice.resource.json', code: 'unknown-resource', path: '$.resource', at: [1, 15], says: '"invoice"' }],
  },
  {
    name: 'metadata-bad-id-type',
    mistake: 'resource metadata with an unknown idType',
    problems: [{ file: 'document.resource.json', code: 'invalid-metadata', path: '$.idType', at: [1, 37], says: 'idType' }],
  },
  {
    name: 'pattern-keeps-nothing',
    mistake: "attribute patterns that keep nothing (['!secret'])",
    problems: [{ file: 'document.permissions.json', code: 'bad-attribute', path: '$[0].grant["read:any"]', at: [5, 28], says: 'keeps no attribute' }],
  },
  {
    name: 'possession-value',
    mistake: "a possession field other than 'own'/'any'",
    problems: [{ file: 'document.permissions.json', code: 'invalid-shape', path: '$[0].possession', says: "'own' or 'any'" }],
  },
  {
    name: 'wrapper-unknown-field',
    mistake: 'an unknown field beside "definitions" in the file wrapper',
    problems: [{ file: 'document.permissions.json', code: 'invalid-file', path: '$.rules', at: [3, 12], says: '"rules"' }],
  },
  {
    name: 'three-mistakes',
    mistake: 'three different mistakes in one file',
    problems: [
      { file: 'document.permissions.json', code: 'bad-possession', path: '$.definitions[0].grant[0]', at: [6, 17], says: '"read:mine"' },
      { file: 'document.permissions.json', code: 'invalid-shape', path: '$.definitions[1].isOwner', at: [12, 18], says: 'JavaScript identifier' },
      { file: 'document.permissions.json', code: 'invalid-shape', path: '$.definitions[2]', at: [15, 5], says: 'Unknown field "grants"' },
    ],
  },
];

/** `<dir>/<file>:<line>:<column> <json path> [<code>] <message> Fix: <fix>` */
const PROBLEM_LINE = /^(?<where>\S+?)(?::(?<line>\d+):(?<column>\d+))? (?<path>\$\S*) \[(?<code>[a-z-]+)\] (?<message>.+?) Fix: (?<fix>\S.*)$/;

interface ParsedLine {
  readonly where: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly path: string;
  readonly code: string;
  readonly message: string;
  readonly fix: string;
}

function parseProblemLine(text: string): ParsedLine | undefined {
  const groups = PROBLEM_LINE.exec(text)?.groups;
  if (groups === undefined) return undefined;
  return {
    where: groups['where'] as string,
    line: groups['line'] === undefined ? undefined : Number(groups['line']),
    column: groups['column'] === undefined ? undefined : Number(groups['column']),
    path: groups['path'] as string,
    code: groups['code'] as string,
    message: groups['message'] as string,
    fix: groups['fix'] as string,
  };
}

interface CaseRun {
  readonly code: number;
  readonly logs: readonly string[];
  readonly errors: readonly string[];
  readonly problems: readonly ParsedLine[];
  readonly outUnchanged: boolean;
  readonly leftovers: readonly string[];
}

describe('the bad-definitions corpus', () => {
  let temp: string | undefined;
  let sentinel: Map<string, Buffer>;
  const runs = new Map<string, CaseRun>();
  const badDir = (name: string) => join(compilerFixtures, 'bad', name);

  beforeAll(async () => {
    temp = makeTempDir('bad');
    const good = await compile({ definitionsDir: fixture('basic'), outDir: join(temp, 'sentinel') });
    if (!good.ok) throw new Error('the basic fixture does not compile');
    sentinel = readFolderBytes(join(temp, 'sentinel'));
    for (const { name } of CASES) {
      const caseDir = join(temp, name);
      const outDir = join(caseDir, 'generated');
      cpSync(join(temp, 'sentinel'), outDir, { recursive: true });
      const { logs, errors, io } = collectIo();
      const code = await main(['compile', badDir(name), '--out', outDir], io);
      runs.set(name, {
        code,
        logs,
        errors,
        problems: errors.map(parseProblemLine).filter((line): line is ParsedLine => line !== undefined),
        outUnchanged: sameBytes(readFolderBytes(outDir), sentinel),
        leftovers: readdirSync(caseDir).filter((entry) => entry !== 'generated'),
      });
    }
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  it('covers every case folder of the corpus, at least 15, in JSON and in TypeScript files', () => {
    const folders = readdirSync(join(compilerFixtures, 'bad')).sort();
    expect(folders).toEqual(CASES.map(({ name }) => name).sort());
    expect(CASES.length).toBeGreaterThanOrEqual(15);
    const files = CASES.flatMap(({ problems }) => problems.map(({ file }) => file));
    expect(files.some((file) => file.endsWith('.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('.json'))).toBe(true);
    expect(files.filter((file) => file.endsWith('.ts')).every((file) => file.startsWith('bad-'))).toBe(true);
  });

  describe.each(CASES.map((badCase) => [badCase.name, badCase] as const))('%s', (name, { mistake, problems }) => {
    const run = () => runs.get(name) as CaseRun;

    it(`fails with exit code 1 on ${mistake}, and prints every line in the problem format plus a summary`, () => {
      expect(run().code).toBe(1);
      expect(run().logs).toEqual([]);
      const [summary, ...rest] = [...run().errors].reverse();
      expect(summary).toMatch(
        new RegExp(`^typed-permissions: \\d+ problems? in ${badDir(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; .+ was not changed\\.$`),
      );
      for (const line of rest) expect({ line, parsed: parseProblemLine(line) !== undefined }).toEqual({ line, parsed: true });
    });

    it('names the problem code, the file with line and column, and a fix', () => {
      for (const expected of problems) {
        const reported = run().problems.filter((problem) => problem.code === expected.code && problem.where === `${badDir(name)}/${expected.file}`);
        const matching = reported.filter(
          (problem) =>
            problem.line !== undefined &&
            problem.column !== undefined &&
            (expected.at === undefined || (problem.line === expected.at[0] && problem.column === expected.at[1])) &&
            problem.fix.length > 10 &&
            (expected.says === undefined || `${problem.message} Fix: ${problem.fix}`.includes(expected.says)),
        );
        expect({ expected, reported, matches: matching.length > 0 }).toEqual({ expected, reported, matches: true });
      }
    });

    it('names the JSON path inside the file', () => {
      for (const expected of problems) {
        const paths = run()
          .problems.filter((problem) => problem.code === expected.code && problem.where === `${badDir(name)}/${expected.file}`)
          .map((problem) => problem.path);
        expect(paths).toContain(expected.path);
      }
    });

    it('leaves the out folder byte-for-byte unchanged, with nothing written beside it', () => {
      expect(run().outUnchanged).toBe(true);
      expect(run().leftovers).toEqual([]);
    });
  });

  it('reports all three mistakes of one file in one run, in file order', () => {
    const { problems } = runs.get('three-mistakes') as CaseRun;
    const codes = problems.map((problem) => `${problem.line}:${problem.column} ${problem.code}`);
    expect(codes).toEqual(expect.arrayContaining(['6:17 bad-possession', '12:18 invalid-shape', '15:5 invalid-shape']));
    const lines = problems.map((problem) => problem.line ?? 0);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(new Set(problems.map((problem) => problem.message)).size).toBeGreaterThanOrEqual(3);
  });

  it('does not create the out folder when the definitions are invalid and it did not exist', async () => {
    const outDir = join(temp as string, 'never-created', 'generated');
    const { io } = collectIo();
    expect(await main(['compile', badDir('possession-suffix'), '--out', outDir], io)).toBe(1);
    expect(existsSync(outDir)).toBe(false);
  });
});
