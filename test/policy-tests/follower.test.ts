/**
 * A followed source and the tests a bundle carries: a version whose embedded tests fail, cannot run (malformed,
 * naming what the version lacks), pass the limit of tests or hold no test at all (which would pass it untested)
 * is rejected with the reason, and the last good version stays; a version whose tests pass is activated. The
 * tests' ownership comes from the tests: the application's ownership service is never asked while they run.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import type { PolicyChange, PolicyRejection } from '../../runtime/live/policy-follower.js';
import { MAX_POLICY_TEST_TENANT_DEFINITIONS, MAX_POLICY_TESTS_PER_FILE } from '../../runtime/core/policy-test/policy-test-limits.js';
import type { PolicyTestCase, PolicyTestFile, PolicyTests } from '../../runtime/core/policy-test/policy-test-types.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { memorySource } from '../live/memory-source.js';
import { ARTICLES } from './policy-test-folders.js';

const definitions = (JSON.parse(readFileSync(join(ARTICLES, 'article.permissions.json'), 'utf8')) as { definitions: PermissionDefinition[] }).definitions;

/** The application's ownership service: the tests must never ask it. */
const asked: string[] = [];
const ownership = Object.fromEntries(
  ['isAuthor', 'listAuthored', 'limitToAssigned', 'articlesAmong'].map((name) => [
    name,
    () => {
      asked.push(name);
      return name === 'isAuthor' ? false : [];
    },
  ]),
);

/** The articles policy, its first definition described as `descr` (another description, another version). */
function tablesOf(descr: string) {
  return new Permissions({ ownership, ownedAmong: { article: 'articlesAmong' }, resourceIdTypes: { article: 'number' }, logger: { warn: () => undefined } })
    .addPermissions(
      definitions.map<PermissionDefinition>((definition, i) => (i === 0 ? { ...definition, descr } : definition)),
      {
        source: 'article.permissions.json',
      },
    )
    .build().tables;
}

const users = { ann: { id: 1, roles: ['AUTHOR'] }, eve: { id: 2, roles: ['EDITOR'] } };
const test = (user: string, action: string, expect: 'granted' | 'denied', line: number, resourceId?: number): PolicyTestCase => ({
  user,
  action,
  resource: 'article',
  ...(resourceId === undefined ? {} : { resourceId }),
  expect,
  line,
  column: 5,
});
const file = (tests: PolicyTestCase[], name = 't.permissions.test.json'): PolicyTestFile => ({
  file: name,
  users,
  ownership: { isAuthor: { ann: [1] } },
  records: {},
  tests,
});

/** A tenant's custom roles: `count` definitions, each letting its role (R0 … R99) read every article. */
const readers = (count: number) => ({
  definitions: Array.from({ length: count }, (_, i) => ({ roles: [`R${i % 100}`], resource: 'article', grant: ['read:any'] })),
});

function bundle(descr: string, tests?: unknown): PolicyBundle {
  const bare = policyBundleOf(tablesOf(descr));
  return tests === undefined ? bare : ({ ...bare, tests } as PolicyBundle);
}

const passing: PolicyTests = { format: 1, files: [file([test('ann', 'read', 'granted', 8, 1), test('eve', 'publish', 'granted', 9)])] };
const failing: PolicyTests = {
  format: 1,
  files: [file([test('ann', 'read', 'granted', 8, 1), test('eve', 'update', 'granted', 9), test('ann', 'read', 'granted', 10, 2)])],
};

/** An engine on the base policy, following a source whose versions the test publishes; what it reported. */
async function follower() {
  const base = bundle('v0');
  const permissions = Permissions.fromTables(base, { ownership, logger: { warn: () => undefined } });
  const { source, publish } = memorySource(undefined);
  const changes: PolicyChange[] = [];
  const rejections: PolicyRejection[] = [];
  const live = await permissions.follow(source, { onChange: (change) => changes.push(change), onReject: (rejection) => rejections.push(rejection) });
  /** Publishes `next` as sequence `sequence` and waits until the follower has decided on it. */
  const offer = async (next: PolicyBundle, sequence: number) => {
    const before = changes.length + rejections.length;
    publish({ bundle: next, sequence });
    const deadline = Date.now() + 10_000;
    while (changes.length + rejections.length === before) {
      if (Date.now() > deadline) throw new Error(`the follower did not decide on version ${sequence} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { permissions, base, live, changes, rejections, offer };
}

describe('a followed bundle’s own tests', () => {
  it('passing tests: the version is activated, and the ownership service was never asked', async () => {
    const { permissions, base, live, changes, rejections, offer } = await follower();
    const next = bundle('v1', passing);
    await offer(next, 1);
    expect([changes, rejections, permissions.policyVersion, asked]).toEqual([
      [{ version: next.version, previousVersion: base.version, sequence: 1, source: 'memory' }],
      [],
      next.version,
      [],
    ]);
    await live.close();
  });

  it('failing tests: rejected with each failure (place, test, what was decided); the last good version stays', async () => {
    const { permissions, base, live, changes, rejections, offer } = await follower();
    const next = bundle('v2', failing);
    await offer(next, 1);
    expect([changes, rejections, permissions.policyVersion]).toEqual([
      [],
      [
        {
          version: next.version,
          sequence: 1,
          source: 'memory',
          reasons: [
            'its policy tests fail (2 of 3): t.permissions.test.json:9:5 eve update article: expected granted, got denied; ' +
              't.permissions.test.json:10:5 ann read article 2: expected granted, got denied',
          ],
        },
      ],
      base.version,
    ]);
    const fixed = bundle('v3', passing);
    await offer(fixed, 2);
    expect(permissions.policyVersion).toBe(fixed.version);
    await live.close();
  });

  it.each<[string, unknown, string]>([
    ['a tests field that is not tests', 'all good', 'its tests cannot run (1 problem): $ (tests): The tests are "all good", not an object { format, files }.'],
    [
      'another format, a file whose users are a list',
      { format: 2, files: [{ ...file([test('ann', 'read', 'granted', 8, 1)]), users: [] }] },
      'its tests cannot run (2 problems): $.format (tests): The tests have format 2, not 1.; $.users (t.permissions.test.json): Field "users" is an ' +
        'array, not an object.',
    ],
    [
      'a test without its place, and one that names a user the file lacks',
      { format: 1, files: [{ ...file([]), tests: [{ user: 'ann', action: 'read', resource: 'article', expect: 'granted' }] }] },
      "its tests cannot run (2 problems): $.tests[0].line (t.permissions.test.json): The test's line is undefined, not a positive integer.; " +
        "$.tests[0].column (t.permissions.test.json): The test's column is undefined, not a positive integer.",
    ],
    [
      'what the version does not have: a user, an action',
      { format: 1, files: [file([test('bob', 'read', 'granted', 8), test('ann', 'approve', 'denied', 9)])] },
      'its tests cannot run (2 problems): $.tests[0].user (t.permissions.test.json): User "bob" is not one of the file\'s users.; ' +
        '$.tests[1].action (t.permissions.test.json): Action "approve" is not granted by any definition on any resource.',
    ],
    [
      'a test file without tests (a run of nothing is no pass)',
      { format: 1, files: [file([])] },
      'its tests cannot run (1 problem): $.tests (t.permissions.test.json): The file has no tests: "tests" is empty, so it checks nothing.',
    ],
    [
      'tests without a test file',
      { format: 1, files: [] },
      'its tests cannot run (1 problem): $.files (tests): The tests hold no test file, so they check nothing.',
    ],
    [
      'more tests than a policy may carry',
      {
        format: 1,
        files: Array.from({ length: 6 }, (_, i) =>
          file(
            Array.from({ length: i < 5 ? MAX_POLICY_TESTS_PER_FILE : 1 }, () => test('eve', 'publish', 'granted', 8)),
            `f${i}.permissions.test.json`,
          ),
        ),
      },
      'its tests cannot run (1 problem): $.tests[0] (f5.permissions.test.json): Tests in one policy: more than the limit of 50000.',
    ],
    [
      'more custom-role definitions of tenants than a policy may carry',
      {
        format: 1,
        files: [
          {
            ...file([test('eve', 'publish', 'granted', 8)]),
            tenants: Object.fromEntries(Array.from({ length: MAX_POLICY_TEST_TENANT_DEFINITIONS / 1_000 + 1 }, (_, t) => [`t${t}`, readers(1_000)])),
          },
        ],
      },
      "its tests cannot run (1 problem): $.tenants.t10.definitions[0] (t.permissions.test.json): Custom-role definitions of the tenants of one policy's " +
        'tests: more than the limit of 10000.',
    ],
  ])('%s: rejected, before any test runs', async (_label, tests, reason) => {
    const { permissions, base, live, rejections, offer } = await follower();
    await offer(bundle(`v-${_label}`, tests), 1);
    expect([rejections.map((rejection) => rejection.reasons), permissions.policyVersion]).toEqual([[[reason]], base.version]);
    await live.close();
  });

  it('more than five failures: five are named, the rest counted', async () => {
    const { live, rejections, offer } = await follower();
    const tests: PolicyTests = { format: 1, files: [file(Array.from({ length: 7 }, (_, i) => test('eve', 'update', 'granted', 8 + i)))] };
    await offer(bundle('v-many', tests), 1);
    const reason = rejections[0]?.reasons[0] ?? '';
    expect(reason.startsWith('its policy tests fail (7 of 7): t.permissions.test.json:8:5 eve update article: expected granted, got denied; ')).toBe(true);
    expect(reason.endsWith('t.permissions.test.json:12:5 eve update article: expected granted, got denied; and 2 more')).toBe(true);
    await live.close();
  });
});

describe('tenants in a bundle’s tests', () => {
  /** A test of user tom (role R0, a custom role) reading an article in `tenant`. */
  const inTenant = (tenant: string, line: number): PolicyTestCase => ({ ...test('tom', 'read', 'granted', line), tenant });
  const withTom = (tests: PolicyTestCase[], tenants: Record<string, unknown>): PolicyTestFile => ({
    ...file(tests),
    users: { ...users, tom: { id: 4, roles: ['R0'] } },
    tenants,
  });

  it('the custom roles of many tenants are built one at a time, the event loop turning between them', async () => {
    const TENANTS = 8;
    // Each tenant's first definition says when the check last read it (building it): the tick of a counter that
    // advances once a turn of the event loop.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const lastRead = new Array<number>(TENANTS).fill(-1);
    const tenants = Object.fromEntries(
      Array.from({ length: TENANTS }, (_, t) => {
        const [first, ...rest] = readers(200).definitions;
        const timed = {
          ...first,
          get descr() {
            lastRead[t] = ticks;
            return `read by tenant t${t}`;
          },
        };
        return [`t${t}`, { definitions: [timed, ...rest] }];
      }),
    );
    const tests: PolicyTests = {
      format: 1,
      files: [
        withTom(
          Object.keys(tenants).map((tenant, i) => inTenant(tenant, 8 + i)),
          tenants,
        ),
      ],
    };
    const { permissions, live, rejections, offer } = await follower();
    const next = bundle('v-tenants', tests);
    await offer(next, 1);
    ticking = false;
    expect([rejections, permissions.policyVersion]).toEqual([[], next.version]);
    // Every tenant was built; built in one synchronous run, the first and the last would have been read at the same tick.
    expect(lastRead.every((read) => read >= 0)).toBe(true);
    expect((lastRead[TENANTS - 1] as number) > (lastRead[0] as number)).toBe(true);
    await live.close();
  }, 60_000);

  it('a tenant no test names is never built: its roles, here invalid, are carried and not checked', async () => {
    const invalid = { definitions: [{ roles: ['AUTHOR'], resource: 'article', grant: ['delete:any'] }] };
    const tests: PolicyTests = { format: 1, files: [withTom([inTenant('acme', 8)], { acme: readers(1), unnamed: invalid })] };
    const { permissions, live, rejections, offer } = await follower();
    const next = bundle('v-unnamed', tests);
    await offer(next, 1);
    expect([rejections, permissions.policyVersion]).toEqual([[], next.version]);
    await live.close();
  }, 60_000);
});
