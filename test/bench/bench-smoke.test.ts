/**
 * The bench, run with tiny iteration counts so that it cannot rot: no timing is asserted, only that
 * every implementation gives the same answers, pick outputs equal the hand-written projections,
 * filterPick calls the listOwned hook once, the ownership benchmark on PGlite counts exactly the
 * statements it should and both variants agree, the interleaved awaited pick returns the same objects
 * as CASL without calling a hook, a live-policy swap activates every version, and the HTTP part is skipped.
 */
import { subject } from '@casl/ability';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { OWN_PICK_CASL, OWN_PICK_OURS, OWN_PICK_TARGET } from '../../bench/benchmarks/attributes.js';
import { AWAITED_PICK_TARGET } from '../../bench/benchmarks/awaited-pick.js';
import { DECISION_BASELINE, DECISION_CASES } from '../../bench/benchmarks/decision.js';
import { EXPLAINED_SIDES, LIST_FILTER_SIDES } from '../../bench/benchmarks/list-filters.js';
import { OWNERSHIP_VARIANTS } from '../../bench/benchmarks/ownership.js';
import { readExampleDefinitions } from '../../bench/harness/example-definitions.js';
import { createCaslAbility } from '../../bench/harness/peers/casl.js';
import { flattenRules } from '../../bench/harness/peers/rules.js';
import { benchSettings } from '../../bench/harness/settings.js';
import { evaluateTargets, renderConsole, renderMarkdown } from '../../bench/report.js';
import { BENCHMARKS, runBenchmarks, type BenchResults } from '../../bench/suite.js';
import { seededTestDatabase } from '../example/test-databases.js';

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
    // The example database from the run's seeded dump: the same data as createSeededDatabase, without its initdb.
    results = await runBenchmarks(benchSettings('smoke'), undefined, seededTestDatabase);
  }, 240_000);

  it('runs every benchmark of the suite: each has results', () => {
    expect(Object.keys(BENCHMARKS).filter((name) => results[name as keyof typeof BENCHMARKS] === undefined)).toEqual([]);
  });

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

  it('swaps the live policy and skips its propagation and request rounds in smoke mode', () => {
    expect(results.livePolicy?.swap).toMatchObject({ scale: 1, swaps: 3, cells: expect.any(Number) });
    expect(results.livePolicy?.propagation).toEqual({ skipped: expect.stringContaining('smoke') });
    expect(results.livePolicy?.requests).toEqual({ skipped: expect.stringContaining('smoke') });
    expect(results.service).toEqual({ skipped: 'smoke run: the service benchmark runs only in `npm run bench`' });
    // The decision log: every decision of the sink's side delivered, none dropped; both comparisons measured.
    const rounds = benchSettings('smoke').decisionLog;
    expect(results.decisionLog?.settings).toEqual(rounds);
    expect(results.decisionLog?.noopSink).toMatchObject({ delivered: (rounds.warmupRounds + rounds.rounds) * rounds.iterationsPerRound, dropped: 0 });
    expect(results.decisionLog?.noopSink.with.roundsNs).toHaveLength(rounds.rounds);
    expect(results.decisionLog?.tracingWithoutSdk.without.roundsNs).toHaveLength(rounds.rounds);
    // Reading permit.reason against not reading it: both sides timed every round, the ratio of their medians kept.
    const reasons = results.decisionLog?.reasons;
    expect([reasons?.with.roundsNs.length, reasons?.without.roundsNs.length]).toEqual([rounds.rounds, rounds.rounds]);
    expect(reasons?.ratio).toBe((reasons?.with.medianNs ?? 0) / (reasons?.without.medianNs ?? 1));
    expect(
      evaluateTargets(results)
        .filter((v) => v.target.startsWith('Live policy'))
        .map((v) => v.met),
    ).toEqual([undefined, undefined, undefined]);
  });

  it("replays the smoke run's logged decisions against a candidate without one role, every one decided", () => {
    const replay = results.replay;
    expect(replay?.decisions).toBe(benchSettings('smoke').replay.decisions);
    // Half the logged answers are drawn granted and half refused: some would change, whatever the candidate.
    expect(replay?.changed).toBeGreaterThan(0);
    expect(replay?.groups).toBeGreaterThan(0);
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
    expect(renderMarkdown(results, '')).toContain('\n## Targets\n');
    expect(renderConsole(results)).toContain('\nTargets:\n');
  });

  it('measures every chunk the browser page loads in smoke mode, judges it against its 16 KB target, and skips the cold start', () => {
    const bundle = results.package?.bundle;
    const loaded = (bundle?.oursChunks ?? []).filter((chunk) => chunk.load !== 'not loaded');
    expect(loaded[0]?.load).toBe('entry');
    expect(bundle?.ours.gzipBytes).toBe(loaded.reduce((sum, chunk) => sum + chunk.gzipBytes, 0));
    expect(results.package?.coldStart).toEqual({ skipped: expect.stringContaining('smoke') });
    const verdict = evaluateTargets(results).find((v) => v.target.startsWith('Browser page of the precompiled engine'));
    expect(verdict?.met).toBe((bundle?.ours.gzipBytes ?? Number.POSITIVE_INFINITY) <= 16 * 1024);
  });

  it('CASL models ownership from the limitOwned hook when a definition has no isOwner', () => {
    const rules = flattenRules(readExampleDefinitions(), { expand: false });
    expect([...new Set(rules.filter((rule) => rule.possession === 'own').map((rule) => `${rule.role} ${rule.ownershipHook}`))]).toEqual([
      'EMPLOYEE limitToCreator',
      'EMPLOYEE_MANAGER limitToCreatorOrManagedCreators',
      'COMPANY_ADMIN isCreatedInSameCompany',
    ]);
    const employee = createCaslAbility(rules, { id: 1, roles: ['EMPLOYEE'] });
    expect(employee.can('read', subject('document', { id: 10, creatorId: 1 }))).toBe(true);
    expect(employee.can('read', subject('document', { id: 2, creatorId: 2 }))).toBe(false);
    const manager = createCaslAbility(rules, { id: 2, roles: ['EMPLOYEE_MANAGER'] });
    // 2 manages 1 and 4, not 3.
    expect([1, 2, 3, 4].map((creatorId) => manager.can('read', subject('document', { id: creatorId, creatorId })))).toEqual([true, true, false, true]);
  });

  it('the memo-hit pick of an owned document calls no hook and equals CASL’s output', () => {
    const ownPick = results.attributes.ownPick;
    expect(ownPick).toMatchObject({
      user: { id: 1, roles: ['EMPLOYEE'] },
      resource: 'document',
      action: 'read',
      documentId: 10,
      patterns: ['*', '!confidential'],
    });
    expect(ownPick?.rows.map((row) => row.implementation)).toEqual([OWN_PICK_OURS, OWN_PICK_CASL]);
    expect(ownPick?.mismatches).toEqual([]);
    expect(ownPick?.hookCallsToGrant).toEqual({ limitToCreator: 1, ownedDocumentsAmong: 1 });
    expect(ownPick?.hookCallsWhileTimed).toEqual({});
  });

  it('ownership on PGlite: filterPick of 200 documents — before one statement per document (32 in flight), after exactly one; identical results', () => {
    const ownership = results.ownership;
    expect(ownership).toMatchObject({ documents: 200, user: { id: 1, roles: ['EMPLOYEE'] }, fetchStatements: 1, kept: 25, identical: true, asExpected: true });
    expect(
      ownership?.filterPick.map(({ variant, label, statements, hookCalls, peakHookCallsInFlight, runsMs }) => ({
        variant,
        label,
        statements,
        hookCalls,
        peakHookCallsInFlight,
        runs: runsMs.length,
      })),
    ).toEqual([
      { variant: 'before', label: OWNERSHIP_VARIANTS.before, statements: 200, hookCalls: { isCreator: 200 }, peakHookCallsInFlight: 32, runs: 1 },
      { variant: 'after', label: OWNERSHIP_VARIANTS.after, statements: 1, hookCalls: { ownedDocumentsAmong: 1 }, peakHookCallsInFlight: 1, runs: 1 },
    ]);
  });

  it('ownership on PGlite: isOwn of one document takes one statement by isOwner and by ownedAmong, with the same answers', () => {
    const ownership = results.ownership;
    expect(ownership?.isOwn.map(({ variant, statementsPerCheck }) => ({ variant, statementsPerCheck }))).toEqual([
      { variant: 'before', statementsPerCheck: 1 },
      { variant: 'after', statementsPerCheck: 1 },
    ]);
    expect(ownership).toMatchObject({ isOwnIdsChecked: 16, isOwnIdentical: true, isOwnAsExpected: true });
  });

  it('evaluateTargets has the three ownership targets; the statement count is met (timings are not asserted)', () => {
    const ownershipTargets = evaluateTargets(results).filter(
      (verdict) => verdict.target === OWN_PICK_TARGET || verdict.target.startsWith('filterPick of 200 example documents for EMPLOYEE 1 on PGlite'),
    );
    expect(ownershipTargets.map((verdict) => verdict.target)).toEqual([
      'Async pick of an owned document whose ownership the permit already knows, at most 0.5× CASL’s permittedFieldsOf + pick',
      'filterPick of 200 example documents for EMPLOYEE 1 on PGlite with ownedAmong: at most 2 SQL statements, fetching the documents included',
      'filterPick of 200 example documents for EMPLOYEE 1 on PGlite with ownedAmong at least 20× faster than with isOwner per document',
    ]);
    expect(ownershipTargets[1]).toMatchObject({
      met: true,
      measured: expect.stringMatching(/^2 \(1 for grantPermit \+ filterPick, 1 to fetch the documents\); before, isOwner per document: 201$/),
    });
    for (const verdict of ownershipTargets) expect(typeof verdict.met).toBe('boolean');
    expect(ownershipTargets[2]?.measured).toContain('results identical and as expected');
    const markdown = renderMarkdown(results, '');
    expect(markdown).toContain('Async pick, own grant beyond any, memo hit: ');
    expect(markdown).toContain("Ownership on the example's data layer — ");
  });

  it("list filters on PGlite: every role's pages are exactly the data's by all six ways, in one statement each; the indexes the plans use", () => {
    const listFilters = results.listFilters;
    if (listFilters === undefined || 'skipped' in listFilters) throw new Error(`list filters not measured: ${JSON.stringify(listFilters)}`);
    expect(listFilters).toMatchObject({ pageSize: 50, comparison: benchSettings('smoke').listFilters.comparison });
    expect(listFilters.database).toContain('PGlite');
    // 2,000 documents by 40 users: EMPLOYEE 5's, MANAGER 11's team (users 11–20), COMPANY_ADMIN 21's company (users 21–40).
    expect(
      listFilters.cases.map(({ documents, users, role, rule, userId, selected, pages, identical, mismatches, filterPickStatements }) => ({
        documents,
        users,
        role,
        rule,
        userId,
        selected,
        pages,
        identical,
        mismatches,
        filterPickStatements,
      })),
    ).toEqual([
      {
        documents: 2000,
        users: 40,
        role: 'EMPLOYEE',
        rule: 'creator',
        userId: 5,
        selected: 48,
        pages: 1,
        identical: true,
        mismatches: [],
        filterPickStatements: 1,
      },
      {
        documents: 2000,
        users: 40,
        role: 'MANAGER',
        rule: 'creatorOrManaged',
        userId: 11,
        selected: 503,
        pages: 3,
        identical: true,
        mismatches: [],
        filterPickStatements: 1,
      },
      {
        documents: 2000,
        users: 40,
        role: 'COMPANY_ADMIN',
        rule: 'sameCompany',
        userId: 21,
        selected: 1006,
        pages: 3,
        identical: true,
        mismatches: [],
        filterPickStatements: 1,
      },
    ]);
    for (const listCase of listFilters.cases) {
      expect(listCase.sides.map(({ side, statementsPerPage }) => ({ side, statementsPerPage }))).toEqual(
        Object.values(LIST_FILTER_SIDES).map((side) => ({ side, statementsPerPage: 1 })),
      );
      expect(listCase.plans.map((plan) => plan.side)).toEqual(EXPLAINED_SIDES);
      for (const plan of listCase.plans) expect(plan.sequentialScans).toEqual([]);
    }
    const [employee, manager, admin] = listFilters.cases;
    expect(employee?.plans[0]?.scans).toEqual(['Bitmap Heap Scan on documents', 'Bitmap Index Scan using documents_creator']);
    expect(manager?.plans[0]?.scans).toEqual(['Index Scan using documents_pkey on documents']);
    expect(admin?.plans[0]?.scans).toEqual(['Index Scan using documents_pkey on documents', 'Index Scan using users_pkey on users']);
    const verdicts = evaluateTargets(results).filter((verdict) => verdict.target.startsWith('A page of 50 with the rule'));
    expect(verdicts.map((verdict) => verdict.target)).toEqual([
      "A page of 50 with the rule's filter (kyselyOwnership) within 1.1× of the hand-written query, every role and size",
      "A page of 50 with the rule's filter: 1 SQL statement (grantPermitSync + the page query)",
    ]);
    expect(verdicts[1]).toMatchObject({ met: true, measured: 'EMPLOYEE 2,000: 1, MANAGER 2,000: 1, COMPANY_ADMIN 2,000: 1' });
    expect(renderMarkdown(results, '')).toContain('List filters of ownership rules — a page of 50 by keyset cursor from 2,000 documents (40 users)');
  });

  it('the interleaved awaited pick returns the same objects as CASL’s three-rule ability, without a hook call while timed', () => {
    const awaitedPick = results.awaitedPick;
    expect(awaitedPick).toMatchObject({
      user: { id: 1, roles: ['EMPLOYEE'] },
      grants: { own: ['*', '!confidential'], any: ['title', 'date'] },
      caslRules: 3,
      settings: benchSettings('smoke').awaitedPick,
      hookCallsBeforeTiming: { listOwnedDocuments: 1 },
      hookCallsWhileTimed: {},
    });
    expect(
      awaitedPick?.cases.map(({ case: name, documentId, fields, mismatches, ours, casl }) => ({
        name,
        documentId,
        fields,
        mismatches,
        rounds: [ours.roundsNs.length, casl.roundsNs.length],
      })),
    ).toEqual([
      { name: 'owned', documentId: 10, fields: ['creatorId', 'date', 'id', 'personal', 'status', 'title'], mismatches: [], rounds: [2, 2] },
      { name: 'not owned', documentId: 2, fields: ['date', 'title'], mismatches: [], rounds: [2, 2] },
    ]);
    const verdict = evaluateTargets(results).find((v) => v.target === AWAITED_PICK_TARGET);
    expect(typeof verdict?.met).toBe('boolean');
    expect(verdict?.measured).toMatch(/hook calls while timed: none; outputs equal$/);
    expect(renderMarkdown(results, '')).toContain('Awaited pick, ownership known, interleaved against a 3-rule CASL ability');
  });
});
