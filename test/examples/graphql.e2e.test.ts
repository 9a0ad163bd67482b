/**
 * examples/graphql, the project docs/graphql.md ends with, as a user gets it: copied out of the repository, installed
 * from the packed tarballs with TypeScript 6 (`@nestjs/graphql` 14 refuses 7), built, started with `npm start`, and
 * asked over GraphQL. The REST examples' four outcomes, as GraphQL errors: the owner reads, another employee is
 * FORBIDDEN, an unknown token UNAUTHENTICATED, a malformed id BAD_USER_INPUT from the library's id check; the
 * anonymous placeholder user lists titles without an "unknown role" warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installExample, removeExample, type RunningExample } from './example-project.js';
import { applicationOutput, buildAndStart, installDifferences, notADocumentId, postGraphQL, shownTranscriptDifferences } from './server-example.js';

const DOCUMENT_1 = '{ document(id: 1) { id title content authorId } }';
const DOCUMENTS = '{ documents { id title content authorId } }';
const TRAVEL_POLICY = { id: '1', title: 'Travel policy', content: 'Take the train for trips under 500 km.', authorId: '1' };

/** The answer to a query whose one root field `document` failed with `message` and `code` (column 3 of line 1). */
function refusedDocument(message: string, code: string, reason?: 'no-grant' | 'not-owner') {
  const extensions = reason === undefined ? { code } : { code, reason };
  return {
    status: 200,
    body: { errors: [{ message, locations: [{ line: 1, column: 3 }], path: ['document'], extensions }], data: { document: null } },
  };
}

describe('examples/graphql, installed from the packed tarballs, built and started', () => {
  let dir: string | undefined;
  let app: RunningExample | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    dir = await installExample('graphql');
    ({ app, baseUrl } = await buildAndStart(dir));
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
    removeExample(dir);
  }, 30_000);

  it('is built by TypeScript 6, the newest @nestjs/graphql 14 accepts', () => {
    const { version } = JSON.parse(readFileSync(join(dir as string, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^6\./);
  });

  it('the author reads their document, in full', async () => {
    expect(await postGraphQL(baseUrl, DOCUMENT_1, 'alice-token')).toEqual({ status: 200, body: { data: { document: TRAVEL_POLICY } } });
  });

  it('another employee: FORBIDDEN, and a document nobody wrote is refused the same way', async () => {
    const forbidden = refusedDocument('read on document is not granted', 'FORBIDDEN', 'not-owner');
    expect(await postGraphQL(baseUrl, DOCUMENT_1, 'bob-token')).toEqual(forbidden);
    expect(await postGraphQL(baseUrl, '{ document(id: 99) { title } }', 'alice-token')).toEqual(forbidden);
  });

  it('an unknown token: UNAUTHENTICATED', async () => {
    expect(await postGraphQL(baseUrl, DOCUMENT_1, 'mallory-token')).toEqual(refusedDocument('Unknown token.', 'UNAUTHENTICATED'));
  });

  it('a malformed id: BAD_USER_INPUT from the id check of the document resource ("idType": "number")', async () => {
    for (const id of ['abc', '01', '1e1', '-0']) {
      expect(await postGraphQL(baseUrl, `{ document(id: "${id}") { title } }`, 'alice-token')).toEqual(refusedDocument(notADocumentId(id), 'BAD_USER_INPUT'));
    }
  });

  it('an id literal GraphQL itself refuses: BAD_USER_INPUT too, with HTTP 400, before anything runs', async () => {
    expect(await postGraphQL(baseUrl, '{ document(id: 1.5) { title } }', 'alice-token')).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: 'ID cannot represent a non-string and non-integer value: 1.5',
            locations: [{ line: 1, column: 16 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      },
    });
  });

  it('a list: the documents the employee wrote in full, the others by id and title (the hidden fields are null)', async () => {
    expect(await postGraphQL(baseUrl, DOCUMENTS, 'alice-token')).toEqual({
      status: 200,
      body: { data: { documents: [TRAVEL_POLICY, { id: '2', title: 'Team offsite', content: null, authorId: null }] } },
    });
  });

  it('anonymous: lists the titles, reads no document', async () => {
    expect(await postGraphQL(baseUrl, DOCUMENTS)).toEqual({
      status: 200,
      body: {
        data: {
          documents: [
            { id: '1', title: 'Travel policy', content: null, authorId: null },
            { id: '2', title: 'Team offsite', content: null, authorId: null },
          ],
        },
      },
    });
    expect(await postGraphQL(baseUrl, DOCUMENT_1)).toEqual(refusedDocument('read on document is not granted', 'FORBIDDEN', 'no-grant'));
  });

  it('the console blocks of docs/graphql.md and of the example’s README print what the server answers', () => {
    for (const document of ['docs/graphql.md', 'examples/graphql/README.md']) {
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

describe('docs/graphql.md installs what examples/graphql depends on', () => {
  it('every package, at the major versions the project has (typescript@6), which are those this repository tests', () => {
    expect(installDifferences('graphql', 'docs/graphql.md')).toEqual([]);
  });
});
