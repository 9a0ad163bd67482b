/**
 * The decision-service project that docs/decision-service.md builds, as a user gets it: copied out of the repository,
 * installed from the packed tarballs, compiled (`npm run build`), served (`npm start`, on a port the system
 * chooses), and asked by its Python app (`python3 client.py`, standard library only) and by `check.sh` (curl).
 * Ownership is the rule documentOwner: the app sends each document's record and the service answers finally. The
 * app guards its own records by asking the service: the owner reads (200, without the confidential note), anyone else
 * is refused (403), an unknown user is 401 and a malformed id 400, each with its exact body; a visitor (the ANONYMOUS
 * placeholder user) lists titles without any warning; the guide's requests get exactly the answers it shows; a policy
 * the app cannot serve (a rule reading an attribute it does not send, an ownership method) and a stopped service
 * grant nothing (503, 500, 503).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { docBlocks, shownOutput } from '../docs/doc-blocks.js';
import { NPM, ok, run } from '../package/throwaway-project.js';
import { installExample, removeExample, startExample } from './example-project.js';

/** What the service and the app print once they listen (both choose a free port when asked for port 0). */
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
/** The lines npm prints around a script (`> decision-service-example@1.0.0 start`, the command, blank lines). */
const NPM_LINE = /^(?:> .*)?$/;

let dir = '';
let version = '';
/** A started process of the project, with the match of its `listening on` line. */
type Started = Awaited<ReturnType<typeof startExample>>;

let service: Started | undefined;
let app: Started | undefined;
let serviceUrl = '';
let appUrl = '';

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** GET `path` of the Python app, as `userId` (its x-user-id header) or as a visitor. */
async function get(path: string, userId?: string): Promise<Answer> {
  const response = await fetch(`${appUrl}${path}`, { headers: userId === undefined ? {} : { 'x-user-id': userId }, signal: AbortSignal.timeout(10_000) });
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, body: await response.json() };
}

const refusal = (statusCode: number, error: string, message: string): Answer => ({ status: statusCode, body: { statusCode, error, message } });

/**
 * Rewrites `file` of the installed project's definitions with `edit` (which must change it), compiles it again
 * (`npm run build`), and waits, at most 30 s, until the service — which follows generated/policy.json — serves it.
 */
async function recompile(file: string, edit: (text: string) => string): Promise<void> {
  const path = join(dir, 'definitions', file);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(path, after);
  ok(run(NPM, ['run', 'build'], dir), 'npm run build');
  const next = (JSON.parse(readFileSync(join(dir, 'generated', 'policy.json'), 'utf8')) as { version: string }).version;
  const active = () => service?.lines.some((line) => line.startsWith(`typed-permissions service: policy ${next} active`));
  for (const deadline = Date.now() + 30_000; !active() && Date.now() < deadline;) await sleep(50);
  expect(active()).toBe(true);
}

/** A curl command of the guide that asks the project's service: its route, and the body it sends (none for a GET). */
function curlRequest(code: string): { route: string; body: string | undefined } | undefined {
  const route = /curl -s localhost:3100(\/v1\/(?:check|slice|policy))\b/.exec(code)?.[1];
  return route === undefined ? undefined : { route, body: /-d '([^']*)'/.exec(code)?.[1] };
}

beforeAll(async () => {
  dir = await installExample('decision-service');
  // The guide's step: openssl rand -hex 32 > decision-tokens.
  writeFileSync(join(dir, 'decision-tokens'), `${randomBytes(32).toString('hex')}\n`);
  ok(run(NPM, ['run', 'build'], dir), 'npm run build');
  version = (JSON.parse(readFileSync(join(dir, 'generated', 'policy.json'), 'utf8')) as { version: string }).version;
  service = await startExample(dir, [NPM, 'start'], { ready: LISTENING, env: { PORT: '0' }, timeoutMs: 60_000 });
  serviceUrl = service.match[1] as string;
  app = await startExample(dir, ['python3', 'client.py'], { ready: LISTENING, env: { APP_PORT: '0', DECISION_SERVICE_URL: serviceUrl }, timeoutMs: 30_000 });
  appUrl = app.match[1] as string;
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await service?.stop();
  removeExample(dir);
}, 30_000);

describe('the decision-service example project', () => {
  it('the owner reads their document: 200, every attribute but the confidential note', async () => {
    expect(await get('/documents/1', '1')).toEqual({ status: 200, body: { id: 1, title: 'Travel policy', text: 'Trains under 700 km.', ownerId: 1 } });
  });

  it('another employee’s document is refused: 403', async () => {
    expect(await get('/documents/2', '1')).toEqual(refusal(403, 'Forbidden', 'read on document is not granted'));
  });

  it('a manager reads any document in full', async () => {
    expect(await get('/documents/2', '3')).toEqual({
      status: 200,
      body: { id: 2, title: 'Team offsite', text: 'Lisbon, 12 to 14 May.', ownerId: 2, confidential: 'Budget: 9,000 EUR.' },
    });
  });

  it('an unknown user is 401, and so is an x-user-id that is not an id', async () => {
    for (const userId of ['9', 'abc', '01', ''])
      expect(await get('/documents/1', userId)).toEqual(refusal(401, 'Unauthorized', 'x-user-id must be the id of a user.'));
  });

  it('a malformed document id is 400, before the service is asked', async () => {
    expect(await get('/documents/abc', '1')).toEqual(refusal(400, 'Bad Request', '"abc" is not a document id: ids are whole numbers.'));
    expect(await get('/documents/01', '3')).toEqual(refusal(400, 'Bad Request', '"01" is not a document id: ids are whole numbers.'));
  });

  it('a document that does not exist: 404 to a manager, 403 to an employee (who owns no such document)', async () => {
    expect(await get('/documents/99', '3')).toEqual(refusal(404, 'Not Found', 'No document 99.'));
    expect(await get('/documents/99', '1')).toEqual(refusal(403, 'Forbidden', 'read on document is not granted'));
  });

  it('lists every document with the attributes each caller may see; a visitor sees titles and reads nothing', async () => {
    const titles = [
      { id: 1, title: 'Travel policy' },
      { id: 2, title: 'Team offsite' },
      { id: 3, title: 'Onboarding' },
    ];
    expect(await get('/documents')).toEqual({ status: 200, body: titles });
    expect(await get('/documents', '1')).toEqual({ status: 200, body: titles.map((row, i) => ({ ...row, ownerId: [1, 2, 1][i] })) });
    expect(await get('/documents/1')).toEqual(refusal(403, 'Forbidden', 'read on document is not granted'));
  });

  it('check.sh prints exactly the answers the guide shows: final with the records, naming the rule without one', () => {
    const printed = ok(run('env', [`DECISION_SERVICE_URL=${serviceUrl}`, 'sh', 'check.sh'], dir), 'sh check.sh');
    const ownership = `"ownership":[{"group":0,"attributes":["*","!confidential"],"rule":"documentOwner"}],"policyVersion":"${version}"}`;
    const granted =
      '"granted":true,"anyGranted":false,"ownGranted":true,"needsOwnership":false,"reason":"granted-own",' +
      '"anyAttributes":[],"attributes":["*","!confidential"]';
    const refused = `"granted":false,"anyGranted":false,"ownGranted":false,"needsOwnership":false,"reason":"not-owner","anyAttributes":[],"attributes":[]`;
    const needsOwnership = `"granted":false,"anyGranted":false,"ownGranted":false,"needsOwnership":true,"reason":null,"anyAttributes":[],"attributes":[]`;
    expect(printed).toBe(`{"answers":[{${granted},${ownership},{${refused},${ownership}]}\n{"answers":[{${needsOwnership},${ownership}]}\n`);
    const blocks = docBlocks(repoRoot, 'docs/decision-service.md');
    const quote = blocks.findIndex((block) => block.example === 'examples/decision-service/check.sh');
    expect(quote).toBeGreaterThanOrEqual(0);
    // The output the guide shows after the quote of check.sh (and the command that runs it).
    expect(blocks.slice(quote + 1).find((block) => block.lang === 'text')?.code).toBe(shownOutput(printed));
  });

  it('the guide’s requests to the service get exactly the answers it shows', async () => {
    const token = readFileSync(join(dir, 'decision-tokens'), 'utf8').trim();
    const blocks = docBlocks(repoRoot, 'docs/decision-service.md');
    const asked: string[] = [];
    for (const [index, block] of blocks.entries()) {
      const request = block.lang === 'sh' ? curlRequest(block.code) : undefined;
      if (request === undefined) continue;
      asked.push(request.route);
      const body = request.body?.replaceAll('<version>', version);
      const response = await fetch(`${serviceUrl}${request.route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(10_000),
      });
      const shown = blocks[index + 1];
      expect({ route: request.route, status: response.status, body: await response.json() }).toEqual({
        route: request.route,
        status: 200,
        body: JSON.parse((shown?.lang === 'json' ? shown.code : '').replaceAll('<version>', version)) as unknown,
      });
    }
    expect(asked).toEqual(['/v1/check', '/v1/check', '/v1/check', '/v1/slice', '/v1/policy']);
  });

  it('the service printed where it listens and nothing else: no warning about the visitor’s role', () => {
    expect(service?.lines.filter((line) => !NPM_LINE.test(line))).toEqual([
      `typed-permissions service: policy ${version} active (was none), from file ${join(dir, 'generated', 'policy.json')}.`,
      `typed-permissions serve: listening on ${serviceUrl} (policy ${version})`,
    ]);
  });

  it('a rule that comes to read an attribute the app does not send: the service refuses, the app answers 503 and logs why', async () => {
    await recompile('document.resource.json', (text) => text.replace('"attribute": "ownerId"', '"attribute": "title"'));
    expect(await get('/documents/1', '1')).toEqual(refusal(503, 'Service Unavailable', 'The permissions service could not answer; try again later.'));
    // The problem's detail as the app logs it: the service's JSON, quotes escaped.
    const detail = JSON.stringify(
      'checks[0], rule "documentOwner": A document record has no attribute "title", which an ownership rule reads. ' +
        'Load it with the record (null when it has no value).',
    ).slice(1, -1);
    const logged = () => app?.lines.find((line) => line.startsWith('the decision service refused: '));
    for (const deadline = Date.now() + 5_000; logged() === undefined && Date.now() < deadline;) await sleep(50);
    expect(logged()).toBe(
      `the decision service refused: 400 {"type":"urn:typed-permissions:problem:invalid-request","title":"Invalid request","status":400,"detail":"${detail}"}`,
    );
    // A manager's answer has no rule group, so nothing reads the record: still granted.
    expect(await get('/documents/2', '3')).toMatchObject({ status: 200, body: { id: 2, confidential: 'Budget: 9,000 EUR.' } });
    await recompile('document.resource.json', (text) => text.replace('"attribute": "title"', '"attribute": "ownerId"'));
  }, 120_000);

  it('a policy that names an ownership method: the app, which runs none, answers 500 rather than guess', async () => {
    await recompile('document.permissions.json', (text) => text.replace('"owner": "documentOwner"', '"listOwned": "documentsOwnedBy"'));
    expect(await get('/documents/1', '1')).toEqual(
      refusal(500, 'Internal Server Error', 'The policy names an ownership method; this app declares ownership by a rule only.'),
    );
    expect(await get('/documents/2', '3')).toMatchObject({ status: 200, body: { id: 2, confidential: 'Budget: 9,000 EUR.' } });
  }, 120_000);

  it('with the service stopped, the app grants nothing: 503', async () => {
    await service?.stop();
    expect(await get('/documents/1', '1')).toEqual(refusal(503, 'Service Unavailable', 'The permissions service could not answer; try again later.'));
    // The app logs why (to stderr, which may arrive a moment after its answer).
    const logged = () => app?.lines.find((line) => line.startsWith('the decision service could not answer: '));
    for (const deadline = Date.now() + 5_000; logged() === undefined && Date.now() < deadline;) await sleep(50);
    expect(logged()).toMatch(/^the decision service could not answer: <urlopen error \[Errno 111\] Connection refused>$/);
  });
});
