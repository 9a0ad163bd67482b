/**
 * The service follows its policy source: a file swapped by rename makes the next answers carry the new version;
 * a version outside the vocabulary, or naming an ownership method the applications lack, is rejected and the last
 * good one keeps answering; a file that is not JSON or is gone is a source error that changes nothing; the
 * service stays ready through all of it. A batch is always answered from one version, even while versions swap.
 */
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { filePolicySource } from '../../runtime/live/index.js';
import { createDecisionService, type DecisionService } from '../../runtime/service/index.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { ask, fixtureBundle, fixtureDefinitions, recordingLogger, TOKEN, until } from './service-fixture.js';

const v1 = fixtureBundle();
/** EDITOR may update articles too. */
const v2 = fixtureBundle([...fixtureDefinitions, { roles: ['EDITOR'], resource: 'article', grant: { 'update:any': ['title'] } }]);
/** A resource the running vocabulary does not have. */
const outside = fixtureBundle([...fixtureDefinitions, { roles: ['EDITOR'], resource: 'invoice', grant: ['read:any'] }]);
/** An ownership method the applications do not implement. */
const unknownMethod = fixtureBundle([
  ...fixtureDefinitions,
  { roles: ['REVIEWER'], resource: 'article', possession: 'own', grant: ['read'], isOwner: 'isReviewer', listOwned: 'listAuthored' },
]);

let folder: string;
let service: DecisionService | undefined;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'typed-permissions-service-reload-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(folder, { recursive: true, force: true });
});

const editorUpdate = { checks: [{ user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'update', resourceId: 4 }] };

/** Writes `bundle` to `file` the way a deployment does: a complete file, renamed into place. */
function swapIn(file: string, bundle: PolicyBundle | string): void {
  writeFileSync(`${file}.next`, typeof bundle === 'string' ? bundle : JSON.stringify(bundle));
  renameSync(`${file}.next`, file);
}

async function followingFile(options: { ownershipMethods?: string[] } = {}) {
  const file = join(folder, 'policy.json');
  swapIn(file, v1);
  const logger = recordingLogger();
  service = await createDecisionService({ source: filePolicySource(file, { pollIntervalMs: 50 }), tokens: [TOKEN], port: 0, logger, ...options });
  return { file, logger, service };
}

async function answerOf(target: DecisionService) {
  const answer = await ask(target, { method: 'POST', url: '/v1/check', payload: editorUpdate });
  expect(answer.status).toBe(200);
  return {
    version: answer.headers['x-permissions-version'],
    granted: answer.body.answers[0]?.granted as boolean,
    policyVersion: answer.body.answers[0]?.policyVersion as string,
  };
}

describe('the service follows its policy source', () => {
  it('a swapped file: the next answers carry the new version and its decisions', async () => {
    const { file, logger, service: target } = await followingFile();
    expect(await answerOf(target)).toEqual({ version: v1.version, granted: false, policyVersion: v1.version });
    swapIn(file, v2);
    await until('v2 active', () => target.policyVersion === v2.version);
    expect(await answerOf(target)).toEqual({ version: v2.version, granted: true, policyVersion: v2.version });
    expect(logger.lines).toContain(`info: typed-permissions service: policy ${v2.version} active (was ${v1.version}), from file ${file}.`);
    const metrics = (await ask(target, { method: 'GET', url: '/metrics' })).text;
    expect(metrics).toContain(`typed_permissions_policy_info{version="${v2.version}"} 1`);
    expect(metrics).not.toContain(`typed_permissions_policy_info{version="${v1.version}"}`);
    expect(metrics).toContain('typed_permissions_policy_reloads_total 2');
  }, 20_000);

  it('a version outside the vocabulary is rejected; the last good one answers and the service stays ready', async () => {
    const { file, logger, service: target } = await followingFile();
    swapIn(file, outside);
    await until('the rejection', () => logger.lines.some((line) => line.startsWith(`error: typed-permissions service: policy ${outside.version}`)));
    expect(logger.lines).toContain(
      `error: typed-permissions service: policy ${outside.version} from file ${file} is rejected: it names resources the running code does not know: "invoice"`,
    );
    expect(await answerOf(target)).toEqual({ version: v1.version, granted: false, policyVersion: v1.version });
    expect((await ask(target, { method: 'GET', url: '/readyz' })).body).toEqual({ status: 'ready', policyVersion: v1.version });
    expect((await ask(target, { method: 'GET', url: '/metrics' })).text).toContain('typed_permissions_policy_rejections_total 1');
    swapIn(file, v2);
    await until('v2 active after the rejection', () => target.policyVersion === v2.version);
  }, 20_000);

  it('with the applications’ ownership methods listed, a version naming another method is rejected', async () => {
    const { file, logger, service: target } = await followingFile({ ownershipMethods: ['isAuthor', 'listAuthored', 'limitToMember', 'teamsAmong'] });
    swapIn(file, unknownMethod);
    await until('the rejection', () => logger.lines.some((line) => line.includes(`policy ${unknownMethod.version} from file`)));
    expect(logger.lines.find((line) => line.includes(`policy ${unknownMethod.version} from file`))).toContain(
      'isOwner names method "isReviewer", which the ownership service (Object) does not have.',
    );
    expect(target.policyVersion).toBe(v1.version);
  }, 20_000);

  it('without the list, any method name is accepted (the applications run them, never the service)', async () => {
    const { file, service: target } = await followingFile();
    swapIn(file, unknownMethod);
    await until('the version with a new method active', () => target.policyVersion === unknownMethod.version);
    const answer = await ask(target, {
      method: 'POST',
      url: '/v1/check',
      payload: { checks: [{ user: { id: 9, roles: ['REVIEWER'] }, resource: 'article', action: 'read', resourceId: 1 }] },
    });
    expect(answer.body.answers[0]?.ownership).toEqual([{ group: 2, isOwner: 'isReviewer', listOwned: 'listAuthored', attributes: ['*'] }]);
  }, 20_000);

  it('a file that is not JSON, or is gone, is a source error: nothing changes, the service stays ready', async () => {
    const { file, logger, service: target } = await followingFile();
    swapIn(file, '{"format": 1, "version": "');
    await until('the source error', () => logger.lines.some((line) => line.startsWith('warn: typed-permissions service: policy source:')));
    unlinkSync(file);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await answerOf(target)).toEqual({ version: v1.version, granted: false, policyVersion: v1.version });
    expect((await ask(target, { method: 'GET', url: '/readyz' })).status).toBe(200);
    swapIn(file, v2);
    await until('v2 active once the file is back', () => target.policyVersion === v2.version);
  }, 20_000);

  it('every batch is answered from one version while versions swap under it', async () => {
    const { file, service: target } = await followingFile();
    const batch = { checks: Array.from({ length: 200 }, () => editorUpdate.checks[0]) };
    let swapping = true;
    const swaps = (async () => {
      for (let i = 0; swapping; i++) {
        swapIn(file, i % 2 === 0 ? v2 : v1);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const answer = await ask(target, { method: 'POST', url: '/v1/check', payload: batch });
      const versions = new Set((answer.body.answers as { policyVersion: string; granted: boolean }[]).map((one) => `${one.policyVersion}/${one.granted}`));
      expect(versions.size).toBe(1);
      const [only] = [...versions];
      expect(only).toBe(`${answer.headers['x-permissions-version']}/${answer.headers['x-permissions-version'] === v2.version}`);
      seen.add(only as string);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    swapping = false;
    await swaps;
    expect(seen.size).toBe(2);
  }, 30_000);
});
