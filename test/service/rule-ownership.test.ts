/**
 * Ownership rules in the decision service, over real HTTP: a group decided by a rule answers `rule: "<name>"` (no
 * method names), `GET /v1/policy` lists the rules and relations, and a check carrying its record (with related
 * records and the user's attributes) is decided by the service — final for rule groups, hook groups still from
 * ownedBy. Every bad input is a 400 naming it: missing or mistyped user and record attributes, hostile records, and
 * every limit at and past its value. The answers validate against the OpenAPI document the service serves.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { DEFAULT_SERVICE_LIMITS, type DecisionService } from '../../runtime/service/index.js';
import { fixture } from '../compiler/helpers.js';
import { ask, fixtureService, postChecks, problem } from './service-fixture.js';
import { memoryTenantRoles } from '../tenants/tenant-fixture.js';

let tables: GrantTables;
let service: DecisionService;
beforeAll(async () => {
  const compiled = compileModel(fixture('ownership-rules'));
  if (!compiled.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(compiled.problems)}`);
  tables = compiled.model.tables;
  service = await fixtureService({ tables });
}, 30_000);
afterAll(() => service.close());

const employee = { id: 1, roles: ['EMPLOYEE'], attributes: { companyId: 10, managedUserIds: [] } };
const manager = { id: 2, roles: ['MANAGER'], attributes: { companyId: 10, managedUserIds: [3] } };
const admin = { id: 9, roles: ['COMPANY_ADMIN'], attributes: { companyId: 10 } };
const auditor = { id: 7, roles: ['AUDITOR', 'EMPLOYEE'], attributes: { companyId: 20, managedUserIds: [] } };

const CREATOR = { group: 0, rule: 'creator', attributes: ['*', '!confidential'] };
const AUDITED = { group: 3, isOwner: 'isAudited', listOwned: 'listAudited', attributes: ['*'] };

const check = async (...checks: object[]) => {
  const answer = await postChecks(service, ...checks);
  return { status: answer.status, body: answer.body };
};
/** The fields of an answer that say the decision (the version is the policy's, checked once). */
const decision = (granted: boolean, needsOwnership: boolean, attributes: readonly string[], ownership: readonly object[]) => ({
  granted,
  anyGranted: false,
  ownGranted: granted,
  needsOwnership,
  // Granted as own only: owned, not owned, or (while ownership is still to be asked and nothing is granted yet) open.
  reason: granted ? 'granted-own' : needsOwnership ? null : 'not-owner',
  anyAttributes: [],
  attributes,
  ownership,
  policyVersion: service.policyVersion,
});
const invalid = (detail: string) => ({ status: 400, body: problem('invalid-request', 400, 'Invalid request', detail) });
const readDoc = (user: object, record: object, extra: object = {}) => ({ user, resource: 'document', action: 'read', resourceId: 100, record, ...extra });

describe('GET /v1/policy', () => {
  it('lists the rules the active version names, with their user attributes, and the relations', async () => {
    const { status, body } = await ask(service, { method: 'GET', url: '/v1/policy' });
    const userAttributes = { id: 'number', companyId: 'number', managedUserIds: 'number[]' };
    expect(status).toBe(200);
    expect(body['ownershipMethods']).toEqual({ isOwner: ['isAudited'], listOwned: ['listAudited'], limitOwned: [], ownedAmong: [] });
    expect(body['ownershipRules']).toEqual({
      rules: [
        { resource: 'document', name: 'creator', condition: { attribute: 'creatorId', equals: { user: 'id' } }, userAttributes },
        {
          resource: 'document',
          name: 'creatorOrManaged',
          condition: {
            any: [
              { attribute: 'creatorId', equals: { user: 'id' } },
              { attribute: 'creatorId', in: { user: 'managedUserIds' } },
            ],
          },
          userAttributes,
        },
        { resource: 'document', name: 'sameCompany', condition: { attribute: 'creator.companyId', equals: { user: 'companyId' } }, userAttributes },
      ],
      relations: { document: { creator: { resource: 'user', on: 'creatorId' } } },
    });
  });
});

describe('a group decided by a rule', () => {
  it('answers its rule and no method; without the record, ownership is still to be asked', async () => {
    expect(await check({ user: employee, resource: 'document', action: 'read', resourceId: 100 })).toEqual({
      status: 200,
      body: { answers: [decision(false, true, [], [CREATOR])] },
    });
  });

  it('with ownedBy naming it (the application evaluated the rule), is final as for hooks', async () => {
    expect(await check({ user: employee, resource: 'document', action: 'read', resourceId: 100, ownedBy: [0] })).toEqual({
      status: 200,
      body: { answers: [decision(true, false, ['*', '!confidential'], [CREATOR])] },
    });
  });
});

describe('a check carrying its record', () => {
  it('is final: the rule holds (granted with the group’s attributes) or not (denied)', async () => {
    expect(
      await check(readDoc(employee, { id: 100, title: 'a', creatorId: 1 }), readDoc({ ...employee, id: 2 }, { id: 100, title: 'a', creatorId: 1 })),
    ).toEqual({ status: 200, body: { answers: [decision(true, false, ['*', '!confidential'], [CREATOR]), decision(false, false, [], [CREATOR])] } });
  });

  it('a record without id is the record resourceId names', async () => {
    expect(await check(readDoc(employee, { creatorId: 1 }))).toEqual({
      status: 200,
      body: { answers: [decision(true, false, ['*', '!confidential'], [CREATOR])] },
    });
  });

  it('evaluates a list user attribute, and null as no value', async () => {
    const review = (user: object, creatorId: number | null) => ({ user, resource: 'document', action: 'review', resourceId: 102, record: { creatorId } });
    const group = { group: 1, rule: 'creatorOrManaged', attributes: ['*'] };
    expect(await check(review(manager, 3), review(manager, 4), review(manager, null), review({ ...manager, attributes: { managedUserIds: null } }, 3))).toEqual(
      {
        status: 200,
        body: {
          answers: [
            decision(true, false, ['*'], [group]),
            decision(false, false, [], [group]),
            decision(false, false, [], [group]),
            decision(false, false, [], [group]),
          ],
        },
      },
    );
  });

  it('follows a relation through the related records; a relation naming no sent record owns nothing', async () => {
    const update = (related: object, user: object = admin) => ({
      user,
      resource: 'document',
      action: 'update',
      resourceId: 101,
      record: { id: 101, creatorId: 2 },
      related,
    });
    const group = { group: 2, rule: 'sameCompany', attributes: ['*'] };
    expect(
      await check(
        update({ user: [{ id: 2, companyId: 10 }] }),
        update({ user: [{ id: 2, companyId: 20 }] }),
        update({ user: [{ id: 3, companyId: 10 }] }),
        update({ user: [{ id: 2, companyId: 10 }] }, { ...admin, attributes: { companyId: null } }),
      ),
    ).toEqual({
      status: 200,
      body: {
        answers: [
          decision(true, false, ['*'], [group]),
          decision(false, false, [], [group]),
          decision(false, false, [], [group]),
          decision(false, false, [], [group]),
        ],
      },
    });
  });

  it('beside a hook group: what the rule decided, and ownership still to be asked until ownedBy names the hook groups', async () => {
    const audit = (record: object, extra: object = {}) => ({ user: auditor, resource: 'document', action: 'read', resourceId: 101, record, ...extra });
    expect(
      await check(
        audit({ creatorId: 2 }),
        audit({ creatorId: 7 }),
        audit({ creatorId: 2 }, { ownedBy: [3] }),
        audit({ creatorId: 7 }, { ownedBy: [] }),
        // ownedBy naming the rule group is not taken: the record decides it.
        audit({ creatorId: 2 }, { ownedBy: [0] }),
      ),
    ).toEqual({
      status: 200,
      body: {
        answers: [
          decision(false, true, [], [CREATOR, AUDITED]),
          decision(true, true, ['*', '!confidential'], [CREATOR, AUDITED]),
          decision(true, false, ['*'], [CREATOR, AUDITED]),
          decision(true, false, ['*', '!confidential'], [CREATOR, AUDITED]),
          decision(false, false, [], [CREATOR, AUDITED]),
        ],
      },
    });
  });

  it('of a role granted as any needs no attributes: no rule is read', async () => {
    const superAdmin = { id: 5, roles: ['SUPER_ADMIN'] };
    const { body } = await check({ user: superAdmin, resource: 'document', action: 'read', resourceId: 100, record: { title: 'a' } });
    expect(body.answers.map(({ granted, needsOwnership, attributes }) => ({ granted, needsOwnership, attributes }))).toEqual([
      { granted: true, needsOwnership: false, attributes: ['*'] },
    ]);
  });
});

const LOAD_IT = 'Load it with the record (null when it has no value).';

describe('a check carrying its record, in a tenant', () => {
  // The tenants guide's rules: a manager owns every document of the tenant asked in, an employee the ones they wrote there.
  let tenantService: DecisionService;
  beforeAll(async () => {
    const compiled = compileModel(join(import.meta.dirname, '../../examples/tenants/definitions'));
    if (!compiled.ok) throw new Error(`the tenants example does not compile: ${JSON.stringify(compiled.problems)}`);
    tenantService = await fixtureService({
      tables: compiled.model.tables,
      tenantRoles: memoryTenantRoles({ acme: { definitions: [] }, globex: { definitions: [] } }).source,
    });
  }, 30_000);
  afterAll(() => tenantService.close());

  const record = { id: 5, title: 'Plan', content: 'text', authorId: 1, tenantId: 'acme' };
  const readIn = (user: object, tenant: string | undefined) => ({
    user,
    ...(tenant === undefined ? {} : { tenant }),
    resource: 'document',
    action: 'read',
    resourceId: 5,
    record,
  });
  const reasons = async (...checks: object[]) => {
    const { status, body } = await postChecks(tenantService, ...checks);
    return { status, answers: body.answers.map((answer) => [answer.granted, answer.reason]) };
  };

  it("decides a rule's tenant condition with the check's tenant, as the engine does", async () => {
    const manager = { id: 2, roles: ['MANAGER'], attributes: {} };
    const author = { id: 1, roles: ['EMPLOYEE'], attributes: {} };
    const other = { id: 3, roles: ['EMPLOYEE'], attributes: {} };
    expect(
      await reasons(
        readIn(manager, 'acme'),
        readIn(manager, 'globex'),
        readIn(manager, undefined),
        readIn(author, 'acme'),
        readIn(author, 'globex'),
        readIn(other, 'acme'),
      ),
    ).toEqual({
      status: 200,
      answers: [
        [true, 'granted-own'],
        [false, 'not-owner'],
        [false, 'not-owner'],
        [true, 'granted-own'],
        [false, 'not-owner'],
        [false, 'not-owner'],
      ],
    });
  });
});

describe('what a check with a record must carry', () => {
  it.each([
    [
      'a user attribute the rule reads',
      readDoc({ id: 2, roles: ['MANAGER'] }, { creatorId: 3 }, { action: 'review' }),
      'checks[0].user.attributes has no "managedUserIds", which ownership rule "creatorOrManaged" reads: send it (null when the user has none).',
    ],
    [
      'a user attribute of its declared type',
      readDoc({ ...admin, attributes: { companyId: '10' } }, { creatorId: 2 }, { action: 'update', related: { user: [] } }),
      'checks[0], rule "sameCompany": User attribute "companyId" must be a finite number or null, got "10".',
    ],
    [
      'a list user attribute of its declared type',
      readDoc({ ...manager, attributes: { managedUserIds: ['3'] } }, { creatorId: 3 }, { action: 'review' }),
      'checks[0], rule "creatorOrManaged": User attribute "managedUserIds" must hold only finite numbers, got "3" at entry 0.',
    ],
    [
      'a user id of the type the rule compares',
      readDoc({ ...employee, id: 'u1' }, { creatorId: 1 }),
      'checks[0], rule "creator": User attribute "id" must be a finite number or null, got "u1".',
    ],
    [
      'the record attribute the rule reads',
      readDoc(employee, { id: 100, title: 'a' }),
      'checks[0], rule "creator": A document record has no attribute "creatorId", which an ownership rule reads. ' + LOAD_IT,
    ],
    [
      'the attribute of a related record the rule reads',
      readDoc(admin, { creatorId: 2 }, { action: 'update', related: { user: [{ id: 2 }] } }),
      'checks[0], rule "sameCompany": A user record has no attribute "companyId", which an ownership rule reads. ' + LOAD_IT,
    ],
    [
      'the related records of a relation the rule follows',
      readDoc(admin, { creatorId: 2 }, { action: 'update' }),
      'checks[0].related has no records of "user", which an ownership rule reaches through a relation: ' +
        "send related.user (the records the record's relations name; [] when none).",
    ],
    [
      'a resourceId',
      { user: employee, resource: 'document', action: 'read', record: { creatorId: 1 } },
      'checks[0].record needs checks[0].resourceId: it is the record that id names.',
    ],
    [
      'a record beside related records',
      { user: employee, resource: 'document', action: 'read', resourceId: 100, related: { user: [] } },
      "checks[0].related needs checks[0].record: it holds the records that record's relations name.",
    ],
    [
      'the record resourceId names',
      readDoc(employee, { id: 101, creatorId: 1 }),
      'checks[0].record.id is 101, not the resourceId 100: send the record that resourceId names.',
    ],
  ])('%s, else 400 naming it', async (_what, one, detail) => {
    expect(await check(one)).toEqual(invalid(detail));
  });

  it('a missing attribute refuses the whole batch, even where another group already owns the record', async () => {
    const manyRules = { id: 1, roles: ['EMPLOYEE', 'MANAGER'], attributes: { companyId: 10 } };
    expect(await check(readDoc(employee, { creatorId: 1 }), readDoc(manyRules, { creatorId: 1 }))).toEqual(
      invalid('checks[1].user.attributes has no "managedUserIds", which ownership rule "creatorOrManaged" reads: send it (null when the user has none).'),
    );
  });
});

describe('hostile records', () => {
  it.each([
    [
      'a __proto__ key in the record',
      '{"checks":[{"user":{"id":1,"roles":["EMPLOYEE"]},"resource":"document","action":"read","resourceId":100,"record":{"__proto__":{"creatorId":1}}}]}',
      'The body has a "__proto__" key; no property of a request has that name.',
    ],
    [
      'an escaped __proto__ key in the user attributes',
      '{"checks":[{"user":{"id":1,"roles":["EMPLOYEE"],"attributes":{"\\u005f_proto__":{"companyId":1}}},"resource":"document","action":"read"}]}',
      'The body has a "__proto__" key; no property of a request has that name.',
    ],
  ])('%s: 400', async (_what, payload, detail) => {
    expect(await ask(service, { method: 'POST', url: '/v1/check', payload }).then(({ status, body }) => ({ status, body }))).toEqual(invalid(detail));
  });

  it.each([
    [
      'a nested object as a record attribute',
      readDoc(employee, { creatorId: { id: 1 } }),
      'checks[0].record.creatorId must be a string or a number or true or false or null.',
    ],
    [
      'a list as a record attribute',
      readDoc(employee, { creatorId: [1] }),
      'checks[0].record.creatorId must be a string or a number or true or false or null.',
    ],
    ['a record that is a list', readDoc(employee, [{ creatorId: 1 }]), 'checks[0].record must be an object.'],
    [
      'a nested object as a user attribute',
      readDoc({ ...employee, attributes: { companyId: { id: 10 } } }, { creatorId: 1 }),
      'checks[0].user.attributes.companyId must be a string or a number or true or false or null or an array.',
    ],
    [
      'an object in a user list',
      readDoc({ ...manager, attributes: { managedUserIds: [{}] } }, { creatorId: 1 }),
      'checks[0].user.attributes.managedUserIds[0] must be a string or a number.',
    ],
    [
      'the user’s id among its attributes',
      readDoc({ ...employee, attributes: { id: 2, companyId: 10 } }, { creatorId: 2 }),
      'checks[0].user.attributes has "id", the user\'s own field: send it as user.id.',
    ],
    ['related records that are not a list', readDoc(admin, { creatorId: 2 }, { related: { user: { id: 2 } } }), 'checks[0].related.user must be an array.'],
    [
      'a related resource no relation reaches',
      readDoc(admin, { creatorId: 2 }, { related: { document: [] } }),
      'checks[0].related["document"]: no relation of an ownership rule reaches "document" (they reach user).',
    ],
    [
      'a related record without an id',
      readDoc(admin, { creatorId: 2 }, { related: { user: [{ companyId: 10 }] } }),
      'checks[0].related["user"][0] has no id; a related record is found by its id.',
    ],
    [
      'two related records with one id',
      readDoc(
        admin,
        { creatorId: 2 },
        {
          related: {
            user: [
              { id: 2, companyId: 20 },
              { id: 2, companyId: 10 },
            ],
          },
        },
      ),
      'checks[0].related["user"][1] has the id 2 of an earlier record.',
    ],
  ])('%s: 400 naming it', async (_what, one, detail) => {
    expect(await check(one)).toEqual(invalid(detail));
  });
});

describe('the limits of a check with a record, at and past each', () => {
  const attributes = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`a${i}`, i]));
  const { maxRecordAttributes, maxRelatedRecords, maxUserAttributes, maxAttributeLength } = DEFAULT_SERVICE_LIMITS;

  it('states the defaults: 256 record attributes, 256 related records, 64 user attributes, 1,024 characters per value', () => {
    expect({ maxRecordAttributes, maxRelatedRecords, maxUserAttributes, maxAttributeLength }).toEqual({
      maxRecordAttributes: 256,
      maxRelatedRecords: 256,
      maxUserAttributes: 64,
      maxAttributeLength: 1_024,
    });
  });

  it('record attributes: 256 are read, 257 refused', async () => {
    const record = (count: number) => ({ ...attributes(count - 1), creatorId: 1 });
    expect((await check(readDoc(employee, record(256)))).body.answers[0]?.granted).toBe(true);
    expect(await check(readDoc(employee, record(257)))).toEqual(invalid('checks[0].record must have at most 256 properties.'));
  });

  it('related records: 256 over every resource are read, 257 refused', async () => {
    const users = (count: number) => Array.from({ length: count }, (_, i) => ({ id: i + 1, companyId: 10 }));
    const update = (count: number) => readDoc(admin, { creatorId: 256 }, { action: 'update', related: { user: users(count) } });
    expect((await check(update(256))).body.answers[0]?.granted).toBe(true);
    expect(await check(update(257))).toEqual(invalid('checks[0].related.user must have at most 256 items.'));
  });

  it('related records of one check count together, whatever the resource', async () => {
    const limited = await fixtureService({ tables, limits: { maxRelatedRecords: 2 } });
    try {
      const users = [
        { id: 1, companyId: 10 },
        { id: 2, companyId: 10 },
        { id: 3, companyId: 10 },
      ];
      const body = (related: object) => ({ checks: [readDoc(admin, { creatorId: 2 }, { action: 'update', related })] });
      const at = await ask(limited, { method: 'POST', url: '/v1/check', payload: body({ user: users.slice(0, 2) }) });
      expect(at.body.answers[0]?.granted).toBe(true);
      const past = await ask(limited, { method: 'POST', url: '/v1/check', payload: body({ user: users }) });
      expect({ status: past.status, body: past.body }).toEqual(invalid('checks[0].related.user must have at most 2 items.'));
    } finally {
      await limited.close();
    }
  });

  it('user attributes: 64 are read, 65 refused', async () => {
    const user = (count: number) => ({ ...employee, attributes: { ...attributes(count - 2), companyId: 10, managedUserIds: [] } });
    expect((await check(readDoc(user(64), { creatorId: 1 }))).body.answers[0]?.granted).toBe(true);
    expect(await check(readDoc(user(65), { creatorId: 1 }))).toEqual(invalid('checks[0].user.attributes must have at most 64 properties.'));
  });

  it('a string value: 1,024 characters are read, 1,025 refused, in a record and in a user list', async () => {
    expect((await check(readDoc(employee, { creatorId: 1, title: 'x'.repeat(1024) }))).body.answers[0]?.granted).toBe(true);
    expect(await check(readDoc(employee, { creatorId: 1, title: 'x'.repeat(1025) }))).toEqual(
      invalid('checks[0].record.title must be at most 1024 characters long.'),
    );
    const tagged = { ...employee, attributes: { ...employee.attributes, tags: ['y'.repeat(1025)] } };
    expect(await check(readDoc(tagged, { creatorId: 1 }))).toEqual(invalid('checks[0].user.attributes.tags[0] must be at most 1024 characters long.'));
  });

  it('a list user attribute: 10,000 values (the rules’ own limit) are read within the default body size, 10,001 refused', async () => {
    const ids = (count: number) => Array.from({ length: count }, (_, i) => 1_000_000 + i);
    const review = (count: number) => ({
      user: { ...manager, attributes: { managedUserIds: [...ids(count - 1), 3] } },
      resource: 'document',
      action: 'review',
      resourceId: 102,
      record: { creatorId: 3 },
    });
    const body = JSON.stringify({ checks: [review(10_000)] });
    expect(Buffer.byteLength(body)).toBeLessThan(DEFAULT_SERVICE_LIMITS.maxBodyBytes);
    expect((await check(review(10_000))).body.answers[0]?.granted).toBe(true);
    expect(await check(review(10_001))).toEqual(invalid('checks[0].user.attributes.managedUserIds must have at most 10000 items.'));
  });

  it('the body: records count toward its size; past it, 413', async () => {
    const limited = await fixtureService({ tables, limits: { maxBodyBytes: 1024 } });
    try {
      const head = JSON.stringify({ checks: [readDoc(employee, { creatorId: 1, title: '' })] });
      const fill = (length: number) => JSON.stringify({ checks: [readDoc(employee, { creatorId: 1, title: 'x'.repeat(length - head.length) })] });
      expect(Buffer.byteLength(fill(1024))).toBe(1024);
      const at = await ask(limited, { method: 'POST', url: '/v1/check', payload: fill(1024) });
      expect(at.body.answers[0]?.granted).toBe(true);
      const past = await ask(limited, { method: 'POST', url: '/v1/check', payload: fill(1025) });
      expect([past.status, past.body['detail']]).toEqual([413, 'The body is larger than the limit of 1024 bytes.']);
    } finally {
      await limited.close();
    }
  });
});

/** A reference of the document (`#/components/schemas/X`) as the schema added with `$id` X refers to it. */
function asAdded(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asAdded);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' ? `${String(inner).replace('#/components/schemas/', '')}#` : asAdded(inner)]),
  );
}

/**
 * A validator of the document's component schemas, as JSON Schema (Fastify's ajv, with the options the service
 * validates with): POST /<name> answers 200 when the body is valid for component <name>, else 400.
 */
async function documentValidator(components: Readonly<Record<string, object>>): Promise<FastifyInstance> {
  const app = Fastify({ ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allowUnionTypes: true, strict: false } } });
  for (const [name, schema] of Object.entries(components)) app.addSchema({ ...(asAdded(schema) as object), $id: name });
  for (const name of Object.keys(components)) app.post(`/${name}`, { schema: { body: { $ref: `${name}#` } } }, () => 'valid');
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

describe('the OpenAPI document the service serves', () => {
  it('validates the rule answers, the policy with its rules, and a check with a record; refuses what the service refuses', async () => {
    const { body: document } = await ask(service, { method: 'GET', url: '/v1/openapi.json' });
    const app = await documentValidator((document['components'] as { schemas: Record<string, object> }).schemas);
    try {
      const address = app.addresses()[0] as { port: number };
      const valid = async (name: string, payload: unknown) =>
        (
          await fetch(`http://127.0.0.1:${address.port}/${name}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(payload),
          })
        ).status;
      const withRecord = { checks: [readDoc(admin, { creatorId: 2 }, { action: 'update', related: { user: [{ id: 2, companyId: 10 }] } })] };
      const answers = await ask(service, { method: 'POST', url: '/v1/check', payload: withRecord });
      const policy = await ask(service, { method: 'GET', url: '/v1/policy' });
      expect(answers.body.answers[0]?.ownership).toEqual([{ group: 2, rule: 'sameCompany', attributes: ['*'] }]);
      expect([await valid('CheckRequest', withRecord), await valid('CheckResponse', answers.body), await valid('PolicyResponse', policy.body)]).toEqual([
        200, 200, 200,
      ]);
      expect([
        await valid('CheckRequest', { checks: [readDoc(admin, { creatorId: { id: 2 } })] }),
        await valid('OwnershipGroup', { group: 2, rul: 'sameCompany', attributes: [] }),
        await valid('PolicyResponse', { ...policy.body, ownershipRules: { rules: [{ resource: 'document', name: 'creator' }], relations: {} } }),
      ]).toEqual([400, 400, 400]);
    } finally {
      await app.close();
    }
  });
});
