/**
 * Memory. Heap retained per built instance at 10× (gc before and after building a few
 * instances), and the approximate allocation per decision call (heap growth over a few thousand
 * calls after a gc, with no collection in between; samples where a collection ran are dropped). It has no target:
 * the figures are there to compare with the peers.
 */
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { sampleDecisionQueries } from '../harness/decision-queries.js';
import { formatBytes, table } from '../harness/format.js';
import { createAccessControl2, createAccessControl3 } from '../harness/peers/accesscontrol.js';
import { casbinPolicyLines, createCasbinEnforcer } from '../harness/peers/casbin.js';
import { nestedObjectDecider, nestedTable } from '../harness/peers/nested-object.js';
import type { DecisionQuery } from '../harness/peers/peer.js';
import { buildPermissions, loadTypedPermissions } from '../harness/peers/typed-permissions.js';
import { Random } from '../harness/random.js';
import type { BenchSettings } from '../harness/settings.js';
import { median } from '../harness/statistics.js';
import { largestSubjects, type BenchSubjects } from '../harness/subjects.js';

export interface HeapPerInstance {
  readonly implementation: string;
  /** Bytes retained per instance (shared inputs such as the definitions not counted). */
  readonly bytes: number;
}

export interface AllocationPerCall {
  readonly implementation: string;
  /** Approximate bytes allocated per call; undefined when every sample saw a collection. */
  readonly bytes: number | undefined;
}

export interface MemoryResult {
  readonly scale: number;
  readonly heapPerInstance: readonly HeapPerInstance[];
  readonly allocationPerCall: readonly AllocationPerCall[];
}

const heapUsed = (): number => process.memoryUsage().heapUsed;

async function heapPerInstance(implementation: string, count: number, make: () => unknown, gc: () => void): Promise<HeapPerInstance> {
  make(); // warm: lazily created shared state is not per instance
  gc();
  gc();
  const before = heapUsed();
  const kept: unknown[] = [];
  for (let i = 0; i < count; i++) kept.push(await make());
  gc();
  gc();
  const after = heapUsed();
  if (kept.length !== count) throw new Error('unreachable');
  return { implementation, bytes: Math.max(0, (after - before) / count) };
}

/** Keeps results alive so that the calls are not optimised away. */
const sink: unknown[] = [undefined];

/**
 * The median heap growth per call over samples of `callsPerSample` calls, each after a collection; samples where a
 * collection ran (the heap shrank) are dropped. `runCalls` makes the calls: warmed up first in a full run, since
 * optimised code allocates less.
 */
async function allocationOf(
  implementation: string,
  runCalls: (count: number) => void | Promise<void>,
  settings: BenchSettings,
  gc: () => void,
): Promise<AllocationPerCall> {
  const { callsPerSample, samples } = settings.memory;
  if (!settings.smoke) await runCalls(20_000);
  const perCall: number[] = [];
  for (let s = 0; s < samples; s++) {
    gc();
    const before = heapUsed();
    const pending = runCalls(callsPerSample);
    // Only an async call's loop is awaited, so that a sync one's sample holds no promise.
    if (pending !== undefined) await pending;
    const grown = heapUsed() - before;
    if (grown >= 0) perCall.push(grown / callsPerSample);
  }
  return { implementation, bytes: perCall.length === 0 ? undefined : median(perCall) };
}

/** Allocation per call of a sync call, the calls made back to back. */
function allocationPerCall(implementation: string, call: (i: number) => unknown, settings: BenchSettings, gc: () => void): Promise<AllocationPerCall> {
  const runCalls = (count: number): void => {
    for (let i = 0; i < count; i++) sink[0] = call(i);
  };
  return allocationOf(implementation, runCalls, settings, gc);
}

/** The same for an async call, awaited one after the other (the promise machinery is part of the cost). */
function allocationPerAsyncCall(
  implementation: string,
  call: (i: number) => Promise<unknown>,
  settings: BenchSettings,
  gc: () => void,
): Promise<AllocationPerCall> {
  const runCalls = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i++) sink[0] = await call(i);
  };
  return allocationOf(implementation, runCalls, settings, gc);
}

/** Heap retained per instance: this library built and loaded, each peer's model, the baseline. */
async function heapPerInstances(subjects: BenchSubjects, settings: BenchSettings, gc: () => void): Promise<HeapPerInstance[]> {
  const { scenario, ownership, permissions, expandedRules, rules } = subjects;
  const count = settings.memory.instances;
  const policyLines = casbinPolicyLines(rules);
  return [
    await heapPerInstance('Permissions build()', count, () => buildPermissions(scenario, ownership), gc),
    await heapPerInstance('permissionsFromTables (load precompiled tables)', count, () => loadTypedPermissions(permissions.tables, ownership), gc),
    await heapPerInstance('accesscontrol 3', count, () => createAccessControl3(expandedRules), gc),
    await heapPerInstance('accesscontrol 2 (CRUD only)', count, () => createAccessControl2(expandedRules), gc),
    await heapPerInstance('casbin enforcer (no users)', count, () => createCasbinEnforcer(policyLines, []), gc),
    await heapPerInstance('nested object (baseline)', count, () => nestedTable(expandedRules), gc),
  ];
}

/** Allocation per decision: ours sync with one and three roles, ours awaited, the baseline. */
async function allocationPerDecision(subjects: BenchSubjects, settings: BenchSettings, gc: () => void): Promise<AllocationPerCall[]> {
  const { permissions } = subjects;
  const random = new Random(11);
  const oneRole = sampleDecisionQueries(subjects, random, 64, 1, true, 1);
  const threeRoles = sampleDecisionQueries(subjects, random, 64, 3, true, 100);
  const at = (queries: readonly DecisionQuery[], i: number): DecisionQuery => queries[i & 63] as DecisionQuery;
  const baseline = await nestedObjectDecider(subjects.table).prepare(oneRole);
  return [
    await allocationPerCall('grantPermitSync, 1 role', (i) => permissions.grantPermitSync(at(oneRole, i)).granted, settings, gc),
    await allocationPerCall('grantPermitSync, 3 roles', (i) => permissions.grantPermitSync(at(threeRoles, i)).granted, settings, gc),
    await allocationPerAsyncCall('grantPermit (await), 1 role', async (i) => (await permissions.grantPermit(at(oneRole, i))).granted, settings, gc),
    await allocationPerCall('nested object (baseline), 1 role', (i) => baseline(i & 63), settings, gc),
  ];
}

/** Runs on the largest scenario (10×, or 1× in the smoke run). */
async function run({ subjects, settings, gc }: BenchContext): Promise<MemoryResult> {
  const largest = largestSubjects(subjects);
  const heap = await heapPerInstances(largest, settings, gc);
  const allocation = await allocationPerDecision(largest, settings, gc);
  sink[0] = undefined;
  return { scale: largest.scenario.scale, heapPerInstance: heap, allocationPerCall: allocation };
}

/** Heap per instance, then allocation per call. */
function sections(memory: MemoryResult | undefined): string[] {
  if (memory === undefined) return [];
  return [
    `Heap retained per built instance, ${memory.scale}× scenario (gc before and after):\n\n${table(
      ['instance', 'heap'],
      memory.heapPerInstance.map((h) => [h.implementation, formatBytes(h.bytes)]),
    )}`,
    `Approximate allocation per call (heap growth over a batch of calls between two collections):\n\n${table(
      ['call', 'bytes per call'],
      memory.allocationPerCall.map((a) => [a.implementation, a.bytes === undefined ? '—' : formatBytes(a.bytes)]),
    )}`,
  ];
}

/** Memory: heap per instance and allocation per call, beside the peers'. */
export const memoryBenchmark: Benchmark<MemoryResult> = { title: 'memory', run, sections, targets: () => [] };
