/**
 * Definitions that name an ownership rule, through the compiler: a rule the resource does not declare, hooks beside
 * a rule, a rule for every resource and one user attribute of two types are problems with file, line, column and
 * "Did you mean"; the generated code requires the rule source and the user attributes the rules read, so an
 * application that supplies neither does not compile.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../compiler/compile.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import { runPolicyTests } from '../../runtime/core/policy-test/run-policy-tests.js';
import type { PolicyTestFile, PolicyTests } from '../../runtime/core/policy-test/policy-test-types.js';
import { fixture, makeTempDir, removeTempDir, typeCheck } from './helpers.js';

const DOCUMENT = readFileSync(join(fixture('ownership-rules'), 'document.resource.json'), 'utf8');
const USER = readFileSync(join(fixture('ownership-rules'), 'user.resource.json'), 'utf8');

describe('definitions naming ownership rules', () => {
  let folder: string | undefined;
  beforeAll(() => {
    folder = makeTempDir('rule-owners');
  });
  afterAll(() => removeTempDir(folder));

  const problemsOf = (definitions: string, files: Record<string, string> = {}): readonly string[] => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(join(dir, 'document.permissions.json'), definitions);
    writeFileSync(join(dir, 'document.resource.json'), DOCUMENT);
    writeFileSync(join(dir, 'user.resource.json'), USER);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const compiled = compileModel(dir);
    return compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'));
  };

  it('a rule the resource does not declare: at "owner", with Did you mean and the rules it declares', () => {
    expect(problemsOf('[{ "roles": ["EMPLOYEE"], "resource": "document", "grant": ["read:own"], "owner": "creater" }]')).toEqual([
      'definitions/document.permissions.json:1:83 $[0].owner [unknown-ownership-rule] Resource "document" declares no ownership rule "creater". ' +
        'Did you mean "creator"? Fix: Name one of the rules "creator", "creatorOrManaged", "sameCompany", ' +
        'or declare it under "ownership" in document.resource.json.',
    ]);
  });

  it('a rule of a resource that declares none', () => {
    expect(
      problemsOf(
        '[{ "roles": ["EMPLOYEE"], "resource": "user", "grant": ["read:own"], "owner": "self" },\n' +
          ' { "roles": ["EMPLOYEE"], "resource": "document", "grant": ["read"] }]',
      ),
    ).toEqual([
      'definitions/document.permissions.json:1:79 $[0].owner [unknown-ownership-rule] ' +
        'Resource "user" declares no ownership rules, so "owner": "self" names nothing. ' +
        'Fix: Declare the rule under "ownership" in user.resource.json (rules need the compiler), or decide ownership with hooks.',
    ]);
  });

  it('hooks beside a rule, and a rule for every resource', () => {
    expect(
      problemsOf(
        '[{ "roles": ["EMPLOYEE"], "resource": "document", "grant": ["read:own"], "owner": "creator", "isOwner": "isCreator" },\n' +
          ' { "roles": ["ADMIN"], "resource": "*", "grant": ["read:own"], "owner": "creator" },\n' +
          ' { "roles": ["ADMIN"], "resource": "document", "grant": ["read"] }]',
      ),
    ).toEqual([
      'definitions/document.permissions.json:1:105 $[0].isOwner [owner-with-hooks] The definition names the ownership rule "creator" and the hook isOwner; ' +
        'ownership is decided by one of them. Fix: Keep "owner" (the rule decides isOwn, listOwn, limitOwn and filterPick) or the hooks, not both.',
      'definitions/document.permissions.json:2:73 $[1].owner [owner-on-every-resource] The definition names the ownership rule "creator" for resource "*"; ' +
        'a rule belongs to one resource. Fix: Write one definition per resource, each naming a rule its *.resource.json declares.',
    ]);
  });

  it('one user attribute with two types in two resource files', () => {
    const note = JSON.stringify({
      resource: 'note',
      idType: 'number',
      attributes: ['id', 'authorId'],
      userAttributes: { id: 'string' },
      ownership: { author: { attribute: 'authorId', equals: { user: 'id' } } },
    });
    expect(
      problemsOf(
        '[{ "roles": ["EMPLOYEE"], "resource": "document", "grant": ["read:own"], "owner": "creator" },' +
          ' { "roles": ["EMPLOYEE"], "resource": "note", "grant": ["read:own"], "owner": "author" }]',
        { 'note.resource.json': note },
      ),
    ).toEqual([
      'definitions/note.resource.json:1:92 $.userAttributes.id [invalid-ownership-rule] User attribute "id" is declared "string" here and "number" in ' +
        "document.resource.json; the application's user has one type for it. " +
        'Fix: Give the user attribute the same type in every *.resource.json that declares it.',
    ]);
  });
});

describe('the generated code of a policy naming rules', () => {
  let temp: string | undefined;
  beforeAll(async () => {
    temp = makeTempDir('rule-owners-out');
    cpSync(fixture('ownership-rules'), join(temp, 'definitions'), { recursive: true });
    const result = await compile({ definitionsDir: join(temp, 'definitions'), outDir: join(temp, 'generated') });
    if (!result.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(result.problems)}`);
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  it('PERMISSIONS.md names the rule in each own cell and says each rule in words', () => {
    const matrix = readFileSync(join(temp as string, 'generated', 'PERMISSIONS.md'), 'utf8');
    expect(matrix).toContain('| COMPANY_ADMIN |                                                                 | **own** (rule sameCompany): `*`');
    expect(matrix.split('## Ownership rules\n')[1]!.split('\n## ')[0]!.split('\n')).toEqual([
      '',
      'A record is **own** through a rule when the rule holds for it, with the attributes of the user who asks.',
      '',
      '| Resource | Rule               | Owns the records where                                                      |',
      '| -------- | ------------------ | --------------------------------------------------------------------------- |',
      "| document | `creator`          | creatorId is the user's id                                                  |",
      "| document | `creatorOrManaged` | creatorId is the user's id or creatorId is one of the user's managedUserIds |",
      "| document | `sameCompany`      | creator.companyId is the user's companyId                                   |",
      '',
    ]);
  });

  it('types the user attributes the rules read and requires the rule source', () => {
    const dir = temp as string;
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { memoryOwnership } from 'typed-permissions';
import { createPermissions, type PermissionsRuleUser } from './generated/index.js';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
export type Checks = [
  Expect<Equal<PermissionsRuleUser, { readonly companyId: number | null; readonly id: number | null; readonly managedUserIds: readonly number[] | null }>>,
];
const ownership = { isAudited: () => true, listAudited: () => [1] };
const ownershipRules = memoryOwnership({ document: [], user: [] });
export const permissions = createPermissions({ ownership, ownershipRules });
const user = { id: 1, roles: ['EMPLOYEE'], companyId: 2, managedUserIds: [] };
export const granted = permissions.grantPermitSync({ user, resource: 'document', action: 'read' });
// @ts-expect-error: the user does not carry companyId and managedUserIds, which the rules read
export const refused = permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read' });
// @ts-expect-error: a policy naming rules needs the source of their records
export const withoutRules = createPermissions({ ownership });
`,
    );
    const checked = typeCheck([join(dir, 'consumer.ts')]);
    expect(checked.byFile.get(join(dir, 'consumer.ts')) ?? []).toEqual([]);
  });
});

describe('policy tests of a policy naming rules', () => {
  it('evaluate the rules on the test file records and users: no ownership methods to simulate', async () => {
    const compiled = compileModel(fixture('ownership-rules'));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const run = await runPolicyTests(compiled.model.tables, compiled.model.tests as PolicyTests);
    expect(
      run.outcomes.map((outcome) => `${outcome.test.user} ${outcome.test.action} ${outcome.test.resourceId} ${outcome.granted} ${outcome.passed}`),
    ).toEqual([
      'erin read 100 true true',
      'erin read 101 false true',
      'max review 101 true true',
      'max review 102 true true',
      'max review 100 false true',
      'ada update 101 true true',
      'ada update 102 false true',
      'nobody update 100 false true',
    ]);
  }, 30_000);

  it('a file without records of the resource asked about, or of the resource a relation reaches, owns nothing: denied, not an error', async () => {
    const compiled = compileModel(fixture('ownership-rules'));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const [file] = (compiled.model.tests as PolicyTests).files as [PolicyTestFile];
    // With every record, erin's own document 100 and ada's 101 (its creator in her company) are granted.
    const tests = [
      { user: 'erin', action: 'read', resource: 'document', resourceId: 100, expect: 'denied', line: 1, column: 5 },
      { user: 'ada', action: 'update', resource: 'document', resourceId: 101, expect: 'denied', line: 2, column: 5 },
    ] as const;
    const noRecords = { ...file, records: {}, tests };
    const noUsers = { ...file, records: { document: file.records['document'] as PolicyTestFile['records'][string] }, tests };
    const run = await runPolicyTests(compiled.model.tables, { format: 1, files: [noRecords, noUsers] });
    expect(run.outcomes.map(({ test, granted, passed, error }) => ({ user: test.user, granted, passed, error }))).toEqual([
      { user: 'erin', granted: false, passed: true, error: undefined },
      { user: 'ada', granted: false, passed: true, error: undefined },
      { user: 'erin', granted: true, passed: false, error: undefined },
      { user: 'ada', granted: false, passed: true, error: undefined },
    ]);
  }, 30_000);

  it('user attributes that are the user own fields, or no value a rule reads, are problems of the test file', () => {
    const dir = makeTempDir('rule-owners-tests');
    try {
      cpSync(fixture('ownership-rules'), dir, { recursive: true });
      const file = JSON.parse(readFileSync(join(dir, 'documents.permissions.test.json'), 'utf8')) as { users: Record<string, { attributes: unknown }> };
      file.users['erin']!.attributes = { companyId: { nested: true }, managedUserIds: Array.from({ length: 10_001 }, (_, i) => i) };
      file.users['max']!.attributes = { id: 3, companyId: 10, managedUserIds: Array.from({ length: 10_000 }, (_, i) => i) };
      writeFileSync(join(dir, 'documents.permissions.test.json'), JSON.stringify(file, null, 2));
      const compiled = compileModel(dir);
      expect(compiled.ok ? [] : compiled.problems.map((problem) => `${problem.path.join('.')}: ${problem.message}`)).toEqual([
        'users.erin.attributes.companyId: A user attribute must be a string, a number, true, false, null, or a list of strings or numbers.',
        'users.erin.attributes.managedUserIds: A user attribute must be a string, a number, true, false, null, or a list of strings or numbers.',
        `users.max.attributes.id: "id" is the user's own field: write it beside "attributes", not in it.`,
      ]);
    } finally {
      removeTempDir(dir);
    }
  });
});
