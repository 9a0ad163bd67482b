/**
 * The runner in the runtime (`runPolicyTests`): each test decided by the engine over compiled tables, with the
 * ownership the test file states — isOwner answering for one record when a definition has it, else listOwned, else
 * limitOwned run by the resource's ownedAmong (which owns, too, the ids listed under its own name) — no hook code, no
 * database. `granted` is the record's decision with a resourceId and the resource's without; attributes are the keys
 * `pick` keeps; coverage counts an own grant only for a test on a record its ownership owns. Tests that cannot run
 * are refused before any runs, and a long run yields to the event loop.
 */
import { describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/compile-model.js';
import { permissionsFromDefinitions } from '../../runtime/permissions/index.js';
import { POLICY_TESTS_PER_TURN, runPolicyTests } from '../../runtime/core/policy-test/run-policy-tests.js';
import type { PolicyTestCase, PolicyTestFile, PolicyTests } from '../../runtime/core/policy-test/policy-test-types.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { ARTICLES } from './policy-test-folders.js';

const compiled = compileModel(ARTICLES);
if (!compiled.ok) throw new Error('the articles fixture does not compile');
const articles = compiled.model.tables;

type Case = Omit<PolicyTestCase, 'line' | 'column'>;

/** One file of tests, each on its own line from 1. */
function file(world: Omit<PolicyTestFile, 'file' | 'tests'>, tests: readonly Case[]): PolicyTestFile {
  return { file: 't.permissions.test.json', ...world, tests: tests.map((test, i) => ({ ...test, line: i + 1, column: 1 })) };
}

const suite = (...files: PolicyTestFile[]): PolicyTests => ({ format: 1, files });

/** The decisions of a run, one `user action id: granted|denied [attributes]` a test. */
async function decisions(tables: GrantTables, tests: PolicyTests): Promise<string[]> {
  const run = await runPolicyTests(tables, tests);
  return run.outcomes.map(
    ({ test, granted, attributes }) =>
      `${test.user} ${test.action} ${test.resourceId ?? '-'}: ${granted ? 'granted' : 'denied'}${attributes === undefined ? '' : ` [${attributes.join(' ')}]`}`,
  );
}

const users = { ann: { id: 1, roles: ['AUTHOR'] }, rex: { id: 3, roles: ['REVIEWER'] }, eve: { id: 2, roles: ['EDITOR'] } };
const records = { article: { '1': { id: 1, title: 'T', body: 'B', secret: 'S' }, '2': { id: 2, title: 'T', body: 'B', secret: 'S' } } };
const read = (user: string, resourceId?: number, attributes?: string[]): Case => ({
  user,
  action: 'read',
  resource: 'article',
  ...(resourceId === undefined ? {} : { resourceId }),
  expect: 'granted',
  ...(attributes === undefined ? {} : { attributes }),
});

describe('runPolicyTests: ownership as the test file states it', () => {
  it('a definition with isOwner: one record is decided by isOwner alone (its listOwned ids are not asked)', async () => {
    const world = { users, ownership: { isAuthor: { ann: [1] }, listAuthored: { ann: [2] } }, records };
    expect(
      await decisions(articles, suite(file(world, [read('ann', 1, ['id', 'title', 'body', 'secret']), read('ann', 2, ['id', 'title', 'body', 'secret'])]))),
    ).toEqual(['ann read 1: granted [body id secret title]', 'ann read 2: denied []']);
  });

  it('limitOwned: the ownedAmong executor keeps the ids its filter holds; ids listed under the executor are owned through any filter', async () => {
    const byFilter = { users, ownership: { limitToAssigned: { rex: [1] } }, records };
    expect(await decisions(articles, suite(file(byFilter, [read('rex', 1), read('rex', 2)])))).toEqual(['rex read 1: granted', 'rex read 2: denied']);
    const byExecutor = { users, ownership: { articlesAmong: { rex: [2] } }, records };
    expect(await decisions(articles, suite(file(byExecutor, [read('rex', 1), read('rex', 2)])))).toEqual(['rex read 1: denied', 'rex read 2: granted']);
  });

  it('listOwned without isOwner: one record is owned when the list has it', async () => {
    const listed = permissionsFromDefinitions(
      [{ roles: ['LISTER'], resource: 'article', possession: 'own', grant: { read: ['title'] }, listOwned: 'listMine' }],
      { ownership: { listMine: () => [] }, resourceIdTypes: { article: 'number' } },
    ).tables;
    const world = { users: { lou: { id: 9, roles: ['LISTER'] } }, ownership: { listMine: { lou: [2] } }, records };
    expect(await decisions(listed, suite(file(world, [read('lou', 1, []), read('lou', 2, ['title'])])))).toEqual([
      'lou read 1: denied []',
      'lou read 2: granted [title]',
    ]);
  });

  it('a method the file does not mention owns nothing; each file has its own users and ownership', async () => {
    const first = file({ users, ownership: { isAuthor: { ann: [1] } }, records }, [read('ann', 1)]);
    const second = { ...file({ users, ownership: {}, records }, [read('ann', 1)]), file: 'u.permissions.test.json' };
    expect(await decisions(articles, suite(first, second))).toEqual(['ann read 1: granted', 'ann read 1: denied']);
  });
});

describe('runPolicyTests: what is decided', () => {
  it('without a resourceId, the resource: granted as any or as own, whatever is owned', async () => {
    const world = { users, ownership: {}, records };
    expect(await decisions(articles, suite(file(world, [read('ann'), read('rex'), read('eve'), { ...read('eve'), action: 'update' }])))).toEqual([
      'ann read -: granted',
      'rex read -: granted',
      'eve read -: granted',
      'eve update -: denied',
    ]);
  });

  it("with a resourceId, that record: any, or own and owned; attributes are the keys pick keeps, each group's own", async () => {
    const world = {
      users: { ...users, both: { id: 4, roles: ['AUTHOR', 'REVIEWER'] } },
      ownership: { isAuthor: { both: [2] }, limitToAssigned: { both: [1] } },
      records,
    };
    expect(await decisions(articles, suite(file(world, [read('eve', 1, ['id']), read('both', 1, []), read('both', 2, [])])))).toEqual([
      'eve read 1: granted [body id title]',
      'both read 1: granted [id title]',
      'both read 2: granted [body id secret title]',
    ]);
  });

  it('every outcome: passed or failed, with the explanation of a failure', async () => {
    const world = { users, ownership: { isAuthor: { ann: [1] } }, records };
    const run = await runPolicyTests(articles, suite(file(world, [read('ann', 1), { ...read('ann', 2), expect: 'denied' }, read('ann', 2)])));
    expect([run.passed, run.failed, run.outcomes.map((outcome) => outcome.passed)]).toEqual([2, 1, [true, true, false]]);
    expect(run.outcomes[2]?.explanation).toEqual({
      roles: ['AUTHOR'],
      resource: 'article',
      action: 'read',
      granted: false,
      anyGranted: false,
      anyAttributes: [],
      unknownRoles: [],
      unknownResource: false,
      unknownAction: false,
      suggestions: [],
      byRole: [
        {
          role: 'AUTHOR',
          any: undefined,
          own: [{ isOwner: 'isAuthor', attributes: ['*'] }],
          definitions: [{ index: 0, source: 'article.permissions.json', descr: 'authors edit their own', possession: 'own' }],
        },
      ],
      ownership: { resourceId: 2, checks: [{ isOwner: 'isAuthor', owned: false }] },
    });
    expect(run.outcomes[0]?.explanation).toBeUndefined();
  });
});

describe('runPolicyTests: coverage', () => {
  it('an own grant counts only for a test on a record its ownership owns; an any grant for any test of its action', async () => {
    const world = { users, ownership: { isAuthor: { ann: [1] } }, records };
    const unexercised = async (tests: Case[]) =>
      (await runPolicyTests(articles, suite(file(world, tests)))).unexercised.map((g) => `${g.role} ${g.action}:${g.possession}`);
    const all = [
      'AUTHOR list:any',
      'AUTHOR read:own',
      'AUTHOR update:own',
      'EDITOR publish:any',
      'EDITOR read:any',
      'REVIEWER read:own',
      'REVIEWER review:own',
    ];
    expect(await unexercised([read('ann'), read('ann', 2)])).toEqual(all);
    expect(await unexercised([{ ...read('ann', 1), expect: 'denied' }, read('eve', 2)])).toEqual(
      all.filter((grant) => grant !== 'AUTHOR read:own' && grant !== 'EDITOR read:any'),
    );
    expect((await runPolicyTests(articles, suite(file(world, [read('ann', 2)])))).grants).toBe(7);
  });
});

describe('runPolicyTests: refusals and turns', () => {
  it('tests that cannot run are refused before any runs', async () => {
    const world = { users, ownership: {}, records };
    await expect(runPolicyTests(articles, suite(file(world, [{ ...read('ann'), user: 'nobody' }])))).rejects.toThrow(
      'These policy tests cannot run (1 problem); the first: t.permissions.test.json: User "nobody" is not one of the file\'s users. ' +
        'Add "nobody" to "users", or name one of "ann", "eve", "rex".',
    );
  });

  it('no tests are refused, never a run of nothing: a file without tests, and tests without a file', async () => {
    await expect(runPolicyTests(articles, suite(file({ users, ownership: {}, records }, [])))).rejects.toThrow(
      'These policy tests cannot run (1 problem); the first: t.permissions.test.json: The file has no tests: "tests" is empty, so it checks nothing. ' +
        'Add a test to "tests", or remove the file.',
    );
    await expect(runPolicyTests(articles, { format: 1, files: [] })).rejects.toThrow(
      'These policy tests cannot run (1 problem); the first: tests: The tests hold no test file, so they check nothing. ' +
        'Compile the policy again: a definitions folder without test files gives a bundle without "tests".',
    );
  });

  it(`a long run yields to the event loop every ${POLICY_TESTS_PER_TURN} tests`, async () => {
    const world = { users, ownership: {}, records };
    const events: string[] = [];
    setTimeout(() => events.push('a timer'), 0);
    const run = runPolicyTests(
      articles,
      suite(
        file(
          world,
          Array.from({ length: 2 * POLICY_TESTS_PER_TURN }, () => read('eve', 1)),
        ),
      ),
    );
    events.push('started');
    expect((await run).passed).toBe(2 * POLICY_TESTS_PER_TURN);
    events.push('done');
    expect(events).toEqual(['started', 'a timer', 'done']);
  });
});
