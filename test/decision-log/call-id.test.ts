/**
 * Call ids: RFC 9562 UUIDs of version 8 made from a decision's sequence number — unique for every sequence a
 * process can reach (2^53), with a random part per process.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { callIdOf, nextCallSequence } from '../../runtime/core/decision/call-id.js';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('call ids', () => {
  it('are version 8 UUIDs, one per sequence, the same when read again', () => {
    const first = nextCallSequence();
    const second = nextCallSequence();
    expect(second).toBe(first + 1);
    expect(callIdOf(first)).toMatch(UUID_V8);
    expect(callIdOf(first)).toBe(callIdOf(first));
    expect(callIdOf(second)).not.toBe(callIdOf(first));
    expect(callIdOf(second).slice(0, 24)).toBe(callIdOf(first).slice(0, 24));
    expect(callIdOf(second).slice(24)).toBe(second.toString(16).padStart(12, '0'));
  });

  it('do not repeat past 2^48 decisions, up to the last safe integer', () => {
    const edges = [1, 2 ** 48 - 1, 2 ** 48, 2 ** 48 + 1, 2 ** 52, Number.MAX_SAFE_INTEGER];
    const ids = edges.map(callIdOf);
    for (const id of ids) expect(id).toMatch(UUID_V8);
    expect(new Set(ids).size).toBe(edges.length);
    // 1 and 2^48 + 1 share the low 48 bits: the fourth group tells them apart.
    expect(callIdOf(2 ** 48 + 1).slice(24)).toBe(callIdOf(1).slice(24));
    expect(callIdOf(2 ** 48 + 1).slice(19, 23)).not.toBe(callIdOf(1).slice(19, 23));
  });

  it('differ between processes: the random part is drawn per process', () => {
    const script = "import { callIdOf } from './runtime/core/decision/call-id.ts'; process.stdout.write(callIdOf(1));";
    const ids = [0, 1].map(
      () => spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 }).stdout,
    );
    for (const id of ids) expect(id).toMatch(UUID_V8);
    expect(ids[0]).not.toBe(ids[1]);
  }, 30_000);
});
