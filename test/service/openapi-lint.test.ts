/**
 * Redocly's recommended ruleset, run as a user runs it (`redocly lint --extends recommended`, @redocly/cli), on the
 * committed docs/decision-service.openapi.json and on the document a service serves: no error, and exactly the
 * warnings docs/decision-service.md keeps, each for the reason it gives there.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { DecisionService } from '../../runtime/service/index.js';
import { repoRoot } from '../compiler/helpers.js';
import { ask, fixtureService } from './service-fixture.js';

const run = promisify(execFile);
const REDOCLY = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
/** Each lint starts a Node process that loads Redocly's bundle: about half a second alone, a few on a busy machine. */
const LINT_TIMEOUT_MS = 60_000;
/** Where the lints run and the served document is written. */
const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-openapi-lint-'));

/** What one lint reports. */
interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly severity: string; readonly location: readonly { readonly pointer: string }[] }[];
}

/** The problems Redocly's recommended ruleset finds in `file`, as `severity rule pointer`, with the totals. */
async function lint(file: string): Promise<{ totals: LintReport['totals']; problems: string[] }> {
  // Run from a folder of its own: no redocly.yaml or ignore file of this repository applies, only the ruleset named.
  const { stdout } = await run(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], {
    cwd: folder,
    timeout: LINT_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    // No telemetry, no update check: the test asks nothing of the network.
    env: { PATH: process.env['PATH'], HOME: folder, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    // Redocly exits 1 when it finds an error: the report is still on stdout.
    if (error.stdout?.startsWith('{')) return { stdout: error.stdout };
    throw new Error(`redocly lint failed: ${error.message}\n${error.stderr ?? ''}`);
  });
  const report = JSON.parse(stdout) as LintReport;
  return {
    totals: { errors: report.totals.errors, warnings: report.totals.warnings },
    problems: report.problems.map(({ severity, ruleId, location }) => `${severity} ${ruleId} ${location.map(({ pointer }) => pointer).join(' ')}`),
  };
}

/** The warnings kept, and why (docs/decision-service.md lists them): the probes never answer 4XX — no token, no body, no rate limit. */
const KEPT_WARNINGS = [
  'warn operation-4xx-response #/paths/~1healthz/get/responses',
  'warn operation-4xx-response #/paths/~1healthz/head/responses',
  'warn operation-4xx-response #/paths/~1readyz/get/responses',
  'warn operation-4xx-response #/paths/~1readyz/head/responses',
];

let service: DecisionService | undefined;
afterAll(async () => {
  await service?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("Redocly's recommended ruleset", () => {
  it(
    'finds no error in the committed document, and only the kept warnings',
    async () => {
      expect(await lint(join(repoRoot, 'docs', 'decision-service.openapi.json'))).toEqual({ totals: { errors: 0, warnings: 4 }, problems: KEPT_WARNINGS });
    },
    LINT_TIMEOUT_MS + 10_000,
  );

  it(
    'finds no error in the document a service serves (its server the origin it is fetched from), and only the kept warnings',
    async () => {
      service = await fixtureService();
      const served = join(folder, 'served.openapi.json');
      writeFileSync(served, (await ask(service, { method: 'GET', url: '/v1/openapi.json' })).text);
      expect(await lint(served)).toEqual({ totals: { errors: 0, warnings: 4 }, problems: KEPT_WARNINGS });
    },
    LINT_TIMEOUT_MS + 10_000,
  );
});
