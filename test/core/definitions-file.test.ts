/**
 * The compiler and the runtime accept exactly the same definition files. The
 * neutral JSON form is parsed by one reader, `parseDefinitionsJson` (runtime/core/definitions-file.ts),
 * which the compiler uses too: strict JSON (`JSON.parse`, one leading byte order mark), a plain array
 * or `{ "$schema"?: string, "definitions": [...] }`. For every text of a corpus of near-JSON mistakes,
 * the compiler accepts it exactly when `parseDefinitionsJson` does, and a syntax error is placed at
 * the same line and column by both. Keys written twice are the one difference: `JSON.parse` cannot
 * see them, the compiler refuses them. And a `*.permissions.ts` file that exports definitions twice,
 * or in a form the static reader does not follow, is a problem naming the line, never "the last one wins".
 * The actions a resource declares (`"actions"` of its `*.resource.json`, the `resourceActions` option of
 * `build()`) follow one rule too: the compiler accepts a declaration and the definitions granted under it
 * exactly when `build()` does, and says the same of a grant naming another action.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import {
  parseDefinitionsJson,
  PermissionDefinitionError,
  Permissions,
  PermissionsUsageError,
  type PermissionDefinition,
} from '../../runtime/permissions/index.js';
import { MAX_DECLARED_ACTIONS } from '../../runtime/core/definition/declared-actions.js';

const D = '{ "roles": ["READER"], "resource": "note", "grant": ["read"] }';

/** [what, text, accepted by both]. */
const CORPUS: readonly (readonly [what: string, text: string, accepted: boolean])[] = [
  ['a plain array', `[${D}]`, true],
  ['the wrapper with $schema', `{ "$schema": "../generated/definitions.schema.json", "definitions": [${D}] }`, true],
  ['the wrapper without $schema', `{ "definitions": [${D}] }`, true],
  ['an empty array', '[]', true],
  ['CRLF line ends and tabs', `[\r\n\t${D}\r\n]\r\n`, true],
  ['escapes in strings', '[{ "roles": ["READER"], "resource": "note", "descr": "tab\\tquote\\"\\u00e9\\/", "grant": ["read"] }]', true],
  ['one leading byte order mark', `\ufeff[${D}]`, true],
  ['two leading byte order marks', `\ufeff\ufeff[${D}]`, false],
  ['a line comment', `// readers\n[${D}]`, false],
  ['a block comment', `[ /* readers */ ${D}]`, false],
  ['a trailing comma in the array', `[${D},]`, false],
  ['a trailing comma in an object', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], }]', false],
  ['single-quoted strings', "[{ 'roles': ['READER'], 'resource': 'note', 'grant': ['read'] }]", false],
  ['unquoted keys', '[{ roles: ["READER"], resource: "note", grant: ["read"] }]', false],
  ['NaN', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": NaN }]', false],
  ['Infinity', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": Infinity }]', false],
  ['-Infinity', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": -Infinity }]', false],
  ['a hexadecimal number', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": 0x1F }]', false],
  ['a leading zero', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": 017 }]', false],
  ['a plus sign', '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "descr": +1 }]', false],
  ['a line break inside a string', '[{ "roles": ["READER"], "resource": "note\nbook", "grant": ["read"] }]', false],
  ['a no-break space between values', `\u00a0[${D}]`, false],
  ['two values', `[${D}] [${D}]`, false],
  ['an empty file', '', false],
  ['only spaces', '  \n ', false],
  ['a truncated file', `[${D}`, false],
  ['the wrapper with an extra key', `{ "definitions": [${D}], "rules": [] }`, false],
  ['the wrapper without definitions', '{ "$schema": "../generated/definitions.schema.json" }', false],
  ['the wrapper with definitions that are not an array', `{ "definitions": ${D} }`, false],
  ['the wrapper with a $schema that is not a string', `{ "$schema": 1, "definitions": [${D}] }`, false],
  ['a number', '42', false],
  ['a string', '"definitions"', false],
  ['null', 'null', false],
];

let folder: string;

/** Compiles a folder holding only `file` with `text`. */
const compileText = (file: string, text: string) => {
  for (const name of readdirSync(folder)) rmSync(join(folder, name));
  writeFileSync(join(folder, file), text);
  return compileModel(folder);
};

const runtimeAccepts = (text: string): boolean => {
  try {
    parseDefinitionsJson(text, { source: 'a.permissions.json' });
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    return false;
  }
};

describe('compiler and runtime accept exactly the same inputs', () => {
  beforeAll(() => {
    folder = mkdtempSync(join(process.cwd(), 'test', '.tmp-definitions-file-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each(CORPUS.map(([what, text, accepted]) => [what, text, accepted] as const))(
    '%s — the compiler accepts it exactly when parseDefinitionsJson does',
    (_what, text, accepted) => {
      const compiled = compileText('a.permissions.json', text);
      expect({ compiler: compiled.ok, runtime: runtimeAccepts(text) }).toEqual({ compiler: accepted, runtime: accepted });
      if (accepted) {
        // What the runtime read also builds: validation stays in build(), and passes where the compiler's does.
        const permissions = new Permissions();
        permissions.addPermissions(parseDefinitionsJson(text) as PermissionDefinition[], { source: 'a.permissions.json' });
        expect(() => permissions.build()).not.toThrow();
      }
    },
  );

  it('every strict-parse failure is a syntax-error at the same line and column in the compiler and the runtime', () => {
    const syntaxErrors = CORPUS.filter(
      ([what, , accepted]) => !accepted && !what.startsWith('the wrapper') && !['a number', 'a string', 'null'].includes(what),
    );
    expect(syntaxErrors).toHaveLength(19);
    for (const [what, text] of syntaxErrors) {
      const compiled = compileText('a.permissions.json', text);
      const problems = compiled.ok ? [] : compiled.problems.map(({ code, line, column }) => ({ code, line, column }));
      let runtime: unknown;
      try {
        parseDefinitionsJson(text);
      } catch (error) {
        const problem = (error as PermissionDefinitionError).problems[0];
        const at = /^Syntax error at line (\d+), column (\d+): /.exec(problem?.message ?? '');
        runtime = { code: problem?.code, line: Number(at?.[1]), column: Number(at?.[2]) };
      }
      expect({ what, problems }).toEqual({ what, problems: [runtime] });
    }
  });

  it('a trailing comma, exactly as the compiler and the runtime report it', () => {
    const text = '[\n  { "roles": ["READER"], "resource": "note", "grant": ["read"], },\n]\n';
    const compiled = compileText('a.permissions.json', text);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      "definitions/a.permissions.json:2:63 $ [syntax-error] Syntax error: a trailing comma before '}' (JSON allows " +
        'none). Fix: Remove the comma after the last field.',
    ]);
    expect(() => parseDefinitionsJson(text, { source: 'a.permissions.json' })).toThrow(
      'Invalid permission definitions (1 problem):\n  - $ (a.permissions.json): Syntax error at line 2, column 63: ' +
        "a trailing comma before '}' (JSON allows none). Fix: Remove the comma after the last field.",
    );
  });
  reportedProblemsAndResourceFiles();
});

function reportedProblemsAndResourceFiles(): void {
  it('a comment, exactly as the compiler and the runtime report it', () => {
    const text = `\ufeff[\r\n  // readers may read notes\r\n  ${D}\r\n]`;
    const compiled = compileText('a.permissions.json', text);
    expect(compiled.ok ? [] : compiled.problems).toEqual([
      {
        file: 'a.permissions.json',
        line: 2,
        column: 3,
        path: [],
        code: 'syntax-error',
        message: 'Syntax error: a comment (JSON has no comments).',
        fix: 'Remove the comment; a definition can carry its explanation in "descr".',
      },
    ]);
    let thrown: unknown;
    try {
      parseDefinitionsJson(text, { source: 'a.permissions.json' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PermissionDefinitionError);
    expect((thrown as PermissionDefinitionError).problems).toEqual([
      {
        index: -1,
        source: 'a.permissions.json',
        code: 'syntax-error',
        path: [],
        message: 'Syntax error at line 2, column 3: a comment (JSON has no comments).',
        fix: 'Remove the comment; a definition can carry its explanation in "descr".',
      },
    ]);
  });

  it("the wrapper's problems name the same field and place in the compiler and the runtime", () => {
    const text = `{\n  "$schema": 1,\n  "definitions": [${D}],\n  "rules": []\n}\n`;
    const compiled = compileText('a.permissions.json', text);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/a.permissions.json:2:14 $.$schema [invalid-file] Field "$schema" holds a number; it must be a ' +
        'string (the path or URL of the JSON Schema). Fix: Write "$schema": "../generated/definitions.schema.json", ' +
        'or leave it out.',
      'definitions/a.permissions.json:4:12 $.rules [invalid-file] Unknown field "rules" at the top of the file. ' +
        'Fix: A definitions file holds a JSON array of definitions, or { "$schema"?: "…", "definitions": [...] }.',
    ]);
    expect(() => parseDefinitionsJson(text, { source: 'a.permissions.json' })).toThrow(
      [
        'Invalid permission definitions (2 problems):',
        '  - $.rules (a.permissions.json): Line 4, column 12: Unknown field "rules" at the top of the file. Fix: A ' +
          'definitions file holds a JSON array of definitions, or { "$schema"?: "…", "definitions": [...] }.',
        '  - $.$schema (a.permissions.json): Line 2, column 14: Field "$schema" holds a number; it must be a string ' +
          '(the path or URL of the JSON Schema). Fix: Write "$schema": "../generated/definitions.schema.json", or ' +
          'leave it out.',
      ].join('\n'),
    );
  });

  it('a key written twice — JSON.parse cannot see it, the compiler refuses it (the compiler is the stricter one)', () => {
    const text = '[{ "roles": ["READER"], "resource": "note", "grant": ["read"], "grant": ["*"] }]';
    expect(parseDefinitionsJson(text)).toEqual([{ roles: ['READER'], resource: 'note', grant: ['*'] }]);
    const compiled = compileText('a.permissions.json', text);
    expect(compiled.ok ? [] : compiled.problems.map(({ code, line, column, path }) => ({ code, line, column, path }))).toEqual([
      { code: 'duplicate-key', line: 1, column: 64, path: [0, 'grant'] },
    ]);
  });

  it('*.resource.json files are read with the same strict parser', () => {
    const compiled = compileText('note.resource.json', '{ "resource": "note", "idType": "number", }');
    expect(compiled.ok ? [] : compiled.problems.map(({ file, code, line, column, message }) => ({ file, code, line, column, message }))).toEqual([
      { file: 'note.resource.json', code: 'syntax-error', line: 1, column: 41, message: "Syntax error: a trailing comma before '}' (JSON allows none)." },
    ]);
  });
}

describe('a *.permissions.ts file exports its definitions once, in a form the reader follows', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(process.cwd(), 'test', '.tmp-definitions-file-ts-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const compileTs = (text: string) => {
    for (const name of readdirSync(folder)) rmSync(join(folder, name));
    writeFileSync(join(folder, 'a.permissions.ts'), text);
    return compileModel(folder);
  };
  const A = "[{ roles: ['A'], resource: 'doc', grant: ['read'] }]";
  const B = "[{ roles: ['B'], resource: 'doc', grant: ['*'] }]";

  it('two `export default` are a duplicate-export problem naming both lines, never "the last one wins"', () => {
    const compiled = compileTs(`export default ${A};\n\nexport default ${B};\n`);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/a.permissions.ts:3:1 $ [duplicate-export] `export default` exports definitions a second time ' +
        '(`export default` on line 1); only one export can count. Fix: Keep one export of the definitions: merge the ' +
        'arrays into one `export default [...]` or one `export const definitions = [...]`.',
    ]);
  });

  it('`export { x as default }` is an unsupported-export problem naming its line', () => {
    const compiled = compileTs(`const rules = ${A};\nexport { rules as default };\n`);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/a.permissions.ts:2:10 $ [unsupported-export] `export { rules as default }` is not read: ' +
        'definitions files are read statically, and only `export default [...]` or `export const definitions = ' +
        '[...]` count. Fix: Export the definitions once, as `export default [ ... ] satisfies ' +
        'PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.',
    ]);
  });

  it('`export let definitions` is an unsupported-export problem: the file could assign it again, and what is read would not be what it exports', () => {
    const compiled = compileTs(`export let definitions = ${A};\ndefinitions.push(...${B});\n`);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/a.permissions.ts:1:12 $ [unsupported-export] `export let definitions` (which the file can assign again) is not read: ' +
        'definitions files are read statically, and only `export default [...]` or `export const definitions = ' +
        '[...]` count. Fix: Export the definitions once, as `export default [ ... ] satisfies ' +
        'PermissionDefinitionJson[];` or `export const definitions = [ ... ];`.',
    ]);
  });

  it('a use of `definitions` after `export const definitions` is a problem where it is: the array could be changed there', () => {
    const compiled = compileTs(`export const definitions = ${A};\ndefinitions.push(...${B});\n`);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/a.permissions.ts:2:1 $ [unsupported-export] `definitions` is used again here: a const array can still be changed ' +
        '(a push, a function that receives it), so what the module exports could differ from the literal read. Fix: Write every ' +
        'definition in the literal of `export const definitions = [...]`, and use the name nowhere else in the file.',
    ]);
  });

  const CASES: readonly (readonly [what: string, text: string, problems: readonly (readonly [code: string, line: number, column: number])[]])[] = [
    ['export default and export const definitions', `export const definitions = ${A};\nexport default ${B};\n`, [['duplicate-export', 2, 1]]],
    [
      'two export const definitions statements',
      `export const definitions = ${A};\n// again\nexport const definitions = ${B};\n`,
      [['duplicate-export', 3, 14]],
    ],
    ['export =', `export = ${A};\n`, [['unsupported-export', 1, 1]]],
    ['export { definitions }', `const definitions = ${A};\nexport { definitions };\n`, [['unsupported-export', 2, 10]]],
    ['export * from', `export * from './other.js';\n`, [['unsupported-export', 1, 1]]],
    ['export * as definitions from', `export * as definitions from './other.js';\n`, [['unsupported-export', 1, 1]]],
    ['export default function', 'export default function definitions() {\n  return [];\n}\n', [['unsupported-export', 1, 1]]],
    ['a destructuring export of definitions', `export const { definitions } = { definitions: ${A} };\n`, [['unsupported-export', 1, 14]]],
    ['export let definitions', `export let definitions = ${A};\ndefinitions = ${B};\n`, [['unsupported-export', 1, 12]]],
    ['export var definitions', `export var definitions = ${A};\n`, [['unsupported-export', 1, 12]]],
    // A const array can still change: any use of it in code that runs is refused, where it is.
    ['export const definitions, then a push', `export const definitions = ${A};\ndefinitions.push(...${B});\n`, [['unsupported-export', 2, 1]]],
    ['export const definitions, handed to a function', `export const definitions = ${A};\nconst n = extend(definitions);\n`, [['unsupported-export', 2, 18]]],
    [
      'export default beside an unsupported export',
      `export default ${A};\nexport { other as definitions } from './other.js';\n`,
      [['unsupported-export', 2, 10]],
    ],
  ];
  it.each(CASES)('%s is a problem naming the line', (_what, text, expected) => {
    const compiled = compileTs(text);
    expect(compiled.ok ? [] : compiled.problems.map(({ code, line, column }) => [code, line, column])).toEqual(expected);
  });

  it('one export of the definitions beside other exports (types, helpers) still compiles', () => {
    const compiled = compileTs(
      `export type Note = { id: number };\nexport const version = 2;\nexport { version as schemaVersion };\n` +
        `export type * from './types.js';\nexport default ${A};\n`,
    );
    expect(compiled.ok ? 'ok' : compiled.problems).toBe('ok');
  });
});

describe('declared actions: the compiler and build() accept exactly the same', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(process.cwd(), 'test', '.tmp-definitions-file-actions-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const names = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => `a${i}`));
  const SUPER = '{ "roles": ["ADMIN"], "resource": "*", "grant": ["*:any"] }';
  /** [what, the declared list as JSON, the definitions, accepted by both]. */
  const DECLARED: readonly (readonly [what: string, actions: string, definitions: string, accepted: boolean])[] = [
    [
      'grants within the declared actions',
      '["read", "approve"]',
      `[{ "roles": ["EDITOR"], "resource": "note", "grant": ["read", "approve:own"], "isOwner": "isMine", "listOwned": "listMine" }, ${SUPER}]`,
      true,
    ],
    [
      "only '*'",
      '["read", "approve"]',
      `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["*:own"], "isOwner": "isMine", "listOwned": "listMine" }]`,
      true,
    ],
    ['a grant of another action', '["read", "approve"]', '[{ "roles": ["EDITOR"], "resource": "note", "grant": ["read", "publish"] }]', false],
    ['a grant of a CRUD action not declared', '["read", "approve"]', '[{ "roles": ["EDITOR"], "resource": "note", "grant": { "update:any": ["*"] } }]', false],
    [
      "a named action on '*' that another resource takes",
      '["read"]',
      '[{ "roles": ["EDITOR"], "resource": "*", "grant": ["publish"] }, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }, ' +
        '{ "roles": ["EDITOR"], "resource": "log", "grant": ["read"] }]',
      true,
    ],
    [
      "a named action on '*' that no resource takes",
      '["read"]',
      '[{ "roles": ["EDITOR"], "resource": "*", "grant": ["publish"] }, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]',
      false,
    ],
    ['not an array', '"read"', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['an empty list', '[]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a number among the names', '["read", 1]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['null among the names', '["read", null]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a name twice', '["read", "read"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ["'*'", '["*"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a possession', '["read:any"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['an empty name', '[""]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a name with a space', '["re ad"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a name with a control character', '["re\\u0007ad"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    ['a name of 128 characters', `["${'a'.repeat(128)}"]`, `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["${'a'.repeat(128)}"] }]`, true],
    ['a name of 129 characters', `["${'a'.repeat(129)}"]`, `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["read"] }]`, false],
    [`${MAX_DECLARED_ACTIONS} names`, names(MAX_DECLARED_ACTIONS), `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["a0"] }]`, true],
    [`${MAX_DECLARED_ACTIONS + 1} names`, names(MAX_DECLARED_ACTIONS + 1), `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["a0"] }]`, false],
    ['__proto__ and constructor', '["__proto__", "constructor"]', `[${SUPER}, { "roles": ["EDITOR"], "resource": "note", "grant": ["__proto__"] }]`, true],
  ];

  /** Whether build() takes the declaration and the definitions (the options refuse a bad list, build() a bad grant). */
  const runtimeAccepts = (actions: string, definitions: string): boolean => {
    try {
      new Permissions({
        ownership: { isMine: () => true, listMine: () => [] },
        resourceIdTypes: { note: 'number' },
        resourceActions: { note: JSON.parse(actions) as string[] },
        logger: { warn: () => undefined },
      })
        .addPermissions(JSON.parse(definitions) as PermissionDefinition[])
        .build();
      return true;
    } catch (error) {
      expect(error instanceof PermissionsUsageError || error instanceof PermissionDefinitionError).toBe(true);
      return false;
    }
  };
  const compileWith = (actions: string, definitions: string) => {
    for (const name of readdirSync(folder)) rmSync(join(folder, name));
    writeFileSync(join(folder, 'note.resource.json'), `{ "resource": "note", "idType": "number", "actions": ${actions} }`);
    writeFileSync(join(folder, 'a.permissions.json'), definitions);
    return compileModel(folder);
  };

  it.each(DECLARED)('%s — the compiler accepts it exactly when build() does', (_what, actions, definitions, accepted) => {
    const compiled = compileWith(actions, definitions);
    expect({ compiler: compiled.ok ? 'accepted' : compiled.problems.map((problem) => problem.code), runtime: runtimeAccepts(actions, definitions) }).toEqual(
      accepted ? { compiler: 'accepted', runtime: true } : { compiler: [expect.stringMatching(/^(invalid-metadata|unknown-action)$/)], runtime: false },
    );
  });

  it('a grant of another action: the same code, place and message from both; each fix names where its declaration is', () => {
    const definitions = '[{ "roles": ["EDITOR"], "resource": "note", "grant": ["read", "aprove"] }]';
    const compiled = compileWith('["read", "approve"]', definitions);
    let thrown: unknown;
    try {
      new Permissions({ resourceActions: { note: ['read', 'approve'] } })
        .addPermissions(JSON.parse(definitions) as PermissionDefinition[], { source: 'a.permissions.json' })
        .build();
    } catch (error) {
      thrown = error;
    }
    const message = 'Action "aprove" is not an action of "note", which declares "read", "approve". Did you mean "approve"?';
    expect(compiled.ok ? [] : compiled.problems).toEqual([
      {
        file: 'a.permissions.json',
        line: 1,
        column: 63,
        path: [0, 'grant', 1],
        code: 'unknown-action',
        message,
        fix: 'Correct the action, or add "aprove" to "actions" in note.resource.json.',
      },
    ]);
    expect((thrown as PermissionDefinitionError).problems).toEqual([
      {
        index: 0,
        source: 'a.permissions.json',
        path: ['grant', 1],
        code: 'unknown-action',
        message,
        fix: 'Correct the action, or add "aprove" to the actions of "note" in the resourceActions option.',
      },
    ]);
  });
});
