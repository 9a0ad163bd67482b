/**
 * The command line, run in-process through `main(argv, io)`: usage errors exit 2, `--check`
 * compares without writing, a write creates the out folder, and `--watch` keeps recompiling
 * (keeping the last good output through an invalid edit) until SIGINT.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandOutput } from '../../compiler/commands/command-line.js';
import { main } from '../../compiler/commands/main.js';
import { collectIo, EMITTED_FILES, fixture, makeTempDir, readFolderBytes, removeTempDir, repoRoot, sameBytes, waitFor } from './helpers.js';

let temp: string | undefined;

const at = (...parts: string[]) => join(temp as string, ...parts);

describe('typed-permissions CLI', () => {
  beforeAll(() => {
    temp = makeTempDir('cli');
  });
  afterAll(() => removeTempDir(temp));

  describe('usage errors exit 2 and print the usage', () => {
    const cases: readonly [what: string, argv: (dir: string) => string[], says: string][] = [
      ['no command', () => [], 'No command given.'],
      ['an unknown command', () => ['build', 'definitions'], 'Unknown command "build".'],
      ['two definitions folders', (dir) => ['compile', dir, dir], 'compile takes one definitions folder, got 2.'],
      ['--check together with --watch', (dir) => ['compile', dir, '--check', '--watch'], '--check and --watch cannot be combined.'],
      ['an unknown flag', (dir) => ['compile', dir, '--frobnicate'], '--frobnicate'],
      ['--out without a value', (dir) => ['compile', dir, '--out'], '--out'],
    ];
    it.each(cases)('%s', async (_what, argv, says) => {
      const out = at('usage', 'generated');
      const { logs, errors, io } = collectIo();
      const code = await main([...argv(fixture('basic')), ...(argv('').includes('--out') ? [] : ['--out', out])], io);
      expect(code).toBe(2);
      expect(logs).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^typed-permissions: /);
      expect(errors[0]).toContain(says);
      expect(errors[0]).toContain('Usage:\n  typed-permissions compile [definitionsDir] [--out <dir>] [--check] [--watch]');
      expect(existsSync(out)).toBe(false);
    });
  });

  it.each([
    ['compile', (dir: string) => ['compile', dir, '--out', join(dir, '..', 'missing-out')], 'missing-out was not changed.'],
    ['test', (dir: string) => ['test', dir], 'no test ran.'],
    ['explain', (dir: string) => ['explain', dir, '--roles', 'A', '--resource', 'doc', '--action', 'read'], undefined],
  ])('%s of a definitions folder that does not exist names the folder once, with a fix that fits every command', async (_command, argv, after) => {
    const dir = at('no-such-definitions');
    const { logs, errors, io } = collectIo();
    expect(await main(argv(dir), io)).toBe(1);
    expect(logs).toEqual([]);
    expect(errors).toEqual([
      `${dir} [invalid-file] Cannot read the definitions folder: ENOENT: no such file or directory, scandir '${dir}'. ` +
        'Fix: Pass the path of an existing folder of *.permissions.json files as the first argument (without one, ./definitions is read).',
      ...(after === undefined ? [] : [`typed-permissions: 1 problem in ${dir}; ${after.replace('missing-out', at('missing-out'))}`]),
    ]);
  });

  it("--version prints the compiler package's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'compiler', 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const { logs, errors, io } = collectIo();
      expect(await main([flag], io)).toBe(0);
      expect({ logs, errors }).toEqual({ logs: [`typed-permissions-cli ${version}`], errors: [] });
    }
  });

  it('--help prints the usage and exits 0', async () => {
    const { logs, errors, io } = collectIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(errors).toEqual([]);
    expect(logs.join('\n')).toContain('--check          do not write; exit 1 and list the files that are stale');
  });

  it('a write creates the out folder (and its parents) when absent, and says what it wrote', async () => {
    const out = at('fresh', 'deeper', 'generated');
    const { logs, errors, io } = collectIo();
    expect(await main(['compile', fixture('basic'), '--out', out], io)).toBe(0);
    expect(errors).toEqual([]);
    expect(readdirSync(out).sort()).toEqual([...EMITTED_FILES]);
    expect(logs).toEqual([
      expect.stringMatching(
        new RegExp(
          `^typed-permissions: wrote 11 files to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(5 roles, 2 resources, ` +
            `7 actions, \\d+ grants\\) in \\d+ ms\\.$`,
        ),
      ),
    ]);
    // Nothing but the out folder appears beside it (no .generated.next / .generated.previous left over).
    expect(readdirSync(at('fresh', 'deeper'))).toEqual(['generated']);
  }, 30_000);

  it('writing again over a fresh output changes nothing and says so', async () => {
    const out = at('again', 'generated');
    expect(await main(['compile', fixture('basic'), '--out', out], collectIo().io)).toBe(0);
    const before = readFolderBytes(out);
    const { logs, io } = collectIo();
    expect(await main(['compile', fixture('basic'), '--out', out], io)).toBe(0);
    expect(logs).toEqual([expect.stringContaining(`no change in ${out}`)]);
    expect(sameBytes(readFolderBytes(out), before)).toBe(true);
  }, 30_000);
  checkMode();
  defaultsAndWatch();
});

function checkMode(): void {
  describe('--check', () => {
    const out = () => at('check', 'generated');
    beforeAll(async () => {
      expect(await main(['compile', fixture('basic'), '--out', out()], collectIo().io)).toBe(0);
    }, 30_000);

    it('exits 0 when the output is fresh, and writes nothing', async () => {
      const before = readFolderBytes(out());
      const { logs, errors, io } = collectIo();
      expect(await main(['compile', fixture('basic'), '--out', out(), '--check'], io)).toBe(0);
      expect(errors).toEqual([]);
      expect(logs).toEqual([expect.stringContaining(`${out()} is up to date (5 roles, 2 resources, 7 actions,`)]);
      expect(sameBytes(readFolderBytes(out()), before)).toBe(true);
    }, 30_000);

    it('exits 1 and names exactly the stale files (edited, missing and extra) without touching them', async () => {
      const copy = at('check-stale', 'generated');
      cpSync(out(), copy, { recursive: true });
      appendFileSync(join(copy, 'types.ts'), '// edited by hand\n');
      rmSync(join(copy, 'PERMISSIONS.md'));
      // An extra file an older compiler generated (a file without the generated header would be refused as foreign, see output-folder.test.ts).
      writeFileSync(join(copy, 'old-file.ts'), '// Generated by typed-permissions from basic/ — do not edit.\nexport {};\n');
      const before = readFolderBytes(copy);
      const { logs, errors, io } = collectIo();
      expect(await main(['compile', fixture('basic'), '--out', copy, '--check'], io)).toBe(1);
      expect(logs).toEqual([]);
      expect(errors).toEqual([
        `typed-permissions: ${copy} is stale (PERMISSIONS.md, old-file.ts, types.ts). Run \`npx typed-permissions ` +
          `compile ${fixture('basic')} --out ${copy}\` and commit the result.`,
      ]);
      expect(sameBytes(readFolderBytes(copy), before)).toBe(true);
    }, 30_000);

    it('exits 1 when a definition changed since the output was written', async () => {
      const definitions = at('check-edited', 'basic');
      cpSync(fixture('basic'), definitions, { recursive: true });
      const shared = join(definitions, 'shared.permissions.json');
      writeFileSync(shared, readFileSync(shared, 'utf8').replace('"roles": "ADMIN"', '"roles": ["ADMIN", "AUDITOR"]'));
      const { errors, io } = collectIo();
      expect(await main(['compile', definitions, '--out', out(), '--check'], io)).toBe(1);
      expect(errors).toEqual([expect.stringContaining(`${out()} is stale (PERMISSIONS.md, policy.json, tables.ts, types.ts)`)]);
    }, 30_000);

    it('exits 1 naming every file when the out folder does not exist, and does not create it', async () => {
      const missing = at('check-missing', 'generated');
      const { errors, io } = collectIo();
      expect(await main(['compile', fixture('basic'), '--out', missing, '--check'], io)).toBe(1);
      expect(errors).toEqual([expect.stringContaining(`is stale (${EMITTED_FILES.join(', ')})`)]);
      expect(existsSync(missing)).toBe(false);
    }, 30_000);

    it('exits 1 on invalid definitions, like a write', async () => {
      const { errors, io } = collectIo();
      expect(await main(['compile', join(fixture('bad'), 'possession-suffix'), '--out', out(), '--check'], io)).toBe(1);
      expect(errors.some((line) => line.includes('[bad-possession]'))).toBe(true);
    });
  });
}

function defaultsAndWatch(): void {
  it('defaults to ./definitions and ./generated', async () => {
    const project = at('defaults');
    cpSync(fixture('basic'), join(project, 'definitions'), { recursive: true });
    const cwd = process.cwd();
    process.chdir(project);
    try {
      const { logs, io } = collectIo();
      expect(await main(['compile'], io)).toBe(0);
      expect(logs).toEqual([expect.stringContaining('wrote 11 files to generated (')]);
      expect(await main(['compile', '--check'], collectIo().io)).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(join(project, 'generated')).sort()).toEqual([...EMITTED_FILES]);
  }, 30_000);

  it('--watch recompiles on a valid edit, keeps the output through an invalid one, recompiles when it is fixed, and stops on SIGINT', async () => {
    const definitions = at('watch', 'basic');
    const out = at('watch', 'generated');
    mkdirSync(at('watch'));
    cpSync(fixture('basic'), definitions, { recursive: true });
    const shared = join(definitions, 'shared.permissions.json');
    const original = readFileSync(shared, 'utf8');
    const typesSay = (text: string) => () => {
      try {
        return readFileSync(join(out, 'types.ts'), 'utf8').includes(text);
      } catch {
        return false; // the folder is being swapped in
      }
    };

    const { logs, errors, io } = collectIo();
    const listenersBefore = process.listenerCount('SIGINT');
    const running = main(['compile', definitions, '--out', out, '--watch'], io);
    try {
      await waitFor('the first compile', () => logs.some((line) => line.startsWith(`typed-permissions: watching ${definitions}`)), 6000);
      expect(logs[0]).toContain('wrote 11 files');

      writeFileSync(shared, original.replace('"roles": "ADMIN"', '"roles": ["ADMIN", "AUDITOR"]'));
      await waitFor('a recompile with the new role', typesSay("'AUDITOR'"), 4000);
      await waitFor('the write to be reported', () => logs.length >= 3, 4000);
      const good = readFolderBytes(out);

      const errorsBefore = errors.length;
      writeFileSync(shared, original.replace('"grant": ["export"]', '"grant": ["export:mine"]'));
      await waitFor('the problem to be reported', () => errors.slice(errorsBefore).some((line) => line.includes(`not changed`)), 4000);
      const reported = errors.slice(errorsBefore);
      expect(reported[0]).toContain(`${definitions}/shared.permissions.json:6:15`);
      expect(reported[0]).toContain('[bad-possession]');
      expect(sameBytes(readFolderBytes(out), good)).toBe(true);

      writeFileSync(shared, original.replace('"roles": "ADMIN"', '"roles": ["ADMIN", "SUPPORT"]'));
      await waitFor('a recompile after the fix', typesSay("'SUPPORT'"), 4000);
      expect(readFileSync(join(out, 'types.ts'), 'utf8')).not.toContain("'AUDITOR'");
    } finally {
      // Stop the watcher even when an expectation failed, so the test never hangs.
      await waitFor('the SIGINT handler', () => process.listenerCount('SIGINT') > listenersBefore, 4000).catch(() => undefined);
      process.emit('SIGINT');
    }
    expect(await running).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(listenersBefore);
  }, 60_000);

  it('--watch follows the definitions folder at its path: replaced (removed and copied back, or renamed onto it), then edited, it is compiled', async () => {
    const definitions = at('watch-replaced', 'definitions');
    const out = at('watch-replaced', 'generated');
    mkdirSync(at('watch-replaced'));
    cpSync(fixture('basic'), definitions, { recursive: true });
    const { logs, errors, io } = collectIo();
    await watching(['compile', definitions, '--out', out, '--watch'], io, async () => {
      rmSync(definitions, { recursive: true });
      cpSync(fixture('basic'), definitions, { recursive: true });
      await waitFor('a compile of the folder copied back', () => logs.some((line) => line.startsWith(`typed-permissions: no change in ${out}`)), 8000);
      addRole(definitions, 'AUDITOR');
      await waitFor('a compile of the edit', () => typesSay(out, "'AUDITOR'"), 8000);

      renameSync(definitions, at('watch-replaced', 'old'));
      cpSync(fixture('basic'), at('watch-replaced', 'new'), { recursive: true });
      addRole(at('watch-replaced', 'new'), 'SUPPORT');
      renameSync(at('watch-replaced', 'new'), definitions);
      await waitFor('a compile of the folder renamed onto the path', () => typesSay(out, "'SUPPORT'"), 8000);
      addRole(definitions, 'OPERATOR');
      await waitFor('a compile of the edit', () => typesSay(out, "'OPERATOR'"), 8000);
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('--watch compiles an edit saved while its first compile runs', async () => {
    const definitions = at('watch-early', 'definitions');
    const out = at('watch-early', 'generated');
    mkdirSync(at('watch-early'));
    cpSync(fixture('basic'), definitions, { recursive: true });
    const { logs, errors, io } = collectIo();
    let edited = false;
    // The first compile's progress says when it has read the files: the edit lands after that, during the compile.
    const stream = {
      isTTY: true,
      write: (text: string) => {
        if (edited || !text.includes('checking')) return;
        addRole(definitions, 'AUDITOR');
        edited = true;
      },
    };
    await watching(['compile', definitions, '--out', out, '--watch'], { ...io, progress: { stream, afterMs: 0 } }, async () => {
      expect(logs[0]).toContain('wrote 11 files');
      await waitFor('a compile of the edit', () => typesSay(out, "'AUDITOR'"), 8000);
    });
    expect(edited).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('--watch of a folder that does not exist reports it, waits, and compiles the folder when it appears', async () => {
    const definitions = at('watch-missing', 'definitions');
    const out = at('watch-missing', 'generated');
    mkdirSync(at('watch-missing'));
    const { logs, errors, io } = collectIo();
    await watching(['compile', definitions, '--out', out, '--watch'], io, async () => {
      expect(errors).toEqual([
        `${definitions} [invalid-file] Cannot read the definitions folder: ENOENT: no such file or directory, scandir '${definitions}'. ` +
          'Fix: Pass the path of an existing folder of *.permissions.json files as the first argument (without one, ./definitions is read).',
        `typed-permissions: 1 problem in ${definitions}; ${out} was not changed.`,
      ]);
      expect(logs).toEqual([`typed-permissions: watching ${definitions} (Ctrl-C to stop).`]);
      cpSync(fixture('basic'), definitions, { recursive: true });
      await waitFor('a compile of the folder that appeared', () => logs.length === 2, 8000);
      expect(logs[1]).toMatch(new RegExp(`^typed-permissions: wrote 11 files to ${out} \\(`));
    });
    expect(errors).toHaveLength(2);
  }, 60_000);
}

/** Whether the generated types.ts names `text` (false while the output folder is being swapped in). */
function typesSay(out: string, text: string): boolean {
  try {
    return readFileSync(join(out, 'types.ts'), 'utf8').includes(text);
  } catch {
    return false;
  }
}

/** Writes the basic fixture's shared.permissions.json into `definitions`, its ADMIN definition given one more role. */
function addRole(definitions: string, role: string): void {
  const original = readFileSync(join(fixture('basic'), 'shared.permissions.json'), 'utf8');
  writeFileSync(join(definitions, 'shared.permissions.json'), original.replace('"roles": "ADMIN"', `"roles": ["ADMIN", "${role}"]`));
}

/** Runs a `--watch` command, waits for its "watching" line, runs `during`, then stops it with SIGINT (also when `during` failed). */
async function watching(argv: string[], io: CommandOutput, during: () => Promise<void>): Promise<void> {
  const listenersBefore = process.listenerCount('SIGINT');
  const logs: string[] = [];
  const running = main(argv, { ...io, log: (line) => (logs.push(line), io.log(line)) });
  try {
    await waitFor('the watch to start', () => logs.some((line) => line.startsWith('typed-permissions: watching ')), 8000);
    await during();
  } finally {
    await waitFor('the SIGINT handler', () => process.listenerCount('SIGINT') > listenersBefore, 4000).catch(() => undefined);
    process.emit('SIGINT');
  }
  expect(await running).toBe(0);
  expect(process.listenerCount('SIGINT')).toBe(listenersBefore);
}
