/**
 * `*.resource.json` files are checked against the runtime's zod schema of metadata files (the one
 * `resource.schema.json` is emitted from), and every problem keeps its own message, fix, JSON path and
 * place: a wrong type once per field, an unknown field and a name that is a pattern each where it stands.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import { makeTempDir, removeTempDir } from './helpers.js';

const DEFINITIONS = '[{ "roles": ["READER"], "resource": "note", "grant": { "read": ["id", "title"] } }]';
const FIELD_FIXES = {
  resource: 'Write "resource": "document".',
  idType: 'Write "idType": "number" for numeric ids, "string" for uuids and slugs.',
  attributes: 'Write "attributes": ["id", "title", "address.city"], or leave it out.',
  ownedAmong: 'Name the method of the ownership service that runs a limitOwned filter over given ids, for example "ownedDocumentsAmong".',
  unknown: 'Use only "resource", "idType", "attributes", "actions", "ownedAmong", "relations", "userAttributes", "ownership" and "tenantIdType".',
  pattern: 'List attribute names, dotted for nested ones ("address.city"), without "*" or "!".',
};

/** [what, the metadata file's text, the problem lines]. */
const CASES: readonly (readonly [what: string, text: string, problems: readonly string[]])[] = [
  [
    'a value that is not an object',
    '["note"]',
    ['1:1 $ Resource metadata must be an object. Fix: Write { "resource": "document", "idType": "number", "attributes": ["id", "title"] }.'],
  ],
  [
    'unknown fields, each where it stands',
    '{ "resource": "note", "idType": "number", "idtype": "number", "owner": 1 }',
    [
      `1:53 $.idtype Unknown field "idtype" in resource metadata. Did you mean "idType"? Fix: ${FIELD_FIXES.unknown}`,
      `1:72 $.owner Unknown field "owner" in resource metadata. Fix: ${FIELD_FIXES.unknown}`,
    ],
  ],
  [
    'missing fields, at the object',
    '{}',
    [
      `1:1 $.resource Field "resource" must name one resource. Fix: ${FIELD_FIXES.resource}`,
      `1:1 $.idType Field "idType" must be "number" or "string". Fix: ${FIELD_FIXES.idType}`,
    ],
  ],
  [
    'wrong types, once per field',
    '{ "resource": "*", "idType": "uuid", "attributes": "id", "ownedAmong": 5 }',
    [
      `1:15 $.resource Field "resource" must name one resource. Fix: ${FIELD_FIXES.resource}`,
      `1:30 $.idType Field "idType" must be "number" or "string". Fix: ${FIELD_FIXES.idType}`,
      `1:52 $.attributes Field "attributes" must be an array of attribute names. Fix: ${FIELD_FIXES.attributes}`,
      `1:72 $.ownedAmong Field "ownedAmong" must be a method name. Fix: ${FIELD_FIXES.ownedAmong}`,
    ],
  ],
  [
    'attributes that are not names, and a reserved executor',
    '{ "resource": "note", "idType": "string", "attributes": ["id", 1, "*", "!title", ""], "ownedAmong": "then" }',
    [
      `1:57 $.attributes Field "attributes" must be an array of attribute names. Fix: ${FIELD_FIXES.attributes}`,
      `1:67 $.attributes[2] Attribute "*" is a pattern, not a name. Fix: ${FIELD_FIXES.pattern}`,
      `1:72 $.attributes[3] Attribute "!title" is a pattern, not a name. Fix: ${FIELD_FIXES.pattern}`,
      '1:101 $.ownedAmong Field "ownedAmong" is reserved: a method named "then" makes the ownership service a thenable, which promises ' +
        `and NestJS would call. Fix: ${FIELD_FIXES.ownedAmong}`,
    ],
  ],
  [
    'an unprintable resource name and an executor that is not an identifier',
    '{ "resource": "no\\u200bte", "idType": "string", "ownedAmong": "owned-among" }',
    [
      '1:15 $.resource The resource name "no\\u200bte" contains the unprintable character U+200B. Fix: Name the resource with printable ' +
        'text of at most 128 characters, as its definitions do.',
      `1:63 $.ownedAmong Field "ownedAmong" must be a JavaScript identifier, for example "isCreator". Fix: ${FIELD_FIXES.ownedAmong}`,
    ],
  ],
  [
    'a $schema that is not a string',
    '{ "$schema": 1, "resource": "note", "idType": "number" }',
    [
      '1:14 $.$schema Field "$schema" holds a number; it must be a string (the path or URL of the JSON Schema). Fix: Write "$schema": ' +
        '"../generated/resource.schema.json", or leave it out.',
    ],
  ],
];

describe('*.resource.json metadata', () => {
  let folder: string | undefined;
  beforeAll(() => {
    folder = makeTempDir('resource-metadata');
  });
  afterAll(() => removeTempDir(folder));

  const compileWith = (metadata: string) => {
    const dir = folder as string;
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(join(dir, 'note.permissions.json'), DEFINITIONS);
    writeFileSync(join(dir, 'note.resource.json'), metadata);
    return compileModel(dir);
  };

  it.each(CASES)('%s', (_what, text, problems) => {
    const compiled = compileWith(text);
    const lines = compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'));
    expect(lines).toEqual(problems.map((problem) => `definitions/note.resource.json:${problem.replace(/^(\S+) (\S+) /, '$1 $2 [invalid-metadata] ')}`));
  });

  it('accepts a complete metadata file, $schema included', () => {
    const compiled = compileWith(
      '{ "$schema": "../generated/resource.schema.json", "resource": "note", "idType": "number", ' +
        '"attributes": ["id", "title", "address.city"], "ownedAmong": "ownedNotesAmong" }',
    );
    expect(compiled.ok ? compiled.model.resourceIdTypes.get('note') : compiled.problems).toBe('number');
  });
});
