/**
 * Bearer tokens: a request without one, with a malformed header or with a token the service does not accept is
 * a 401 problem with the challenge; several tokens work at once; the probes need none. A tokens file is read again
 * when it is rewritten, replaced by a rename or swapped through a symbolic link, so tokens rotate without a
 * restart; its lines that are not tokens are reported and skipped, and a file briefly gone keeps the tokens.
 * A tokens file that is not a regular file (/dev/zero, a named pipe, a socket, a folder) or holds more than 1 MiB
 * refuses the start; swapped in while the service runs, it is reported and the tokens read before stay.
 * The service refuses to start without tokens unless it allows anonymous requests on loopback, and refuses
 * anonymous requests anywhere else.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BearerTokens, tokenProblem, tokensOfList } from '../../runtime/service/bearer-tokens.js';
import { createDecisionService, isLoopbackHost, type DecisionService } from '../../runtime/service/index.js';
import { MAX_TOKENS_FILE_BYTES, parseTokensFile } from '../../runtime/service/token-file.js';
import { makeSpecialFiles } from '../live/fixtures/special-files.js';
import { ask, fixtureBundle, fixtureService, OTHER_TOKEN, problem, recordingLogger, TOKEN, until } from './service-fixture.js';

let service: DecisionService | undefined;
let folder: string;
let closeSpecialFiles: (() => Promise<void>) | undefined;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-tokens-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await closeSpecialFiles?.();
  closeSpecialFiles = undefined;
  rmSync(folder, { recursive: true, force: true });
});

const INSTEAD = 'give the path of a regular file with one token per line (or a symbolic link to one, as mounted secrets are)';

const policy = { method: 'GET', url: '/v1/policy' } as const;
const unauthorized = (detail: string) => problem('unauthorized', 401, 'Unauthorized', detail);

describe('bearer tokens', () => {
  it.each([
    ['no Authorization header', '', 'This service needs a bearer token: send the header Authorization: Bearer <token>.', 'Bearer realm="typed-permissions"'],
    ['another scheme', `Basic ${TOKEN}`, 'The Authorization header must be Bearer <token>.', 'Bearer realm="typed-permissions", error="invalid_request"'],
    ['a bare token', TOKEN, 'The Authorization header must be Bearer <token>.', 'Bearer realm="typed-permissions", error="invalid_request"'],
    [
      'two tokens',
      `Bearer ${TOKEN} ${OTHER_TOKEN}`,
      'The Authorization header must be Bearer <token>.',
      'Bearer realm="typed-permissions", error="invalid_request"',
    ],
    [
      'a token not accepted',
      `Bearer ${TOKEN}x`,
      'The bearer token is not accepted by this service.',
      'Bearer realm="typed-permissions", error="invalid_token"',
    ],
    [
      'a prefix of a token',
      `Bearer ${TOKEN.slice(0, -1)}`,
      'The bearer token is not accepted by this service.',
      'Bearer realm="typed-permissions", error="invalid_token"',
    ],
  ])('%s: 401 with the challenge', async (_label, authorization, detail, challenge) => {
    service ??= await fixtureService();
    for (const request of [policy, { method: 'POST', url: '/v1/check', payload: { checks: [] } } as const, { method: 'GET', url: '/metrics' } as const]) {
      const answer = await ask(service, { ...request, headers: { authorization } });
      expect([answer.status, answer.headers['content-type'], answer.headers['www-authenticate'], answer.body]).toEqual([
        401,
        'application/problem+json; charset=utf-8',
        challenge,
        unauthorized(detail),
      ]);
    }
  });

  it('every accepted token works, in any case of the scheme; the probes need none', async () => {
    service = await fixtureService();
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${OTHER_TOKEN}`, `BEARER ${TOKEN}`])
      expect((await ask(service, { ...policy, headers: { authorization } })).status).toBe(200);
    for (const url of ['/healthz', '/readyz']) expect((await ask(service, { method: 'GET', url, headers: { authorization: '' } })).status).toBe(200);
  });

  it('compares digests of every token whatever matches, and keys each token by its digest, never by the token', () => {
    const tokens = new BearerTokens([TOKEN, OTHER_TOKEN]);
    const key = tokens.verify(TOKEN);
    expect(key).toMatch(/^token:[0-9a-f]{24}$/);
    expect(key).not.toContain(TOKEN);
    expect(tokens.verify(OTHER_TOKEN)).not.toBe(key);
    expect([tokens.verify(''), tokens.verify(`${TOKEN} `), tokens.verify(TOKEN.toUpperCase())]).toEqual([undefined, undefined, undefined]);
    expect(tokens.replace([OTHER_TOKEN, TOKEN])).toBe(false);
    expect(tokens.replace([TOKEN])).toBe(true);
    expect(tokens.verify(OTHER_TOKEN)).toBeUndefined();
  });

  it('what a token may be, and lists of them', () => {
    expect(tokenProblem('a'.repeat(16))).toBeUndefined();
    expect(tokenProblem('a'.repeat(15))).toBe('is 15 characters long; a token has at least 16');
    expect(tokenProblem('a'.repeat(513))).toBe('is 513 characters long; a token has at most 512');
    expect(tokenProblem('abcdefghijklmnop qrs')).toBe('has a character a bearer token cannot carry (letters, digits and - . _ ~ + / only, = at the end)');
    expect(tokenProblem('abcdefghijklmnopqrs==')).toBeUndefined();
    expect(tokensOfList(` ${TOKEN},${OTHER_TOKEN}\n\n`)).toEqual([TOKEN, OTHER_TOKEN]);
    expect(parseTokensFile(`# the deploy bot\n${TOKEN}\n\n  ${OTHER_TOKEN}  \r\nshort\n`)).toEqual({
      tokens: [TOKEN, OTHER_TOKEN],
      problems: ['line 5 is 5 characters long; a token has at least 16'],
    });
  });
});

describe('a tokens file, followed', () => {
  const first = 'first-token-aaaaaaaaaaaaaaaa';
  const second = 'second-token-bbbbbbbbbbbbbbb';
  const statusWith = async (token: string) => (await ask(service as DecisionService, { ...policy, headers: { authorization: `Bearer ${token}` } })).status;

  async function serviceWithFile(text: string) {
    const file = join(folder, 'tokens');
    writeFileSync(file, text);
    const logger = recordingLogger();
    service = await createDecisionService({ tables: fixtureBundle(), tokensFile: file, tokensFilePollIntervalMs: 50, port: 0, logger });
    return { file, logger };
  }

  it('rewritten in place: the new token works and the old one is refused, without a restart', async () => {
    const { file, logger } = await serviceWithFile(`${first}\n`);
    expect(await statusWith(first)).toBe(200);
    writeFileSync(file, `# rotated\n${second}\n`);
    await until('the new token accepted', async () => (await statusWith(second)) === 200);
    expect(await statusWith(first)).toBe(401);
    expect(logger.lines).toContain('info: typed-permissions service: tokens file read again; 1 token accepted.');
  }, 20_000);

  it('replaced by a rename, and swapped through a symbolic link, as mounted secrets change', async () => {
    const link = join(folder, 'tokens');
    writeFileSync(join(folder, 'v1'), `${first}\n`);
    symlinkSync(join(folder, 'v1'), link);
    service = await createDecisionService({ tables: fixtureBundle(), tokensFile: link, tokensFilePollIntervalMs: 50, port: 0, logger: recordingLogger() });
    expect(await statusWith(first)).toBe(200);
    writeFileSync(join(folder, 'v2'), `${first}\n${second}\n`);
    symlinkSync(join(folder, 'v2'), join(folder, 'tokens.next'));
    renameSync(join(folder, 'tokens.next'), link);
    await until('both tokens accepted', async () => (await statusWith(second)) === 200);
    expect(await statusWith(first)).toBe(200);
    writeFileSync(join(folder, 'v3.tmp'), `${second}\n`);
    unlinkSync(link);
    renameSync(join(folder, 'v3.tmp'), link);
    await until('the first token revoked', async () => (await statusWith(first)) === 401);
    expect(await statusWith(second)).toBe(200);
  }, 20_000);

  it('a line that is not a token is reported and skipped; an emptied file accepts no token; a file briefly gone keeps the tokens', async () => {
    const { file, logger } = await serviceWithFile(`${first}\n`);
    writeFileSync(file, `${second}\nnot a token\n`);
    await until('the new token accepted', async () => (await statusWith(second)) === 200);
    expect(await statusWith(first)).toBe(401);
    expect(logger.lines).toContain(
      `error: typed-permissions service: tokens file ${file}: line 2 is 11 characters long; a token has at least 16; that line is ignored.`,
    );

    unlinkSync(file);
    await until('the missing file reported', () =>
      logger.lines.some((line) => line.startsWith(`warn: typed-permissions service: The tokens file ${file} cannot be read`)),
    );
    expect(await statusWith(second)).toBe(200);

    writeFileSync(file, '# nobody\n');
    await until('no token accepted', async () => (await statusWith(second)) === 401);
    expect(logger.lines).toContain('error: typed-permissions service: the tokens file holds no token; every request is refused.');
  }, 20_000);

  it('swapped for a named pipe, then /dev/zero, then a file over 1 MiB: each reported, the tokens read before stay; a regular file is read', async () => {
    const { file, logger } = await serviceWithFile(`${first}\n`);
    const warnings = () => logger.lines.filter((line) => line.startsWith('warn: '));
    const said = (what: string) => `warn: typed-permissions service: The tokens file ${file} ${what} The tokens read before stay.`;
    execFileSync('mkfifo', [join(folder, 'pipe')]);
    renameSync(join(folder, 'pipe'), file);
    await until('the named pipe reported', () => warnings().length === 1);
    expect(await statusWith(first)).toBe(200);
    symlinkSync('/dev/zero', join(folder, 'zero'));
    renameSync(join(folder, 'zero'), file);
    await until('/dev/zero reported', () => warnings().length === 2);
    expect(await statusWith(first)).toBe(200);
    writeFileSync(join(folder, 'large'), `${second}\n#${'x'.repeat(MAX_TOKENS_FILE_BYTES)}\n`);
    renameSync(join(folder, 'large'), file);
    await until('the large file reported', () => warnings().length === 3);
    expect(await statusWith(first)).toBe(200);
    expect(await statusWith(second)).toBe(401);
    expect(warnings()).toEqual([
      said(`is a named pipe (FIFO), not a regular file; ${INSTEAD}.`),
      said(`is a character device, not a regular file; ${INSTEAD}.`),
      said(`is ${MAX_TOKENS_FILE_BYTES + second.length + 3} bytes, more than the limit of ${MAX_TOKENS_FILE_BYTES}.`),
    ]);
    writeFileSync(join(folder, 'next'), `${second}\n`);
    renameSync(join(folder, 'next'), file);
    await until('the regular file read', async () => (await statusWith(second)) === 200);
    expect(await statusWith(first)).toBe(401);
  }, 20_000);
});

describe('starting', () => {
  const refusal = (message: string) => `createDecisionService(options): ${message}`;

  it('refuses to start without a token', async () => {
    await expect(createDecisionService({ tables: fixtureBundle(), logger: recordingLogger() })).rejects.toThrow(
      refusal(
        'no bearer token is given: give tokens or tokensFile (for the command, --token, --tokens-file or TYPED_PERMISSIONS_TOKENS). Only on 127.0.0.1 or ::1 ' +
          'may the service run without, with allowAnonymous: true.',
      ),
    );
    const empty = join(folder, 'empty');
    writeFileSync(empty, '# no tokens yet\n');
    await expect(createDecisionService({ tables: fixtureBundle(), tokensFile: empty, logger: recordingLogger() })).rejects.toThrow(/no bearer token is given/);
  });

  it.each(['/dev/zero', 'a named pipe without a writer', 'a listening UNIX socket', 'a folder'])(
    'refuses to start on a tokens file that is %s, saying what it is and what to give instead',
    async (label) => {
      const special = await makeSpecialFiles(folder);
      closeSpecialFiles = special.close;
      const { path, kind } = special.files.find((file) => file.label === label) as { path: string; kind: string };
      await expect(createDecisionService({ tables: fixtureBundle(), tokensFile: path, logger: recordingLogger() })).rejects.toThrow(
        refusal(`The tokens file ${path} is ${kind}, not a regular file; ${INSTEAD}.`),
      );
    },
    10_000,
  );

  it('starts on a tokens file of exactly 1 MiB; refuses one byte more', async () => {
    const file = join(folder, 'tokens');
    const text = (padding: number) => `${TOKEN}\n#${'x'.repeat(padding)}\n`;
    const fits = MAX_TOKENS_FILE_BYTES - TOKEN.length - 3;
    writeFileSync(file, text(fits + 1));
    await expect(createDecisionService({ tables: fixtureBundle(), tokensFile: file, logger: recordingLogger() })).rejects.toThrow(
      refusal(`The tokens file ${file} is ${MAX_TOKENS_FILE_BYTES + 1} bytes, more than the limit of ${MAX_TOKENS_FILE_BYTES}.`),
    );
    writeFileSync(file, text(fits));
    service = await createDecisionService({ tables: fixtureBundle(), tokensFile: file, port: 0, logger: recordingLogger() });
    expect((await ask(service, { ...policy, headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'localhost', '127.0.0.2'])('refuses anonymous requests on host %s, with or without tokens', async (host) => {
    for (const tokens of [[], [TOKEN]])
      await expect(createDecisionService({ tables: fixtureBundle(), host, tokens, allowAnonymous: true, logger: recordingLogger() })).rejects.toThrow(
        refusal(
          `allowAnonymous is refused on host ${JSON.stringify(host)}: anyone who reaches it could ask. Listen on 127.0.0.1 or ::1, or give bearer ` +
            'tokens and drop allowAnonymous.',
        ),
      );
  });

  it.each(['127.0.0.1', '::1'])('accepts requests without a token on %s when told to; a presented token is still checked', async (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    service = await createDecisionService({ tables: fixtureBundle(), host, port: 0, allowAnonymous: true, logger: recordingLogger() });
    expect((await ask(service, { ...policy, headers: { authorization: '' } })).status).toBe(200);
    expect((await ask(service, { ...policy, headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401);
  });

  it('refuses bad tokens, both tokens and a file, an unreadable file, and a file with lines that are not tokens', async () => {
    const tables = fixtureBundle();
    const logger = recordingLogger();
    await expect(createDecisionService({ tables, tokens: ['too-short'], logger })).rejects.toThrow(
      refusal('tokens: Token 1 is 9 characters long; a token has at least 16.'),
    );
    await expect(createDecisionService({ tables, tokens: [TOKEN], tokensFile: join(folder, 'x'), logger })).rejects.toThrow(
      refusal('give tokens or tokensFile, not both.'),
    );
    await expect(createDecisionService({ tables, tokensFile: join(folder, 'missing'), logger })).rejects.toThrow(
      refusal(`The tokens file ${join(folder, 'missing')} cannot be read (ENOENT).`),
    );
    const bad = join(folder, 'bad');
    writeFileSync(bad, `${TOKEN}\npassword\n`);
    await expect(createDecisionService({ tables, tokensFile: bad, logger })).rejects.toThrow(
      refusal(`the tokens file ${bad} has lines that are not tokens: line 2 is 8 characters long; a token has at least 16.`),
    );
  });
});
