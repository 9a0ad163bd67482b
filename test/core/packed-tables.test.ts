/**
 * Packed tables, the form the generated code holds: unpacking gives tables equal to the built ones (key for key,
 * so the same policy version); an engine decodes a resource's cells only when a decision first asks about it, and
 * a malformed part fails closed then — with the same typed error as loading, every time it is asked — while the
 * other resources keep answering.
 */
import { describe, expect, it } from '@jest/globals';
import { packCells } from '../../runtime/core/tables/packed-cells.js';
import { MAX_PACKED_NUMBER, packNumbers } from '../../runtime/core/tables/packed-numbers.js';
import { packGrantTables, type PackedGrantTables } from '../../runtime/core/tables/packed-tables.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';
import { loadDefinitionDescriptions } from '../../runtime/permissions/precompiled.js';
import { Permissions, PermissionsUsageError, unpackGrantTables, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { collectingLogger } from './helpers.js';

const definitions: PermissionDefinition[] = [
  {
    roles: ['EMPLOYEE'],
    resource: 'document',
    descr: 'Employees read their own.',
    possession: 'own',
    grant: ['read'],
    isOwner: 'isCreator',
    listOwned: 'listCreated',
  },
  { roles: ['AUDITOR'], resource: '*', grant: { 'read:any': ['*', '!secret'] } },
  { roles: ['EDITOR'], resource: 'invoice', grant: ['update:any', 'read:any'] },
];
const ownership = { isCreator: ({ resourceId }: { resourceId: number }) => resourceId === 1, listCreated: () => [1] };

function built() {
  return new Permissions({ ownership, logger: collectingLogger().logger }).addPermissions(definitions, { source: 'app.permissions.json' }).build().tables;
}

type Parts = { header: string; definitions: string; descriptions: string; cells: string[] };

/** Unpacked tables with one part replaced. */
function tampered(change: (packed: Parts) => void) {
  const packed = packGrantTables(built());
  const copy = { ...packed, cells: [...packed.cells] };
  change(copy);
  return unpackGrantTables(copy.header, copy.definitions, copy.cells, copy.descriptions);
}

const read = (roles: string[], resource: string) => ({ user: { id: 1, roles }, resource, action: 'read' });

describe('packed grant tables', () => {
  it('unpack to tables equal to the built ones, key for key, so their version is the same', () => {
    const tables = built();
    const packed: PackedGrantTables = packGrantTables(tables);
    const unpacked = unpackGrantTables(packed.header, packed.definitions, packed.cells, packed.descriptions);
    expect(JSON.parse(JSON.stringify(unpacked))).toEqual(JSON.parse(JSON.stringify(tables)));
    expect(policyVersionOf(unpacked)).toBe(policyVersionOf(tables));
    expect(JSON.parse(packed.header)).toMatchObject({ cells: tables.cells.length, definitions: 3 });
    expect(packed.cells).toHaveLength(tables.resources.length);
    // The three definitions of one file, indexes 0 to 2: one run.
    expect(packed.definitions).toBe('[["app.permissions.json"],[0,0,3]]');
    expect(packed.descriptions).toBe('["Employees read their own.",null,null]');
  });

  it('an engine over them decides like the one that built them, for every role, resource and action', () => {
    const source = new Permissions({ ownership, logger: collectingLogger().logger }).addPermissions(definitions).build();
    const { header, definitions: summaries, cells, descriptions } = packGrantTables(source.tables);
    const loaded = Permissions.fromTables(unpackGrantTables(header, summaries, cells, descriptions), { ownership, logger: collectingLogger().logger });
    for (const roles of [['EMPLOYEE'], ['AUDITOR'], ['EDITOR'], ['EMPLOYEE', 'AUDITOR', 'EDITOR'], ['NOBODY']])
      for (const resource of ['document', 'invoice'])
        for (const action of ['read', 'update']) {
          const [a, b] = [source, loaded].map((engine) => engine.grantPermitSync({ user: { id: 1, roles }, resource, action }));
          expect([b?.granted, b?.anyGranted, b?.anyAttributes]).toEqual([a?.granted, a?.anyGranted, a?.anyAttributes]);
        }
  });

  it('tables packed in another format (by an earlier compiler) are refused when an engine is made of them, saying so', () => {
    const packed = packGrantTables(built());
    expect(JSON.parse(packed.header)).toMatchObject({ format: 2 });
    for (const format of [1, 3, '2', null]) {
      const tables = tampered((p) => (p.header = p.header.replace('"format":2', `"format":${JSON.stringify(format)}`)));
      expect(() => Permissions.fromTables(tables, { ownership, logger: collectingLogger().logger })).toThrow(
        new PermissionsUsageError(
          `These are not grant tables of this version of typed-permissions (they are packed in format ${String(format)}, and this version reads 2); ` +
            'run `npx typed-permissions compile` again.',
        ),
      );
    }
  });

  it("a resource's malformed cells fail closed on its first question, every time, with the loading error; other resources still answer", () => {
    // Resources are sorted: document (0), invoice (1); actions: create, delete, read (2), update. The invoice's only
    // cell names a role index past the three roles.
    const tables = tampered((packed) => (packed.cells[1] = packCells([[0, [], [], [4]]], [2, 99, 0])));
    const engine = Permissions.fromTables(tables, { ownership, logger: collectingLogger().logger });
    expect(engine.grantPermitSync(read(['AUDITOR'], 'document')).granted).toBe(true);
    const message =
      'These are not grant tables of this version of typed-permissions (cells of "invoice"[0][2] is not an index below 3); ' +
      'run `npx typed-permissions compile` again.';
    for (let i = 0; i < 2; i++) {
      expect(() => engine.grantPermitSync(read(['AUDITOR'], 'invoice'))).toThrow(new PermissionsUsageError(message));
    }
    expect(() => tables.cells).toThrow(message);
  });

  it.each<[string, (packed: Parts) => void, string]>([
    [
      'a character outside the packed alphabet',
      (p) => (p.cells[0] = '1"0'),
      '(the cells of "document" are not packed cells: character 1 is not one of the packed alphabet)',
    ],
    [
      'a character past ASCII',
      (p) => (p.cells[0] = '1\u00e90'),
      '(the cells of "document" are not packed cells: character 1 is not one of the packed alphabet)',
    ],
    ['a text cut inside a number', (p) => (p.cells[0] = 'W'), '(the cells of "document" are not packed cells: it ends inside the number at 0)'],
    ['an empty text', (p) => (p.cells[0] = ''), '(the cells of "document" are not packed cells: it ends where number 0 was expected)'],
    [
      'a count of a billion bodies in a text of a few',
      (p) => (p.cells[0] = `${packNumbers([MAX_PACKED_NUMBER])}0000`),
      '(the cells of "document" are not packed cells: it ends where number 10 was expected)',
    ],
    [
      'a number longer than six characters',
      (p) => (p.cells[0] = 'WWWWWW0'),
      '(the cells of "document" are not packed cells: the number at 0 is longer than 6 characters)',
    ],
    [
      'text after the last cell',
      (p) => (p.cells[0] = `${packCells([[0, [], [], [2]]], [1, 0, 0])}0`),
      '(the cells of "document" are not packed cells: it goes on after the last cell)',
    ],
    // By hand: one shape [anyPlan 0], one role, one word of actions, then role 0's groups — shape, actions, sources.
    [
      'a group naming a shape that does not exist',
      (p) => (p.cells[0] = packNumbers([1, 1, 0, 0, 1, 1, 0, 1, 5, 0b10, 1, 4])),
      'cells of "document"[0] does not have 7 fields',
    ],
    [
      'a cell written twice (two groups of a role with one action)',
      (p) => (p.cells[0] = packNumbers([1, 1, 0, 0, 1, 1, 0, 2, 0, 0b10, 1, 4, 0, 0b110, 1, 0])),
      'cells of "document"[1] does not come after the cell before it',
    ],
    [
      'an action past the actions',
      (p) => (p.cells[0] = packNumbers([1, 1, 0, 0, 1, 1, 0, 1, 0, 1 << 10, 1, 4])),
      'cells of "document"[0][1] is not an index below 4',
    ],
    [
      'more cells than every role with every action (one role, a thousand groups of every action)',
      (p) => (p.cells[0] = packNumbers([1, 1, 0, 0, 1, 1, 0, 1000, ...Array.from({ length: 1000 }, () => [0, 0b1111, 0]).flat()])),
      '(the cells of "document" are not packed cells: it holds more cells than 3 roles with 4 actions)',
    ],
    ['a body with a plan past the plans', (p) => (p.cells[0] = packCells([[7, [], [], [2]]], [1, 0, 0])), 'cells of "document"[0][3] is not an index below 2'],
    ['a part that is not a text', (p) => (p.cells[0] = 7 as never), '(the cells of "document" are not a text)'],
    ['a missing resource part', (p) => p.cells.pop(), '(the cells of "invoice" are not a text)'],
  ])('%s: refused on first use with a usage error naming the place', (_what, change, says) => {
    const engine = Permissions.fromTables(tampered(change), { ownership, logger: collectingLogger().logger });
    const resource = says.includes('invoice') ? 'invoice' : 'document';
    expect(() => engine.grantPermitSync(read(['AUDITOR', 'EDITOR'], resource))).toThrow(PermissionsUsageError);
    expect(() => engine.grantPermitSync(read(['AUDITOR', 'EDITOR'], resource))).toThrow(says);
  });

  it('cells written as JSON by an earlier version are refused when the engine is made, not on a first question', () => {
    const earlier = tampered((p) => (p.cells[1] = '[[[0,[],[],[4]]],[2,0,0]]'));
    expect(() => Permissions.fromTables(earlier, { ownership, logger: collectingLogger().logger })).toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (the cells of "invoice" are JSON, as an earlier version wrote them); ' +
          'run `npx typed-permissions compile` again.',
      ),
    );
  });

  it('a malformed header is refused when the engine loads, as unpacked tables always were', () => {
    const roleNotAName = tampered((p) => (p.header = p.header.replace('"roles":["AUDITOR"', '"roles":[7')));
    expect(() => Permissions.fromTables(roleNotAName, { ownership })).toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (roles[0] is not a name); run `npx typed-permissions compile` again.',
      ),
    );
    const noCount = tampered((p) => (p.header = p.header.replace(/"cells":\d+/, '"cells":"many"')));
    expect(() => Permissions.fromTables(noCount, { ownership })).toThrow('(cells is not a count of cells)');
  });

  it('a header that counts fewer cells than the parts hold is refused, not trusted (multi-role cache keys count on it)', () => {
    const engine = Permissions.fromTables(
      tampered((p) => (p.header = p.header.replace(/"cells":\d+/, '"cells":1'))),
      { ownership, logger: collectingLogger().logger },
    );
    expect(() => engine.grantPermitSync(read(['AUDITOR', 'EDITOR'], 'invoice'))).toThrow('cells: more distinct cells than the 1 the tables count');
  });

  it('definitions are decoded when first read, and malformed ones are refused then', () => {
    const tables = tampered((p) => (p.definitions = '[["app.permissions.json"],[0,0,1,1,4,2]]'));
    Permissions.fromTables(tables, { ownership, logger: collectingLogger().logger });
    expect(() => tables.definitions).toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (definitions[1].source is not a string); run `npx typed-permissions compile` again.',
      ),
    );
    const short = tampered((p) => (p.definitions = '[[],[-1,0,2]]'));
    expect(() => short.definitions).toThrow('(definitions do not number 3)');
    const notIndexes = tampered((p) => (p.definitions = '[[],[-1,"x",3]]'));
    expect(() => notIndexes.definitions).toThrow('(definitions[0].index is not an integer)');
  });

  it.each([
    ['a run counting more definitions than the header', '[[],[-1,0,1e9]]', "(the definitions' run 0 does not count between 1 and the 3 definitions)"],
    ['a run of no definition', '[[],[-1,0,0,-1,0,3]]', "(the definitions' run 0 does not count between 1 and the 3 definitions)"],
    ['a run whose count is not a number', '[[],[-1,0,"3"]]', "(the definitions' run 0 does not count between 1 and the 3 definitions)"],
    ['a second run past the header', '[[],[-1,0,3,-1,3,1]]', "(the definitions' run 1 does not count between 1 and the 3 definitions)"],
    ['not two lists', '{"runs":[]}', '(the definitions are not two lists of JSON)'],
  ])('%s is refused before anything is made', (_what, text, says) => {
    const tables = tampered((p) => (p.definitions = text));
    expect(() => tables.definitions).toThrow(PermissionsUsageError);
    expect(() => tables.definitions).toThrow(says);
  });

  it.each([
    ['descriptions that are not JSON', '["a",', '(the descriptions are not a JSON list of 3)'],
    ['fewer descriptions than definitions', '[null,null]', '(the descriptions are not a JSON list of 3)'],
    ['a description that is not a string', '[null,7,null]', '(definitions[1].descr is not a string)'],
  ])('%s are refused when first read', (_what, text, says) => {
    const tables = tampered((p) => (p.descriptions = text));
    expect(() => tables.definitions).toThrow(PermissionsUsageError);
    expect(() => tables.definitions).toThrow(says);
  });
});

describe('descriptions imported on demand', () => {
  /** Tables whose descriptions come from an import, counted. */
  function importing(module: () => Promise<{ definitionDescriptions: unknown }>) {
    const packed = packGrantTables(built());
    const calls = { count: 0 };
    const tables = unpackGrantTables(packed.header, packed.definitions, packed.cells, () => {
      calls.count++;
      return module();
    });
    return { tables, calls, packed };
  }

  it('are not imported to load the tables, decide or explain a decision in the decision log; permit.explain() imports them once', async () => {
    const packed = packGrantTables(built());
    const { tables, calls } = importing(() => Promise.resolve({ definitionDescriptions: packed.descriptions }));
    const events: unknown[] = [];
    const engine = Permissions.fromTables(tables, { ownership, logger: collectingLogger().logger, onDecision: (event) => void events.push(event) });
    const permit = engine.grantPermitSync(read(['EMPLOYEE'], 'document'));
    expect(permit.granted).toBe(true);
    expect(calls.count).toBe(0);
    expect(() => tables.definitions).toThrow(
      new PermissionsUsageError(
        'The definitions of these compiled tables are read with their descriptions, which are loaded on demand: ' +
          '`await loadDefinitionDescriptions(grantTables)` first (permit.explain() does).',
      ),
    );
    const explanation = await permit.explain();
    expect(explanation.byRole).toEqual([
      {
        role: 'EMPLOYEE',
        any: undefined,
        own: [{ isOwner: 'isCreator', attributes: ['*'] }],
        definitions: [{ index: 0, source: 'app.permissions.json', descr: 'Employees read their own.', possession: 'own' }],
      },
    ]);
    await permit.explain();
    expect(calls.count).toBe(1);
    expect(JSON.parse(JSON.stringify(tables))).toEqual(JSON.parse(JSON.stringify(built())));
  });

  it('an import that fails rejects explain() and is tried again on the next', async () => {
    const packed = packGrantTables(built());
    let fail = true;
    const { tables, calls } = importing(() =>
      fail ? Promise.reject(new Error('chunk not found')) : Promise.resolve({ definitionDescriptions: packed.descriptions }),
    );
    const engine = Permissions.fromTables(tables, { ownership, logger: collectingLogger().logger });
    const permit = engine.grantPermitSync(read(['EMPLOYEE'], 'document'));
    await expect(permit.explain()).rejects.toThrow('chunk not found');
    fail = false;
    expect((await permit.explain()).byRole[0]?.definitions[0]?.descr).toBe('Employees read their own.');
    expect(calls.count).toBe(2);
  });

  it('the version given with them is their version, and an engine made without one reads it from them', async () => {
    const tables = built();
    const packed = packGrantTables(tables);
    const version = policyVersionOf(tables);
    const unpacked = unpackGrantTables(
      packed.header,
      packed.definitions,
      packed.cells,
      () => Promise.resolve({ definitionDescriptions: packed.descriptions }),
      version,
    );
    expect(policyVersionOf(unpacked)).toBe(version);
    expect(Permissions.fromTables(unpacked, { ownership }).policyVersion).toBe(version);
    // Without a version, computing one needs the descriptions: refused until they are loaded, then the same.
    const unversioned = importing(() => Promise.resolve({ definitionDescriptions: packed.descriptions })).tables;
    expect(() => policyVersionOf(unversioned)).toThrow('loaded on demand');
    await loadDefinitionDescriptions(unversioned);
    expect(policyVersionOf(unversioned)).toBe(version);
  });

  it('a module that exports no text is refused with the loading error', async () => {
    const { tables } = importing(() => Promise.resolve({ definitionDescriptions: 7 }));
    await expect(loadDefinitionDescriptions(tables)).rejects.toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (the descriptions module exports no text); run `npx typed-permissions compile` again.',
      ),
    );
  });
});
