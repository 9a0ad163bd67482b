/**
 * A follower where zod is not installed: tests that declare tenants check the tenants' custom roles, which are
 * definitions and need zod. The version is refused with a reason that says its tenant tests could not run and what
 * to install, not with the loader's error; tests without tenants need no zod and still run.
 */
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as z from 'zod';
import type { PolicyTestCase, PolicyTests } from '../../runtime/core/policy-test/policy-test-types.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';

/** Whether zod is missing: false while the fixture compiles, true while the bundle's tests are checked. */
let missing = false;
jest.unstable_mockModule('../../runtime/core/definition/zod-loader.js', () => ({
  loadZod: () => {
    if (!missing) return z;
    throw new PermissionsUsageErrorOf('Validating definitions at run time needs zod, which is not installed: run `npm install zod` (zod 4).');
  },
  // zod's .max counts code points.
  zodMaxRefused: (value: string, max: number) => [...value].length > max,
}));
let PermissionsUsageErrorOf: new (message: string) => Error;

let tables: GrantTables;
let embeddedTestReasons: (bundle: object, tables: GrantTables) => Promise<string[]>;
beforeAll(async () => {
  PermissionsUsageErrorOf = (await import('../../runtime/core/common/errors.js')).PermissionsUsageError;
  ({ embeddedTestReasons } = await import('../../runtime/core/policy-test/embedded-policy-tests.js'));
  const { compileModel } = await import('../../compiler/model/compile-model.js');
  const { ARTICLES } = await import('./policy-test-folders.js');
  const compiled = compileModel(ARTICLES);
  if (!compiled.ok) throw new Error('the articles fixture does not compile');
  tables = compiled.model.tables;
  missing = true;
}, 30_000);

const test: PolicyTestCase = { user: 'ann', action: 'read', resource: 'article', expect: 'granted', line: 9, column: 5 };
const tests = (tenants?: Readonly<Record<string, unknown>>): PolicyTests => ({
  format: 1,
  files: [
    {
      file: 't.permissions.test.json',
      users: { ann: { id: 1, roles: ['AUTHOR'] } },
      ownership: {},
      records: {},
      ...(tenants === undefined ? {} : { tenants }),
      tests: [test],
    },
  ],
});

describe('the tests of a followed version, without zod', () => {
  it('tests that declare tenants refuse the version with a reason that names zod and what to install', async () => {
    expect(await embeddedTestReasons({ tests: tests({ acme: { definitions: [] } }) }, tables)).toEqual([
      'its tenant tests could not run, so the version was refused: the custom roles of tenant "acme" ("t.permissions.test.json") are checked with zod, ' +
        'which this application cannot load. Fix: install zod where the application follows the source (`npm install zod`, zod 4).',
    ]);
  });

  it('tests without tenants need no zod: they run', async () => {
    expect(await embeddedTestReasons({ tests: tests() }, tables)).toEqual([]);
  });
});
