/**
 * The server examples (examples/nestjs, examples/express, examples/fastify, examples/graphql) as their guides present them: built and
 * started the way their README says, asked over HTTP, and compared with what the guide shows — its `console`
 * blocks that need the running server, and its install lines against the project's package.json.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';
import { consoleSteps, docBlocks, shownOutput } from '../docs/doc-blocks.js';
import { NPM, ok, run } from '../package/throwaway-project.js';
import { startExample, type RunningExample } from './example-project.js';

/** The one line a server example prints when it is ready, with its address. */
export const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/;

/** Where the guides and READMEs show the server (the default `PORT`). */
const SHOWN_BASE_URL = 'http://127.0.0.1:3000';

/** A started server example. */
export interface StartedServer {
  readonly app: RunningExample;
  /** `http://127.0.0.1:<port>`, as it printed. */
  readonly baseUrl: string;
}

/**
 * Runs `npm run build` in an installed example (compile the definitions, then `tsc`), then `npm start` on a free
 * port (`PORT=0`), and waits at most 60 s for the line saying where it listens.
 *
 * @example
 * ```ts
 * const { app, baseUrl } = await buildAndStart(await installExample('express'));
 * ```
 */
export async function buildAndStart(dir: string): Promise<StartedServer> {
  ok(run(NPM, ['run', 'build'], dir), 'npm run build');
  const app = await startExample(dir, [NPM, 'start'], { ready: LISTENING, env: { PORT: '0' }, timeoutMs: 60_000 });
  return { app, baseUrl: app.match[1] as string };
}

/**
 * What the application printed, without npm's lines around it (`> name@version start`, `> node …`, blank lines).
 *
 * @example
 * ```ts
 * applicationOutput(app.lines); // ['listening on http://127.0.0.1:40123']
 * ```
 */
export function applicationOutput(lines: readonly string[]): string[] {
  return lines.filter((line) => line.trim() !== '' && !line.startsWith('> '));
}

/** An answer: the status and the parsed JSON body. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * GET `path` with a bearer token (none: anonymous), bounded to 10 s.
 *
 * @example
 * ```ts
 * await getJson(baseUrl, '/documents/1', 'alice-token'); // { status: 200, body: { id: 1, … } }
 * ```
 */
export async function getJson(baseUrl: string, path: string, token?: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * POSTs a GraphQL query to `/graphql` with a bearer token (none: anonymous), bounded to 10 s.
 *
 * @example
 * ```ts
 * await postGraphQL(baseUrl, '{ documents { title } }'); // { status: 200, body: { data: { documents: […] } } }
 * ```
 */
export async function postGraphQL(baseUrl: string, query: string, token?: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Runs every `$ ` command of the `console` blocks of `document` (relative to the repository) whose first line is
 * `# needs: …` — those the documentation test leaves to the running example — against `baseUrl` instead of
 * `http://127.0.0.1:3000`, each bounded to 20 s. Returns how many commands ran and each whose output is not what
 * the block shows.
 *
 * @example
 * ```ts
 * expect(shownTranscriptDifferences('docs/express.md', baseUrl).differences).toEqual([]);
 * ```
 */
export function shownTranscriptDifferences(document: string, baseUrl: string): { readonly commands: number; readonly differences: string[] } {
  const differences: string[] = [];
  let commands = 0;
  for (const block of docBlocks(repoRoot, document).filter((candidate) => candidate.lang === 'console' && /^# needs: /.test(candidate.code))) {
    for (const step of consoleSteps(block.code)) {
      commands += 1;
      const command = step.command.replaceAll(SHOWN_BASE_URL, baseUrl);
      const result = spawnSync('bash', ['-c', command], { encoding: 'utf8', timeout: 20_000 });
      const printed = shownOutput(`${result.stdout}${result.stderr}`);
      if (printed !== step.output) differences.push(`${document}:${block.line} $ ${step.command}\n--- shown\n${step.output}\n--- printed\n${printed}`);
    }
  }
  return { commands, differences };
}

/** A package.json, as far as it is compared here. */
interface Manifest {
  readonly type?: string;
  readonly scripts?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** The packages a document's `npm install` lines name, by where they go, with the version each line gives ('' for none). */
interface GuideInstalls {
  readonly dependencies: Map<string, string>;
  readonly devDependencies: Map<string, string>;
}

/** The `npm install` lines of the `sh` blocks of `document`: which packages they add, and at which version. */
function guideInstalls(document: string): GuideInstalls {
  const installs: GuideInstalls = { dependencies: new Map(), devDependencies: new Map() };
  for (const block of docBlocks(repoRoot, document).filter((candidate) => candidate.lang === 'sh')) {
    for (const line of block.code.split('\n').filter((candidate) => candidate.startsWith('npm install '))) {
      const words = line.split(/\s+/).slice(2);
      const into = words.includes('--save-dev') || words.includes('-D') ? installs.devDependencies : installs.dependencies;
      for (const word of words.filter((candidate) => !candidate.startsWith('-'))) {
        // '@nestjs/core@12' → '@nestjs/core', '12'; 'rxjs' → 'rxjs', ''. A scope's '@' is not a version's.
        const at = word.indexOf('@', 1);
        into.set(at === -1 ? word : word.slice(0, at), at === -1 ? '' : word.slice(at + 1));
      }
    }
  }
  return installs;
}

/**
 * How the example project `name` and the install lines of its guide disagree: every package one names, the other
 * must (as a dependency or a dev dependency alike); a major version a line pins (`@nestjs/core@12`,
 * `typescript@6`) must be the project's; and the project depends on our packages at this repository's version and
 * on every other package this repository also uses at the version it tests (TypeScript is the guide's choice).
 *
 * @example
 * ```ts
 * expect(installDifferences('nestjs', 'docs/nestjs.md')).toEqual([]);
 * ```
 */
export function installDifferences(name: string, document: string): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'examples', name, 'package.json'), 'utf8')) as Manifest;
  const tested = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest).devDependencies ?? {};
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'runtime', 'package.json'), 'utf8')) as { version: string };
  const installs = guideInstalls(document);
  const differences: string[] = [];
  for (const group of ['dependencies', 'devDependencies'] as const) {
    const project = manifest[group] ?? {};
    const guide = installs[group];
    for (const dependency of Object.keys(project)) if (!guide.has(dependency)) differences.push(`${document} does not install ${dependency} (${group})`);
    for (const [dependency, pinned] of guide) {
      const range = project[dependency];
      if (range === undefined) differences.push(`${document} installs ${dependency}, which examples/${name} has not in ${group}`);
      else if (pinned !== '' && !new RegExp(`^\\^${pinned}\\.`).test(range))
        differences.push(`${document} installs ${dependency}@${pinned}, examples/${name} ${range}`);
    }
    for (const [dependency, range] of Object.entries(project)) {
      const expected = dependency.startsWith('typed-permissions') ? `^${version}` : dependency === 'typescript' ? range : (tested[dependency] ?? range);
      if (range !== expected) differences.push(`examples/${name} depends on ${dependency} ${range}; this repository tests ${expected}`);
    }
  }
  return differences;
}

/**
 * The library's refusal of `id` as a document id (the examples' `document` resource declares `"idType": "number"`).
 *
 * @example
 * ```ts
 * notADocumentId('abc'); // '"abc" is not an id of "document": its ids are an integer written in decimal …'
 * ```
 */
export function notADocumentId(id: string): string {
  return `"${id}" is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).`;
}
