import { describe, expect, it } from '@jest/globals';
import { main } from '../../compiler/cli.js';

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
    expect(text).toContain(
      'EMPLOYEE_MANAGER: own (when limitToCreatorOrManagedCreators via ownedDocumentsAmong says so), attributes * !confidential !personal',
    );
    expect(text).toContain('from document.permissions.json #2');
  });

  it('prints JSON with --json', async () => {
    const { out, io: streams } = io();
    expect(await main(['explain', '--roles', 'SUPER_ADMIN', '--resource', 'document', '--action', 'delete', '--json'], streams)).toBe(0);
    const explanation = JSON.parse(out.join('\n')) as { granted: boolean; anyAttributes: string[] };
    expect([explanation.granted, explanation.anyAttributes]).toEqual([true, ['*']]);
  });

  it('is a usage error (exit 2) without --roles, --resource and --action, or with compile flags', async () => {
    expect(await main(['explain', '--roles', 'A'], io().io)).toBe(2);
    expect(await main(['explain', '--roles', 'A', '--resource', 'r', '--action', 'a', '--check'], io().io)).toBe(2);
    expect(await main(['compile', '--roles', 'A'], io().io)).toBe(2);
  });
});
