/**
 * `filePolicySource`: a bundle replaced by an atomic rename, and a mounted-configuration style symbolic-link
 * swap, are both picked up; a file caught half-written is never loaded (it is reported and read again, and the
 * completed file is loaded); a file that appears later is loaded when it appears, and one that is deleted is said
 * through `onError` while its version keeps running; a leading byte order mark is allowed. A path that is not a regular
 * file (/dev/zero, a named pipe, a socket, a folder), at the start or after a swap, is reported through `onError`
 * at once, never read; a file over `maxBytes` is reported, at the limit it loads; a file that holds more than its
 * size said when it was opened is refused after one byte past the limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Permissions, type User } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { filePolicySource, type FilePolicySourceOptions, type LivePolicy, type PolicyChange } from '../../runtime/live/index.js';
import { makeSpecialFiles } from './fixtures/special-files.js';

function bundle(attributes: readonly string[]): PolicyBundle {
  const permissions = new Permissions({ resourceIdTypes: { doc: 'number' }, logger: { warn: () => undefined } });
  permissions.addPermissions([{ roles: ['READER'], resource: 'doc', grant: { 'read:any': [...attributes] } }]).build();
  return policyBundleOf(permissions.tables);
}

const [v1, v2, v3] = [bundle(['id']), bundle(['id', 'title']), bundle(['id', 'title', 'date'])] as [PolicyBundle, PolicyBundle, PolicyBundle];

async function until(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let folder: string;
let live: LivePolicy | undefined;
let closeSpecialFiles: (() => Promise<void>) | undefined;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-file-source-'));
});
afterEach(async () => {
  await live?.close();
  live = undefined;
  await closeSpecialFiles?.();
  closeSpecialFiles = undefined;
  rmSync(folder, { recursive: true, force: true });
});

async function follow(path: string, options: FilePolicySourceOptions = {}) {
  const permissions = Permissions.fromTables<User<number>>(v1, { logger: { warn: () => undefined } });
  const changes: PolicyChange[] = [];
  const errors: string[] = [];
  // A read that hangs fails the test within 3 s rather than at the follower's default of 15.
  live = await permissions.follow(filePolicySource(path, { pollIntervalMs: 50, ...options }), {
    onChange: (change) => changes.push(change),
    onError: (error) => errors.push((error as Error).message),
    readTimeoutMs: 3000,
  });
  return { permissions, changes, errors };
}

/** `bundle`'s JSON, padded with spaces to exactly `bytes` bytes. */
function padded(bundle: PolicyBundle, bytes: number): string {
  const text = JSON.stringify(bundle);
  if (text.length > bytes) throw new Error(`the bundle is ${text.length} bytes already`);
  return text + ' '.repeat(bytes - text.length);
}

const INSTEAD = 'give the path of a policy bundle file, such as the policy.json that npx typed-permissions compile writes';

describe('filePolicySource', () => {
  it('picks up a bundle replaced by an atomic rename', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify(v1));
    const { permissions } = await follow(path);
    writeFileSync(join(folder, 'policy.json.tmp'), JSON.stringify(v2));
    renameSync(join(folder, 'policy.json.tmp'), path);
    await until('v2 active', () => permissions.policyVersion === v2.version);
  });

  it('picks up a symbolic-link swap of a mounted folder (..data → another version)', async () => {
    // How mounted configuration changes: policy.json → ..data/policy.json, and ..data is swapped by one rename.
    for (const [name, version] of [
      ['v1', v1],
      ['v2', v2],
    ] as const) {
      mkdirSync(join(folder, name));
      writeFileSync(join(folder, name, 'policy.json'), JSON.stringify(version));
    }
    symlinkSync('v1', join(folder, '..data'));
    symlinkSync(join('..data', 'policy.json'), join(folder, 'policy.json'));
    const { permissions } = await follow(join(folder, 'policy.json'));
    expect(permissions.policyVersion).toBe(v1.version);
    symlinkSync('v2', join(folder, '..data_tmp'));
    renameSync(join(folder, '..data_tmp'), join(folder, '..data'));
    await until('v2 active after the swap', () => permissions.policyVersion === v2.version);
  });

  it('never loads a half-written file; loads it once it is complete', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify(v1));
    const { permissions, errors, changes } = await follow(path);
    const text = JSON.stringify(v3);
    writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
    await until('the half-written file reported', () => errors.length > 0);
    expect(errors[0]).toMatch(/^The policy bundle of file .*policy\.json is not JSON \(/);
    expect(permissions.policyVersion).toBe(v1.version);
    writeFileSync(path, text);
    await until('v3 active', () => permissions.policyVersion === v3.version);
    expect(changes.map((change) => change.version)).toEqual([v3.version]);
  });

  it('a followed file that is deleted is said through onError, once until a version is read again; the version stays', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify(v2));
    const { permissions, errors } = await follow(path);
    const gone = `file ${path} holds no version any more (a file deleted, a URL answering 404?); version ${v2.version} keeps running until it holds one again.`;
    rmSync(path);
    await until('the deletion said', () => errors.length > 0);
    expect([errors, permissions.policyVersion]).toEqual([[gone], v2.version]);
    writeFileSync(path, JSON.stringify(v3));
    await until('v3 active', () => permissions.policyVersion === v3.version);
    rmSync(path);
    await until('the second deletion said', () => errors.length > 1);
    expect([errors, permissions.policyVersion]).toEqual([[gone, gone.replace(v2.version, v3.version)], v3.version]);
  });

  it('loads a bundle saved with a byte order mark, at its version; a second one is refused, shown escaped', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify(v1));
    const { permissions, errors, changes } = await follow(path);
    writeFileSync(path, `\ufeff${JSON.stringify(v2)}`);
    await until('v2 active', () => permissions.policyVersion === v2.version);
    writeFileSync(path, `\ufeff\ufeff${JSON.stringify(v3)}`);
    await until('the second byte order mark reported', () => errors.length > 0);
    const parseError = (() => {
      try {
        return JSON.parse(`\ufeff${JSON.stringify(v3)}`) as never;
      } catch (error) {
        return (error as Error).message.replaceAll('\ufeff', '\\ufeff');
      }
    })();
    expect([errors, changes.map((change) => change.version), permissions.policyVersion]).toEqual([
      [`The policy bundle of file ${path} is not JSON (${parseError}); it is not loaded.`],
      [v2.version],
      v2.version,
    ]);
    expect(errors[0]).toContain('\\ufeff');
    expect(errors[0]).not.toContain('\ufeff');
  });

  it('loads a file that appears after the start', async () => {
    const path = join(folder, 'later', 'policy.json');
    mkdirSync(join(folder, 'later'));
    const { permissions } = await follow(path);
    expect(permissions.policyVersion).toBe(v1.version);
    writeFileSync(path, JSON.stringify(v2));
    await until('v2 active', () => permissions.policyVersion === v2.version);
  });
});

describe('filePolicySource: a regular file, within maxBytes', () => {
  it.each(['/dev/zero', 'a named pipe without a writer', 'a listening UNIX socket', 'a folder'])(
    '%s: refused through onError at once, saying what the path is and what to give instead; the compiled policy stays',
    async (label) => {
      const special = await makeSpecialFiles(folder);
      closeSpecialFiles = special.close;
      const { path, kind } = special.files.find((file) => file.label === label) as { path: string; kind: string };
      const { permissions, errors, changes } = await follow(path);
      expect([errors, changes, permissions.policyVersion]).toEqual([
        [`The policy bundle of file ${path} is ${kind}, not a regular file; ${INSTEAD}.`],
        [],
        v1.version,
      ]);
    },
    10_000,
  );

  it('a followed file swapped for a named pipe is reported and the active version stays; the next regular file loads', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify(v2));
    const { permissions, errors } = await follow(path);
    expect(permissions.policyVersion).toBe(v2.version);
    execFileSync('mkfifo', [join(folder, 'policy.pipe')]);
    renameSync(join(folder, 'policy.pipe'), path);
    await until('the named pipe reported', () => errors.length > 0);
    expect([errors, permissions.policyVersion]).toEqual([
      [`The policy bundle of file ${path} is a named pipe (FIFO), not a regular file; ${INSTEAD}.`],
      v2.version,
    ]);
    writeFileSync(join(folder, 'policy.json.tmp'), JSON.stringify(v3));
    renameSync(join(folder, 'policy.json.tmp'), path);
    await until('v3 active', () => permissions.policyVersion === v3.version);
  }, 15_000);

  it('loads a file of exactly maxBytes; reports one byte more, never parsed', async () => {
    const maxBytes = 4096;
    const path = join(folder, 'policy.json');
    writeFileSync(path, padded(v2, maxBytes));
    const { permissions, errors } = await follow(path, { maxBytes });
    expect([permissions.policyVersion, errors]).toEqual([v2.version, []]);
    writeFileSync(path, padded(v3, maxBytes + 1));
    await until('the file over the limit reported', () => errors.length > 0);
    expect([errors, permissions.policyVersion]).toEqual([
      [`The policy bundle of file ${path} is ${maxBytes + 1} bytes, more than the limit of ${maxBytes}.`],
      v2.version,
    ]);
  }, 15_000);

  it('counts the bytes it reads, not the size the file says: a file that holds more than it said is refused one byte past the limit', async () => {
    // A file of /proc says it has 0 bytes and holds more than a kilobyte: the deterministic stand-in for a file that grows while it is read.
    const { permissions, errors } = await follow('/proc/self/status', { maxBytes: 100 });
    expect([errors, permissions.policyVersion]).toEqual([
      [
        'The policy bundle of file /proc/self/status holds more than 100 bytes, the limit, though it said 0 when it was opened ' +
          '(it grew while it was read, or it is not an ordinary file); it is not read.',
      ],
      v1.version,
    ]);
  });

  it('refuses a maxBytes that is no positive integer', () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN])
      expect(() => filePolicySource('policy.json', { maxBytes })).toThrow('filePolicySource(): maxBytes must be a positive integer.');
  });
});
