/**
 * `"actions"` in a `*.resource.json`, through the compiler: a list that is no list of actions is an
 * `invalid-metadata` problem where it stands; a grant naming another action on the resource is an `unknown-action`
 * problem at the grant entry, with file, line, column, "Did you mean" and a fix naming the resource file; `*` there
 * is the declared actions; the generated `Schema` gives the resource exactly those actions (another one does not
 * compile) and PERMISSIONS.md a column for each, granted or not.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../compiler/compile.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import { MAX_DECLARED_ACTIONS } from '../../runtime/core/definition/declared-actions.js';
import { EMITTED_FILES, fixture, makeTempDir, removeTempDir, typeCheck } from './helpers.js';
import { sortedUnions } from './typescript-cli.js';

const DEFINITIONS = `[
  { "roles": ["EDITOR"], "resource": "article", "grant": ["read", "aprove:any"] },
  { "roles": ["ADMIN"], "resource": "*", "grant": ["*:any"] },
  { "roles": ["READER"], "resource": "note", "grant": ["read", "comment"] }
]
`;

describe('"actions" of a *.resource.json', () => {
  let folder: string | undefined;
  beforeAll(() => {
    folder = makeTempDir('declared-actions');
  });
  afterAll(() => removeTempDir(folder));

  /** Compiles a folder of `article.permissions.json` (DEFINITIONS unless given) and `article.resource.json`; the problems as printed. */
  const problemsWith = (metadata: string, definitions = DEFINITIONS): string[] => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, 'article.permissions.json'), definitions);
    writeFileSync(join(dir, 'article.resource.json'), metadata);
    const compiled = compileModel(dir);
    return compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'));
  };
  const metadataWith = (actions: string) => `{ "resource": "article", "idType": "number", "actions": ${actions} }`;
  const FIX = 'Fix: List the actions of the resource, such as ["read", "approve"], or declare none to accept any action.';

  it('a grant naming another action: unknown-action at the entry, with the declared actions, "Did you mean" and the file to declare it in', () => {
    expect(problemsWith(metadataWith('["read", "approve", "publish"]'))).toEqual([
      'definitions/article.permissions.json:2:67 $[0].grant[1] [unknown-action] Action "aprove" is not an action of "article", which declares ' +
        '"read", "approve", "publish". Did you mean "approve"? Fix: Correct the action, or add "aprove" to "actions" in article.resource.json.',
    ]);
  });

  it('an action declared on another resource is no action of this one', () => {
    const definitions =
      '[{ "roles": ["EDITOR"], "resource": "article", "grant": ["read", "approve"] }, { "roles": ["EDITOR"], "resource": "note", "grant": ["comment"] }]';
    const dir = folder as string;
    expect(problemsWith(metadataWith('["read", "comment"]'), definitions)).toEqual([
      'definitions/article.permissions.json:1:66 $[0].grant[1] [unknown-action] Action "approve" is not an action of "article", which declares ' +
        '"read", "comment". Fix: Correct the action, or add "approve" to "actions" in article.resource.json.',
    ]);
    // note declares nothing: 'comment' there is accepted as ever, and so is 'approve' once article declares it.
    writeFileSync(join(dir, 'article.resource.json'), metadataWith('["read", "approve"]'));
    writeFileSync(join(dir, 'note.permissions.json'), '[{ "roles": ["EDITOR"], "resource": "note", "grant": ["approve", "publish"] }]');
    const compiled = compileModel(dir);
    expect(compiled.ok ? Object.fromEntries(compiled.model.resourceActions) : compiled.problems).toEqual({
      article: ['approve', 'read'],
      note: ['approve', 'comment', 'publish'],
    });
  });

  it.each([
    ['not an array', '"read"', ['1:57 $.actions The declared actions must be an array of action names.']],
    ['an empty list', '[]', ['1:57 $.actions The declared actions are empty; a resource that declares its actions has at least one.']],
    ['a name that is not a string', '["read", 7]', ['1:57 $.actions The declared actions must be an array of action names.']],
    [
      'a name declared twice',
      '["read", "approve", "read"]',
      ['1:77 $.actions[2] Action "read" is declared twice (also at index 0). Fix: Declare each action once.'],
    ],
    [
      '"*"',
      '["read", "*"]',
      ["1:66 $.actions[1] Action \"*\" means every action; it cannot be declared. Fix: List the actions themselves: a grant's '*' expands to them."],
    ],
    [
      'a possession',
      '["read:own"]',
      [
        '1:58 $.actions[0] Action "read:own" holds a possession; an action is declared without one. ' +
          "Fix: Declare \"read\": each grant says whether it is 'any' or 'own'.",
      ],
    ],
    ['an empty name', '[""]', [`1:58 $.actions[0] An action name is empty. ${FIX}`]],
    [
      'a name past 128 characters',
      `["${'a'.repeat(129)}"]`,
      [
        `1:58 $.actions[0] Action "${'a'.repeat(60)}"… is 129 characters long; the limit is 128. ` +
          "Fix: Name actions with printable words of at most 128 characters, such as 'approve'.",
      ],
    ],
  ])('refuses %s as invalid-metadata where it stands', (_what, actions, expected) => {
    const problems = problemsWith(metadataWith(actions));
    expect(problems.map((line) => line.replace(/^definitions\/article\.resource\.json:/, '').replace(' [invalid-metadata]', ''))).toEqual(
      expected.map((line) => (line.includes(' Fix: ') ? line : `${line} ${FIX}`)),
    );
  });

  it(`takes ${MAX_DECLARED_ACTIONS} actions, and refuses one more`, () => {
    const names = Array.from({ length: MAX_DECLARED_ACTIONS + 1 }, (_, i) => `"action${i}"`);
    const definitions = '[{ "roles": ["ADMIN"], "resource": "article", "grant": ["*:any"] }]';
    expect(problemsWith(metadataWith(`[${names.slice(0, -1).join(', ')}]`), definitions)).toEqual([]);
    expect(problemsWith(metadataWith(`[${names.join(', ')}]`), definitions)).toEqual([
      `definitions/article.resource.json:1:57 $.actions [invalid-metadata] ${MAX_DECLARED_ACTIONS + 1} actions are declared; the limit is ` +
        `${MAX_DECLARED_ACTIONS}. Fix: Declare at most ${MAX_DECLARED_ACTIONS} actions, or declare none to accept any action.`,
    ]);
  });

  it('a policy test asking an action the resource does not declare is an unknown-action problem of the test file', () => {
    const dir = folder as string;
    problemsWith(metadataWith('["read", "approve"]'), '[{ "roles": ["EDITOR"], "resource": "article", "grant": ["read", "approve:any"] }]');
    writeFileSync(
      join(dir, 'article.permissions.test.json'),
      JSON.stringify({
        users: { editor: { id: 1, roles: ['EDITOR'] } },
        tests: [
          { user: 'editor', action: 'approve', resource: 'article', expect: 'granted' },
          { user: 'editor', action: 'update', resource: 'article', expect: 'denied' },
        ],
      }),
    );
    const compiled = compileModel(dir);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/article.permissions.test.json:1:161 $.tests[1].action [unknown-action] Action "update" is not an action of "article", which ' +
        'declares "approve", "read". Fix: Name one of the actions of "article".',
    ]);
  });

  it('takes __proto__ and constructor as ordinary action names', () => {
    const definitions = '[{ "roles": ["ADMIN"], "resource": "article", "grant": ["*:any", "__proto__"] }]';
    expect(problemsWith(metadataWith('["__proto__", "constructor"]'), definitions)).toEqual([]);
    const compiled = compileModel(folder as string);
    expect(compiled.ok ? compiled.model.resourceActions.get('article') : compiled.problems).toEqual(['__proto__', 'constructor']);
  });
});

describe('the generated code of resources that declare their actions', () => {
  let temp: string | undefined;
  let files: Record<string, string> = {};
  beforeAll(async () => {
    temp = makeTempDir('declared-actions-out');
    const result = await compile({ definitionsDir: fixture('declared-actions'), outDir: join(temp, 'generated') });
    if (!result.ok) throw new Error(`the declared-actions fixture does not compile: ${JSON.stringify(result.problems)}`);
    files = Object.fromEntries(EMITTED_FILES.map((name) => [name, readFileSync(join(temp as string, 'generated', name), 'utf8')]));
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  it('Schema gives ticket exactly its declared actions, and log (which declares none) every action granted there', () => {
    const types = files['types.ts']!.replace(/\s+/g, ' ');
    expect(types).toContain(
      "readonly log: { readonly actions: 'close' | 'comment' | 'create' | 'delete' | 'escalate' | 'export' | 'open' | 'read' | 'update'; " +
        'readonly id: string | number; };',
    );
    expect(types).toContain("readonly ticket: { readonly actions: 'close' | 'escalate' | 'open' | 'read'; readonly id: number };");
  });

  it('PERMISSIONS.md gives ticket a column per declared action and says they are declared', () => {
    const section = files['PERMISSIONS.md']!.split('## ticket\n')[1]!.split('\n## ')[0]!;
    expect(section.split('\n').slice(1, 5)).toEqual([
      'Its actions, as its resource file declares them: `close`, `escalate`, `open`, `read`. `*` grants these, and no other action can be granted or asked.',
      '',
      expect.stringMatching(/^\| Role +\| close +\| escalate +\| open +\| read +\|$/),
      expect.stringMatching(/^\| -+ \| -+ \| -+ \| -+ \| -+ \|$/),
    ]);
    // log declares nothing: no such line.
    expect(files['PERMISSIONS.md']!.split('## log\n')[1]!.split('\n## ')[0]).not.toContain('declares');
  });

  it('resource.schema.json tells editors what a declared list may hold', () => {
    const schema = JSON.parse(files['resource.schema.json']!) as { properties: { actions: unknown } };
    expect(schema.properties.actions).toEqual({
      description: "The resource's actions: grants may name only these, and '*' expands to them. Without it, any action is accepted.",
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 128, pattern: '^(?!\\*$)[^:\\s]+$' },
      minItems: 1,
      maxItems: MAX_DECLARED_ACTIONS,
      uniqueItems: true,
    });
  });

  it('asking ticket another action, even one of log, is a compile error; its declared actions compile', () => {
    const dir = temp as string;
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { createPermissions, type ActionOf } from './generated/index.js';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
export type Checks = [Expect<Equal<ActionOf<'ticket'>, 'close' | 'escalate' | 'open' | 'read'>>];
const permissions = createPermissions({ ownership: { isAssignee: () => true, listAssigned: () => [1] } });
const user = { id: 1, roles: ['AGENT'] };
export const escalated = permissions.grantPermitSync({ user, resource: 'ticket', action: 'escalate' });
export const exported = permissions.grantPermitSync({ user, resource: 'ticket', action: 'export' });
export const updated = permissions.grantPermitSync({ user, resource: 'ticket', action: 'update' });
`,
    );
    const checked = typeCheck([join(dir, 'consumer.ts')]);
    // The order TypeScript prints a union's members in depends on what it checked first: compared sorted.
    const messages = (checked.byFile.get(join(dir, 'consumer.ts')) ?? []).map(sortedUnions);
    expect({ count: checked.count, messages }).toEqual({
      count: 2,
      messages: [
        `8:81 TS2322: Type '"export"' is not assignable to type '"close" | "escalate" | "open" | "read"'.`,
        `9:80 TS2322: Type '"update"' is not assignable to type '"close" | "escalate" | "open" | "read"'.`,
      ],
    });
  });
});
