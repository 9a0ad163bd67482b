/**
 * Test files written to break the reader or the runner: user and method names that are Object.prototype's members
 * (`__proto__`, `constructor`, `toString`), records with such keys (JSON has no getters, but it has these), ids past
 * the safe integers or too long, names in any script — and names with control, format or bidi characters, refused.
 * Nothing is polluted, nothing is found on a prototype, every refusal names its place. The records of a resource
 * only a rule's relation reaches have its declared id type too, and coverage finds a record by its id as the runner
 * does (1 is not "1").
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { removeTempDir, repoRoot } from '../compiler/helpers.js';
import { folderWith, run } from './policy-test-folders.js';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

async function test(text: string) {
  const dir = folderWith({ 'h.permissions.test.json': text });
  folders.push(dir);
  const result = await run('test', dir);
  // Every line names the folder: shown as `dir` here.
  return { ...result, errors: result.errors.map((line) => line.replaceAll(dir, 'dir')), logs: result.logs.map((line) => line.replaceAll(dir, 'dir')) };
}

describe('hostile test files', () => {
  it('users named after Object.prototype’s members are plain names, in users, ownership and tests', async () => {
    const text = [
      '{',
      '  "users": { "__proto__": { "id": 1, "roles": ["AUTHOR"] }, "constructor": { "id": 2, "roles": ["AUTHOR"] }, "toString": { "id": 3, "roles": [] } },',
      '  "ownership": { "isAuthor": { "__proto__": [1], "constructor": [2] } },',
      '  "tests": [',
      '    { "user": "__proto__", "action": "read", "resource": "article", "resourceId": 1, "expect": "granted" },',
      '    { "user": "__proto__", "action": "read", "resource": "article", "resourceId": 2, "expect": "denied" },',
      '    { "user": "constructor", "action": "read", "resource": "article", "resourceId": 2, "expect": "granted" },',
      '    { "user": "toString", "action": "read", "resource": "article", "expect": "denied" }',
      '  ]',
      '}',
    ].join('\n');
    expect(await test(text)).toEqual({ code: 0, logs: ['4 passed, 0 failed'], errors: [] });
    expect(({} as Record<string, unknown>)['id']).toBeUndefined();
  });

  it('malformed values under "__proto__" keys (which the format check skips) are problems at their place, never a crash', async () => {
    const ann = '"users": { "ann": { "id": 1, "roles": ["AUTHOR"] } }';
    const tests = '"tests": [{ "user": "ann", "action": "read", "resource": "article", "expect": "granted" }]';
    const cases = [
      `{ ${ann}, "ownership": { "isAuthor": { "__proto__": "x" } }, ${tests} }`,
      `{ ${ann}, "ownership": { "__proto__": 7 }, ${tests} }`,
      `{ ${ann}, "records": { "article": { "__proto__": 7 } }, ${tests} }`,
    ];
    const outcomes = [];
    for (const text of cases) outcomes.push(await test(text));
    const failed = (...problems: string[]) => ({
      code: 1,
      logs: [],
      errors: [...problems, `typed-permissions: ${problems.length} problem${problems.length === 1 ? '' : 's'} in dir; no test ran.`],
    });
    const at = 'dir/h.permissions.test.json:1:';
    expect(outcomes).toEqual([
      failed(
        `${at}99 $.ownership.isAuthor.__proto__ [invalid-test-file] The ids "isAuthor" owns for "__proto__" are "x", not an array. Fix: Write [1, 10].`,
        `${at}99 $.ownership.isAuthor.__proto__ [unknown-user] User "__proto__" is not one of the file's users. ` +
          'Fix: Add "__proto__" to "users", or name one of "ann".',
      ),
      failed(
        `${at}85 $.ownership.__proto__ [invalid-test-file] Ownership by "__proto__" is 7, not an object. ` +
          'Fix: Write { "alice": [1, 10] }: user name → owned ids.',
        `${at}85 $.ownership.__proto__ [unknown-method] "__proto__" is not an ownership method of the definitions. ` +
          'Fix: Name an isOwner, listOwned, limitOwned or ownedAmong method of the definitions: ' +
          '"articlesAmong", "isAuthor", "limitToAssigned", "listAuthored".',
      ),
      failed(
        `${at}96 $.records.article.__proto__ [invalid-test-file] Record "__proto__" of "article" is 7, not an object. ` +
          'Fix: Write the record as an object with its "id".',
      ),
    ]);
  });

  it('a name found only on a prototype is unknown: users, ownership methods, records', async () => {
    const text = [
      '{',
      '  "users": { "ann": { "id": 1, "roles": ["AUTHOR"] } },',
      '  "ownership": { "toString": { "ann": [1] }, "__proto__": { "ann": [1] } },',
      '  "records": { "article": { "1": { "id": 1 } } },',
      '  "tests": [',
      '    { "user": "hasOwnProperty", "action": "read", "resource": "article", "expect": "denied" },',
      '    { "user": "ann", "action": "read", "resource": "constructor", "expect": "denied" },',
      '    { "user": "ann", "action": "valueOf", "resource": "article", "expect": "denied" },',
      '    { "user": "ann", "action": "read", "resource": "article", "resourceId": 2, "expect": "granted", "attributes": [] }',
      '  ]',
      '}',
    ].join('\n');
    const methods = '"articlesAmong", "isAuthor", "limitToAssigned", "listAuthored"';
    expect(await test(text)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `dir/h.permissions.test.json:3:30 $.ownership.toString [unknown-method] "toString" is not an ownership method of the definitions. ` +
          `Fix: Name an isOwner, listOwned, limitOwned or ownedAmong method of the definitions: ${methods}.`,
        `dir/h.permissions.test.json:3:59 $.ownership.__proto__ [unknown-method] "__proto__" is not an ownership method of the definitions. ` +
          `Fix: Name an isOwner, listOwned, limitOwned or ownedAmong method of the definitions: ${methods}.`,
        'dir/h.permissions.test.json:6:15 $.tests[0].user [unknown-user] User "hasOwnProperty" is not one of the file\'s users. ' +
          'Fix: Add "hasOwnProperty" to "users", or name one of "ann".',
        'dir/h.permissions.test.json:7:52 $.tests[1].resource [unknown-resource] Resource "constructor" is not named by any definition. Fix: Name ' +
          'one of "article".',
        'dir/h.permissions.test.json:8:32 $.tests[2].action [unknown-action] Action "valueOf" is not granted by any definition on any resource. ' +
          'Fix: Name one of "create", "delete", "list", "publish", "read", "review", "update".',
        'dir/h.permissions.test.json:9:77 $.tests[3].resourceId [unknown-record] There is no record "2" of "article" in "records" to pick the ' +
          'attributes from. ' +
          'Fix: Add records["article"]["2"], or remove "attributes".',
        'typed-permissions: 6 problems in dir; no test ran.',
      ],
    });
  });

  it('records with prototype keys: pick keeps them as plain keys, and nothing is polluted', async () => {
    const text = [
      '{',
      '  "users": { "eve": { "id": 2, "roles": ["EDITOR"] } },',
      '  "records": { "article": { "1": { "id": 1, "__proto__": { "polluted": true }, "constructor": "c", "toString": "t", "secret": "s" } } },',
      '  "tests": [',
      '    { "user": "eve", "action": "read", "resource": "article", "resourceId": 1, "expect": "granted", "attributes": ["id", "__proto__", ' +
        '"constructor", "toString"] }',
      '  ]',
      '}',
    ].join('\n');
    expect(await test(text)).toEqual({ code: 0, logs: ['1 passed, 0 failed'], errors: [] });
    expect([({} as Record<string, unknown>)['polluted'], Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')]).toEqual([undefined, false]);
  });

  it('ids past the safe integers, fractions and over-long strings are refused where they stand', async () => {
    const long = 'x'.repeat(257);
    const text = [
      '{',
      '  "users": { "ann": { "id": 9007199254740993, "roles": ["AUTHOR"] } },',
      '  "ownership": { "isAuthor": { "ann": [1e300, -0.5] } },',
      '  "tests": [',
      `    { "user": "ann", "action": "read", "resource": "article", "resourceId": "${long}", "expect": "denied" },`,
      '    { "user": "ann", "action": "read", "resource": "article", "resourceId": 1e21, "expect": "denied" }',
      '  ]',
      '}',
    ].join('\n');
    const rule = 'An id must be an integer within ±9007199254740991, or a non-empty string of at most 256 characters.';
    expect(await test(text)).toEqual({
      code: 1,
      logs: [],
      errors: [
        `dir/h.permissions.test.json:2:29 $.users.ann.id [invalid-test-file] ${rule} Fix: Write "users": { "alice": { "id": 1, "roles": ["EMPLOYEE"] } }.`,
        `dir/h.permissions.test.json:3:40 $.ownership.isAuthor.ann[0] [invalid-test-file] ${rule} Fix: Write "ownership": { "isCreator": { "alice": ` +
          `[1, 10] } }.`,
        `dir/h.permissions.test.json:3:47 $.ownership.isAuthor.ann[1] [invalid-test-file] ${rule} Fix: Write "ownership": { "isCreator": { "alice": ` +
          `[1, 10] } }.`,
        `dir/h.permissions.test.json:5:77 $.tests[0].resourceId [invalid-test-file] ${rule} Fix: Write the id as the resource has it: 10, or "a1".`,
        `dir/h.permissions.test.json:6:77 $.tests[1].resourceId [invalid-test-file] ${rule} Fix: Write the id as the resource has it: 10, or "a1".`,
        'typed-permissions: 5 problems in dir; no test ran.',
      ],
    });
  });

  it('a string id is measured in UTF-16 code units, as the engine measures it: 128 emoji are an id, 129 are refused like 257 letters', async () => {
    const file = (id: string) =>
      '{ "users": { "ann": { "id": 1, "roles": ["AUTHOR"] } }, ' +
      `"tests": [{ "user": "ann", "action": "read", "resource": "article", "resourceId": "${id}", "expect": "denied" }] }`;
    const rule = 'An id must be an integer within ±9007199254740991, or a non-empty string of at most 256 characters.';
    // 128 emoji are 256 code units: an id as far as the format goes (the article's ids are numbers: the reference check names it).
    const atLimit = await test(file('😀'.repeat(128)));
    expect(atLimit.errors).toEqual([
      `dir/h.permissions.test.json:1:139 $.tests[0].resourceId [invalid-id] "${'😀'.repeat(30)}"… is not an id of "article": its ids are numbers. ` +
        'Fix: Write it as a number, such as 10.',
      'typed-permissions: 1 problem in dir; no test ran.',
    ]);
    for (const id of ['😀'.repeat(129), '😀'.repeat(256)])
      expect(await test(file(id))).toEqual({
        code: 1,
        logs: [],
        errors: [
          `dir/h.permissions.test.json:1:139 $.tests[0].resourceId [invalid-test-file] ${rule} Fix: Write the id as the resource has it: 10, or "a1".`,
          'typed-permissions: 1 problem in dir; no test ran.',
        ],
      });
  });

  it('names in any script are names; control, format and bidi characters, lone surrogates and over-long names are refused', async () => {
    const good = [
      '{',
      '  "users": { "José": { "id": "j", "roles": ["AUTHOR"] }, "東京": { "id": "t", "roles": ["EDITOR"] }, "🙂": { "id": "s", "roles": [] } },',
      '  "ownership": { "isAuthor": { "José": [1] } },',
      '  "tests": [',
      '    { "user": "José", "action": "read", "resource": "article", "resourceId": 1, "expect": "granted" },',
      '    { "user": "東京", "action": "publish", "resource": "article", "expect": "granted" },',
      '    { "user": "🙂", "action": "read", "resource": "article", "expect": "denied" }',
      '  ]',
      '}',
    ].join('\n');
    expect(await test(good)).toEqual({ code: 0, logs: ['3 passed, 0 failed'], errors: [] });
    const long = 'n'.repeat(129);
    const bad = [
      '{',
      `  "users": { "a\\u200db": { "id": 1, "roles": ["\\u202eROLE"] }, "${long}": { "id": 2, "roles": [] } },`,
      '  "tests": [{ "user": "\\ud800", "action": "read", "resource": "article", "expect": "denied" }]',
      '}',
    ].join('\n');
    expect(await test(bad)).toEqual({
      code: 1,
      logs: [],
      errors: [
        'dir/h.permissions.test.json:2:26 $.users["a\\u200db"] [invalid-name] The user name "a\\u200db" contains the unprintable character U+200D. ' +
          'Fix: Name the user with printable text.',
        'dir/h.permissions.test.json:2:47 $.users["a\\u200db"].roles[0] [invalid-name] The role name "\\u202eROLE" contains the unprintable ' +
          'character U+202E. ' +
          'Fix: Name the role with printable text.',
        `dir/h.permissions.test.json:2:197 $.users.${long} [invalid-name] The user name "${'n'.repeat(60)}"… is 129 characters long; the limit is 128. ` +
          'Fix: Name the user with printable text.',
        'dir/h.permissions.test.json:3:23 $.tests[0].user [unknown-user] User "\\ud800" is not one of the file\'s users. ' +
          `Fix: Add "\\ud800" to "users", or name one of "a\\u200db", "${'n'.repeat(60)}"….`,
        'typed-permissions: 4 problems in dir; no test ran.',
      ],
    });
  });
});

/** The ownership-rules example (document ids are numbers; user, reached only through a relation, has number ids too). */
const RULES_EXAMPLE = join(repoRoot, 'examples', 'ownership-rules', 'definitions');

/** Runs `argv` on the ownership-rules example with `files` added or replaced; every line names the folder as `dir`. */
async function onRulesExample(files: Readonly<Record<string, string>>, ...argv: string[]) {
  const dir = folderWith(files, RULES_EXAMPLE);
  folders.push(dir);
  const result = await run(...argv, dir);
  return { ...result, errors: result.errors.map((line) => line.replaceAll(dir, 'dir')), logs: result.logs.map((line) => line.replaceAll(dir, 'dir')) };
}

describe('ids of records the rules read', () => {
  it('a record of a resource only a relation reaches has its declared id type: another is refused where it stands', async () => {
    const text = [
      '{',
      '  "users": { "dan": { "id": 4, "roles": ["COMPANY_ADMIN"], "attributes": { "companyId": 2, "managedUserIds": [] } } },',
      '  "records": {',
      '    "document": { "3": { "id": 3, "creatorId": 5 } },',
      '    "user": { "5": { "id": "5", "companyId": 2 }, "x": { "id": "x", "companyId": 2 } }',
      '  },',
      '  "tests": [{ "user": "dan", "action": "update", "resource": "document", "resourceId": 3, "expect": "granted" }]',
      '}',
    ].join('\n');
    expect(await onRulesExample({ 'r.permissions.test.json': text }, 'test')).toEqual({
      code: 1,
      logs: [],
      errors: [
        'dir/r.permissions.test.json:5:28 $.records.user["5"].id [invalid-id] "5" is not an id of "user": its ids are numbers. Fix: Write it as a number: 5.',
        'dir/r.permissions.test.json:5:56 $.records.user.x [invalid-id] Record "x" of "user" stands under a key that is not an id of it: its ids are ' +
          'numbers, written in decimal without leading zeros. Fix: Store the record under its id, a number written in decimal (such as "10"), with ' +
          'that number as its "id".',
        'typed-permissions: 2 problems in dir; no test ran.',
      ],
    });
  });

  it('--coverage finds a related record by its id as the runner does: user 5 is not the creator "5"', async () => {
    const tests = (creatorId: number | string, expect: string) =>
      JSON.stringify({
        users: { dan: { id: 4, roles: ['COMPANY_ADMIN'], attributes: { companyId: 2, managedUserIds: [] } } },
        records: { document: { '3': { id: 3, creatorId } }, user: { '5': { id: 5, companyId: 2 } } },
        tests: [{ user: 'dan', action: 'update', resource: 'document', resourceId: 3, expect }],
      });
    const unexercised = (lines: string[]) => lines.filter((line) => line.includes('COMPANY_ADMIN document update:own'));
    // A creatorId of "5" names no user: the runner finds none whose id is "5", so the rule (the creator's company is
    // dan's) does not hold and the update is denied; coverage counts no own grant either.
    const byString = await onRulesExample({ 'documents.permissions.test.json': tests('5', 'denied') }, 'test', '--coverage');
    expect([byString.code, unexercised(byString.logs), byString.logs.at(-1)]).toEqual([0, ['  COMPANY_ADMIN document update:own'], '1 passed, 0 failed']);
    // A creatorId of 5 is user 5: the runner grants the update, and coverage counts the own grant.
    const byNumber = await onRulesExample({ 'documents.permissions.test.json': tests(5, 'granted') }, 'test', '--coverage');
    expect([byNumber.code, unexercised(byNumber.logs), byNumber.logs.at(-1)]).toEqual([0, [], '1 passed, 0 failed']);
  });
});
