import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { log: (line: string) => void out.push(line), error: (line: string) => void err.push(line) } };
}

describe('typed-permissions explain', () => {
  it('explains a decision from the definitions folder, naming file and index', async () => {
    const { out, err, io: streams } = io();
    expect(await main(['explain', 'definitions', '--roles', 'EMPLOYEE_MANAGER,COMPANY_ADMIN', '--resource', 'document', '--action', 'read'], streams)).toBe(0);
    expect(err).toEqual([]);
    const text = out.join('\n');
    expect(text.split('\n')[0]).toBe('read on document for roles EMPLOYEE_MANAGER, COMPANY_ADMIN: GRANTED');
    expect(text).toContain('EMPLOYEE_MANAGER: own (when rule creatorOrManaged says so), attributes * !confidential !personal');
    expect(text).toContain('COMPANY_ADMIN: own (when rule sameCompany says so), attributes *');
    expect(text).toContain('from document.permissions.json #2');
  });

  it('prints JSON with --json', async () => {
    const { out, io: streams } = io();
    expect(await main(['explain', '--roles', 'SUPER_ADMIN', '--resource', 'document', '--action', 'delete', '--json'], streams)).toBe(0);
    const explanation = JSON.parse(out.join('\n')) as { granted: boolean; anyAttributes: string[] };
    expect([explanation.granted, explanation.anyAttributes]).toEqual([true, ['*']]);
  });

  it('names the role, resource and action probably meant when one is misspelt', async () => {
    const { out, err, io: streams } = io();
    expect(await main(['explain', 'definitions', '--roles', 'EMPLYOEE,GOD', '--resource', 'documnet', '--action', 'reed'], streams)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('\n')).toBe(
      [
        'reed on documnet for roles EMPLYOEE, GOD: NOT GRANTED',
        '  - resource "documnet" is not named by any definition. Did you mean "document"?',
        '  - action "reed" is not granted by any definition on any resource. Did you mean "read"?',
        '  - role "EMPLYOEE" is not named by any definition; it is ignored. Did you mean "EMPLOYEE"?',
        '  - role "GOD" is not named by any definition; it is ignored.',
      ].join('\n'),
    );
    const json = io();
    expect(await main(['explain', 'definitions', '--roles', 'EMPLYOEE', '--resource', 'document', '--action', 'read', '--json'], json.io)).toBe(0);
    expect((JSON.parse(json.out.join('\n')) as { suggestions: unknown }).suggestions).toEqual([{ kind: 'role', name: 'EMPLYOEE', nearest: 'EMPLOYEE' }]);
  });

  it('takes a role whose name holds a comma with --role, once per role', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-explain-'));
    try {
      writeFileSync(
        join(folder, 'd.permissions.json'),
        JSON.stringify([
          { roles: ['SALES,EU'], resource: 'document', grant: ['read:any'] },
          { roles: ['EU'], resource: 'document', grant: ['list:any'] },
        ]),
      );
      const { out, err, io: streams } = io();
      expect(await main(['explain', folder, '--role', 'SALES,EU', '--role', 'EU', '--resource', 'document', '--action', 'read'], streams)).toBe(0);
      expect(err).toEqual([]);
      expect(out[0]?.split('\n')[0]).toBe('read on document for roles SALES,EU, EU: GRANTED');
      const split = io();
      expect(await main(['explain', folder, '--roles', 'SALES,EU', '--resource', 'document', '--action', 'read'], split.io)).toBe(0);
      expect(split.out[0]?.split('\n')[0]).toBe('read on document for roles SALES, EU: NOT GRANTED');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('is a usage error (exit 2) without --roles, --resource and --action, or with compile flags', async () => {
    expect(await main(['explain', '--roles', 'A'], io().io)).toBe(2);
    expect(await main(['explain', '--roles', 'A', '--resource', 'r', '--action', 'a', '--check'], io().io)).toBe(2);
    expect(await main(['compile', '--roles', 'A'], io().io)).toBe(2);
  });
});
