/**
 * The decision service and a resource that declares its actions: a check naming another action on it is a 400
 * problem naming the field (`checks[i].action`) and the declared actions — never an answer,
 * so never a grant — while a resource that declares nothing answers any action of the policy as before (not
 * granted when no one is). `GET /v1/policy` lists the declared actions of the resources that have them, and remote
 * permissions read them there: their `grantPermit` refuses another action as the embedded engine does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { policyBundleOf } from '../../runtime/live/policy-bundle.js';
import { Permissions } from '../../runtime/permissions/index.js';
import { createDecisionService, type DecisionService } from '../../runtime/service/index.js';
import { createRemotePermissions } from '../../runtime/remote/index.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { addressOf, ask, fixtureDefinitions, fixtureOwnership, postChecks, problem, recordingLogger, REFUSED_CHECK, TOKEN } from './service-fixture.js';

const bundle = policyBundleOf(
  new Permissions({
    ownership: fixtureOwnership,
    resourceIdTypes: { article: 'number', team: 'string' },
    ownedAmong: { team: 'teamsAmong' },
    resourceActions: { article: ['read', 'update', 'list', 'publish'] },
    logger: { warn: () => undefined },
  })
    .addPermissions(fixtureDefinitions)
    .build().tables,
);
const editor = { id: 2, roles: ['EDITOR'] };
const member = { id: 'm-1', roles: ['MEMBER'] };

let service: DecisionService;
beforeAll(async () => {
  service = await createDecisionService({ tables: bundle, tokens: [TOKEN], port: 0, logger: recordingLogger() });
});
afterAll(async () => {
  await service.close();
});

const checkOf = (...checks: object[]) => postChecks(service, ...checks);
const denied = REFUSED_CHECK;

describe('POST /v1/check of a resource that declares its actions', () => {
  it.each([
    ['create', 'checks[1].action: "create" is not an action of "article"; its actions are "list", "publish", "read", "update".'],
    ['delete', 'checks[1].action: "delete" is not an action of "article"; its actions are "list", "publish", "read", "update".'],
  ])('%s (not declared there): 400 naming the field, and the batch is not answered', async (action, detail) => {
    const answer = await checkOf({ user: editor, resource: 'article', action: 'read' }, { user: editor, resource: 'article', action });
    expect([answer.status, answer.headers['content-type'], answer.body]).toEqual([
      400,
      'application/problem+json; charset=utf-8',
      problem('invalid-request', 400, 'Invalid request', detail),
    ]);
  });

  it('a declared action no role is granted is answered: not granted', async () => {
    const answer = await checkOf({ user: member, resource: 'article', action: 'update' }, { user: editor, resource: 'article', action: 'publish' });
    expect([answer.status, answer.body.answers.map((one) => one.granted)]).toEqual([200, [false, true]]);
  });

  it('a resource that declares nothing answers any action of the policy, as before', async () => {
    const answer = await checkOf({ user: member, resource: 'team', action: 'create' });
    expect([answer.status, answer.body.answers]).toEqual([200, [{ ...denied, policyVersion: bundle.version }]]);
  });
});

describe('GET /v1/policy', () => {
  it('lists the declared actions of the resources that declare them', async () => {
    const answer = await ask(service, { method: 'GET', url: '/v1/policy' });
    expect([answer.status, answer.body.resources, answer.body.actions]).toEqual([
      200,
      [
        { name: 'article', idType: 'number', actions: ['list', 'publish', 'read', 'update'] },
        { name: 'team', idType: 'string' },
      ],
      ['create', 'delete', 'list', 'publish', 'read', 'update'],
    ]);
  });
});

describe('remote permissions over a resource that declares its actions', () => {
  it('refuse another action with the usage error of the embedded engine; answer declared actions, and any on a resource declaring none', async () => {
    const remote = await createRemotePermissions({
      url: await addressOf(service),
      token: TOKEN,
      ownership: fixtureOwnership,
      logger: { warn: () => undefined },
    });
    try {
      await expect(remote.grantPermit({ user: editor, resource: 'article', action: 'delete' })).rejects.toThrow(
        new PermissionsUsageError('grantPermit: "delete" is not an action of "article"; its actions are "list", "publish", "read", "update".'),
      );
      expect((await remote.grantPermit({ user: editor, resource: 'article', action: 'publish' })).granted).toBe(true);
      expect((await remote.grantPermit({ user: member, resource: 'team', action: 'create' })).granted).toBe(false);
    } finally {
      remote.close();
    }
  });
});
