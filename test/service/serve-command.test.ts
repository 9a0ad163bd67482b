/**
 * `typed-permissions serve`: usage errors exit 2 with the usage; a service that refuses to start exits 1 with the
 * reason; `--help` prints the usage. As a process (the runtime's command, from source through tsx) it serves a
 * compiled policy.json over HTTP with tokens from TYPED_PERMISSIONS_TOKENS, and stops cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serve, SERVE_USAGE } from '../../runtime/service/serve-command.js';
import { fileTenantRolesAdmin } from '../../runtime/live/index.js';
import { fixtureBundle, TOKEN, until } from './service-fixture.js';

const root = new URL('../../', import.meta.url);
let folder: string;
let policyFile: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-serve-'));
  policyFile = join(folder, 'policy.json');
  writeFileSync(policyFile, JSON.stringify(fixtureBundle()));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  const logs: string[] = [];
  const errors: string[] = [];
  const outcome = await serve(argv, { log: (line) => logs.push(line), error: (line) => errors.push(line), env });
  await outcome.service?.close();
  return { code: outcome.code, logs, errors };
}

describe('typed-permissions serve, in process', () => {
  it('--help prints the usage', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, logs: [SERVE_USAGE], errors: [] });
  });

  it.each([
    [[], {}, 'serve needs a policy: --policy <policy.json>, --policy-url <url> or --database-url <url> (or DATABASE_URL).'],
    [['--policy-url', 'http://127.0.0.1:1/p', '--database-url', 'postgres://127.0.0.1:1/x'], {}, 'give --policy-url or --database-url, not both.'],
    [['--policy', 'p.json', '--schema', 'x'], {}, '--schema and --channel name a PostgreSQL store: give --database-url too.'],
    [
      ['--policy', 'p.json', '--tenant-roles', 'roles', '--tenant-roles-database-url', 'postgres://127.0.0.1:1/x'],
      {},
      'give --tenant-roles or --tenant-roles-database-url, not both.',
    ],
    [['--policy', 'p.json', '--port', '80a'], {}, '--port takes a whole number, got "80a".'],
    [['--policy', 'p.json', '--max-checks=-1'], {}, '--max-checks takes a whole number, got "-1".'],
    [['--policy', 'p.json', '--max-checks', '-1'], {}, "Option '--max-checks' argument is ambiguous."],
    [['--policy', 'p.json', '--bogus'], {}, "Unknown option '--bogus'."],
    [['--policy', 'p.json', 'extra'], {}, 'serve takes no arguments besides its options, got "extra".'],
    [
      ['--policy', 'p.json', '--tokens-file', 't'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'give the tokens one way: --token, --tokens-file or TYPED_PERMISSIONS_TOKENS.',
    ],
    [
      ['--policy', 'p.json', '--token', TOKEN],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'give the tokens one way: --token, --tokens-file or TYPED_PERMISSIONS_TOKENS.',
    ],
    [['--policy', 'p.json', '--token', TOKEN, '--tokens-file', 't'], {}, 'give the tokens one way: --token, --tokens-file or TYPED_PERMISSIONS_TOKENS.'],
    [['--policy', 'p.json', '--token'], {}, "Option '--token <value>' argument missing."],
  ])('%j: exit 2 with the usage', async (argv, env, says) => {
    const { code, logs, errors } = await run(argv, env);
    expect([code, logs]).toEqual([2, []]);
    expect(errors).toEqual([`typed-permissions serve: ${says}\n\n${SERVE_USAGE}`]);
  });

  it.each([
    [
      ['--policy', 'POLICY'],
      {},
      'createDecisionService(options): no bearer token is given: give tokens or tokensFile (for the command, --token, --tokens-file or ' +
        'TYPED_PERMISSIONS_TOKENS). Only on 127.0.0.1 or ::1 may the service run without, with allowAnonymous: true.',
    ],
    [
      ['--policy', 'POLICY', '--host', '0.0.0.0', '--allow-anonymous-on-loopback'],
      {},
      'createDecisionService(options): allowAnonymous is refused on host "0.0.0.0": anyone who reaches it could ask. Listen on 127.0.0.1 or ::1, ' +
        'or give bearer tokens and drop allowAnonymous.',
    ],
    [
      ['--policy', 'POLICY', '--max-checks', '0'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'createDecisionService(options): limits.maxChecks must be a whole number from 1 to 100000, got 0.',
    ],
    [
      ['--policy', 'POLICY', '--max-record-attributes', '0'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'createDecisionService(options): limits.maxRecordAttributes must be a whole number from 1 to 10000, got 0.',
    ],
    [
      ['--policy', 'POLICY', '--max-related-records', '100001'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'createDecisionService(options): limits.maxRelatedRecords must be a whole number from 0 to 100000, got 100001.',
    ],
    [
      ['--policy', 'POLICY', '--max-user-attributes', '10001'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'createDecisionService(options): limits.maxUserAttributes must be a whole number from 1 to 10000, got 10001.',
    ],
    [
      ['--policy', 'POLICY', '--max-attribute-length', '0'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'createDecisionService(options): limits.maxAttributeLength must be a whole number from 1 to 1048576, got 0.',
    ],
    [
      ['--policy', 'POLICY'],
      { TYPED_PERMISSIONS_TOKENS: 'short' },
      'createDecisionService(options): tokens: Token 1 is 5 characters long; a token has at least 16.',
    ],
    [
      ['--policy-url', 'http://127.0.0.1:1/policy.json', '--policy', '/dev/zero'],
      { TYPED_PERMISSIONS_TOKENS: TOKEN },
      'The policy file /dev/zero is a character device, not a regular file; give the path of a policy bundle file, such as the policy.json that ' +
        'npx typed-permissions compile writes.',
    ],
  ])('%j: the service refuses to start, exit 1 with the reason', async (argv, env, says) => {
    const { code, logs, errors } = await run(
      argv.map((arg) => (arg === 'POLICY' ? policyFile : arg)),
      env,
    );
    expect([code, logs, errors]).toEqual([1, [], [`typed-permissions serve: ${says}`]]);
  });

  it('accepts each --token given, and no other', async () => {
    const second = 'second-token-0123456789abcdef';
    const logs: string[] = [];
    const outcome = await serve(['--policy', policyFile, '--port', '0', '--token', TOKEN, '--token', second], {
      log: (line) => logs.push(line),
      error: () => undefined,
      env: {},
    });
    try {
      const address = /listening on (http:\/\/\S+)/.exec(logs.join('\n'))?.[1] as string;
      const statusWith = async (token: string) => (await fetch(`${address}/v1/policy`, { headers: { authorization: `Bearer ${token}` } })).status;
      expect([await statusWith(TOKEN), await statusWith(second), await statusWith('third-token-0123456789abcdef')]).toEqual([200, 200, 401]);
    } finally {
      await outcome.service?.close();
    }
  });

  it("follows the tenants' custom roles of the folder --tenant-roles names", async () => {
    const tenantFolder = join(folder, 'tenant-roles');
    const admin = fileTenantRolesAdmin(tenantFolder, { policy: fixtureBundle() });
    await admin.publish('acme', { definitions: [{ roles: ['PUBLISHER'], resource: 'article', grant: ['publish:any'] }] });
    await admin.close();
    const logs: string[] = [];
    const outcome = await serve(['--policy', policyFile, '--port', '0', '--token', TOKEN, '--tenant-roles', tenantFolder], {
      log: (line) => logs.push(line),
      error: () => undefined,
      env: {},
    });
    try {
      const address = /listening on (http:\/\/\S+)/.exec(logs.join('\n'))?.[1] as string;
      const grantedIn = async (tenant: string) => {
        const checks = [{ user: { id: 7, roles: ['PUBLISHER'] }, tenant, resource: 'article', action: 'publish' }];
        const response = await fetch(`${address}/v1/check`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ checks }),
        });
        return ((await response.json()) as { answers: { granted: boolean }[] }).answers[0]?.granted;
      };
      expect([await grantedIn('acme'), await grantedIn('globex')]).toEqual([true, false]);
    } finally {
      await outcome.service?.close();
    }
  });

  it('starts on a free port with --allow-anonymous-on-loopback, and says where it listens', async () => {
    const { code, logs } = await run(['--policy', policyFile, '--port', '0', '--allow-anonymous-on-loopback']);
    expect(code).toBeUndefined();
    expect(logs).toEqual([
      expect.stringMatching(new RegExp(`^typed-permissions serve: listening on http://127\\.0\\.0\\.1:\\d+ \\(policy ${fixtureBundle().version}\\)$`)),
    ]);
  });
});

describe('typed-permissions serve, as a process', () => {
  it('serves a compiled policy.json with the tokens of TYPED_PERMISSIONS_TOKENS, and stops on SIGTERM with exit 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/cli/command.ts', 'serve', '--policy', policyFile, '--port', '0'], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', TYPED_PERMISSIONS_TOKENS: `${TOKEN},another-token-0123456789` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: string[] = [];
    const err: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => out.push(line));
    createInterface({ input: child.stderr }).on('line', (line) => err.push(line));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until('the service listening', () => out.some((line) => line.includes('listening on')), 30_000);
      const address = /listening on (http:\/\/\S+)/.exec(out.join('\n'))?.[1] as string;
      const answer = await fetch(`${address}/v1/check`, {
        method: 'POST',
        headers: { authorization: 'Bearer another-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ checks: [{ user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'publish' }] }),
      });
      expect([answer.status, ((await answer.json()) as { answers: { granted: boolean }[] }).answers[0]?.granted]).toEqual([200, true]);
      expect((await fetch(`${address}/v1/policy`)).status).toBe(401);
      expect(err).toContain(`typed-permissions service: policy ${fixtureBundle().version} active (was none), from file ${policyFile}.`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
