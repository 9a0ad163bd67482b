/**
 * Policy tests that name a tenant: a file declares each tenant's custom roles under "tenants", and a test asks in one
 * of them. The custom roles are checked against the policy as a followed source's are (each problem placed in the
 * file; a tenant no test names is not built), a test naming a tenant the file does not declare is refused, a failing test's explanation says which
 * role is the tenant's, and --coverage asks an ownership rule in the test's tenant.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDir, repoRoot } from '../compiler/helpers.js';
import { ARTICLE_WORLD, folderWith, run } from './policy-test-folders.js';

/** A test file of the articles fixture with `tenants` and one test a line; the first test stands on line 9. */
function tenantTests(tenants: object, ...tests: object[]): string {
  const world = ARTICLE_WORLD.replace(
    '"users": { "ann": { "id": 1, "roles": ["AUTHOR"] },',
    '"users": { "ann": { "id": 1, "roles": ["AUTHOR"] }, "tom": { "id": 4, "roles": ["PROOFREADER"] },',
  );
  return `{\n  "tenants": ${JSON.stringify(tenants)},\n  ${world}\n${tests.map((test) => `    ${JSON.stringify(test)}`).join(',\n')}\n  ]\n}\n`;
}

const proofreader = { definitions: [{ roles: ['PROOFREADER'], resource: 'article', descr: 'proofreaders read every article', grant: ['read:any'] }] };
const ask = (user: string, expect: 'granted' | 'denied', tenant?: string) => ({
  user,
  action: 'read',
  resource: 'article',
  expect,
  ...(tenant === undefined ? {} : { tenant }),
});

let dir = '';
afterEach(() => {
  if (dir !== '') removeTempDir(dir);
  dir = '';
});

describe('policy tests in tenants', () => {
  it('a custom role grants in its tenant only: in another tenant and without a tenant it is an unknown role', async () => {
    dir = folderWith({
      't.permissions.test.json': tenantTests(
        { acme: proofreader, globex: { definitions: [] } },
        ask('tom', 'granted', 'acme'),
        ask('tom', 'denied', 'globex'),
        ask('tom', 'denied'),
      ),
    });
    expect(await run('test', dir)).toEqual({ code: 0, logs: ['3 passed, 0 failed'], errors: [] });
  });

  it('a failing test in a tenant explains which role is the tenant’s', async () => {
    dir = folderWith({ 't.permissions.test.json': tenantTests({ acme: proofreader }, ask('tom', 'denied', 'acme')) });
    const { code, logs } = await run('test', dir);
    expect({ code, logs: logs.map((line) => line.replace(dir, '<dir>')) }).toEqual({
      code: 1,
      logs: [
        `FAIL <dir>/t.permissions.test.json:9:5 tom read article in tenant "acme"`,
        '  expected denied, got granted',
        '  read on article for roles PROOFREADER in tenant "acme": GRANTED',
        '    - PROOFREADER (custom role of tenant "acme"): any, attributes *',
        '        from tenant "acme" #0 ("proofreaders read every article") as any',
        '0 passed, 1 failed',
      ],
    });
  });

  it('two tests that differ only by tenant have names of their own: in FAIL lines and JUnit test case names', async () => {
    dir = folderWith({
      't.permissions.test.json': tenantTests({ acme: proofreader, globex: proofreader }, ask('tom', 'denied', 'acme'), ask('tom', 'denied', 'globex')),
    });
    const report = join(dir, 'report.xml');
    const { code, logs } = await run('test', dir, '--reporter', 'junit', report);
    expect({ code, fails: logs.filter((line) => line.startsWith('FAIL ')).map((line) => line.replace(dir, '<dir>')) }).toEqual({
      code: 1,
      fails: [
        'FAIL <dir>/t.permissions.test.json:9:5 tom read article in tenant "acme"',
        'FAIL <dir>/t.permissions.test.json:10:5 tom read article in tenant "globex"',
      ],
    });
    expect([...readFileSync(report, 'utf8').matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((match) => match[1])).toEqual([
      'tom read article in tenant &quot;acme&quot;: denied',
      'tom read article in tenant &quot;globex&quot;: denied',
    ]);
  });

  it('custom roles that step outside the policy, and a tenant the file does not declare, are problems placed in the file', async () => {
    const tenants = { acme: { definitions: [{ roles: ['AUTHOR'], resource: 'article', grant: ['delete:any'] }] } };
    dir = folderWith({ 't.permissions.test.json': tenantTests(tenants, ask('tom', 'granted', 'acme'), ask('tom', 'granted', 'initech')) });
    const { code, errors } = await run('test', dir);
    expect({ code, errors: errors.map((line) => line.replace(dir, '<dir>')) }).toEqual({
      code: 1,
      errors: [
        '<dir>/t.permissions.test.json:2:48 $.tenants.acme.definitions[0].roles[0] [invalid-tenant-roles] Role "AUTHOR" is a role of the compiled policy; ' +
          'a tenant adds roles and never changes one. Fix: Give the custom role a name of its own (for example "ACME_REVIEWER").',
        '<dir>/t.permissions.test.json:10:84 $.tests[1].tenant [unknown-tenant] Tenant "initech" is not one of the file\'s tenants. ' +
          'Fix: Add "initech" to "tenants" with its custom roles ({ "definitions": [] } for none).',
        'typed-permissions: 2 problems in <dir>; no test ran.',
      ],
    });
  });

  it('a tenant no test names is never built: its roles, here invalid, are not checked', async () => {
    const invalid = { definitions: [{ roles: ['AUTHOR'], resource: 'article', grant: ['delete:any'] }] };
    dir = folderWith({ 't.permissions.test.json': tenantTests({ acme: proofreader, unnamed: invalid }, ask('tom', 'granted', 'acme')) });
    expect(await run('test', dir)).toEqual({ code: 0, logs: ['1 passed, 0 failed'], errors: [] });
  });

  it('--coverage counts an own grant whose rule compares with the tenant, for a test in that tenant', async () => {
    const test = { user: 'mgr', action: 'read', resource: 'document', resourceId: 1, tenant: 'acme', expect: 'granted' };
    const file = {
      users: { mgr: { id: 3, roles: ['MANAGER'] } },
      records: { document: { '1': { id: 1, title: 'T', content: 'C', authorId: 1, tenantId: 'acme' } } },
      tenants: { acme: { definitions: [] } },
      tests: [test],
    };
    dir = folderWith({ 't.permissions.test.json': JSON.stringify(file) }, join(repoRoot, 'examples', 'tenants', 'definitions'));
    expect(await run('test', dir, '--coverage')).toEqual({
      code: 0,
      logs: [
        'Grants no test exercised (3 of 4):',
        '  EMPLOYEE document list:own',
        '  EMPLOYEE document read:own',
        '  MANAGER document list:own',
        '1 passed, 0 failed',
      ],
      errors: [],
    });
  });
});
