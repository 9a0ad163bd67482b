/**
 * `filePolicySource`: a bundle replaced by an atomic rename, and a mounted-configuration style symbolic-link
 * swap, are both picked up; a file caught half-written is never loaded (it is reported and read again, and the
 * completed file is loaded); a file that appears later is loaded when it appears.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Permissions, type User } from '../../runtime/core/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/core/tables/policy-bundle.js';
import { filePolicySource, type LivePolicy, type PolicyChange } from '../../runtime/live/index.js';

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
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-file-source-'));
});
afterEach(async () => {
  await live?.close();
  live = undefined;
  rmSync(folder, { recursive: true, force: true });
});

async function follow(path: string) {
  const permissions = Permissions.fromTables<User<number>>(v1, { logger: { warn: () => undefined } });
  const changes: PolicyChange[] = [];
  const errors: string[] = [];
  live = await permissions.follow(filePolicySource(path, { pollIntervalMs: 50 }), {
    onChange: (change) => changes.push(change),
    onError: (error) => errors.push((error as Error).message),
  });
  return { permissions, changes, errors };
}

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

  it('loads a file that appears after the start', async () => {
    const path = join(folder, 'later', 'policy.json');
    mkdirSync(join(folder, 'later'));
    const { permissions } = await follow(path);
    expect(permissions.policyVersion).toBe(v1.version);
    writeFileSync(path, JSON.stringify(v2));
    await until('v2 active', () => permissions.policyVersion === v2.version);
  });
});
