/**
 * `POST /v1/check` on the fixture policy, with exact answers: without a record (granted in some possession);
 * with a record whose ownership decides (the groups to ask and their methods, then the final answer once ownedBy
 * says who owns it); granted as any with more attributes for owners; several roles; unknown roles; an action not
 * granted; an empty batch; a batch pinned to a policy version (409 when another is active).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DecisionService } from '../../runtime/service/index.js';
import { ask, fixtureBundle, fixtureService, postChecks, problem, REFUSED_CHECK } from './service-fixture.js';

const version = fixtureBundle().version;
const author = { id: 1, roles: ['AUTHOR'] };
const editor = { id: 2, roles: ['EDITOR'] };
const member = { id: 'm-1', roles: ['MEMBER'] };
/** The AUTHOR group of articles: isOwner isAuthor, listed by listAuthored; its owners see everything but notes. */
const authorGroup = { group: 0, isOwner: 'isAuthor', listOwned: 'listAuthored', attributes: ['*', '!notes'] };
/** The MEMBER group of teams: limitToMember, run by the teams' executor teamsAmong. */
const memberGroup = { group: 1, limitOwned: 'limitToMember', ownedAmong: 'teamsAmong', attributes: ['*'] };

const denied = REFUSED_CHECK;

let service: DecisionService;
beforeAll(async () => {
  service = await fixtureService();
});
afterAll(async () => {
  await service.close();
});

async function check(...checks: object[]) {
  const answer = await postChecks(service, ...checks);
  expect([answer.status, answer.headers['content-type'], answer.headers['x-permissions-version'], answer.headers['cache-control']]).toEqual([
    200,
    'application/json; charset=utf-8',
    version,
    'no-store',
  ]);
  return (answer.body as { answers: unknown[] }).answers;
}

describe('POST /v1/check', () => {
  it('without a record: granted in some possession, as grantPermit without an id', async () => {
    expect(
      await check(
        { user: author, resource: 'article', action: 'read' },
        { user: editor, resource: 'article', action: 'read' },
        { user: editor, resource: 'article', action: 'update' },
      ),
    ).toEqual([
      {
        granted: true,
        anyGranted: false,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-own',
        anyAttributes: [],
        attributes: [],
        ownership: [authorGroup],
        policyVersion: version,
      },
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-any',
        anyAttributes: ['body', 'id', 'title'],
        attributes: ['body', 'id', 'title'],
        ownership: [],
        policyVersion: version,
      },
      { ...denied, policyVersion: version },
    ]);
  });

  it('a record only owners may read: the groups to ask, then the final answer for the groups that own it', async () => {
    expect(await check({ user: author, resource: 'article', action: 'read', resourceId: 7 })).toEqual([
      {
        granted: false,
        anyGranted: false,
        ownGranted: false,
        needsOwnership: true,
        reason: null,
        anyAttributes: [],
        attributes: [],
        ownership: [authorGroup],
        policyVersion: version,
      },
    ]);
    expect(
      await check(
        { user: author, resource: 'article', action: 'read', resourceId: 7, ownedBy: [0] },
        { user: author, resource: 'article', action: 'read', resourceId: 7, ownedBy: [] },
        // A group of another resource or action (as owningGroups over every action gives them) changes nothing.
        { user: author, resource: 'article', action: 'read', resourceId: 7, ownedBy: [1, 5] },
      ),
    ).toEqual([
      {
        granted: true,
        anyGranted: false,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-own',
        anyAttributes: [],
        attributes: ['*', '!notes'],
        ownership: [authorGroup],
        policyVersion: version,
      },
      {
        granted: false,
        anyGranted: false,
        ownGranted: false,
        needsOwnership: false,
        reason: 'not-owner',
        anyAttributes: [],
        attributes: [],
        ownership: [authorGroup],
        policyVersion: version,
      },
      {
        granted: false,
        anyGranted: false,
        ownGranted: false,
        needsOwnership: false,
        reason: 'not-owner',
        anyAttributes: [],
        attributes: [],
        ownership: [authorGroup],
        policyVersion: version,
      },
    ]);
  });

  it('granted as any with more attributes for owners: granted at once, the attributes once ownedBy says', async () => {
    const listGroup = { ...authorGroup, attributes: ['*', '!notes'] };
    expect(
      await check(
        { user: author, resource: 'article', action: 'list', resourceId: 7 },
        { user: author, resource: 'article', action: 'list', resourceId: 7, ownedBy: [0] },
        { user: author, resource: 'article', action: 'list', resourceId: 8, ownedBy: [] },
      ),
    ).toEqual([
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: true,
        reason: 'granted-any',
        anyAttributes: ['id', 'title'],
        attributes: ['id', 'title'],
        ownership: [listGroup],
        policyVersion: version,
      },
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-any',
        anyAttributes: ['id', 'title'],
        attributes: ['*', '!notes'],
        ownership: [listGroup],
        policyVersion: version,
      },
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-any',
        anyAttributes: ['id', 'title'],
        attributes: ['id', 'title'],
        ownership: [listGroup],
        policyVersion: version,
      },
    ]);
  });

  it('several roles combine; roles no definition names are ignored; string ids and computed ownership', async () => {
    expect(
      await check(
        { user: { id: 3, roles: ['AUTHOR', 'EDITOR', 'NOBODY'] }, resource: 'article', action: 'read', resourceId: '7', ownedBy: [0] },
        { user: { id: 3, roles: ['AUTHOR', 'EDITOR'] }, resource: 'article', action: 'read', resourceId: 8 },
        { user: member, resource: 'team', action: 'read', resourceId: 'red' },
        { user: member, resource: 'team', action: 'read', resourceId: 'red', ownedBy: [1] },
        { user: { id: 4, roles: ['NOBODY'] }, resource: 'team', action: 'read', resourceId: 'red' },
        { user: { id: 5, roles: [] }, resource: 'article', action: 'read' },
      ),
    ).toEqual([
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-any',
        anyAttributes: ['body', 'id', 'title'],
        attributes: ['*', '!notes'],
        ownership: [authorGroup],
        policyVersion: version,
      },
      {
        granted: true,
        anyGranted: true,
        ownGranted: true,
        needsOwnership: true,
        reason: 'granted-any',
        anyAttributes: ['body', 'id', 'title'],
        attributes: ['body', 'id', 'title'],
        ownership: [authorGroup],
        policyVersion: version,
      },
      {
        granted: false,
        anyGranted: false,
        ownGranted: false,
        needsOwnership: true,
        reason: null,
        anyAttributes: [],
        attributes: [],
        ownership: [memberGroup],
        policyVersion: version,
      },
      {
        granted: true,
        anyGranted: false,
        ownGranted: true,
        needsOwnership: false,
        reason: 'granted-own',
        anyAttributes: [],
        attributes: ['*'],
        ownership: [memberGroup],
        policyVersion: version,
      },
      // Every role unknown is said so; no role at all is just no grant.
      { ...denied, reason: 'unknown-role', policyVersion: version },
      { ...denied, policyVersion: version },
    ]);
  });

  it('an empty batch has no answers', async () => {
    expect(await check()).toEqual([]);
  });

  it('a batch pinned to the active version is answered; to another version, 409 with the active one', async () => {
    const pinned = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { policyVersion: version, checks: [{ user: author, resource: 'article', action: 'read', resourceId: 7, ownedBy: [0] }] },
    });
    expect([pinned.status, pinned.body.answers[0]?.granted]).toEqual([200, true]);
    const stale = 'a'.repeat(64);
    const refused = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { policyVersion: stale, checks: [{ user: author, resource: 'article', action: 'read', resourceId: 7, ownedBy: [0] }] },
    });
    expect([refused.status, refused.headers['content-type'], refused.body]).toEqual([
      409,
      'application/problem+json; charset=utf-8',
      problem(
        'policy-version-changed',
        409,
        'Policy version changed',
        `The active policy version is ${version}, not ${stale}: ask again without ownedBy, or with the group numbers of version ${version}.`,
      ),
    ]);
  });

  it('never tells what other roles may do, nor any definition text or role name', async () => {
    const answer = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [{ user: member, resource: 'team', action: 'read', resourceId: 'red' }] },
    });
    for (const secret of ['AUTHOR', 'EDITOR', 'MEMBER', 'isAuthor', 'listAuthored', 'Authors read', 'notes', 'article', 'publish'])
      expect(answer.text).not.toContain(secret);
  });
});
