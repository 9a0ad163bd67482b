/**
 * What the REST examples (examples/nestjs, examples/express, examples/fastify and examples/hono) must all do — the same API over the
 * same in-memory documents, so the same answers — checked on each as a user gets it: copied out of the repository,
 * installed from the packed tarballs, built, started with `npm start`, and asked over HTTP.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installExample, removeExample, type RunningExample } from './example-project.js';
import { applicationOutput, buildAndStart, getJson, installDifferences, notADocumentId, shownTranscriptDifferences } from './server-example.js';

const TRAVEL_POLICY = { id: 1, title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: 1 };
const TEAM_OFFSITE = { id: 2, title: 'Team offsite', content: 'The offsite moves to May.', authorId: 2 };
/** An employee reads own documents only: someone else's, or one that does not exist, is 'not-owner'. */
const NOT_OWNED = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };
/** The anonymous visitor lists documents and reads none: 'no-grant'. */
const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'no-grant' };
const UNAUTHORIZED = { statusCode: 401, error: 'Unauthorized', message: 'Unknown token.' };

/** Which example, the guide that ends with it, and the TypeScript major it is built with. */
export interface RestExample {
  /** The folder under examples/. */
  readonly name: string;
  /** The guide, relative to the repository. */
  readonly guide: string;
  readonly typescriptMajor: number;
}

/**
 * Declares the tests of one REST example (call it at the top level of its test file).
 *
 * @example
 * ```ts
 * describeRestExample({ name: 'express', guide: 'docs/express.md', typescriptMajor: 7 });
 * ```
 */
export function describeRestExample({ name, guide, typescriptMajor }: RestExample): void {
  describe(`examples/${name}, installed from the packed tarballs, built and started`, () => {
    let dir: string | undefined;
    let app: RunningExample | undefined;
    let baseUrl = '';

    beforeAll(async () => {
      dir = await installExample(name);
      ({ app, baseUrl } = await buildAndStart(dir));
    }, 600_000);

    afterAll(async () => {
      await app?.stop();
      removeExample(dir);
    }, 30_000);

    it(`is built by TypeScript ${typescriptMajor}`, () => {
      const { version } = JSON.parse(readFileSync(join(dir as string, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string };
      expect(version.split('.')[0]).toBe(String(typescriptMajor));
    });

    it('the author reads their document: 200, in full', async () => {
      expect(await getJson(baseUrl, '/documents/1', 'alice-token')).toEqual({ status: 200, body: TRAVEL_POLICY });
      expect(await getJson(baseUrl, '/documents/2', 'bob-token')).toEqual({ status: 200, body: TEAM_OFFSITE });
    });

    it('another employee: 403, and a document nobody wrote is refused the same way', async () => {
      expect(await getJson(baseUrl, '/documents/1', 'bob-token')).toEqual({ status: 403, body: NOT_OWNED });
      expect(await getJson(baseUrl, '/documents/99', 'alice-token')).toEqual({ status: 403, body: NOT_OWNED });
    });

    it('an unknown token: 401', async () => {
      expect(await getJson(baseUrl, '/documents/1', 'mallory-token')).toEqual({ status: 401, body: UNAUTHORIZED });
      expect(await getJson(baseUrl, '/documents', '')).toEqual({ status: 401, body: UNAUTHORIZED }); // 'Bearer ' and no token
    });

    it('a malformed id: 400 from the id check of the document resource ("idType": "number")', async () => {
      for (const id of ['abc', '01', '1e1', '-0']) {
        const body = { statusCode: 400, error: 'Bad Request', message: notADocumentId(id) };
        expect(await getJson(baseUrl, `/documents/${id}`, 'alice-token')).toEqual({ status: 400, body });
      }
    });

    it('a list: the documents the employee wrote in full, the others by id and title', async () => {
      expect(await getJson(baseUrl, '/documents', 'alice-token')).toEqual({ status: 200, body: [TRAVEL_POLICY, { id: 2, title: 'Team offsite' }] });
    });

    it('anonymous: lists the titles, reads no document', async () => {
      const titles = [
        { id: 1, title: 'Travel policy' },
        { id: 2, title: 'Team offsite' },
      ];
      expect(await getJson(baseUrl, '/documents')).toEqual({ status: 200, body: titles });
      expect(await getJson(baseUrl, '/documents/1')).toEqual({ status: 403, body: FORBIDDEN });
    });

    it(`the console blocks of ${guide} and of the example's README print what the server answers`, () => {
      for (const document of [guide, `examples/${name}/README.md`]) {
        const { commands, differences } = shownTranscriptDifferences(document, baseUrl);
        expect({ document, differences }).toEqual({ document, differences: [] });
        expect(commands).toBeGreaterThanOrEqual(7);
      }
    });

    it('printed nothing but where it listens: no "unknown role" warning for the anonymous user, no other warning', async () => {
      await app?.stop(); // every line it printed is read
      expect(applicationOutput(app?.lines ?? [])).toEqual([`listening on ${baseUrl}`]);
    });
  });

  describe(`${guide} installs what examples/${name} depends on`, () => {
    it('every package, at the major versions the project has, which are those this repository tests', () => {
      expect(installDifferences(name, guide)).toEqual([]);
    });
  });
}
