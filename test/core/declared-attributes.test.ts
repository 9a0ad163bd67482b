/**
 * The attributes each resource declares: the table builder writes them into the tables (sorted, each once, null for
 * a resource that declares none, absent when none declares any), packed and unpacked tables both carry them, the
 * shape check refuses tampered ones, and the one check that a grant names only declared attributes
 * (`undeclaredAttributePaths`, shared with the compiler) says exactly what is wrong and where.
 */
import { describe, expect, it } from '@jest/globals';
import { undeclaredAttributePaths } from '../../runtime/core/definition/declared-attributes.js';
import { buildGrantTables, type LocatedDefinition, type ValidDefinition } from '../../runtime/core/table-building/table-builder.js';
import { packGrantTables, unpackGrantTables } from '../../runtime/core/tables/packed-tables.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';
import { grantTablesProblem } from '../../runtime/core/tables/table-shape.js';
import { Permissions, PermissionsUsageError, type GrantTables } from '../../runtime/permissions/index.js';

const definitions: ValidDefinition[] = [
  { roles: 'EDITOR', resource: 'document', grant: { 'read:any': ['*', '!secret'], 'update:any': ['title'] } },
  { roles: 'READER', resource: 'note', grant: ['read:any'] },
];
const located: LocatedDefinition[] = definitions.map((definition, index) => ({ definition, location: { index, source: 'app.permissions.json' } }));

function tablesWith(attributes?: ReadonlyMap<string, readonly string[]>): GrantTables {
  const built = buildGrantTables(located, attributes === undefined ? {} : { attributes });
  expect(built.problems).toEqual([]);
  expect(built.warnings).toEqual([]);
  return built.tables;
}

const declared = new Map([
  ['document', ['title', 'secret', 'id', 'address.city', 'title']],
  // Declared by a resource no definition names (one a rule's relation reaches): not in the tables, and no warning.
  ['company', ['name']],
]);

describe('the tables carry the declared attributes', () => {
  it('per resource, in the order of the resources: sorted and each once, or null; after declaredActions, before ownershipRules', () => {
    const tables = tablesWith(declared);
    expect(tables.resources).toEqual(['document', 'note']);
    expect(tables.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
    expect(Object.keys(tables)).toEqual(['format', 'roles', 'resources', 'actions', 'plans', 'hooks', 'owners', 'attributes', 'cells', 'definitions']);
    expect(grantTablesProblem(tables)).toBeUndefined();
  });

  it('an empty declaration stays an empty list (no attribute may be named), not null (any may be)', () => {
    expect(tablesWith(new Map([['note', []]])).attributes).toEqual([null, []]);
  });

  it('are absent when no resource declares any, so tables without them keep their version', () => {
    expect('attributes' in tablesWith()).toBe(false);
    expect('attributes' in tablesWith(new Map([['company', ['name']]]))).toBe(false);
  });

  it("are part of the tables' version", () => {
    expect(policyVersionOf(tablesWith(declared))).not.toBe(policyVersionOf(tablesWith()));
    expect(policyVersionOf(tablesWith(declared))).not.toBe(policyVersionOf(tablesWith(new Map([['document', ['id']]]))));
  });

  it('packed tables carry them in their header, and unpack to the same tables and version', () => {
    const tables = tablesWith(declared);
    const packed = packGrantTables(tables);
    expect(JSON.parse(packed.header)).toMatchObject({ attributes: { lists: [['address.city', 'id', 'secret', 'title']], numbers: [0, -1] } });
    const unpacked = unpackGrantTables(packed.header, packed.definitions, packed.cells, packed.descriptions);
    expect(unpacked.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
    expect(JSON.stringify(unpacked)).toBe(JSON.stringify(tables));
    expect(policyVersionOf(unpacked)).toBe(policyVersionOf(tables));
    expect(Permissions.fromTables(unpacked).tables.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
  });

  it('packed tables write a list that several resources declare once, and unpack it to each of them', () => {
    const tables = tablesWith(
      new Map([
        ['document', ['title', 'id']],
        ['note', ['id', 'title']],
      ]),
    );
    const packed = packGrantTables(tables);
    expect(JSON.parse(packed.header)).toMatchObject({ attributes: { lists: [['id', 'title']], numbers: [0, 0] } });
    const unpacked = unpackGrantTables(packed.header, packed.definitions, packed.cells, packed.descriptions);
    expect(unpacked.attributes).toEqual([
      ['id', 'title'],
      ['id', 'title'],
    ]);
    expect(JSON.stringify(unpacked)).toBe(JSON.stringify(tables));
    expect(policyVersionOf(unpacked)).toBe(policyVersionOf(tables));
  });

  it('tables packed before lists were shared (a plain list per resource) still load', () => {
    const tables = tablesWith(declared);
    const packed = packGrantTables(tables);
    const header = packed.header.replace(/"attributes":\{[^}]*\}/, '"attributes":[["address.city","id","secret","title"],null]');
    expect(header).not.toBe(packed.header);
    const unpacked = unpackGrantTables(header, packed.definitions, packed.cells, packed.descriptions);
    expect(JSON.stringify(unpacked)).toBe(JSON.stringify(tables));
    expect(Permissions.fromTables(unpacked).tables.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
  });
});

describe('tampered attributes are refused by the shape check', () => {
  const tables = tablesWith(declared);
  const withAttributes = (attributes: unknown): GrantTables => ({ ...tables, attributes }) as GrantTables;

  it.each([
    ['not a list', 7, 'attributes is not an array'],
    ['not one entry per resource', [['id']], 'attributes does not have one entry per resource'],
    ['an entry that is not a list', [7, null], 'attributes[0] is not an array'],
    ['an entry that is not a string', [['id', 7], null], 'attributes[0][1] is not an attribute name'],
    ['an empty name', [[''], null], 'attributes[0][0] is not an attribute name'],
    ['an exclusion', [['!secret'], null], 'attributes[0][0] is not an attribute name'],
    ['every attribute', [['*'], null], 'attributes[0][0] is not an attribute name'],
    ['an empty segment', [['address..city'], null], 'attributes[0][0] is not an attribute name'],
    ['names out of order', [['title', 'id'], null], 'attributes[0][1] is not after the one before it (sorted, each once)'],
    ['a name twice', [['id', 'id'], null], 'attributes[0][1] is not after the one before it (sorted, each once)'],
  ])('refuses %s', (_what, attributes, problem) => {
    expect(grantTablesProblem(withAttributes(attributes))).toBe(problem);
  });

  it.each([
    ['a list number that names no list', { lists: [['id']], numbers: [5, -1] }, 'attributes[0] is not an array'],
    ['a list number that is not an integer', { lists: [['id']], numbers: ['0', -1] }, 'attributes[0] is not an array'],
    ['list numbers not one per resource', { lists: [['id']], numbers: [0] }, 'attributes does not have one entry per resource'],
    ['lists that are no list', { lists: 'id', numbers: [0, -1] }, 'attributes is not an array'],
    ['a shared list with a bad name', { lists: [['!id']], numbers: [0, 0] }, 'attributes[0][0] is not an attribute name'],
    ['a list named "__proto__"', { lists: [['id']], numbers: ['__proto__', -1] }, 'attributes[0] is not an array'],
  ])('in a packed header, refuses %s', (_what, attributes, problem) => {
    const packed = packGrantTables(tables);
    const header = JSON.stringify({ ...(JSON.parse(packed.header) as object), attributes });
    const unpacked = unpackGrantTables(header, packed.definitions, packed.cells, packed.descriptions);
    expect(() => Permissions.fromTables(unpacked)).toThrow(`(${problem})`);
  });

  it('accepts null and empty entries', () => {
    expect(grantTablesProblem(withAttributes([null, []]))).toBeUndefined();
  });

  it('refuses them when an engine loads the tables, and in a packed header', () => {
    expect(() => Permissions.fromTables(withAttributes([['title', 'id'], null]))).toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (attributes[0][1] is not after the one before it (sorted, each once)); ' +
          'run `npx typed-permissions compile` again.',
      ),
    );
    const packed = packGrantTables(tables);
    const header = packed.header.replace('"lists":[["address.city"', '"lists":[[7');
    expect(header).not.toBe(packed.header);
    expect(() => Permissions.fromTables(unpackGrantTables(header, packed.definitions, packed.cells, packed.descriptions))).toThrow(
      new PermissionsUsageError(
        'These are not grant tables of this version of typed-permissions (attributes[0][0] is not an attribute name); ' +
          'run `npx typed-permissions compile` again.',
      ),
    );
  });
});

describe('undeclaredAttributePaths', () => {
  const document = { attributes: ['address.city', 'id', 'secret', 'title'], declaredIn: '"attributes" in document.resource.json' };

  it('gives each pattern naming an undeclared attribute, at its grant path, with the message and fix', () => {
    const definition: ValidDefinition = {
      roles: 'EDITOR',
      resource: 'document',
      grant: { 'read:any': ['*', '!secrte', 'address', 'address.city.zip', 'address.*'], 'update:own': ['titel', '!*', 'id'] },
    };
    expect(undeclaredAttributePaths(definition, document)).toEqual([
      {
        path: ['grant', 'read:any', 1],
        message: 'Attribute "!secrte" is not an attribute of document (declared: address.city, id, secret, title).',
        fix: 'Correct the spelling, or add it to "attributes" in document.resource.json.',
      },
      {
        path: ['grant', 'update:own', 0],
        message: 'Attribute "titel" is not an attribute of document (declared: address.city, id, secret, title).',
        fix: 'Correct the spelling, or add it to "attributes" in document.resource.json.',
      },
    ]);
  });

  it('finds nothing in a grant list (it names no attributes), nor when every pattern is declared', () => {
    expect(undeclaredAttributePaths({ resource: 'document', grant: ['read:any', 'update:own'] }, document)).toEqual([]);
    expect(undeclaredAttributePaths({ resource: 'document', grant: { 'read:any': ['id', 'title', '!secret', 'address.city'] } }, document)).toEqual([]);
  });

  it('with nothing declared, every named attribute is undeclared, and "*" still is not', () => {
    expect(
      undeclaredAttributePaths({ resource: 'note', grant: { 'read:any': ['*', 'id'] } }, { attributes: [], declaredIn: 'the declared attributes' }),
    ).toEqual([
      {
        path: ['grant', 'read:any', 1],
        message: 'Attribute "id" is not an attribute of note (declared: ).',
        fix: 'Correct the spelling, or add it to the declared attributes.',
      },
    ]);
  });
});
