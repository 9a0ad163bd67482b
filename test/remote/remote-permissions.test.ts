/**
 * Remote permissions against a real decision service on loopback: a role set is asked once per policy version
 * (two requests, shared by concurrent callers), a new version is picked up and permits already made keep
 * theirs, misconfiguration fails at start, and a service that is gone, slow, refusing or answering nonsense
 * never grants — each with a PermissionsServiceError that says what to do.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { filePolicySource } from '../../runtime/live/index.js';
import { createRemotePermissions, PermissionsServiceError, type RemotePermissions } from '../../runtime/remote/index.js';
import type { DecisionService } from '../../runtime/service/index.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { fixtureBundle, fixtureDefinitions, fixtureOwnership, fixtureService, recordingLogger, TOKEN, until } from '../service/service-fixture.js';

const author = { id: 1, roles: ['AUTHOR'] };
const editor = { id: 2, roles: ['EDITOR'] };
const quiet = { warn: () => undefined };

let service: DecisionService;
let url: string;
let folder: string;
const opened: RemotePermissions[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  service = await fixtureService();
  url = await service.listen();
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-remote-'));
});

afterEach(() => {
  for (const permissions of opened.splice(0)) permissions.close();
});

afterAll(async () => {
  await service.close();
  for (const server of servers) server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The URL a fetch is asked for. */
const urlOf = (input: Parameters<typeof fetch>[0]): URL => new URL(input instanceof Request ? input.url : input);

/** A fetch that records `METHOD /path` of every request before making it. */
function countingFetch(calls: string[]): typeof fetch {
  return (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${urlOf(input).pathname}`);
    return fetch(input, init);
  };
}

async function remote(options: Partial<Parameters<typeof createRemotePermissions>[0]> = {}) {
  const permissions = await createRemotePermissions({ url, token: TOKEN, ownership: fixtureOwnership, logger: quiet, ...options });
  opened.push(permissions as RemotePermissions);
  return permissions;
}

/** A server answering every request with `answer` (status, content type, body). */
async function fakeService(answer: (path: string) => { status: number; body: string; type?: string } | undefined): Promise<string> {
  const server = createServer((request, response) => {
    const reply = answer(request.url ?? '');
    if (reply === undefined) return; // never answers
    response.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' }).end(reply.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

describe('remote permissions', () => {
  it('asks a role set once (slice and group methods), shared by concurrent callers and by the same roles in any order', async () => {
    const calls: string[] = [];
    const permissions = await remote({ fetch: countingFetch(calls) });
    const permits = await Promise.all([
      permissions.grantPermit({ user: author, resource: 'article', action: 'read' }),
      permissions.grantPermit({ user: author, resource: 'article', action: 'update' }),
      permissions.grantPermit({ user: { id: 9, roles: ['AUTHOR'] }, resource: 'article', action: 'list' }),
    ]);
    expect(permits.map((permit) => [permit.granted, permit.anyGranted])).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    await permissions.grantPermit({ user: { id: 3, roles: ['EDITOR', 'AUTHOR'] }, resource: 'article', action: 'read' });
    await permissions.grantPermit({ user: { id: 4, roles: ['AUTHOR', 'EDITOR', 'AUTHOR'] }, resource: 'article', action: 'publish' });
    expect(calls).toEqual(['GET /v1/policy', 'POST /v1/slice', 'POST /v1/check', 'POST /v1/slice', 'POST /v1/check']);
  });

  it('asks a service behind a path (a gateway) under that path, with or without its trailing slash', async () => {
    for (const base of ['http://gateway.internal/permissions', 'http://gateway.internal/permissions/']) {
      const asked: string[] = [];
      // The gateway: what is asked under /permissions/ goes to the service, at its own root.
      const gateway: typeof fetch = (input, init) => {
        const target = urlOf(input);
        asked.push(`${init?.method ?? 'GET'} ${target.href}`);
        return fetch(`${url}${target.pathname.replace(/^\/permissions\//, '/')}`, init);
      };
      const permissions = await remote({ url: base, fetch: gateway });
      expect((await permissions.grantPermit({ user: author, resource: 'article', action: 'update' })).granted).toBe(true);
      expect([base, asked]).toEqual([
        base,
        [
          'GET http://gateway.internal/permissions/v1/policy',
          'POST http://gateway.internal/permissions/v1/slice',
          'POST http://gateway.internal/permissions/v1/check',
        ],
      ]);
    }
  });

  it('runs ownership in the application: isOwner for one record, listOwned for a list', async () => {
    const asked: unknown[] = [];
    const ownership = {
      ...fixtureOwnership,
      isAuthor: ({ resourceId }: { resourceId: number }) => (asked.push(['isAuthor', resourceId]), resourceId === 7),
      listAuthored: () => (asked.push(['listAuthored']), [7, 8]),
    };
    const permissions = await remote({ ownership });
    const [mine, theirs] = await Promise.all([
      permissions.grantPermit({ user: author, resource: 'article', action: 'read', resourceId: 7 }),
      permissions.grantPermit({ user: author, resource: 'article', action: 'read', resourceId: 6 }),
    ]);
    expect([mine.granted, theirs.granted]).toEqual([true, false]);
    const list = await permissions.grantPermit({ user: author, resource: 'article', action: 'list' });
    expect(
      await list.filterPick([
        { id: 7, title: 'T', notes: 'n', body: 'b' },
        { id: 6, title: 'U', notes: 'm' },
      ]),
    ).toEqual([
      { id: 7, title: 'T', body: 'b' },
      { id: 6, title: 'U' },
    ]);
    expect(asked).toEqual([['isAuthor', 7], ['isAuthor', 6], ['listAuthored']]);
  });

  it('follows the service’s version: role sets are asked again, permits already made keep their version', async () => {
    const file = join(folder, 'policy.json');
    const swapIn = (bundle: PolicyBundle) => {
      writeFileSync(`${file}.next`, JSON.stringify(bundle));
      renameSync(`${file}.next`, file);
    };
    swapIn(fixtureBundle());
    const following = await fixtureService({ tables: undefined, source: filePolicySource(file, { pollIntervalMs: 20 }) });
    try {
      const permissions = await remote({ url: await following.listen(), refreshIntervalMs: 20 });
      const before = await permissions.grantPermit({ user: editor, resource: 'article', action: 'update', resourceId: 4 });
      expect(before.granted).toBe(false);
      const v2 = fixtureBundle([...fixtureDefinitions, { roles: ['EDITOR'], resource: 'article', grant: { 'update:any': ['title'] } }]);
      swapIn(v2);
      await until('the remote takes the new version', () => permissions.policyVersion === v2.version);
      const after = await permissions.grantPermit({ user: editor, resource: 'article', action: 'update', resourceId: 4 });
      expect([after.granted, after.policyVersion, after.anyAttributes]).toEqual([true, v2.version, ['title']]);
      expect([before.granted, before.policyVersion]).toEqual([false, fixtureBundle().version]);
    } finally {
      await following.close();
    }
  });

  it('a service that goes away: asked role sets keep answering, new ones are refused, never granted', async () => {
    const going = await fixtureService();
    const logger = { warnings: [] as string[], warn: (message: string) => void logger.warnings.push(message) };
    const permissions = await remote({ url: await going.listen(), refreshIntervalMs: 20, timeoutMs: 2000, logger });
    await permissions.grantPermit({ user: editor, resource: 'article', action: 'read' });
    await going.close();
    await until('the version check fails once', () => logger.warnings.length === 1);
    expect((await permissions.grantPermit({ user: editor, resource: 'article', action: 'publish' })).granted).toBe(true);
    const refused = permissions.grantPermit({ user: author, resource: 'article', action: 'read' });
    await expect(refused).rejects.toBeInstanceOf(PermissionsServiceError);
    await expect(refused).rejects.toThrow(/the decision service cannot be reached .*; nothing is granted\.$/);
    // Reported once, not at every check.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^typed-permissions remote: GET http:\/\/127\.0\.0\.1:\d+\/v1\/policy: the decision service cannot be reached/);
  });

  it('misconfiguration fails at start: a wrong token, a missing ownership method, bad options', async () => {
    await expect(remote({ token: 'not-a-token-of-this-service' })).rejects.toThrow(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/policy answered 401: .*Check the token given to createRemotePermissions/,
    );
    const withoutIsAuthor = Object.fromEntries(Object.entries(fixtureOwnership).filter(([name]) => name !== 'isAuthor'));
    await expect(remote({ ownership: withoutIsAuthor })).rejects.toThrow(
      new PermissionsUsageError(
        `The policy of the decision service at ${url}/ names ownership methods the ownership service given to createRemotePermissions does not have: ` +
          'isOwner "isAuthor". Add them (they run in this application, never in the service).',
      ),
    );
    await expect(remote({ url: 'ftp://127.0.0.1/' })).rejects.toThrow('createRemotePermissions(): url must be http: or https:, got ftp:.');
    await expect(remote({ url: 'not a url' })).rejects.toThrow(/^createRemotePermissions\(\): url must be the decision service's base URL/);
    await expect(remote({ url: 'http://user:pw@127.0.0.1/' })).rejects.toThrow('createRemotePermissions(): put the credentials in token, not in the url.');
    await expect(remote({ token: '' })).rejects.toThrow(/^createRemotePermissions\(\): token must be a non-empty string/);
    await expect(remote({ timeoutMs: 0 })).rejects.toThrow(
      /^createRemotePermissions\(\): timeoutMs must be a whole number of milliseconds from 1 to 2147483647/,
    );
    await expect(remote({ refreshIntervalMs: 2 ** 31 })).rejects.toThrow(/refreshIntervalMs must be a whole number of milliseconds from 10 to 2147483647/);
    await expect(remote({ maxCachedRoleSets: 0 })).rejects.toThrow('createRemotePermissions(): maxCachedRoleSets must be a positive whole number, got 0.');
    await expect(remote({ cache: true } as never)).rejects.toThrow('createRemotePermissions(): unknown option "cache".');
  });

  it('a server that is not a decision service, or answers nonsense, is refused: never granted', async () => {
    const answers: Record<string, { status: number; body: string; type?: string }> = {
      html: { status: 200, body: '<html>login</html>', type: 'text/html' },
      empty: { status: 200, body: '{}' },
      resources: { status: 200, body: JSON.stringify({ policyVersion: 'v', resources: 'all', actions: [], ownershipMethods: {} }) },
      declared: {
        status: 200,
        body: JSON.stringify({
          policyVersion: 'v',
          resources: [{ name: 'article', idType: 'number', actions: 'all' }],
          actions: [],
          ownershipMethods: { isOwner: [], listOwned: [], limitOwned: [], ownedAmong: [] },
        }),
      },
      proto: { status: 200, body: '{"__proto__": {"policyVersion": "v"}}' },
      teapot: { status: 418, body: JSON.stringify({ detail: 'short and stout' }), type: 'application/problem+json' },
    };
    for (const [name, answer] of Object.entries(answers)) {
      const target = await fakeService(() => answer);
      const attempt = remote({ url: target });
      await expect(attempt).rejects.toBeInstanceOf(PermissionsServiceError);
      await expect(attempt).rejects.toThrow(
        name === 'html'
          ? /answered 200 with a body that is not JSON; is the URL the decision service's\?$/
          : name === 'teapot'
            ? /answered 418: short and stout\.$/
            : name === 'declared'
              ? /\(resources is not a list of \{ name, idType, actions\? \}\); nothing is granted\./
              : /is not an answer of the decision service \(.+\); nothing is granted\. Is the URL the decision service's\?$/,
      );
    }
  });

  it('a malformed slice, a body past the limit and a service that never answers are refused', async () => {
    const policy = await (await fetch(`${url}/v1/policy`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const badSlice = await fakeService((path) =>
      path === '/v1/policy' ? { status: 200, body: policy } : { status: 200, body: JSON.stringify({ format: 1, version: 'v', plans: [[2, []]], grants: [] }) },
    );
    const withBadSlice = await remote({ url: badSlice });
    await expect(withBadSlice.grantPermit({ user: author, resource: 'article', action: 'read' })).rejects.toThrow(
      /^POST \/v1\/slice is not an answer of the decision service \(plans\[0\] is not \[0 \| 1, children\]\)/,
    );
    const huge = await fakeService((path) => (path === '/v1/policy' ? { status: 200, body: policy } : { status: 200, body: `"${'x'.repeat(2048)}"` }));
    const withHuge = await remote({ url: huge, maxResponseBytes: 1024 });
    await expect(withHuge.grantPermit({ user: author, resource: 'article', action: 'read' })).rejects.toThrow(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/slice: the service sends an answer of more than 1024 bytes, the limit\. Nothing is granted\.$/,
    );
    const silent = await fakeService((path) => (path === '/v1/policy' ? { status: 200, body: policy } : undefined));
    const withSilent = await remote({ url: silent, timeoutMs: 200 });
    await expect(withSilent.grantPermit({ user: author, resource: 'article', action: 'read' })).rejects.toThrow(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/slice: the decision service cannot be reached \(no answer within 200 ms\); nothing is granted\.$/,
    );
  }, 20_000);

  it('an answer whose body stalls, and a redirect, are refused saying so', async () => {
    const policy = await (await fetch(`${url}/v1/policy`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const listening = async (handle: Parameters<typeof createServer>[1]) => {
      const server = createServer(handle);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    };
    const stalling = await listening((request, response) => {
      if (request.url === '/v1/policy') response.writeHead(200, { 'content-type': 'application/json' }).end(policy);
      else response.writeHead(200, { 'content-type': 'application/json' }).write('{"format":');
    });
    const stalled = await remote({ url: stalling, timeoutMs: 200 });
    await expect(stalled.grantPermit({ user: author, resource: 'article', action: 'read' })).rejects.toThrow(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/slice: the answer did not arrive whole within 200 ms\. Nothing is granted\.$/,
    );
    const redirecting = await listening((_request, response) => response.writeHead(302, { location: 'http://127.0.0.1:9/v1/policy' }).end());
    await expect(remote({ url: redirecting })).rejects.toThrow(
      new RegExp(
        '^GET http://127\\.0\\.0\\.1:\\d+/v1/policy: the decision service sent the request elsewhere \\(it answered with a redirect, ' +
          'which is never followed: give the URL the service answers at\\); nothing is granted\\.$',
      ),
    );
  }, 20_000);

  it('answers that disagree — a slice naming an ownership group the check answer gives no methods for — are refused as a bad answer', async () => {
    const withoutMethods: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (urlOf(input).pathname !== '/v1/check') return answer;
      const body = (await answer.json()) as { answers: { ownership: unknown[] }[] };
      for (const one of body.answers) one.ownership = [];
      return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
    };
    const permissions = await remote({ fetch: withoutMethods });
    const refused = permissions.grantPermit({ user: author, resource: 'article', action: 'update', resourceId: 1 });
    await expect(refused).rejects.toBeInstanceOf(PermissionsServiceError);
    await expect(refused).rejects.toThrow(/^The decision service named ownership group \d+ on article without its methods; nothing is granted\.$/);
  });

  it('a group the check answer gives no way to decide ownership (no rule, no isOwner, listOwned or limitOwned), or both, is a bad answer', async () => {
    for (const strip of [
      (group: Record<string, unknown>): Record<string, unknown> => ({ group: group['group'], attributes: group['attributes'] }),
      (group: Record<string, unknown>) => ({ group: group['group'], attributes: group['attributes'], ownedAmong: 'anything' }),
      (group: Record<string, unknown>) => ({ ...group, rule: 'creator' }),
    ]) {
      let checks = 0;
      const changed: typeof fetch = async (input, init) => {
        const answer = await fetch(input, init);
        if (urlOf(input).pathname !== '/v1/check') return answer;
        checks += 1;
        const body = (await answer.json()) as { answers: { ownership: Record<string, unknown>[] }[] };
        for (const one of body.answers) one.ownership = one.ownership.map(strip);
        return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
      };
      const permissions = await remote({ fetch: changed });
      const ask = () => permissions.grantPermit({ user: author, resource: 'article', action: 'update', resourceId: 1 });
      await expect(ask()).rejects.toThrow(
        new PermissionsServiceError(
          "POST /v1/check is not an answer of the decision service (answers[0].ownership[0] is object); nothing is granted. Is the URL the decision service's?",
        ),
      );
      // Not kept: the next decision asks again.
      await expect(ask()).rejects.toBeInstanceOf(PermissionsServiceError);
      expect(checks).toBe(2);
    }
  });

  it('a failed role set is asked again on the next decision', async () => {
    let failures = 1;
    const calls: string[] = [];
    const flaky: typeof fetch = (input, init) => {
      if (urlOf(input).pathname === '/v1/slice' && failures-- > 0) return Promise.reject(new TypeError('fetch failed'));
      return countingFetch(calls)(input, init);
    };
    const permissions = await remote({ fetch: flaky });
    await expect(permissions.grantPermit({ user: editor, resource: 'article', action: 'read' })).rejects.toBeInstanceOf(PermissionsServiceError);
    expect((await permissions.grantPermit({ user: editor, resource: 'article', action: 'read' })).granted).toBe(true);
    expect(calls).toEqual(['GET /v1/policy', 'POST /v1/slice']);
  });

  it('explain() says it is not available remotely; hostile queries are refused as embedded', async () => {
    const permissions = await remote({ logger: recordingLogger() });
    const permit = await permissions.grantPermit({ user: editor, resource: 'article', action: 'read' });
    await expect(permit.explain()).rejects.toThrow(/^explain\(\) is not available on a permit of remote permissions/);
    await expect(permissions.grantPermit({ user: { id: 1, roles: 'EDITOR' }, resource: 'article', action: 'read' } as never)).rejects.toBeInstanceOf(
      PermissionsUsageError,
    );
    await expect(permissions.grantPermit({ user: editor, resource: 'article', action: 'read', resourceId: '1e1' })).rejects.toThrow(
      /is not an id of "article"/,
    );
    expect((await permissions.grantPermit({ user: editor, resource: '__proto__', action: 'read' })).granted).toBe(false);
  });
});
