/**
 * `typed-permissions explain --tenant <id> --tenant-roles <file>`: a decision in a tenant, with the tenant's custom
 * roles (read from a file, checked against the policy) beside the policy's; a custom role is marked as the tenant's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { main } from '../../compiler/commands/main.js';

const dir = mkdtempSync(join(tmpdir(), 'explain-tenant-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return main(argv, { log: (line: string) => void out.push(line), error: (line: string) => void err.push(line) }).then((code) => ({ code, out, err }));
}

const roles = join(dir, 'acme.json');
writeFileSync(
  roles,
  JSON.stringify({ definitions: [{ roles: ['AUDITOR'], resource: 'decision', descr: 'Auditors read the decision log.', grant: ['list:any'] }] }, null, 2),
);

describe('typed-permissions explain in a tenant', () => {
  it('explains a custom role of the tenant beside the policy roles', async () => {
    expect(
      await run(
        'explain',
        'definitions',
        '--roles',
        'EMPLOYEE,AUDITOR',
        '--resource',
        'decision',
        '--action',
        'list',
        '--tenant',
        'acme',
        '--tenant-roles',
        roles,
      ),
    ).toEqual({
      code: 0,
      out: [
        [
          'list on decision for roles EMPLOYEE, AUDITOR in tenant "acme": GRANTED',
          '  - AUDITOR (custom role of tenant "acme"): any, attributes *',
          '      from acme.json #0 ("Auditors read the decision log.") as any',
        ].join('\n'),
      ],
      err: [],
    });
  });

  it('without the tenant, the custom role is an unknown role', async () => {
    const { code, out } = await run('explain', 'definitions', '--roles', 'AUDITOR', '--resource', 'decision', '--action', 'list');
    expect([code, out.join('\n').split('\n')[0]]).toEqual([0, 'list on decision for roles AUDITOR: NOT GRANTED']);
  });

  it('refuses custom roles that step outside the policy, at their line and column, and a bad tenant id', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "definitions": [\n    { "roles": ["EMPLOYEE"], "resource": "decision", "grant": ["list:any"] }\n  ]\n}\n');
    const refused = await run(
      'explain',
      'definitions',
      '--roles',
      'EMPLOYEE',
      '--resource',
      'decision',
      '--action',
      'list',
      '--tenant',
      'acme',
      '--tenant-roles',
      bad,
    );
    expect({ code: refused.code, err: refused.err.map((line) => line.replace(dir, '<dir>')) }).toEqual({
      code: 1,
      err: [
        '<dir>/bad.json:3:17 $.definitions[0].roles[0] [tenant-role] Role "EMPLOYEE" is a role of the compiled policy; ' +
          'a tenant adds roles and never changes one. Fix: Give the custom role a name of its own (for example "ACME_REVIEWER").',
      ],
    });
    const odd = await run('explain', 'definitions', '--roles', 'EMPLOYEE', '--resource', 'decision', '--action', 'list', '--tenant', '');
    expect([odd.code, odd.err[0]?.split('\n')[0]]).toEqual([2, 'typed-permissions: explain: --tenant must not be empty.']);
  });
});
