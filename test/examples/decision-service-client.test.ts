/**
 * The decision-service example's Python app (`python3 client.py`) against a service that answers what it should not:
 * a redirect to another origin, an answer other than 200, or a number of answers that is not the number of checks.
 * The app fails closed on each — 503, logged — and the token never reaches another origin. It needs no install:
 * client.py is the standard library only, run from a folder of its own with a decision-tokens file.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { startExample } from './example-project.js';

const TOKEN = 'a'.repeat(64);
/** What client.py prints once it listens. */
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
/** The answer of a granted check, every attribute shown. */
const GRANT = { granted: true, attributes: ['*'], ownership: [] };
const GRANTED = JSON.stringify({ answers: [GRANT] });
const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'The permissions service could not answer; try again later.' };

let dir = '';
let app: Awaited<ReturnType<typeof startExample>> | undefined;
let appUrl = '';
const servers: Server[] = [];
/** How the fake service answers POST /v1/check. */
let answer: (response: ServerResponse) => void = (response) => response.writeHead(500).end();
/** Every request another origin received: method, path, authorization. */
const elsewhere: string[] = [];
let elsewhereUrl = '';

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** GET `path` of the app as user 2, who owns no document 1: granted only if the app takes the fake's answer. */
async function readAsUser2(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${appUrl}${path}`, { headers: { 'x-user-id': '2' }, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
}

/** The next line the app logs that starts with `prefix` (stderr may arrive a moment after the answer), waiting at most 5 s. */
async function logged(prefix: string): Promise<string | undefined> {
  const find = () => app?.lines.find((line) => line.startsWith(prefix));
  for (const deadline = Date.now() + 5_000; find() === undefined && Date.now() < deadline;) await sleep(20);
  const line = find();
  if (app !== undefined && line !== undefined) app.lines.splice(app.lines.indexOf(line), 1);
  return line;
}

beforeAll(async () => {
  elsewhereUrl = await listen((request, response) => {
    elsewhere.push(`${request.method} ${request.url} ${request.headers.authorization}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(GRANTED);
  });
  const serviceUrl = await listen((request, response) => {
    request.resume();
    request.on('end', () => answer(response));
  });
  dir = mkdtempSync(join(tmpdir(), 'typed-permissions-client-py-'));
  copyFileSync(join(repoRoot, 'examples', 'decision-service', 'client.py'), join(dir, 'client.py'));
  writeFileSync(join(dir, 'decision-tokens'), `${TOKEN}\n`);
  app = await startExample(dir, ['python3', 'client.py'], { ready: LISTENING, env: { APP_PORT: '0', DECISION_SERVICE_URL: serviceUrl }, timeoutMs: 30_000 });
  appUrl = app.match[1] as string;
}, 60_000);

afterAll(async () => {
  await app?.stop();
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('the decision-service example’s Python app, asking a service that answers wrongly', () => {
  it('a redirect to another origin is not followed: 503, and the other origin never sees the token', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      answer = (response) => response.writeHead(status, { location: `${elsewhereUrl}/steal`, 'content-length': '0' }).end();
      expect([status, await readAsUser2('/documents/1')]).toEqual([status, { status: 503, body: UNAVAILABLE }]);
      expect(await logged('the decision service refused: ')).toBe(`the decision service refused: ${status} a redirect to ${elsewhereUrl}/steal, not followed`);
    }
    expect(elsewhere).toEqual([]);
  }, 30_000);

  it('an answer other than 200, even a 2xx with grants, is 503', async () => {
    answer = (response) => response.writeHead(201, { 'content-type': 'application/json' }).end(GRANTED);
    expect(await readAsUser2('/documents/1')).toEqual({ status: 503, body: UNAVAILABLE });
    expect(await logged('the decision service could not answer: ')).toBe('the decision service could not answer: it answered 201, not 200');
  });

  it('a number of answers that is not the number of checks is 503', async () => {
    const cases: [string, string][] = [
      [JSON.stringify({ answers: [] }), 'it answered 0 answers to 1 checks'],
      [JSON.stringify({ answers: [GRANT, GRANT] }), 'it answered 2 answers to 1 checks'],
      [JSON.stringify({ answers: { granted: true } }), 'it answered no list of answers to 1 checks'],
    ];
    for (const [body, reason] of cases) {
      answer = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      expect([body, await readAsUser2('/documents/1')]).toEqual([body, { status: 503, body: UNAVAILABLE }]);
      expect(await logged('the decision service could not answer: ')).toBe(`the decision service could not answer: ${reason}`);
    }
    // The list asks for three documents in one request: no answer for them is not three.
    answer = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answers: [] }));
    expect(await readAsUser2('/documents')).toEqual({ status: 503, body: UNAVAILABLE });
    expect(await logged('the decision service could not answer: ')).toBe('the decision service could not answer: it answered 0 answers to 3 checks');
  }, 30_000);
});
