/**
 * The bench, run with tiny iteration counts so that it cannot rot: no timing is asserted, only that
 * every implementation gives the same answers, pick outputs equal the hand-written projections,
 * filterPick calls the listOwned hook once, and the HTTP part is skipped.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { DECISION_BASELINE, DECISION_CASES } from '../../bench/decision.bench.js';
import { benchSettings } from '../../bench/measure.js';
import { evaluateTargets, renderConsole, renderMarkdown, type BenchResults } from '../../bench/report.js';
import { runBenchmarks } from '../../bench/run.js';

const IMPLEMENTATIONS = [
  'grantPermitSync',
  'grantPermit (await)',
  'typed grantPermitSync',
  'typed grantPermit (await)',
  'accesscontrol 3 can().do()',
  'accesscontrol 2 permission()',
  'CASL ability.can',
  'casbin enforceSync',
  DECISION_BASELINE,
];

describe('bench smoke run', () => {
  let results: BenchResults;

  beforeAll(async () => {
    results = await runBenchmarks(benchSettings('smoke'));
  }, 240_000);

  it('every implementation agrees with the baseline on every sampled decision', () => {
    expect(results.decision.checkedQueries).toBeGreaterThan(1000);
    expect(results.decision.disagreements).toEqual([]);
    expect(results.decision.cases.map((c) => c.case)).toEqual(DECISION_CASES.map((c) => c.name));
    for (const decisionCase of results.decision.cases) expect(decisionCase.rows.map((row) => row.implementation)).toEqual(IMPLEMENTATIONS);
  });

  it('every pick equals the hand-written projection, and every filterPick the hand-written list', () => {
    expect(results.attributes.pick).toHaveLength(2);
    for (const pickCase of results.attributes.pick) {
      expect(pickCase.mismatches).toEqual([]);
      expect(pickCase.rows.map((row) => row.implementation)).toEqual(
        expect.arrayContaining(['pickSync', 'pick (await)', 'accesscontrol 3 filter', 'accesscontrol 2 filter', 'CASL permittedFieldsOf + pick']),
      );
    }
    expect(results.attributes.filterPick.mismatches).toEqual([]);
    expect(results.attributes.filterPick).toMatchObject({ items: 1000, owned: 500 });
  });

  it('filterPick of 1,000 items calls the listOwned hook exactly once (and isOwner never)', () => {
    expect(results.attributes.filterPick.hookCalls).toEqual({ listOwnedRecords: 1 });
    expect(results.attributes.filterPick.documentHookCalls).toEqual({ listCreatedInSameCompany: 1 });
    expect(results.attributes.filterPick.documentItemsKept).toBe(500);
  });

  it('skips the HTTP benchmark and the spawned processes in smoke mode', () => {
    expect(results.http).toEqual({ skipped: expect.stringContaining('smoke') });
    expect(results.build.tsc).toEqual({ skipped: expect.stringContaining('smoke') });
    expect(results.build.compile.map((c) => ({ scale: c.scale, runs: c.runsMs.length }))).toEqual([{ scale: 1, runs: 1 }]);
  });

  it('measures build and memory, and renders the report with every target', () => {
    expect(results.build.build[0]).toMatchObject({ scale: 1, definitions: expect.any(Number) });
    expect(results.memory.heapPerInstance.length).toBeGreaterThan(0);
    const verdicts = evaluateTargets(results);
    expect(verdicts.find((v) => v.target.startsWith('filterPick'))?.met).toBe(true);
    expect(renderMarkdown(results, '')).toContain('## Targets (issues 5 and 11)');
    expect(renderConsole(results)).toContain('Targets (issues 5 and 11)');
  });

  it('issue 11: measures the browser bundle in smoke mode (within its 16 KB target) and skips the cold start', () => {
    const bundle = results.package?.bundle;
    expect(bundle?.ours.gzipBytes).toBeGreaterThan(1000);
    expect(bundle?.ours.gzipBytes).toBeLessThanOrEqual(16 * 1024);
    expect(results.package?.coldStart).toEqual({ skipped: expect.stringContaining('smoke') });
    expect(evaluateTargets(results).find((v) => v.target.startsWith('Browser bundle'))?.met).toBe(true);
  });
});
