/**
 * Progress of a compile: compile() tells each phase as it starts, with its count; a policy past a grant limit is
 * refused before the expanding phase (the costly one) starts; the command line shows the phases on a terminal once a
 * compile has taken more than a second, and writes nothing anywhere else.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type CompilePhase } from '../../compiler/compile.js';
import { compileProgress, PROGRESS_AFTER_MS, type ProgressStream } from '../../compiler/commands/compile-progress.js';
import { main } from '../../compiler/commands/main.js';
import { collectIo, fixture, makeTempDir, removeTempDir } from './helpers.js';

let temp: string | undefined;
const at = (...parts: string[]) => join(temp as string, ...parts);

/** A stream that keeps what is written to it; a terminal or not. */
function stream(isTTY: boolean): ProgressStream & { readonly written: string[] } {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

/** Writes `definitions` as the one file of a new definitions folder named `name`. */
function folder(name: string, definitions: unknown[]): string {
  const dir = at(name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'policy.permissions.json'), JSON.stringify(definitions, null, 1));
  return dir;
}

const roles = (n: number) => Array.from({ length: n }, (_, i) => `R${i}`);

describe('compile progress', () => {
  beforeAll(() => {
    temp = makeTempDir('compile-progress');
  });
  afterAll(() => removeTempDir(temp));

  it('compile() tells each phase as it starts, with its count', async () => {
    const phases: CompilePhase[] = [];
    const result = await compile({ definitionsDir: fixture('basic'), outDir: at('basic-out'), progress: (phase) => phases.push(phase) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(phases).toEqual([
      { name: 'reading', count: result.inputs.length },
      { name: 'checking', count: result.model.definitions.length },
      { name: 'expanding', count: result.model.definitions.length },
      { name: 'emitting', count: result.model.tables.cells.length },
      { name: 'writing', count: result.files.length },
    ]);
  });

  it('a policy past the distinct-grant limit is refused before anything is expanded or generated', async () => {
    // 1,001 roles × 50 resources × 10 actions = 500,500 grants: 500 past the limit of 500,000.
    const resources = Array.from({ length: 50 }, (_, i) => `r${i}`);
    const dir = folder('past-cells', [
      ...resources.map((resource) => ({ roles: 'R0', resource, grant: Array.from({ length: 6 }, (_, i) => `a${i}:any`) })),
      { roles: roles(1001), resource: '*', grant: ['*:any'] },
    ]);
    const phases: string[] = [];
    const result = await compile({ definitionsDir: dir, outDir: at('past-cells-out'), progress: ({ name }) => phases.push(name) });
    expect(phases).toEqual(['reading', 'checking']);
    expect(result.ok ? [] : result.problems.map(({ file, line, column, path, code, message }) => ({ file, line, column, path, code, message }))).toEqual([
      {
        file: 'policy.permissions.json',
        line: 1608,
        column: 4,
        path: [50, 'grant', 0],
        code: 'too-large',
        message: "With this grant the definitions need more than 500,000 distinct grants of a role, resource and action (every '*' is expanded), the limit.",
      },
    ]);
  }, 30_000);

  it('a policy past the expansion limit is refused before anything is expanded or generated, naming the definition that reaches most', async () => {
    // 1,000 roles, 20 resources, 4 actions: each '*' definition reaches 80,000; thirteen of them and the rest 1,041,019.
    const everything = { roles: '*', resource: '*', grant: ['*:any'] };
    const dir = folder('past-expansions', [
      { roles: roles(1000), resource: 'r0', grant: ['read:any'] },
      ...Array.from({ length: 19 }, (_, i) => ({ roles: 'R0', resource: `r${i + 1}`, grant: ['read:any'] })),
      ...Array.from({ length: 13 }, () => everything),
    ]);
    const phases: string[] = [];
    const result = await compile({ definitionsDir: dir, outDir: at('past-expansions-out'), progress: ({ name }) => phases.push(name) });
    expect(phases).toEqual(['reading', 'checking']);
    expect(result.ok ? [] : result.problems.map(({ line, path, code, message }) => ({ line, path, code, message }))).toEqual([
      {
        line: 1143,
        path: [20],
        code: 'too-large',
        message:
          "The grant entries reach 1,041,019 role × resource × action combinations in all, every '*' expanded and a combination counted " +
          'once for each entry that reaches it: more than the limit of 1,000,000. This definition reaches the most, 80,000 ' +
          '(1000 roles, 20 resources, 4 actions are known).',
      },
    ]);
  }, 30_000);

  it('on a terminal, each phase that starts after the delay is written to the stream, with the time and its count', () => {
    const terminal = stream(true);
    let now = 0;
    const progress = compileProgress(terminal, PROGRESS_AFTER_MS, () => now);
    progress({ name: 'reading', count: 3000 });
    now = 999;
    progress({ name: 'checking', count: 3001 });
    expect(terminal.written).toEqual([]);
    now = 1000;
    progress({ name: 'expanding', count: 3001 });
    now = 2450;
    progress({ name: 'emitting', count: 304086 });
    now = 9000;
    progress({ name: 'writing', count: 10 });
    expect(terminal.written).toEqual([
      'typed-permissions: [1.0 s] expanding 3,001 definitions into grants…\n',
      'typed-permissions: [2.5 s] generating code, policy.json and PERMISSIONS.md for 304,086 grants…\n',
      'typed-permissions: [9.0 s] writing 10 files…\n',
    ]);
  });

  it('anywhere but a terminal nothing is written, however long the compile', () => {
    for (const isTTY of [false, undefined]) {
      const written: string[] = [];
      const progress = compileProgress({ isTTY, write: (text: string) => written.push(text) }, 0, () => 60_000);
      progress({ name: 'reading', count: 1 });
      progress({ name: 'writing', count: 10 });
      expect(written).toEqual([]);
    }
  });

  it('the command line shows the phases on a terminal, and only there; what it logs is the same', async () => {
    const outputs: { progress: string[]; logs: string[] }[] = [];
    for (const isTTY of [true, false]) {
      const terminal = stream(isTTY);
      const { logs, errors, io } = collectIo();
      const code = await main(['compile', fixture('basic'), '--out', at(`cli-${isTTY}`)], { ...io, progress: { stream: terminal, afterMs: 0 } });
      expect([code, errors]).toEqual([0, []]);
      outputs.push({
        progress: terminal.written.map((line) => line.replace(/\[\d+\.\d s\]/, '[…]')),
        logs: logs.map((line) => line.replace(/ in \d+ ms\.$/, '').replace(/cli-(true|false)/, 'cli')),
      });
    }
    const [onTerminal, elsewhere] = outputs;
    expect(onTerminal?.progress.map((line) => line.replace(/\d+/g, 'N'))).toEqual([
      'typed-permissions: […] reading N files…\n',
      'typed-permissions: […] checking N definitions…\n',
      'typed-permissions: […] expanding N definitions into grants…\n',
      'typed-permissions: […] generating code, policy.json and PERMISSIONS.md for N grants…\n',
      'typed-permissions: […] writing N files…\n',
    ]);
    expect(elsewhere?.progress).toEqual([]);
    expect(onTerminal?.logs).toEqual(elsewhere?.logs);
  }, 30_000);
});
