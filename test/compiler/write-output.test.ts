/**
 * The compiler killed (SIGKILL) while it writes: the output folder is always the old version or the
 * new one, byte for byte, never a mix; and the next run always ends with the complete new version
 * and no `.<out>.next` / `.<out>.previous` folder left behind.
 *
 * Every trial is a real compiler process (compiler/commands/main.ts's `main`, through
 * fixtures/compile-on-cue.ts so that it is already loaded when cued, bundled once for all of them) compiling a generated
 * definitions folder into an output folder that holds the old version, killed:
 *
 * 1. at 10 delays spread evenly across the measured duration of an uninterrupted compile, and as soon
 *    as the new version's folder appears (the real, unslowed compiler: its write takes well under a
 *    millisecond, so most of these land before or after it);
 * 2. in each intermediate state of the swap, made long enough to hit on purpose by pausing after every
 *    file operation under the trial folder (the compiler's code is unchanged): while the new files are
 *    being written, between the two renames (the output folder is missing), and after the swap while
 *    the old version is being removed.
 *
 * After each kill the output folder is inspected, then the compiler runs again (a warm process that
 * runs one command line per cue) and the result must be the complete new version, with nothing left over.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bundleForNode } from './node-bundle.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LAUNCHER = 'test/compiler/fixtures/compile-on-cue.ts';
/** How long each file operation under the trial folder lasts in the slowed trials. */
const SLOW_MS = 60;

// ---- a compiler process, cued over stdin ------------------------------------------------------

/** The launcher bundled once for all the processes of this file (bundleForNode), set in beforeAll. */
let launcherBundle: string;

/** A warm compiler process: loaded, waiting for a command line. */
class CompilerProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  private stderr = '';

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [launcherBundle], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (!line.startsWith('@@')) return;
      this.lines.push(line);
      this.waiting?.();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdin.on('error', () => undefined); // a killed child's closed stdin
  }

  /** Resolves with the next `@@` line; rejects when the process exits first. */
  async nextLine(): Promise<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      const exited = this.exited.then(({ code, signal }) => {
        throw new Error(`The compiler process exited (${code ?? signal}) before answering.\n${this.stderr}`);
      });
      await Promise.race([new Promise<void>((resolve) => (this.waiting = resolve)), exited]);
    }
  }

  async ready(): Promise<void> {
    expect(await this.nextLine()).toBe('@@ready');
  }

  /** Starts `typed-permissions compile <definitionsDir> --out <outDir>`; with `last`, the process exits when it is done. */
  cue(definitionsDir: string, outDir: string, last = false): void {
    const line = `${JSON.stringify(['compile', relative(ROOT, definitionsDir), '--out', relative(ROOT, outDir)])}\n`;
    if (last) this.child.stdin.end(line);
    else this.child.stdin.write(line);
  }

  /** Runs one compile to its end and returns its exit code. */
  async compile(definitionsDir: string, outDir: string): Promise<number> {
    this.cue(definitionsDir, outDir);
    const line = await this.nextLine();
    expect(line).toMatch(/^@@exit \d+$/);
    return Number(line.slice('@@exit '.length));
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    const exit = await Promise.race([this.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000).unref())]);
    if (exit === undefined) this.kill();
  }
}

// ---- definitions and output folders -----------------------------------------------------------

/** A definitions folder of `roles` × `resources` definitions (some with ownership hooks). */
function writeDefinitions(dir: string, roles: number, resources: number, variant: string): void {
  mkdirSync(dir, { recursive: true });
  const definitions: object[] = [];
  for (let role = 0; role < roles; role += 1) {
    for (let resource = 0; resource < resources; resource += 1) {
      const own = (role + resource) % 5 === 0;
      definitions.push({
        roles: [`ROLE_${variant}_${role}`],
        resource: `resource_${resource}`,
        descr: `Role ${role} on resource ${resource} (${variant}).`,
        ...(own ? { possession: 'own', isOwner: `isOwner${resource}`, listOwned: `listOwned${resource}` } : {}),
        grant: { read: ['*', `!secret_${variant}`], [`action_${resource % 7}`]: ['title', 'date'], 'list:any': ['title'] },
      });
    }
  }
  writeFileSync(join(dir, `${variant}.permissions.json`), `${JSON.stringify({ definitions }, null, 2)}\n`);
}

type FolderContent = ReadonlyMap<string, Buffer>;

function readFolder(dir: string): FolderContent | undefined {
  if (!existsSync(dir)) return undefined;
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name))]),
  );
}

function sameContent(a: FolderContent | undefined, b: FolderContent): boolean {
  return a !== undefined && a.size === b.size && [...b].every(([name, bytes]) => a.get(name)?.equals(bytes) === true);
}

function writeFolder(dir: string, content: FolderContent): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of content) writeFileSync(join(dir, name), bytes);
}

/** What a kill left in a trial folder. */
type KillOutcome = 'old' | 'new' | 'missing, old kept in .previous' | 'mixed';

interface Trial {
  readonly label: string;
  readonly dir: string;
  readonly out: string;
  readonly next: string;
  readonly previous: string;
}

let work: string;
let definitionsOld: string;
let definitionsNew: string;
let oldVersion: FolderContent;
let newVersion: FolderContent;

/** Duration of an uninterrupted compile (cue to exit), in ms. */
let uninterruptedMs: number;

/** Runs the compiler again after each kill. */
let recoverer: CompilerProcess;

/** One loaded compiler per trial, started together up front (loading takes a second or so each). */
const compilers = new Map<string, { trial: Trial; compiler: CompilerProcess }>();

const outcomes: { label: string; outcome: KillOutcome; leftovers: string[] }[] = [];

// Trials all sit at the same depth, so the generated relative import of the runtime is identical.
const trial = (label: string): Trial => {
  const dir = join(work, label);
  mkdirSync(dir, { recursive: true });
  return { label, dir, out: join(dir, 'out'), next: join(dir, '.out.next'), previous: join(dir, '.out.previous') };
};

const TIMED = Array.from({ length: 10 }, (_, index) => `timed-${String(index + 1).padStart(2, '0')}`);

const SLOWED = ['slow-mid-write', 'slow-between-renames', 'slow-after-swap'];

/** Classifies what the kill left and asserts it is allowed: the old version, the new one, or (between the renames) none with the old one intact beside it. */
function inspectOnly(t: Trial, note = ''): KillOutcome {
  const out = readFolder(t.out);
  const outcome: KillOutcome = sameContent(out, oldVersion)
    ? 'old'
    : sameContent(out, newVersion)
      ? 'new'
      : out === undefined && sameContent(readFolder(t.previous), oldVersion)
        ? 'missing, old kept in .previous'
        : 'mixed';
  const leftovers = [t.next, t.previous].filter((path) => existsSync(path)).map((path) => relative(t.dir, path));
  outcomes.push({ label: `${t.label}${note}`, outcome, leftovers });
  expect({ trial: t.label, outcome }).not.toEqual({ trial: t.label, outcome: 'mixed' });
  return outcome;
}

/** Runs the compiler again: the output must be the complete new version, with nothing left beside it. */
async function recoverAndCheck(t: Trial): Promise<void> {
  expect(await recoverer.compile(definitionsNew, t.out)).toBe(0);
  expect({ trial: t.label, outIsNewVersion: sameContent(readFolder(t.out), newVersion) }).toEqual({ trial: t.label, outIsNewVersion: true });
  expect({ trial: t.label, leftAfterNextRun: readdirSync(t.dir).sort() }).toEqual({ trial: t.label, leftAfterNextRun: ['out'] });
}

async function inspectAndRecover(t: Trial, note = ''): Promise<KillOutcome> {
  const outcome = inspectOnly(t, note);
  await recoverAndCheck(t);
  return outcome;
}

/** Cues the trial's loaded compiler on its folder (holding the old version); `killWhen` decides when to SIGKILL it. */
async function killedCompile(label: string, killWhen: (t: Trial, kill: () => void) => () => void): Promise<Trial> {
  const entry = compilers.get(label);
  if (entry === undefined) throw new Error(`No compiler was started for trial ${label}.`);
  const { trial: t, compiler } = entry;
  writeFolder(t.out, oldVersion);
  compiler.cue(definitionsNew, t.out, true);
  const stopWatching = killWhen(t, () => compiler.kill());
  const deadline = setTimeout(() => compiler.kill(), 20_000); // never outlive the test
  await compiler.exited;
  clearTimeout(deadline);
  stopWatching();
  return t;
}

describe('compiler killed mid-write: the output folder is the old or the new version, never a mix', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(ROOT, 'test', '.tmp-interrupt-'));
    definitionsOld = join(work, 'definitions-old');
    definitionsNew = join(work, 'definitions-new');
    writeDefinitions(definitionsOld, 8, 10, 'old');
    writeDefinitions(definitionsNew, 10, 12, 'new');
    launcherBundle = await bundleForNode(LAUNCHER, join(work, 'compile-on-cue.mjs'));

    recoverer = new CompilerProcess();
    for (const label of [...TIMED, 'when-next-appears']) compilers.set(label, { trial: trial(label), compiler: new CompilerProcess() });
    for (const label of SLOWED) {
      const t = trial(label);
      compilers.set(label, { trial: t, compiler: new CompilerProcess({ SLOW_OUTPUT_MS: String(SLOW_MS), SLOW_OUTPUT_UNDER: t.dir }) });
    }
    await Promise.all([recoverer, ...[...compilers.values()].map((entry) => entry.compiler)].map((compiler) => compiler.ready()));

    // The recoverer's first compile (like the trials', the first in its process) is the uninterrupted one measured.
    const newReference = trial('reference-new');
    const started = performance.now();
    expect(await recoverer.compile(definitionsNew, newReference.out)).toBe(0);
    uninterruptedMs = performance.now() - started;
    newVersion = readFolder(newReference.out) ?? new Map();

    const oldReference = trial('reference-old');
    expect(await recoverer.compile(definitionsOld, oldReference.out)).toBe(0);
    oldVersion = readFolder(oldReference.out) ?? new Map();

    expect(oldVersion.size).toBeGreaterThanOrEqual(8);
    expect([...newVersion.keys()]).toEqual([...oldVersion.keys()]);
    // The files made from the definitions differ, so a mix of the two versions is visible (the JSON
    // Schemas come from the runtime's schema alone and are the same in both).
    const differing = [...newVersion].filter(([name, bytes]) => !bytes.equals(oldVersion.get(name) ?? Buffer.alloc(0))).map(([name]) => name);
    expect(differing).toEqual(expect.arrayContaining(['PERMISSIONS.md', 'ownership.ts', 'tables.ts', 'types.ts']));
  }, 240_000);

  afterAll(async () => {
    for (const { compiler } of compilers.values()) compiler.kill(); // any a failed test did not use
    await recoverer?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    if (outcomes.length > 0)
      console.info(
        `compile ${Math.round(uninterruptedMs)} ms uninterrupted; kills left:\n` +
          outcomes.map((o) => `  ${o.label}: ${o.outcome}${o.leftovers.length > 0 ? ` (+ ${o.leftovers.join(', ')})` : ''}`).join('\n'),
      );
  });
  killsAtEveryMoment();
});

function killsAtEveryMoment(): void {
  it('killed at 10 points spread across an uninterrupted compile, and as the new folder appears', async () => {
    for (const [index, label] of TIMED.entries()) {
      const delay = Math.round(((index + 1) * uninterruptedMs) / (TIMED.length + 1));
      const t = await killedCompile(label, (_, kill) => {
        const timer = setTimeout(kill, delay);
        return () => clearTimeout(timer);
      });
      await inspectAndRecover(t, ` at ${delay} ms`);
    }

    const t = await killedCompile('when-next-appears', (trialNow, kill) => {
      const timer = setInterval(() => {
        if (existsSync(trialNow.next)) kill();
      }, 0);
      return () => clearInterval(timer);
    });
    await inspectAndRecover(t);
  }, 60_000);

  describe(`each intermediate state, held ${SLOW_MS} ms by pausing after every file operation`, () => {
    /** Kills as soon as `reached(trial)` holds, polling the trial folder. */
    const whenState =
      (reached: (t: Trial) => boolean) =>
      (t: Trial, kill: () => void): (() => void) => {
        const timer = setInterval(() => {
          if (reached(t)) kill();
        }, 2);
        return () => clearInterval(timer);
      };
    const midWrite = whenState((t) => existsSync(t.next) && readdirSync(t.next).length >= 3);

    it('killed while the new files are being written: the old version is untouched, and no run leaves the partial copy behind', async () => {
      const t = await killedCompile('slow-mid-write', midWrite);
      const outcome = inspectOnly(t);
      expect(outcome).toBe('old');
      // The definitions are put back as they were: the output is already right, but the partial copy must go.
      expect(await recoverer.compile(definitionsOld, t.out)).toBe(0);
      expect(sameContent(readFolder(t.out), oldVersion)).toBe(true);
      expect(readdirSync(t.dir).sort()).toEqual(['out']);
      await recoverAndCheck(t);
    }, 30_000);

    it('killed between the two renames: the next run restores and completes the output', async () => {
      const t = await killedCompile(
        'slow-between-renames',
        whenState((trialNow) => !existsSync(trialNow.out) && existsSync(trialNow.previous)),
      );
      expect(await inspectAndRecover(t)).toBe('missing, old kept in .previous');
    }, 30_000);

    it('killed after the swap, before the old version is removed: the next run removes it', async () => {
      const t = await killedCompile(
        'slow-after-swap',
        whenState((trialNow) => existsSync(trialNow.out) && !existsSync(trialNow.next) && existsSync(trialNow.previous)),
      );
      expect(await inspectAndRecover(t)).toBe('new');
    }, 30_000);
  });
}
