/**
 * Every limit at and past its value: the body size (413), the checks in a batch, the roles of a user, the groups
 * in ownedBy and the length of a name (400, naming the field), the requests per token in a rate window (429 with
 * retry-after, counted per token, across the versioned routes, never on the probes), and the time a request may
 * take (the connection answered 408 and closed). The defaults are the stated ones; a limit out of range stops the start.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_SERVICE_LIMITS, createDecisionService, type DecisionService } from '../../runtime/service/index.js';
import { resolveServiceLimits } from '../../runtime/service/service-limits.js';
import { addressOf, ask, fixtureBundle, fixtureService, OTHER_TOKEN, problem, recordingLogger, TOKEN } from './service-fixture.js';

let service: DecisionService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const editor = { id: 2, roles: ['EDITOR'] };
const readCheck = { user: editor, resource: 'article', action: 'read' };
const invalid = (detail: string) => problem('invalid-request', 400, 'Invalid request', detail);

describe('the defaults', () => {
  it('are the defaults the docs state for every limit', () => {
    expect(DEFAULT_SERVICE_LIMITS).toEqual({
      maxBodyBytes: 1_048_576,
      maxChecks: 1_000,
      maxTenants: 16,
      maxRoles: 64,
      maxOwnedBy: 256,
      maxRecordAttributes: 256,
      maxRelatedRecords: 256,
      maxUserAttributes: 64,
      maxAttributeLength: 1_024,
      rateLimitMax: 1_000,
      rateLimitWindowMs: 1_000,
      requestTimeoutMs: 10_000,
    });
    expect(resolveServiceLimits({})).toEqual(DEFAULT_SERVICE_LIMITS);
  });

  it.each([
    [{ maxChecks: 0 }, 'limits.maxChecks must be a whole number from 1 to 100000, got 0.'],
    [{ maxBodyBytes: 1.5 }, 'limits.maxBodyBytes must be a whole number from 1024 to 1073741824, got 1.5.'],
    [{ rateLimitWindowMs: 2 ** 31 }, 'limits.rateLimitWindowMs must be a whole number from 1 to 2147483647, got 2147483648.'],
    [
      { maxCheks: 5 },
      'unknown limit "maxCheks"; the limits are maxBodyBytes, maxChecks, maxTenants, maxRoles, maxOwnedBy, maxRecordAttributes, maxRelatedRecords, ' +
        'maxUserAttributes, maxAttributeLength, rateLimitMax, rateLimitWindowMs, requestTimeoutMs.',
    ],
  ])('a limit out of range stops the start: %j', async (limits, message) => {
    await expect(fixtureService({ limits: limits as never })).rejects.toThrow(`createDecisionService(options): ${message}`);
  });
});

describe('the body size', () => {
  it('a body of exactly the limit is read; one byte more is 413', async () => {
    service = await fixtureService();
    const head = '{"checks":[]';
    const atLimit = `${head}${' '.repeat(DEFAULT_SERVICE_LIMITS.maxBodyBytes - head.length - 1)}}`;
    expect(Buffer.byteLength(atLimit)).toBe(1_048_576);
    const read = await ask(service, { method: 'POST', url: '/v1/check', payload: atLimit });
    expect([read.status, read.body]).toEqual([200, { answers: [] }]);
    const past = await ask(service, { method: 'POST', url: '/v1/check', payload: `${head} ${atLimit.slice(head.length)}` });
    expect([past.status, past.headers['content-type'], past.body]).toEqual([
      413,
      'application/problem+json; charset=utf-8',
      problem('payload-too-large', 413, 'Payload too large', 'The body is larger than the limit of 1048576 bytes.'),
    ]);
  }, 20_000);

  it('a configured limit holds the same way', async () => {
    service = await fixtureService({ limits: { maxBodyBytes: 2048 } });
    const body = (size: number) => `{"checks":[]${' '.repeat(size - 13)}}`;
    expect((await ask(service, { method: 'POST', url: '/v1/check', payload: body(2048) })).status).toBe(200);
    expect((await ask(service, { method: 'POST', url: '/v1/check', payload: body(2049) })).body.detail).toBe(
      'The body is larger than the limit of 2048 bytes.',
    );
  });
});

describe('the sizes of a batch', () => {
  it('1,000 checks are answered; 1,001 are refused', async () => {
    service = await fixtureService();
    const answered = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: Array.from({ length: 1000 }, () => readCheck) } });
    expect([answered.status, answered.body.answers.length, answered.body.answers[999]?.granted]).toEqual([200, 1000, true]);
    const refused = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: Array.from({ length: 1001 }, () => readCheck) } });
    expect([refused.status, refused.body]).toEqual([400, invalid('checks must have at most 1000 items.')]);
  });

  it('64 roles are read; 65 are refused, in a check and in a slice', async () => {
    service = await fixtureService();
    const roles = (count: number) => ['EDITOR', ...Array.from({ length: count - 1 }, (_, i) => `ROLE_${i}`)];
    const atLimit = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [readCheck, { ...readCheck, user: { id: 3, roles: roles(64) } }] },
    });
    expect([atLimit.status, atLimit.body.answers[1]?.granted]).toEqual([200, true]);
    const past = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [readCheck, { ...readCheck, user: { id: 3, roles: roles(65) } }] },
    });
    expect([past.status, past.body]).toEqual([400, invalid('checks[1].user.roles must have at most 64 items.')]);
    expect((await ask(service, { method: 'POST', url: '/v1/slice', payload: { user: { id: 3, roles: roles(64) } } })).status).toBe(200);
    expect((await ask(service, { method: 'POST', url: '/v1/slice', payload: { user: { id: 3, roles: roles(65) } } })).body).toEqual(
      invalid('user.roles must have at most 64 items.'),
    );
  });

  it('256 groups in ownedBy are read; 257 are refused', async () => {
    service = await fixtureService();
    const owned = (count: number) => ({
      user: { id: 1, roles: ['AUTHOR'] },
      resource: 'article',
      action: 'read',
      resourceId: 1,
      ownedBy: Array.from({ length: count }, (_, i) => i),
    });
    const atLimit = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [owned(256)] } });
    expect([atLimit.status, atLimit.body.answers[0]?.granted]).toEqual([200, true]);
    const past = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [owned(257)] } });
    expect([past.status, past.body]).toEqual([400, invalid('checks[0].ownedBy must have at most 256 items.')]);
  });

  it('names of 128 characters are read; 129 are refused; ids of 256 characters, 257 refused', async () => {
    service = await fixtureService();
    const ask128 = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [{ ...readCheck, user: { id: 'u'.repeat(256), roles: ['R'.repeat(128)] } }] },
    });
    expect([ask128.status, ask128.body.answers[0]?.granted]).toEqual([200, false]);
    for (const [check, detail] of [
      [{ ...readCheck, user: { id: 1, roles: ['R'.repeat(129)] } }, 'checks[0].user.roles[0] must be at most 128 characters long.'],
      [{ ...readCheck, resource: 'r'.repeat(129) }, 'checks[0].resource must be at most 128 characters long.'],
      [{ ...readCheck, user: { id: 'u'.repeat(257), roles: [] } }, 'checks[0].user.id must be at most 256 characters long.'],
      [
        { user: { id: 1, roles: ['MEMBER'] }, resource: 'team', action: 'read', resourceId: 't'.repeat(257) },
        'checks[0].resourceId must be at most 256 characters long.',
      ],
    ] as const)
      expect((await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [check] } })).body).toEqual(invalid(detail));
  });
});

describe('the rate limit per token', () => {
  it('the limit is answered; one more is 429 with retry-after; another token has its own; the probes are never limited', async () => {
    service = await fixtureService({ limits: { rateLimitMax: 3, rateLimitWindowMs: 60_000 } });
    const remaining: unknown[] = [];
    for (const request of [
      { method: 'GET', url: '/v1/policy' },
      { method: 'POST', url: '/v1/check', payload: { checks: [readCheck] } },
      { method: 'POST', url: '/v1/slice', payload: { user: editor } },
    ] as const) {
      const answer = await ask(service, request);
      remaining.push([answer.status, answer.headers['x-ratelimit-limit'], answer.headers['x-ratelimit-remaining']]);
    }
    expect(remaining).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
    ]);
    const limited = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [readCheck] } });
    expect([limited.status, limited.headers['content-type'], limited.headers['retry-after'], limited.body]).toEqual([
      429,
      'application/problem+json; charset=utf-8',
      '60',
      problem('rate-limited', 429, 'Too many requests', 'More than 3 requests in 60000 ms with this token; retry in 1 minute.'),
    ]);
    expect((await ask(service, { method: 'GET', url: '/v1/policy', headers: { authorization: `Bearer ${OTHER_TOKEN}` } })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await ask(service, { method: 'GET', url: '/healthz' })).status).toBe(200);
    const metrics = await ask(service, { method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.text).toContain('typed_permissions_requests_refused_total{reason="rate_limited"} 1');
  });

  it('counts a request to a /v1 path no route answers like any other: 404 within the limit, 429 past it; other paths are not counted', async () => {
    service = await fixtureService({ limits: { rateLimitMax: 2, rateLimitWindowMs: 60_000 } });
    const answers: unknown[] = [];
    for (const url of ['/v1/nope', '/v1', '/v1/policy', '/v1/nope', '/v2/check']) {
      const answer = await ask(service, { method: 'GET', url });
      answers.push([url, answer.status, answer.headers['x-ratelimit-remaining'], answer.body]);
    }
    expect(answers).toEqual([
      ['/v1/nope', 404, '1', problem('not-found', 404, 'Not found', 'There is no GET /v1/nope; see GET /v1/openapi.json.')],
      ['/v1', 404, '0', problem('not-found', 404, 'Not found', 'There is no GET /v1; see GET /v1/openapi.json.')],
      ['/v1/policy', 429, '0', problem('rate-limited', 429, 'Too many requests', 'More than 2 requests in 60000 ms with this token; retry in 1 minute.')],
      ['/v1/nope', 429, '0', problem('rate-limited', 429, 'Too many requests', 'More than 2 requests in 60000 ms with this token; retry in 1 minute.')],
      ['/v2/check', 404, undefined, problem('not-found', 404, 'Not found', 'There is no GET /v2/check; see GET /v1/openapi.json.')],
    ]);
    // Without a token, an unknown /v1 path is refused first, as every /v1 route is.
    expect((await ask(service, { method: 'GET', url: '/v1/nope', headers: { authorization: '' } })).status).toBe(401);
  });

  it('a new window answers again', async () => {
    service = await fixtureService({ limits: { rateLimitMax: 1, rateLimitWindowMs: 2_000 } });
    expect((await ask(service, { method: 'GET', url: '/v1/policy' })).status).toBe(200);
    expect((await ask(service, { method: 'GET', url: '/v1/policy' })).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await ask(service, { method: 'GET', url: '/v1/policy' })).status).toBe(200);
  }, 20_000);
});

describe('the time a request may take', () => {
  /** Sends the head of a request and `sent` bytes of its body, then waits for what the server says. */
  async function slowRequest(address: string, sent: number, declared: number, waitMs: number): Promise<string> {
    const { hostname, port } = new URL(address);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let answer = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(answer);
      }, waitMs);
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(answer);
      });
      socket.on('error', reject);
      socket.write(
        `POST /v1/check HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: application/json\r\nconnection: close\r\n` +
          `content-length: ${declared}\r\n\r\n${'{"checks":[]}'.padEnd(sent).slice(0, sent)}`,
      );
    });
  }

  it('a request that arrives in time is answered; one still arriving past the limit is answered 408 and closed', async () => {
    service = await createDecisionService({ tables: fixtureBundle(), tokens: [TOKEN], port: 0, limits: { requestTimeoutMs: 500 }, logger: recordingLogger() });
    const address = await addressOf(service);
    expect(await slowRequest(address, 13, 13, 5_000)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const started = Date.now();
    const cut = await slowRequest(address, 5, 13, 5_000);
    expect(cut).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(problemOfRaw(cut)).toEqual({
      type: 'application/problem+json',
      body: {
        type: 'urn:typed-permissions:problem:request-timeout',
        title: 'Request timeout',
        status: 408,
        detail: 'The request did not arrive within 500 ms.',
      },
    });
  }, 20_000);
});

/** The media type and the JSON body of a raw HTTP answer. */
function problemOfRaw(answer: string): { type: string | undefined; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { type: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1], body: JSON.parse(body) as unknown };
}

describe('what never became a request', () => {
  /** Writes `raw` on a new connection and reads what the server answers until it closes it. */
  function rawAnswer(address: string, raw: string): Promise<string> {
    const { hostname, port } = new URL(address);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      socket.write(raw);
    });
  }

  it('HTTP the server cannot read, and headers past its limit, are answered as problem details and counted, the connection closed', async () => {
    service = await createDecisionService({ tables: fixtureBundle(), tokens: [TOKEN], port: 0, logger: recordingLogger() });
    const address = await addressOf(service);
    const malformed = await rawAnswer(address, 'GET /v1/policy HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(problemOfRaw(malformed)).toEqual({
      type: 'application/problem+json',
      body: {
        type: 'urn:typed-permissions:problem:invalid-request',
        title: 'Invalid request',
        status: 400,
        detail: 'The request is not HTTP the server can read.',
      },
    });
    const huge = await rawAnswer(address, `GET /v1/policy HTTP/1.1\r\nhost: x\r\nx-filler: ${'a'.repeat(100_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(problemOfRaw(huge)).toEqual({
      type: 'application/problem+json',
      body: {
        type: 'urn:typed-permissions:problem:headers-too-large',
        title: 'Request header fields too large',
        status: 431,
        detail: "The request's headers are larger than the server reads.",
      },
    });
    const metrics = await ask(service, { method: 'GET', url: '/metrics' });
    expect(metrics.text).toContain('typed_permissions_requests_refused_total{reason="invalid_request"} 1');
    expect(metrics.text).toContain('typed_permissions_requests_refused_total{reason="headers_too_large"} 1');
  }, 20_000);
});
