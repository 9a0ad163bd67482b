/**
 * examples/nestjs, the project docs/nestjs.md ends with, as a user gets it: copied out of the repository, installed
 * from the packed tarballs with TypeScript 7 (what `npm install typescript` gives), built, started with `npm start`,
 * and asked over HTTP: the owner reads (200), another employee is refused (403), an unknown token is 401, a malformed
 * id 400 from the library's id check, the anonymous placeholder user lists titles without an "unknown role" warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installExample, removeExample, type RunningExample } from './example-project.js';
import { applicationOutput, buildAndStart, getJson, installDifferences, shownTranscriptDifferences } from './server-example.js';

const TRAVEL_POLICY = { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1 };
const TEAM_OFFSITE = { id: 2, title: 'Team offsite', content: 'The offsite moves to May.', authorId: 2 };
const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted' };

describe('examples/nestjs, installed from the packed tarballs, built and started', () => {
  let dir: string | undefined;
  let app: RunningExample | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    dir = await installExample('nestjs');
    ({ app, baseUrl } = await buildAndStart(dir));
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
    removeExample(dir);
  }, 30_000);

  it('is built by TypeScript 7, legacy decorators and their metadata included', () => {
    const { version } = JSON.parse(readFileSync(join(dir as string, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^7\./);
  });

  it('the author reads their document: 200, in full', async () => {
    expect(await getJson(baseUrl, '/documents/1', 'alice-token')).toEqual({ status: 200, body: TRAVEL_POLICY });
    expect(await getJson(baseUrl, '/documents/2', 'bob-token')).toEqual({ status: 200, body: TEAM_OFFSITE });
  });

  it('another employee: 403, and a document nobody wrote is refused the same way', async () => {
    expect(await getJson(baseUrl, '/documents/1', 'bob-token')).toEqual({ status: 403, body: FORBIDDEN });
    expect(await getJson(baseUrl, '/documents/99', 'alice-token')).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('an unknown token: 401', async () => {
    const unauthorized = { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown token.' } };
    expect(await getJson(baseUrl, '/documents/1', 'mallory-token')).toEqual(unauthorized);
    expect(await getJson(baseUrl, '/documents', '')).toEqual(unauthorized); // 'Bearer ' with no token
  });

  it('a malformed id: 400 from the id check of the document resource ("idType": "number")', async () => {
    for (const id of ['abc', '01', '1e1', '-0']) {
      expect(await getJson(baseUrl, `/documents/${id}`, 'alice-token')).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: `"${id}" is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).`,
        },
      });
    }
  });

  it('a list: the documents the employee wrote in full, the others by id and title', async () => {
    expect(await getJson(baseUrl, '/documents', 'alice-token')).toEqual({ status: 200, body: [TRAVEL_POLICY, { id: 2, title: 'Team offsite' }] });
  });

  it('anonymous: lists the titles, reads no document', async () => {
    expect(await getJson(baseUrl, '/documents')).toEqual({
      status: 200,
      body: [
        { id: 1, title: 'Travel policy' },
        { id: 2, title: 'Team offsite' },
      ],
    });
    expect(await getJson(baseUrl, '/documents/1')).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('the console blocks of docs/nestjs.md and of its README print what the server answers', () => {
    for (const document of ['docs/nestjs.md', 'examples/nestjs/README.md']) {
      const { commands, differences } = shownTranscriptDifferences(document, baseUrl);
      expect({ document, differences }).toEqual({ document, differences: [] });
      expect(commands).toBeGreaterThanOrEqual(5);
    }
  });

  it('printed nothing but where it listens: no "unknown role" warning for the anonymous user, no other warning', async () => {
    await app?.stop(); // every line it printed is read
    expect(applicationOutput(app?.lines ?? [])).toEqual([`listening on ${baseUrl}`]);
  });
});

describe('docs/nestjs.md installs what examples/nestjs depends on', () => {
  it('every package, at the major versions the project has, which are those this repository tests', () => {
    expect(installDifferences('nestjs', 'docs/nestjs.md')).toEqual([]);
  });
});
