/**
 * examples/ownership-rules, the project docs/ownership-rules.md ends with: documents in an embedded PostgreSQL,
 * ownership declared as three rules and no ownership method written, list pages whose query carries the rules'
 * filter. Installed from the packed tarballs, built with TypeScript 7, started with `npm start`, asked over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installExample, removeExample, type RunningExample } from './example-project.js';
import { applicationOutput, buildAndStart, getJson, installDifferences, shownTranscriptDifferences } from './server-example.js';

const document = (id: number) => ({ id, title: `Document ${id}`, content: `The text of document ${id}.`, creatorId: [1, 2, 5][(id - 1) % 3] });
/** Every definition grants as own only: a document the rules do not give the caller (or one that does not exist) is 'not-owner'. */
const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };

describe('examples/ownership-rules, installed from the packed tarballs, built and started', () => {
  let dir: string | undefined;
  let app: RunningExample | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    dir = await installExample('ownership-rules');
    ({ app, baseUrl } = await buildAndStart(dir));
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
    removeExample(dir);
  }, 30_000);

  it('each rule decides one document: the creator, the creator or a managed user, the creator’s company', async () => {
    expect(await getJson(baseUrl, '/documents/1', 'alice-token')).toEqual({ status: 200, body: document(1) });
    expect(await getJson(baseUrl, '/documents/2', 'alice-token')).toEqual({ status: 403, body: FORBIDDEN });
    // Carol manages Alice: her documents are Carol's; Bob's are not.
    expect(await getJson(baseUrl, '/documents/4', 'carol-token')).toEqual({ status: 200, body: document(4) });
    expect(await getJson(baseUrl, '/documents/5', 'carol-token')).toEqual({ status: 403, body: FORBIDDEN });
    // Dan is the admin of company 2, Erin's: her documents (3, 6, 9) are his, through the relation to their creator.
    expect(await getJson(baseUrl, '/documents/6', 'dan-token')).toEqual({ status: 200, body: document(6) });
    expect(await getJson(baseUrl, '/documents/7', 'dan-token')).toEqual({ status: 403, body: FORBIDDEN });
    // A document that does not exist is refused as one that is not owned.
    expect(await getJson(baseUrl, '/documents/99', 'dan-token')).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('pages: the rules filter the query, the cursor walks on, every page picks what each document shows', async () => {
    expect(await getJson(baseUrl, '/documents', 'carol-token')).toEqual({ status: 200, body: { documents: [1, 4, 7].map(document), next: null } });
    expect(await getJson(baseUrl, '/documents?limit=2', 'dan-token')).toEqual({ status: 200, body: { documents: [3, 6].map(document), next: 6 } });
    expect(await getJson(baseUrl, '/documents?limit=2&after=6', 'dan-token')).toEqual({ status: 200, body: { documents: [document(9)], next: null } });
    // Alice lists every document (list:any), her own in full, the others by id and title.
    expect(await getJson(baseUrl, '/documents?limit=4', 'alice-token')).toEqual({
      status: 200,
      body: { documents: [document(1), { id: 2, title: 'Document 2' }, { id: 3, title: 'Document 3' }, document(4)], next: 4 },
    });
  });

  it('refuses what is not a page or a user: 400 and 401', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=-1', 'after=1e3'])
      expect(await getJson(baseUrl, `/documents?${query}`, 'alice-token')).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: query.startsWith('limit') ? 'limit must be a whole number from 1 to 100.' : 'after must be a whole number from 0 to 999999999.',
        },
      });
    const unknown = { statusCode: 401, error: 'Unauthorized', message: 'Unknown token.' };
    expect(await getJson(baseUrl, '/documents', 'mallory-token')).toEqual({ status: 401, body: unknown });
  });

  it('the console blocks of docs/ownership-rules.md and of the example’s README print what the server answers', () => {
    for (const shown of ['docs/ownership-rules.md', 'examples/ownership-rules/README.md']) {
      const { commands, differences } = shownTranscriptDifferences(shown, baseUrl);
      expect({ shown, differences }).toEqual({ shown, differences: [] });
      expect(commands).toBeGreaterThanOrEqual(4);
    }
  });

  it('printed nothing but where it listens', async () => {
    await app?.stop();
    expect(applicationOutput(app?.lines ?? [])).toEqual([`listening on ${baseUrl}`]);
  });
});

describe('docs/ownership-rules.md installs what examples/ownership-rules depends on', () => {
  it('every package, at the versions this repository tests', () => {
    expect(installDifferences('ownership-rules', 'docs/ownership-rules.md')).toEqual([]);
  });
});
