/**
 * Ownership rules in `*.resource.json` files: their names are checked across every resource file (the attribute,
 * the relation and the attribute it reaches, the user attribute and its kind), and each problem is reported at
 * the line and column of the name in the file that declares the rule, with "Did you mean" when a name is near.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import { makeTempDir, removeTempDir } from './helpers.js';

const DEFINITIONS = JSON.stringify([
  { roles: ['EMPLOYEE'], resource: 'document', grant: { 'read:any': ['*'] } },
  { roles: ['EMPLOYEE'], resource: 'user', grant: { 'read:any': ['*'] } },
]);
const USER = JSON.stringify({ resource: 'user', idType: 'number', attributes: ['id', 'companyId'] });

/** The document's file, one field a line, so that every problem's line says which field it is in. */
function documentFile(fields: { relations: unknown; userAttributes: unknown; ownership: Record<string, unknown> }): string {
  const rules = Object.entries(fields.ownership).map(([name, rule]) => `    ${JSON.stringify(name)}: ${JSON.stringify(rule)}`);
  return [
    '{',
    '  "resource": "document",',
    '  "idType": "number",',
    '  "attributes": ["id", "status", "creatorId"],',
    `  "relations": ${JSON.stringify(fields.relations)},`,
    `  "userAttributes": ${JSON.stringify(fields.userAttributes)},`,
    '  "ownership": {',
    rules.join(',\n'),
    '  }',
    '}',
  ].join('\n');
}

const RELATIONS = { creator: { resource: 'user', on: 'creatorId' } };
const USER_ATTRIBUTES = { id: 'number', companyId: 'number', managedUserIds: 'number[]' };

describe('ownership rules in resource metadata', () => {
  let folder: string | undefined;
  beforeAll(() => {
    folder = makeTempDir('ownership-rules');
  });
  afterAll(() => removeTempDir(folder));

  const problemsOf = (document: string, user = USER): readonly string[] => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(join(dir, 'all.permissions.json'), DEFINITIONS);
    writeFileSync(join(dir, 'document.resource.json'), document);
    writeFileSync(join(dir, 'user.resource.json'), user);
    const compiled = compileModel(dir);
    return compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'));
  };

  it("accepts the example's three rules", () => {
    const text = documentFile({
      relations: RELATIONS,
      userAttributes: USER_ATTRIBUTES,
      ownership: {
        creator: { attribute: 'creatorId', equals: { user: 'id' } },
        creatorOrManaged: {
          any: [
            { attribute: 'creatorId', equals: { user: 'id' } },
            { attribute: 'creatorId', in: { user: 'managedUserIds' } },
          ],
        },
        sameCompany: { attribute: 'creator.companyId', equals: { user: 'companyId' } },
      },
    });
    expect(problemsOf(text)).toEqual([]);
  });

  it("refuses the user's own id and roles declared as what no user holds; takes them as they are", () => {
    const ownership = { creator: { attribute: 'creatorId', equals: { user: 'id' } } };
    const declaring = (userAttributes: object) => problemsOf(documentFile({ relations: RELATIONS, userAttributes, ownership }));
    const [roles] = declaring({ ...USER_ATTRIBUTES, roles: 'number' });
    expect(roles).toMatch(/^definitions\/document\.resource\.json:\d+:\d+ \$\.userAttributes\.roles \[invalid-metadata\] /);
    expect(roles).toContain(
      'User attribute "roles" is the user\'s own list of role names, declared "number". Fix: Declare it "string[]", as every user holds it, ' +
        'or read an attribute of another name.',
    );
    expect(declaring({ ...USER_ATTRIBUTES, id: 'boolean' })).toEqual([
      expect.stringContaining(
        '$.userAttributes.id [invalid-metadata] User attribute "id" is the user\'s own id, declared "boolean". Fix: Declare it "number" or "string"',
      ),
    ]);
    expect(declaring({ ...USER_ATTRIBUTES, roles: 'string[]', id: 'string' })).toEqual([]);
  });

  it('names every unknown attribute, relation, related attribute and user attribute where it stands, with "Did you mean"', () => {
    const text = documentFile({
      relations: { creator: { resource: 'user', on: 'creatorID' }, owner: { resource: 'users', on: 'creatorId' } },
      userAttributes: USER_ATTRIBUTES,
      ownership: {
        a: { attribute: 'creatorid', equals: { user: 'id' } },
        b: { attribute: 'craetor.companyId', equals: { user: 'companyId' } },
        c: { attribute: 'creator.companyID', equals: { user: 'companyId' } },
        d: {
          all: [
            { attribute: 'status', in: ['draft'] },
            { attribute: 'creatorId', in: { user: 'managedUserId' } },
          ],
        },
        e: { attribute: 'creatorId', in: { user: 'id' } },
        f: { attribute: 'creatorId', equals: { user: 'managedUserIds' } },
      },
    });
    const at = 'definitions/document.resource.json';
    const code = '[invalid-ownership-rule]';
    expect(problemsOf(text)).toEqual([
      `${at}:5:51 $.relations.creator.on ${code} Relation "creator" is on "creatorID", which is not an attribute of document. Did you mean "creatorId"? ` +
        'Fix: Name the attribute that holds the related record\'s id, or add it to "attributes" in document.resource.json.',
      `${at}:5:84 $.relations.owner.resource ${code} Relation "owner" reaches resource "users", which no *.resource.json describes. Did you mean "user"? ` +
        'Fix: Correct the resource name, or add users.resource.json with its "attributes".',
      `${at}:8:23 $.ownership.a.attribute ${code} Attribute path "creatorid": "creatorid" is not an attribute of document. Did you mean "creatorId"? ` +
        'Fix: Correct the spelling, or add it to "attributes" in document.resource.json.',
      `${at}:9:23 $.ownership.b.attribute ${code} Attribute path "craetor.companyId": document has no relation "craetor". Did you mean "creator"? ` +
        'Fix: Correct the relation\'s name, or declare it in "relations" in document.resource.json.',
      `${at}:10:23 $.ownership.c.attribute ${code} Attribute path "creator.companyID": "companyID" is not an attribute of user (reached through creator). ` +
        'Did you mean "companyId"? Fix: Correct the spelling, or add it to "attributes" in user.resource.json.',
      `${at}:11:94 $.ownership.d.all[1].in.user ${code} User attribute "managedUserId" is not declared. Did you mean "managedUserIds"? ` +
        'Fix: Correct the spelling, or declare it in "userAttributes" in document.resource.json: "managedUserId": "number".',
      `${at}:12:48 $.ownership.e.in.user ${code} User attribute "id" is a number; "in" needs a list ("number[]"). ` +
        'Fix: Compare with "equals": { "user": "id" }, or declare it as a list.',
      `${at}:13:52 $.ownership.f.equals.user ${code} User attribute "managedUserIds" is a list (number[]); "equals" needs a single value. ` +
        'Fix: Write "in": { "user": "managedUserIds" } to match any of its values.',
    ]);
  });

  it('accepts the file of a resource that no definition names when a relation reaches it, and still refuses one that none reaches', () => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(join(dir, 'document.permissions.json'), JSON.stringify([{ roles: ['EMPLOYEE'], resource: 'document', grant: { 'read:any': ['*'] } }]));
    writeFileSync(join(dir, 'user.resource.json'), USER);
    writeFileSync(join(dir, 'document.resource.json'), documentFile({ relations: RELATIONS, userAttributes: USER_ATTRIBUTES, ownership: {} }));
    expect(compileModel(dir).ok).toBe(true);
    writeFileSync(join(dir, 'document.resource.json'), documentFile({ relations: {}, userAttributes: USER_ATTRIBUTES, ownership: {} }));
    const compiled = compileModel(dir);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/user.resource.json:1:13 $.resource [unknown-resource] No definition names resource "user". ' +
        'Fix: Correct the resource name, or remove the metadata file.',
    ]);
  });

  it('refuses a relation to a resource whose attributes do not include "id", at the relation', () => {
    const text = documentFile({ relations: RELATIONS, userAttributes: USER_ATTRIBUTES, ownership: {} });
    expect(problemsOf(text, JSON.stringify({ resource: 'user', idType: 'number', attributes: ['userId', 'companyId'] }))).toEqual([
      'definitions/document.resource.json:5:39 $.relations.creator.resource [invalid-ownership-rule] Relation "creator" reaches resource "user", ' +
        'whose attributes do not include "id". Fix: Add "id" (the attribute "on" holds the value of) to "attributes" in user.resource.json.',
    ]);
  });
  /** The document's file with "tenantIdType" and one rule a line. */
  const tenantFile = (tenantIdTypeLine: string, rules: readonly string[]) =>
    [
      '{',
      '  "resource": "document",',
      '  "idType": "number",',
      '  "attributes": ["id", "status", "creatorId", "companyId"],',
      `  "relations": ${JSON.stringify(RELATIONS)},`,
      `  "userAttributes": ${JSON.stringify(USER_ATTRIBUTES)},`,
      tenantIdTypeLine,
      '  "ownership": {',
      rules.join(',\n'),
      '  }',
      '}',
    ].join('\n');

  it("accepts rules comparing the tenant's id, and carries a number tenantIdType into the tables", () => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(join(dir, 'all.permissions.json'), JSON.stringify([{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:own'], owner: 'ofTenant' }]));
    writeFileSync(join(dir, 'user.resource.json'), USER);
    const write = (tenantIdTypeLine: string) =>
      writeFileSync(
        join(dir, 'document.resource.json'),
        tenantFile(tenantIdTypeLine, [
          '    "ofTenant": { "attribute": "companyId", "equals": { "tenant": "id" } }',
          '    "creatorInTenant": { "attribute": "creator.companyId", "equals": { "tenant": "id" } }',
        ]),
      );
    write('  "tenantIdType": "number",');
    const compiled = compileModel(dir);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    expect(compiled.model.tables.ownershipRules?.rules).toEqual([
      {
        resource: 'document',
        name: 'ofTenant',
        condition: { attribute: 'companyId', equals: { tenant: 'id' } },
        userAttributes: USER_ATTRIBUTES,
        tenantIdType: 'number',
      },
    ]);
    // A string (the default, written or not) leaves the tables as they were.
    write('  "tenantIdType": "string",');
    const asString = compileModel(dir);
    if (!asString.ok) throw new Error(JSON.stringify(asString.problems));
    expect(asString.model.tables.ownershipRules?.rules).toEqual([
      { resource: 'document', name: 'ofTenant', condition: { attribute: 'companyId', equals: { tenant: 'id' } }, userAttributes: USER_ATTRIBUTES },
    ]);
  });

  it('names every mistake of a tenant condition and of "tenantIdType" where it stands, with "Did you mean"', () => {
    const at = 'definitions/document.resource.json';
    const code = '[invalid-metadata]';
    const text = tenantFile('  "tenantIdType": "integer",', [
      '    "a": { "attribute": "companyId", "equals": { "tenant": "ID" } }',
      '    "b": { "attribute": "companyId", "in": { "tenant": "id" } }',
      '    "c": { "attribute": "companyId", "equals": { "tenat": "id" } }',
      '    "d": { "attribute": "companyID", "equals": { "tenant": "id" } }',
    ]);
    expect(problemsOf(text)).toEqual([
      `${at}:7:19 $.tenantIdType ${code} Field "tenantIdType" must be "string" or "number". ` +
        'Fix: Write "tenantIdType": "number" when the records hold the tenant id in a number column, or leave it out (a string).',
      `${at}:9:60 $.ownership.a.equals.tenant ${code} A rule reads the tenant's id only: write { "tenant": "id" }, not "ID". Did you mean "id"? ` +
        'Fix: Write { "tenant": "id" }.',
      `${at}:10:44 $.ownership.b.in ${code} "in" cannot read the tenant: the tenant is one id, not a list. Compare with "equals": { "tenant": "id" }. ` +
        'Fix: Write { "attribute": "companyId", "equals": { "tenant": "id" } }.',
      `${at}:11:48 $.ownership.c.equals ${code} The value of "equals" is written { "user": "<name>" } or { "tenant": "id" }. Did you mean "tenant"? ` +
        'Fix: Write { "user": "id" } for a user attribute declared in "userAttributes", or { "tenant": "id" } for the id of the tenant asked in.',
    ]);
    // Once the shape is right, the names are checked across files as for any rule.
    const named = tenantFile('  "tenantIDType": "number",', ['    "d": { "attribute": "companyID", "equals": { "tenant": "id" } }']);
    expect(problemsOf(named)).toEqual([
      `${at}:7:19 $.tenantIDType ${code} Unknown field "tenantIDType" in resource metadata. Did you mean "tenantIdType"? ` +
        'Fix: Use only "resource", "idType", "attributes", "actions", "ownedAmong", "relations", "userAttributes", "ownership" and "tenantIdType".',
    ]);
    expect(problemsOf(tenantFile('  "tenantIdType": "number",', ['    "d": { "attribute": "companyID", "equals": { "tenant": "id" } }']))).toEqual([
      `${at}:9:25 $.ownership.d.attribute [invalid-ownership-rule] Attribute path "companyID": "companyID" is not an attribute of document. ` +
        'Did you mean "companyId"? Fix: Correct the spelling, or add it to "attributes" in document.resource.json.',
    ]);
  });
});
