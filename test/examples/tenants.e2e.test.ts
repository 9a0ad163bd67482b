/**
 * examples/tenants, the project docs/tenants.md ends with, as a user gets it: copied out, installed from the packed
 * tarballs, built with TypeScript 7, started, and asked over HTTP. Each company is a tenant; a user's roles are the
 * ones they hold in the company the request names. Before `npx typed-permissions tenant publish acme
 * auditor.roles.json …` the AUDITOR role grants nothing anywhere; after it, in acme only, without a restart. The
 * console blocks of the guide and of the README that need the running project are run against it after the publish.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installExample, removeExample, type RunningExample } from './example-project.js';
import { applicationOutput, buildAndStart, installDifferences, shownTranscriptDifferences, type Answer } from './server-example.js';

const NAME = 'tenants';
const GUIDE = 'docs/tenants.md';
const TRAVEL_POLICY = { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1, tenantId: 'acme' };
const BUDGET = { id: 2, title: 'Budget 2027', content: 'Travel costs fall by a tenth.', authorId: 1, tenantId: 'acme' };
const ROADMAP = { id: 3, title: 'Roadmap', content: 'The new plant opens in March.', authorId: 3, tenantId: 'globex' };
/** A read refused because the document is not the caller's (or not of the tenant asked in): the roles read own documents only. */
const READ_NOT_OWNED = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };
/** A refusal of a role the tenant does not define: the caller is told 'no-grant', not which role is unknown. */
const READ_FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'no-grant' };
const LIST_FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' };

/** GET `path` as `token`'s person asking in `tenant`, bounded to 10 s. */
async function ask(baseUrl: string, path: string, token: string, tenant?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(tenant === undefined ? {} : { 'x-tenant': tenant }) };
  const response = await fetch(`${baseUrl}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
}

/** Runs `npx typed-permissions …` in the project, as its README says, bounded to 60 s; its exit code and everything it printed. */
async function npx(dir: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn('npx', ['--no', 'typed-permissions', ...args], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { status, output };
}

describe('examples/tenants, installed from the packed tarballs, built and started', () => {
  let dir: string | undefined;
  let app: RunningExample | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    dir = await installExample(NAME);
    ({ app, baseUrl } = await buildAndStart(dir));
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
    removeExample(dir);
  }, 30_000);

  it('is built by TypeScript 7', () => {
    const { version } = JSON.parse(readFileSync(join(dir as string, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string };
    expect(version.split('.')[0]).toBe('7');
  });

  it('asks in the tenant the request names: the roles held there, the records of that tenant only', async () => {
    // alice is an EMPLOYEE of acme: her documents of acme in full; globex's Roadmap is no record of acme.
    expect(await ask(baseUrl, '/documents/1', 'alice-token', 'acme')).toEqual({ status: 200, body: TRAVEL_POLICY });
    expect(await ask(baseUrl, '/documents', 'alice-token', 'acme')).toEqual({ status: 200, body: [TRAVEL_POLICY, BUDGET] });
    expect(await ask(baseUrl, '/documents/3', 'alice-token', 'acme')).toEqual({ status: 403, body: READ_NOT_OWNED });
    // carol is a MANAGER of globex: every document of globex, none of acme's.
    expect(await ask(baseUrl, '/documents', 'carol-token', 'globex')).toEqual({ status: 200, body: [ROADMAP] });
    expect(await ask(baseUrl, '/documents/1', 'carol-token', 'globex')).toEqual({ status: 403, body: READ_NOT_OWNED });
  });

  it('refuses a company the person is no member of (403), no tenant (400), a tenant that is no tenant id (400), an unknown token (401)', async () => {
    expect(await ask(baseUrl, '/documents/3', 'carol-token', 'acme')).toEqual({
      status: 403,
      body: { statusCode: 403, error: 'Forbidden', message: 'You are no member of "acme".' },
    });
    expect(await ask(baseUrl, '/documents/1', 'alice-token')).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'The x-tenant header must name the company you ask in.' },
    });
    expect(await ask(baseUrl, '/documents/1', 'mallory-token', 'acme')).toEqual({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown token.' },
    });
  });

  it('AUDITOR grants nothing until acme publishes it; then in acme only, without a restart', async () => {
    const project = dir as string;
    // Before: no company defines AUDITOR, a role the compiled policy does not know.
    expect(await ask(baseUrl, '/documents/1', 'bob-token', 'acme')).toEqual({ status: 403, body: READ_FORBIDDEN });
    expect(await ask(baseUrl, '/documents', 'alice-token', 'globex')).toEqual({ status: 403, body: LIST_FORBIDDEN });

    expect(await npx(project, 'tenant', 'publish', 'acme', 'auditor.roles.json', '--store', 'tenant-roles', '--policy', 'generated/policy.json')).toEqual({
      status: 0,
      output: 'typed-permissions: published the custom roles of tenant "acme" from auditor.roles.json as #1 to folder tenant-roles.\n',
    });

    // The project polls its store every 200 ms: ask every 50 ms for at most 10 s.
    const deadline = Date.now() + 10_000;
    let read = await ask(baseUrl, '/documents/1', 'bob-token', 'acme');
    while (read.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      read = await ask(baseUrl, '/documents/1', 'bob-token', 'acme');
    }
    expect(read).toEqual({ status: 200, body: { id: 1, title: 'Travel policy', authorId: 1 } });
    expect(await ask(baseUrl, '/documents', 'bob-token', 'acme')).toEqual({
      status: 200,
      body: [
        { id: 1, title: 'Travel policy', authorId: 1 },
        { id: 2, title: 'Budget 2027', authorId: 1 },
      ],
    });
    // alice is an AUDITOR of globex: globex defines no such role, so she still gets nothing there.
    expect(await ask(baseUrl, '/documents', 'alice-token', 'globex')).toEqual({ status: 403, body: LIST_FORBIDDEN });
    expect(await ask(baseUrl, '/documents/3', 'alice-token', 'globex')).toEqual({ status: 403, body: READ_FORBIDDEN });

    // What the guide and the README show, once acme has its auditors.
    for (const document of [GUIDE, `examples/${NAME}/README.md`]) {
      const { commands, differences } = shownTranscriptDifferences(document, baseUrl);
      expect({ document, differences }).toEqual({ document, differences: [] });
      expect(commands).toBeGreaterThanOrEqual(4);
    }
  }, 120_000);

  it('printed where it listens, and the one warning about AUDITOR while no tenant defined it', async () => {
    await app?.stop(); // every line it printed is read
    expect(applicationOutput(app?.lines ?? [])).toEqual([
      `listening on ${baseUrl}`,
      'typed-permissions: unknown role "AUDITOR": no definition names it; it is ignored.',
    ]);
  });
});

describe(`${GUIDE} installs what examples/${NAME} depends on`, () => {
  it('every package, at the major versions the project has, which are those this repository tests', () => {
    expect(installDifferences(NAME, GUIDE)).toEqual([]);
  });
});
