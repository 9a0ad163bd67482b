/**
 * A client's types, generated from the committed docs/decision-service.openapi.json by openapi-typescript (its
 * command, as a user runs it), have typed operations: a small consumer reads the request and answer types through
 * `paths`, `operations` and `components`, with `Expect<Equal<…>>` proofs and `@ts-expect-error` lines for what
 * must not compile, and `tsc --noEmit` accepts it under TypeScript 6 (this repository's) and TypeScript 7 (installed
 * into a throwaway folder, as a user of the native compiler has it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { NPM, ok, run } from '../package/throwaway-project.js';

/** The consumer: what a client of the service writes against the generated types. */
const CONSUMER = `import type { components, operations, paths } from './decision-service.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
/** The HEAD operations Fastify answers for every GET route, each the GET operation's name with Head. */
type HeadOperations = 'healthHead' | 'readyHead' | 'metricsHead' | 'getPolicyHead' | 'getOpenApiDocumentHead';

type CheckRequest = paths['/v1/check']['post']['requestBody']['content']['application/json'];
type CheckAnswer = operations['check']['responses'][200]['content']['application/json']['answers'][number];

export type Proofs = [
  Expect<Equal<keyof operations, 'health' | 'ready' | 'metrics' | 'check' | 'getSlice' | 'getPolicy' | 'getOpenApiDocument' | HeadOperations>>,
  Expect<Equal<paths['/healthz']['head'], operations['healthHead']>>,
  Expect<Equal<paths['/v1/check']['post'], operations['check']>>,
  Expect<Equal<CheckRequest, components['schemas']['CheckRequest']>>,
  Expect<Equal<CheckRequest['checks'][number], components['schemas']['Check']>>,
  Expect<Equal<components['schemas']['Check']['user'], components['schemas']['User']>>,
  Expect<Equal<components['schemas']['User']['id'], string | number>>,
  Expect<Equal<CheckAnswer, components['schemas']['CheckAnswer']>>,
  Expect<Equal<CheckAnswer['granted'], boolean>>,
  Expect<Equal<CheckAnswer['ownership'][number]['group'], number>>,
  Expect<Equal<operations['check']['responses'][409]['content']['application/problem+json'], components['schemas']['Problem']>>,
  Expect<Equal<components['schemas']['Problem'], { type: string; title: string; status: number; detail: string }>>,
  Expect<Equal<operations['getSlice']['requestBody']['content']['application/json'], components['schemas']['SliceRequest']>>,
  Expect<Equal<operations['getPolicy']['responses'][200]['content']['application/json']['resources'][number]['idType'], 'number' | 'string' | null>>,
  Expect<Equal<operations['ready']['responses'][200]['content']['application/json']['status'], 'ready'>>,
  Expect<Equal<operations['metrics']['responses'][200]['content']['text/plain'], string>>,
  Expect<Equal<operations['getOpenApiDocument']['responses'][200]['content']['application/json']['openapi'], '3.1.0'>>,
];

export const request: CheckRequest = {
  policyVersion: '705680c1',
  checks: [{ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10, ownedBy: [0] }],
};

export function decided(answer: CheckAnswer): boolean {
  return answer.granted && !answer.needsOwnership;
}

// @ts-expect-error: a batch without checks is not a CheckRequest
export const noChecks: CheckRequest = { policyVersion: '705680c1' };
// @ts-expect-error: a check names its user
export const noUser: CheckRequest = { checks: [{ resource: 'document', action: 'read' }] };
// @ts-expect-error: a CheckRequest has no property named check (the schema refuses what it does not list)
export const misspelt: CheckRequest = { checks: [], check: [] };
// @ts-expect-error: roles are a list of names
export const oneRole: CheckRequest = { checks: [{ user: { id: 1, roles: 'EMPLOYEE' }, resource: 'document', action: 'read' }] };
// @ts-expect-error: granted is a boolean
export const grantedText: CheckAnswer['granted'] = 'yes';
// @ts-expect-error: there is no operation named decide
export type Decide = operations['decide'];
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2023',
    types: [],
    rootDir: '.',
    // The libraries' own declarations are not what is tested: the generated types and the consumer are.
    skipLibCheck: true,
    noEmit: true,
  },
  files: ['decision-service.ts', 'consumer.ts'],
};

/** Installing TypeScript 7 asks the registry; bounded by `run` (5 minutes), usually a few seconds. */
const TEST_TIMEOUT_MS = 360_000;

const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-openapi-client-'));
const project = join(folder, 'client');
// The generated types and the consumer, as a client project of their own.
beforeAll(() => {
  mkdirSync(project);
  const cli = join(repoRoot, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  const document = join(repoRoot, 'docs', 'decision-service.openapi.json');
  ok(run(process.execPath, [cli, document, '--output', join(project, 'decision-service.ts')], project), 'openapi-typescript');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What `tsc` prints and exits with on the client project. */
function typeCheck(tsc: string): { status: number | null; output: string } {
  const result = run(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], project);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('a client generated by openapi-typescript', () => {
  it(
    'has typed operations, requests and answers, which TypeScript 6 checks',
    () => {
      expect(readFileSync(join(project, 'decision-service.ts'), 'utf8')).toContain('post: operations["check"];');
      expect(typeCheck(join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'))).toEqual({ status: 0, output: '' });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'and TypeScript 7, the native compiler, checks alike',
    () => {
      const typescript7 = join(folder, 'typescript-7');
      mkdirSync(typescript7);
      writeFileSync(join(typescript7, 'package.json'), JSON.stringify({ private: true }));
      ok(run(NPM, ['install', '--no-save', '--ignore-scripts', 'typescript@7'], typescript7), 'npm install typescript@7');
      const tsc = join(typescript7, 'node_modules', 'typescript', 'bin', 'tsc');
      expect(ok(run(process.execPath, [tsc, '--version'], typescript7), 'tsc --version')).toMatch(/^Version 7\./);
      expect(typeCheck(tsc)).toEqual({ status: 0, output: '' });
    },
    TEST_TIMEOUT_MS,
  );
});
