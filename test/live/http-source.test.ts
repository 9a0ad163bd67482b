/**
 * `httpPolicySource`: polled with `If-None-Match`, so an unchanged bundle costs a 304 and nothing else; a new
 * bundle is taken on the next poll; an error status or an oversized body is reported, never loaded; a URL that
 * answers 404 once it served a version is said once, and the version keeps running.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Permissions, type User } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { httpPolicySource } from '../../runtime/live/index.js';

function bundle(attributes: readonly string[]): PolicyBundle {
  const permissions = new Permissions({ logger: { warn: () => undefined } });
  permissions.addPermissions([{ roles: ['READER'], resource: 'doc', grant: { 'read:any': [...attributes] } }]).build();
  return policyBundleOf(permissions.tables);
}
const [v1, v2, v3] = [bundle(['id']), bundle(['id', 'title']), bundle(['id', 'title', 'body'])] as [PolicyBundle, PolicyBundle, PolicyBundle];
const maxBytes = 4096;
/** `value` as JSON padded with spaces to exactly `length` bytes. */
const padded = (value: unknown, length: number): string => JSON.stringify(value).padEnd(length, ' ');

async function until(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('httpPolicySource', () => {
  // `declared`: the body's length is sent as content-length; otherwise it is streamed in chunks of unknown total.
  let served: { status: number; body: string; etag: string; declared?: boolean } = { status: 200, body: JSON.stringify(v1), etag: '"v1"' };
  const requests: { ifNoneMatch: string | undefined; status: number }[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const ifNoneMatch = request.headers['if-none-match'];
      const status = served.status === 200 && ifNoneMatch === served.etag ? 304 : served.status;
      requests.push({ ifNoneMatch, status });
      const length = served.declared === true ? { 'content-length': String(Buffer.byteLength(served.body)) } : {};
      response.writeHead(status, status === 200 ? { etag: served.etag, 'content-type': 'application/json', ...length } : {});
      response.end(status === 200 ? served.body : undefined);
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/policy.json`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('polls with If-None-Match, takes a new bundle, and reports errors and oversized bodies without loading them', async () => {
    const permissions = Permissions.fromTables<User<number>>(v1, { logger: { warn: () => undefined } });
    const errors: string[] = [];
    const live = await permissions.follow(httpPolicySource(url, { pollIntervalMs: 20, maxBytes }), {
      onError: (error) => errors.push((error as Error).message),
    });
    try {
      await until('a revalidation answered 304', () => requests.some((request) => request.status === 304));
      expect(requests[0]).toEqual({ ifNoneMatch: undefined, status: 200 });
      expect(requests.find((request) => request.status === 304)?.ifNoneMatch).toBe('"v1"');

      served = { status: 200, body: JSON.stringify(v2), etag: '"v2"' };
      await until('v2 active', () => permissions.policyVersion === v2.version);

      served = { status: 503, body: '', etag: '"v2"' };
      await until('the 503 reported', () => errors.some((message) => message.endsWith('answered 503 Service Unavailable.')));

      served = { status: 200, body: padded(v3, maxBytes + 1), etag: '"past"' };
      await until('the oversized streamed body reported', () =>
        errors.some((message) => message.endsWith(`sends a bundle of more than ${maxBytes} bytes, the limit.`)),
      );
      served = { status: 200, body: padded(v3, maxBytes + 1), etag: '"past-declared"', declared: true };
      await until('the oversized declared body reported', () =>
        errors.some((message) => message.endsWith(`sends a bundle of ${maxBytes + 1} bytes, more than the limit of ${maxBytes}.`)),
      );
      expect(permissions.policyVersion).toBe(v2.version);

      served = { status: 200, body: padded(v3, maxBytes), etag: '"at"' };
      await until('the bundle of exactly the limit active', () => permissions.policyVersion === v3.version);
    } finally {
      await live.close();
    }
  }, 60_000);

  it('a URL that answers 404 after it served the active version is said through onError, once; the version stays', async () => {
    served = { status: 200, body: JSON.stringify(v2), etag: '"v2-404"' };
    const permissions = Permissions.fromTables<User<number>>(v1, { logger: { warn: () => undefined } });
    const errors: string[] = [];
    const live = await permissions.follow(httpPolicySource(url, { pollIntervalMs: 20 }), { onError: (error) => errors.push((error as Error).message) });
    try {
      expect(permissions.policyVersion).toBe(v2.version);
      served = { status: 404, body: '', etag: '' };
      await until('the 404 said', () => errors.length > 0);
      const seen = requests.length;
      await until('three more polls', () => requests.length >= seen + 3);
      expect([errors, permissions.policyVersion]).toEqual([
        [`URL ${url} holds no version any more (a file deleted, a URL answering 404?); version ${v2.version} keeps running until it holds one again.`],
        v2.version,
      ]);
    } finally {
      await live.close();
    }
  }, 30_000);

  it('refuses what is not an http(s) URL', () => {
    expect(() => httpPolicySource('file:///etc/policy.json')).toThrow('httpPolicySource(url): the URL must be http: or https:.');
    expect(() => httpPolicySource('not a url')).toThrow('httpPolicySource(url): "not a url" is not a URL.');
    expect(() => httpPolicySource('http://127.0.0.1/', { maxBytes: 0 })).toThrow('httpPolicySource(): maxBytes must be a positive integer.');
    expect(() => httpPolicySource('http://127.0.0.1/', { pollIntervalMs: 5 })).toThrow(
      'httpPolicySource(): pollIntervalMs must be a whole number of milliseconds from 10 to 2147483647, got 5.',
    );
  });
});
