/**
 * Bad and hostile input is a 400 problem naming the field and index — never a 500, never an answer: names the
 * policy does not have, ids not of the resource's type, wrong shapes, unknown properties, `__proto__` keys,
 * bodies that are not JSON or not JSON objects, deep nesting, and (a property) any JSON value at all.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { DecisionService } from '../../runtime/service/index.js';
import { ask, fixtureService, problem } from './service-fixture.js';

let service: DecisionService;
beforeAll(async () => {
  service = await fixtureService();
});
afterAll(async () => {
  await service.close();
});

const author = { id: 1, roles: ['AUTHOR'] };
const good = { user: author, resource: 'article', action: 'read' };
const invalid = (detail: string) => problem('invalid-request', 400, 'Invalid request', detail);
const NUMBER_IDS = 'its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).';

async function refusal(payload: unknown, url = '/v1/check') {
  const answer = await ask(service, { method: 'POST', url, payload });
  expect([answer.status, answer.headers['content-type']]).toEqual([400, 'application/problem+json; charset=utf-8']);
  return answer.body as unknown;
}

describe('names and ids the policy does not have', () => {
  it.each([
    [{ ...good, resource: 'documnet' }, 'checks[1].resource: "documnet" is not a resource of this policy (GET /v1/policy lists them).'],
    [{ ...good, action: 'approve' }, 'checks[1].action: "approve" is not an action of this policy (GET /v1/policy lists them).'],
    [{ ...good, resource: 'artcle' }, 'checks[1].resource: "artcle" is not a resource of this policy (GET /v1/policy lists them). Did you mean "article"?'],
    [{ ...good, action: 'raed' }, 'checks[1].action: "raed" is not an action of this policy (GET /v1/policy lists them). Did you mean "read"?'],
    [{ ...good, resource: '__proto__' }, 'checks[1].resource: "__proto__" is not a resource of this policy (GET /v1/policy lists them).'],
    [{ ...good, action: 'toString' }, 'checks[1].action: "toString" is not an action of this policy (GET /v1/policy lists them).'],
    [{ ...good, resource: 'a\u001b[31mred' }, 'checks[1].resource: "a\\u001b[31mred" is not a resource of this policy (GET /v1/policy lists them).'],
    [{ ...good, resourceId: 'abc' }, `checks[1].resourceId: "abc" is not an id of "article": ${NUMBER_IDS}`],
    [{ ...good, resourceId: '01' }, `checks[1].resourceId: "01" is not an id of "article": ${NUMBER_IDS}`],
    [{ ...good, resourceId: 1.5 }, `checks[1].resourceId: 1.5 is not an id of "article": ${NUMBER_IDS}`],
    [{ ...good, resourceId: 2 ** 53 }, `checks[1].resourceId: 9007199254740992 is not an id of "article": ${NUMBER_IDS}`],
    [
      { user: author, resource: 'team', action: 'read', resourceId: 1.5 },
      'checks[1].resourceId: 1.5 is not an id of "team": its ids are a non-empty string of at most 256 characters.',
    ],
    [{ ...good, ownedBy: [0] }, 'checks[1].ownedBy needs checks[1].resourceId: it names the groups that own that record.'],
  ])('%j: 400, and the batch is not answered', async (check, detail) => {
    expect(await refusal({ checks: [good, check] })).toEqual(invalid(detail));
  });

  it('ids in the declared type are read: a canonical decimal text for a number id, an integer for a string id', async () => {
    const answer = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: {
        checks: [
          { ...good, resourceId: '42', ownedBy: [0] },
          { user: { id: 1, roles: ['MEMBER'] }, resource: 'team', action: 'read', resourceId: 42, ownedBy: [1] },
        ],
      },
    });
    expect([answer.status, answer.body.answers.map((a: { granted: boolean }) => a.granted)]).toEqual([200, [true, true]]);
  });
});

describe('wrong shapes', () => {
  it.each([
    [[], 'the body must be an object.'],
    [null, 'the body must be an object.'],
    ['"checks"', 'the body must be an object.'],
    [{}, 'the body must have the property "checks".'],
    [{ checks: {} }, 'checks must be an array.'],
    [{ checks: [good], extra: 1 }, 'the body has the property "extra", which is not one of its properties.'],
    [{ checks: [{ ...good, resourceID: 1 }] }, 'checks[0] has the property "resourceID", which is not one of its properties.'],
    [{ checks: [{ user: author, resource: 'article' }] }, 'checks[0] must have the property "action".'],
    [{ checks: [{ ...good, user: { id: 1 } }] }, 'checks[0].user must have the property "roles".'],
    [{ checks: [{ ...good, user: { id: 1, roles: 'AUTHOR' } }] }, 'checks[0].user.roles must be an array.'],
    [{ checks: [{ ...good, user: { id: 1, roles: [1] } }] }, 'checks[0].user.roles[0] must be a string.'],
    [{ checks: [{ ...good, user: { id: 1, roles: [''] } }] }, 'checks[0].user.roles[0] must not be empty.'],
    [{ checks: [{ ...good, user: { id: true, roles: [] } }] }, 'checks[0].user.id must be a string or an integer.'],
    [{ checks: [{ ...good, user: { id: 1.5, roles: [] } }] }, 'checks[0].user.id must be a string or an integer.'],
    [{ checks: [{ ...good, user: { id: 2 ** 53, roles: [] } }] }, 'checks[0].user.id must be at most 9007199254740991.'],
    [{ checks: [{ ...good, user: { id: 1, roles: [], admin: true } }] }, 'checks[0].user has the property "admin", which is not one of its properties.'],
    [{ checks: [{ ...good, resource: 7 }] }, 'checks[0].resource must be a string.'],
    [{ checks: [{ ...good, resourceId: null }] }, 'checks[0].resourceId must be a string or a number.'],
    [{ checks: [{ ...good, resourceId: '' }] }, 'checks[0].resourceId must not be empty.'],
    [{ checks: [{ ...good, resourceId: { $gt: 0 } }] }, 'checks[0].resourceId must be a string or a number.'],
    [{ checks: [{ ...good, resourceId: 1, ownedBy: [-1] }] }, 'checks[0].ownedBy[0] must be at least 0.'],
    [{ checks: [{ ...good, resourceId: 1, ownedBy: ['0'] }] }, 'checks[0].ownedBy[0] must be an integer.'],
    [{ checks: [], policyVersion: 'latest' }, 'policyVersion must be a policy version (64 hexadecimal digits).'],
    [{ checks: [[[[[[[[[[good]]]]]]]]]] }, 'checks[0] must be an object.'],
  ])('%j: 400 naming the field', async (payload, detail) => {
    expect(await refusal(typeof payload === 'string' ? payload : payload)).toEqual(invalid(detail));
  });

  it('a slice for a malformed user is refused the same way', async () => {
    expect(await refusal({ user: { id: 1, roles: [null] } }, '/v1/slice')).toEqual(invalid('user.roles[0] must be a string.'));
    expect(await refusal({ user: { id: 1, roles: [] }, more: 1 }, '/v1/slice')).toEqual(
      invalid('the body has the property "more", which is not one of its properties.'),
    );
  });
});

describe('hostile bodies', () => {
  it.each([
    ['a __proto__ key at the top', '{"__proto__": {"checks": []}, "checks": []}'],
    ['a __proto__ key in a check', `{"checks": [{"user": {"id": 1, "roles": []}, "resource": "article", "action": "read", "__proto__": {"admin": true}}]}`],
    ['an escaped __proto__ key', '{"checks": [], "\\u005f_proto__": {"x": 1}}'],
    [
      'a __proto__ key in a user',
      '{"checks": [{"user": {"id": 1, "roles": [], "__proto__": {"roles": ["EDITOR"]}}, "resource": "article", "action": "read"}]}',
    ],
  ])('%s: 400', async (_label, text) => {
    expect(await refusal(text)).toEqual(invalid('The body has a "__proto__" key; no property of a request has that name.'));
  });

  it('a constructor.prototype key is an unknown property', async () => {
    expect(await refusal('{"checks": [], "constructor": {"prototype": {"granted": true}}}')).toEqual(
      invalid('the body has the property "constructor", which is not one of its properties.'),
    );
  });

  it('text that is not JSON, an empty body, and deep nesting are 400; another media type is 415', async () => {
    expect(await refusal('{"checks": [')).toMatchObject({ status: 400, detail: expect.stringMatching(/^The body is not JSON \(.+\)\.$/) });
    expect(await refusal('')).toEqual(invalid('The body is empty; send a JSON object.'));
    const tooDeep = invalid('The body nests arrays and objects deeper than 32 levels; no request does.');
    expect(await refusal(`{"checks": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`)).toEqual(tooDeep);
    expect(await refusal('['.repeat(500_000))).toEqual(tooDeep);
    expect(await refusal(`{"checks": [${'{"x":'.repeat(40)}1${'}'.repeat(40)}]}`)).toEqual(tooDeep);
    // Brackets inside strings are text, not nesting.
    expect(await refusal(`{"checks": [{"user": {"id": "${'['.repeat(200)}", "roles": ["\\\\"]}, "resource": "x", "action": "read"}]}`)).toEqual(
      invalid('checks[0].resource: "x" is not a resource of this policy (GET /v1/policy lists them).'),
    );
    expect(await refusal(`{"checks": ${'['.repeat(31)}${']'.repeat(31)}}`)).toEqual(invalid('checks[0] must be an object.'));
    const text = await ask(service, { method: 'POST', url: '/v1/check', payload: '{"checks": []}', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body]).toEqual([415, problem('unsupported-media-type', 415, 'Unsupported media type', 'Send the body as application/json.')]);
  });

  it('any JSON value as a body is answered 200 or 400 with a problem, never anything else', async () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, 0, -1, 1.5, '', 'article', 'read', '__proto__', 'AUTHOR', 2 ** 53),
        fc.string(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('checks', 'user', 'id', 'roles', 'resource', 'action', 'resourceId', 'ownedBy', 'policyVersion', 'x'), tie('value'), {
          maxKeys: 5,
        }),
      ),
    })).value;
    const checkLike = fc.record(
      {
        user: fc.oneof(
          fc.record({ id: fc.oneof(fc.integer(), fc.string()), roles: fc.array(fc.constantFrom('AUTHOR', 'EDITOR', 'MEMBER', 'X', ''), { maxLength: 3 }) }),
          json,
        ),
        resource: fc.oneof(fc.constantFrom('article', 'team', 'nope'), json),
        action: fc.oneof(fc.constantFrom('read', 'list', 'update', 'nope'), json),
        resourceId: fc.oneof(fc.integer(), fc.constantFrom('1', 'x', '01', 1.5), json),
        ownedBy: fc.oneof(fc.array(fc.nat(3), { maxLength: 3 }), json),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(json, fc.record({ checks: fc.array(fc.oneof(checkLike, json), { maxLength: 4 }) }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('/v1/check', '/v1/slice'), async (payload, url) => {
        const answer = await ask(service, { method: 'POST', url, payload: JSON.stringify(payload) });
        if (answer.status === 200) return;
        expect(answer.status).toBe(400);
        expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(Object.keys(answer.body as object)).toEqual(['type', 'title', 'status', 'detail']);
        expect(answer.body).toMatchObject({ type: 'urn:typed-permissions:problem:invalid-request', title: 'Invalid request', status: 400 });
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
