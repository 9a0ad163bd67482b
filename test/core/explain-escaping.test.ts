/**
 * `formatExplanation` (permit.explain() users, `typed-permissions explain`)
 * prints descriptions, sources, role names, resource, action, hook names, attributes and ids from
 * input. None of them may put a control, format or line-separator character on the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../compiler/cli.js';
import { explainGrant } from '../../runtime/core/decision/explain.js';
import { formatExplanation, Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { printableJson, printableText } from '../../runtime/core/common/printable-text.js';
import { collectIo, makeTempDir, removeTempDir } from '../compiler/helpers.js';

/** Any character a terminal may act on rather than show (the line feeds between lines excepted by the callers). */
const RAW_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const HOSTILE_DESCR = 'mine\u001b[31mred\r\u0007\u009b2J\u202eevil\u200b\u2028';
const HOSTILE_SOURCE = 'docs\u001b]8;;http://evil.example\u0007.json';
const HOSTILE_ROLE = 'GHOST\u001b[2J\r\u2028\u200b\u009b';

const definitions: PermissionDefinition[] = [
  {
    roles: 'EMPLOYEE',
    resource: 'document',
    possession: 'own',
    descr: HOSTILE_DESCR,
    grant: { read: ['*', '!secret'] },
    isOwner: 'isCreator',
    listOwned: 'listCreated',
  },
];
const ownership = { isCreator: () => false, listCreated: () => [] };

function linesWithRawControls(text: string): string[] {
  return text.split('\n').filter((line) => RAW_CONTROL.test(line));
}

describe('explain output shows control characters as visible escapes', () => {
  it('printableText escapes C0, C1, DEL, bidi, zero-width and separator characters, and leaves every other character alone', () => {
    expect(printableText('\u001b[31mred\r\u0007\u009b\u007f\u202a\u202e\u2066\u2069\u200b\u200d\ufeff\u2028\u2029\u{e0041}')).toBe(
      String.raw`\u001b[31mred\u000d\u0007\u009b\u007f\u202a\u202e\u2066\u2069\u200b\u200d\ufeff\u2028\u2029\u{e0041}`,
    );
    for (const plain of ['EMPLOYEE_MANAGER', 'document', 'read:own', '!address.street', 'Zoë 文書 🙂 \\ "quoted" \u00a0'])
      expect(printableText(plain)).toBe(plain);
  });

  it('formatExplanation of a permit whose definition, source, roles and id carry escape sequences prints them escaped', async () => {
    const permissions = new Permissions({ ownership, logger: { warn() {} } }).addPermissions(definitions, { source: HOSTILE_SOURCE }).build();
    const permit = await permissions.grantPermit({
      user: { id: 1, roles: ['EMPLOYEE', HOSTILE_ROLE] },
      resource: 'document',
      action: 'read',
      resourceId: 'id\u001b[2J\u202e',
    });
    const text = formatExplanation(await permit.explain());
    expect(linesWithRawControls(text)).toEqual([]);
    expect(text.split('\n')).toEqual([
      String.raw`read on document for roles EMPLOYEE, GHOST\u001b[2J\u000d\u2028\u200b\u009b: NOT GRANTED for id "id\u001b[2J\u202e"`,
      String.raw`  - role "GHOST\u001b[2J\r\u2028\u200b\u009b" is not named by any definition; it is ignored.`,
      '  - EMPLOYEE: own (when isCreator says so), attributes * !secret',
      String.raw`      from docs\u001b]8;;http://evil.example\u0007.json #0 ("mine\u001b[31mred\u000d\u0007\u009b2J\u202eevil\u200b\u2028") as own`,
      String.raw`  - id "id\u001b[2J\u202e": isCreator answered not owned.`,
      String.raw`  - id "id\u001b[2J\u202e" refused: no ownership hook matched.`,
    ]);
  });

  it('an unknown resource and action given with escape sequences are printed escaped', () => {
    const permissions = new Permissions({ ownership, logger: { warn() {} } }).addPermissions(definitions).build();
    const text = formatExplanation(explainGrant(permissions.tables, [HOSTILE_ROLE], 'doc\u001b[2J', 'fly\u009b\u202e'));
    expect(linesWithRawControls(text)).toEqual([]);
    expect(text.split('\n')).toEqual([
      String.raw`fly\u009b\u202e on doc\u001b[2J for roles GHOST\u001b[2J\u000d\u2028\u200b\u009b: NOT GRANTED`,
      String.raw`  - resource "doc\u001b[2J" is not named by any definition.`,
      String.raw`  - action "fly\u009b\u202e" is not granted by any definition on any resource.`,
      String.raw`  - role "GHOST\u001b[2J\r\u2028\u200b\u009b" is not named by any definition; it is ignored.`,
    ]);
  });

  it('printableJson is JSON that parses back to the same value and holds no raw control or format character', () => {
    const value = { descr: HOSTILE_DESCR, roles: [HOSTILE_ROLE], tag: '\u{e0041}' };
    const json = printableJson(value, 2);
    expect(RAW_CONTROL.test(json.replaceAll('\n', ''))).toBe(false);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('typed-permissions explain prints escapes, never raw control characters', () => {
  let temp: string | undefined;
  let definitionsDir: string;
  const hostileFile = 'evil\u001b[31m\u202e.permissions.json';

  beforeAll(() => {
    temp = makeTempDir('explain-escaping');
    definitionsDir = join(temp, 'definitions');
    mkdirSync(definitionsDir);
    writeFileSync(
      join(definitionsDir, hostileFile),
      JSON.stringify([{ roles: 'EMPLOYEE', resource: 'document', descr: HOSTILE_DESCR, grant: { 'read:any': ['title'] } }]),
    );
  });
  afterAll(() => removeTempDir(temp));

  const explainArgs = (...extra: string[]) => [
    'explain',
    definitionsDir,
    '--roles',
    `EMPLOYEE,${HOSTILE_ROLE}`,
    '--resource',
    'document',
    '--action',
    'read',
    ...extra,
  ];

  it('the text output shows the description, file name and roles escaped', async () => {
    const { logs, errors, io } = collectIo();
    expect(await main(explainArgs(), io)).toBe(0);
    expect(errors).toEqual([]);
    const text = logs.join('\n');
    expect(linesWithRawControls(text)).toEqual([]);
    expect(text.split('\n')).toEqual([
      String.raw`read on document for roles EMPLOYEE, GHOST\u001b[2J\u000d\u2028\u200b\u009b: GRANTED`,
      String.raw`  - role "GHOST\u001b[2J\r\u2028\u200b\u009b" is not named by any definition; it is ignored.`,
      '  - EMPLOYEE: any, attributes title',
      String.raw`      from evil\u001b[31m\u202e.permissions.json #0 ("mine\u001b[31mred\u000d\u0007\u009b2J\u202eevil\u200b\u2028") as any`,
    ]);
  });

  it('--json is JSON holding the exact strings, with every C0 control escaped', async () => {
    const { logs, io } = collectIo();
    expect(await main(explainArgs('--json'), io)).toBe(0);
    const json = logs.join('\n');
    const explanation = JSON.parse(json) as { roles: string[]; unknownRoles: string[]; byRole: { definitions: { source: string; descr: string }[] }[] };
    expect([explanation.roles, explanation.unknownRoles, explanation.byRole[0]?.definitions[0]]).toEqual([
      ['EMPLOYEE', HOSTILE_ROLE],
      [HOSTILE_ROLE],
      { index: 0, source: hostileFile, descr: HOSTILE_DESCR, possession: 'any' },
    ]);
    // eslint-disable-next-line no-control-regex -- the assertion is that no control character is left
    expect(/[\u0000-\u001f]/.test(json.replaceAll('\n', ''))).toBe(false);
  });

  // JSON.stringify leaves C1 controls, bidi overrides and zero-width characters raw. cli.ts (not ours) prints
  // JSON.stringify(explanation); once it prints printableJson(explanation, 2) instead, this fails: turn it into `it`.
  it('--json holds no raw C1 control, bidi override or zero-width character', async () => {
    const { logs, io } = collectIo();
    expect(await main(explainArgs('--json'), io)).toBe(0);
    expect(linesWithRawControls(logs.join('\n'))).toEqual([]);
  });
});
