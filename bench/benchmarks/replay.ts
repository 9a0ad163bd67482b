/**
 * Replaying logged decisions: a JSON Lines log of decision events over the 1× scenario (drawn from a seed: one to
 * three roles, a resource and an action, a record and an ownership answer for some), replayed against a candidate
 * that no longer has one role's definitions — read from disk, parsed, checked and decided again, as
 * `typed-permissions replay` does. Target: 1,000,000 logged decisions in under a minute.
 * Alone: `node --expose-gc --import tsx bench/run.ts --only replay [--smoke]`.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decisionsOfJsonLines } from '../../compiler/review/decision-log-sources.js';
import { replayDecisions } from '../../compiler/review/decision-replay.js';
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { formatBytes, table } from '../harness/format.js';
import { CountingOwnership } from '../harness/peers/counting-ownership.js';
import type { BenchUser } from '../harness/peers/peer.js';
import { Random } from '../harness/random.js';
import { createScenario, FILLER_ACTIONS, type Scenario } from '../harness/scenario.js';

const SEED = 20261128;
/** The target: this many logged decisions within this many seconds. */
const TARGET_DECISIONS = 1_000_000;
const TARGET_SECONDS = 60;

export interface ReplayResult {
  readonly decisions: number;
  readonly logBytes: number;
  readonly seconds: number;
  readonly changed: number;
  readonly undecided: number;
  readonly groups: number;
}

/** The candidate: the scenario's definitions without the first filler role's. */
function candidateOf(scenario: Scenario, dropped: string) {
  const definitions = (scenario.definitions as unknown as readonly PermissionDefinition[]).filter((definition) => !definition.roles.includes(dropped));
  return new Permissions<BenchUser>({ ownership: new CountingOwnership(), ownedAmong: scenario.ownedAmong, logger: { warn: () => undefined } })
    .addPermissions(definitions)
    .build().tables;
}

/** Writes `count` decision events, one per line, drawn from `random`. */
async function writeLog(file: string, count: number, scenario: Scenario, random: Random): Promise<void> {
  const out = createWriteStream(file);
  const roles = scenario.roles;
  const resources = scenario.fillerResources;
  for (let i = 0; i < count; i++) {
    const asked = random.sample(roles, 1 + random.below(3));
    const withRecord = random.below(2) === 0;
    const checked = withRecord && random.below(2) === 0;
    const line = JSON.stringify({
      callId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      time: '2026-11-28T00:00:00.000Z',
      user: { id: random.below(10_000), roles: asked },
      resource: resources[random.below(resources.length)],
      action: FILLER_ACTIONS[random.below(FILLER_ACTIONS.length)],
      ...(withRecord ? { resourceId: random.below(100_000) } : {}),
      granted: random.below(2) === 0,
      anyGranted: false,
      possession: null,
      ownershipChecked: checked,
      definitions: [],
      policyVersion: '0'.repeat(64),
      via: 'express',
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function run({ settings, log }: BenchContext): Promise<ReplayResult> {
  const scenario = createScenario(1);
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-bench-replay-'));
  try {
    const file = join(folder, 'decisions.jsonl');
    await writeLog(file, settings.replay.decisions, scenario, new Random(SEED));
    const candidate = candidateOf(scenario, scenario.roles.find((role) => role.startsWith('ROLE_')) as string);
    const started = performance.now();
    const report = await replayDecisions(decisionsOfJsonLines(file), { candidate, label: 'candidate' });
    const seconds = (performance.now() - started) / 1000;
    if (report.decisions !== settings.replay.decisions) throw new Error(`replayed ${report.decisions} of ${settings.replay.decisions} decisions`);
    log(`  replayed ${report.decisions} logged decisions in ${seconds.toFixed(1)} s`);
    return {
      decisions: report.decisions,
      logBytes: statSync(file).size,
      seconds,
      changed: report.grantedToRefused + report.refusedToGranted,
      undecided: report.undecided,
      groups: report.groups.length,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const TARGET = `Replay: ${TARGET_DECISIONS.toLocaleString('en-US')} logged decisions in under ${TARGET_SECONDS} s`;

function sections(result: ReplayResult | undefined): string[] {
  if (result === undefined) return [];
  const perSecond = Math.round(result.decisions / result.seconds);
  return [
    `Replay of logged decisions (\`typed-permissions replay\`'s work: a JSON Lines log read from disk, each line parsed, checked and ` +
      `decided again by the engine over a candidate without one role's definitions; the candidate's answer to each distinct question is kept):\n\n${table(
        ['decisions', 'log', 'time', 'decisions per second', 'answers that would change', 'undecided (no ownership answer)', 'groups'],
        [
          [
            result.decisions.toLocaleString('en-US'),
            formatBytes(result.logBytes),
            `${result.seconds.toFixed(2)} s`,
            perSecond.toLocaleString('en-US'),
            result.changed.toLocaleString('en-US'),
            result.undecided.toLocaleString('en-US'),
            result.groups.toLocaleString('en-US'),
          ],
        ],
      )}`,
  ];
}

function targets(result: ReplayResult | undefined) {
  if (result === undefined) return [];
  // A smoke run replays a few thousand: the target is judged on the rate, scaled to a million.
  const projected = (result.seconds * TARGET_DECISIONS) / result.decisions;
  return [
    {
      target: TARGET,
      measured:
        result.decisions >= TARGET_DECISIONS
          ? `${result.seconds.toFixed(1)} s for ${result.decisions.toLocaleString('en-US')}`
          : `${result.seconds.toFixed(2)} s for ${result.decisions.toLocaleString('en-US')} (${projected.toFixed(1)} s at that rate)`,
      met: result.decisions >= TARGET_DECISIONS ? result.seconds < TARGET_SECONDS : undefined,
    },
  ];
}

/** Replaying a decision log against a candidate policy. */
export const replayBenchmark: Benchmark<ReplayResult> = { title: 'replay of logged decisions', run, sections, targets };
