/**
 * Benchmark 5: memory. Heap retained per built instance at 10× (gc before and after building a few
 * instances), and the approximate allocation per decision call (heap growth over a few thousand
 * calls after a gc, with no collection in between; samples where a collection ran are dropped).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAccessControl2, createAccessControl3 } from './peers/accesscontrol.js';
import { casbinPolicyLines, createCasbinEnforcer } from './peers/casbin.js';
import { nestedObjectDecider, nestedTable } from './peers/nested-object.js';
import type { DecisionQuery } from './peers/peer.js';
import { buildPermissions, loadTypedPermissions } from './peers/typed-permissions.js';
import { sampleDecisionQueries } from './decision.bench.js';
import { median, type BenchSettings } from './measure.js';
import { Random } from './scenario.js';
import type { BenchSubjects } from './subjects.js';

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

/**
 * `gc()`: the exposed one (node --expose-gc), else one obtained at run time.
 *
 * @example
 * ```ts
 * const gc = getGc();
 * gc(); // a full collection, with or without --expose-gc
 * ```
 */
export function getGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
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

function allocationPerCall(implementation: string, call: (i: number) => unknown, settings: BenchSettings, gc: () => void): AllocationPerCall {
  const { callsPerSample, samples } = settings.memory;
  for (let i = 0; i < 20_000 && !settings.smoke; i++) sink[0] = call(i); // optimise first: optimised code allocates less
  const perCall: number[] = [];
  for (let s = 0; s < samples; s++) {
    gc();
    const before = heapUsed();
    for (let i = 0; i < callsPerSample; i++) sink[0] = call(i);
    const grown = heapUsed() - before;
    if (grown >= 0) perCall.push(grown / callsPerSample);
  }
  return { implementation, bytes: perCall.length === 0 ? undefined : median(perCall) };
}

/** The same for an async call, awaited one after the other (the promise machinery is part of the cost). */
async function allocationPerAsyncCall(
  implementation: string,
  call: (i: number) => Promise<unknown>,
  settings: BenchSettings,
  gc: () => void,
): Promise<AllocationPerCall> {
  const { callsPerSample, samples } = settings.memory;
  for (let i = 0; i < 20_000 && !settings.smoke; i++) sink[0] = await call(i);
  const perCall: number[] = [];
  for (let s = 0; s < samples; s++) {
    gc();
    const before = heapUsed();
    for (let i = 0; i < callsPerSample; i++) sink[0] = await call(i);
    const grown = heapUsed() - before;
    if (grown >= 0) perCall.push(grown / callsPerSample);
  }
  return { implementation, bytes: perCall.length === 0 ? undefined : median(perCall) };
}

/**
 * Runs benchmark 5 on the given (10×, or 1× in the smoke run) subjects.
 *
 * @example
 * ```ts
 * const memory = await runMemoryBench(createSubjects(createScenario(10)), benchSettings('full'));
 * ```
 */
export async function runMemoryBench(subjects: BenchSubjects, settings: BenchSettings): Promise<MemoryResult> {
  const gc = getGc();
  const { scenario, ownership, permissions, expandedRules, rules } = subjects;
  const count = settings.memory.instances;
  const policyLines = casbinPolicyLines(rules);
  const heap = [
    await heapPerInstance('Permissions build()', count, () => buildPermissions(scenario, ownership), gc),
    await heapPerInstance('permissionsFromTables (load precompiled tables)', count, () => loadTypedPermissions(permissions.tables, ownership), gc),
    await heapPerInstance('accesscontrol 3', count, () => createAccessControl3(expandedRules), gc),
    await heapPerInstance('accesscontrol 2 (CRUD only)', count, () => createAccessControl2(expandedRules), gc),
    await heapPerInstance('casbin enforcer (no users)', count, () => createCasbinEnforcer(policyLines, []), gc),
    await heapPerInstance('nested object (baseline)', count, () => nestedTable(expandedRules), gc),
  ];

  const random = new Random(11);
  const oneRole = sampleDecisionQueries(subjects, random, 64, 1, true, 1);
  const threeRoles = sampleDecisionQueries(subjects, random, 64, 3, true, 100);
  const at = (queries: readonly DecisionQuery[], i: number): DecisionQuery => queries[i & 63] as DecisionQuery;
  const baseline = await nestedObjectDecider(subjects.table).prepare(oneRole);
  const allocation = [
    allocationPerCall('grantPermitSync, 1 role', (i) => permissions.grantPermitSync(at(oneRole, i)).granted, settings, gc),
    allocationPerCall('grantPermitSync, 3 roles', (i) => permissions.grantPermitSync(at(threeRoles, i)).granted, settings, gc),
    await allocationPerAsyncCall('grantPermit (await), 1 role', async (i) => (await permissions.grantPermit(at(oneRole, i))).granted, settings, gc),
    allocationPerCall('nested object (baseline), 1 role', (i) => baseline(i & 63), settings, gc),
  ];
  sink[0] = undefined;
  return { scale: scenario.scale, heapPerInstance: heap, allocationPerCall: allocation };
}
