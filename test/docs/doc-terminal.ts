/**
 * One terminal per document, as a reader who pastes its blocks one after another into one terminal has: each block
 * (or console command) runs in a new bash that starts where the previous one ended — in the folder it changed into,
 * with the variables it exported (or unset). Shell variables that are not exported, functions, aliases and traps do
 * not carry over: a document must not rely on them.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, userEnvironment } from '../package/throwaway-project.js';

/** Variables bash itself keeps up to date: the terminal's folder carries over through `cd`, not through these. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/** How a block is pasted: an sh block stops at its first failing command (`bash -e`), a console command is one line. */
export interface PasteOptions {
  readonly stopOnError: boolean;
}

/**
 * A terminal that starts in `folder` and keeps its current folder and exported variables from one pasted block to
 * the next. Close it to remove the files it keeps its state in.
 *
 * @example
 * ```ts
 * const terminal = new DocumentTerminal(project);
 * terminal.paste('mkdir -p app && cd app && export GREETING=hi', { stopOnError: true });
 * terminal.paste('pwd; echo "$GREETING"', { stopOnError: false }).stdout; // '<project>/app\nhi\n'
 * terminal.close();
 * ```
 */
export class DocumentTerminal {
  #folder: string;
  /** The exported variables the pasted blocks changed, against {@link userEnvironment}; undefined: unset. */
  #changes: Readonly<Record<string, string | undefined>> = {};
  readonly #state: string;

  constructor(folder: string) {
    this.#folder = folder;
    this.#state = mkdtempSync(join(tmpdir(), 'typed-permissions-terminal-'));
    // The paths are written into the shell's EXIT trap in double quotes.
    if (/["$`\\]/.test(this.#state)) throw new Error(`the temporary folder ${this.#state} has a character the shell would expand`);
  }

  /** The terminal's current folder. */
  get folder(): string {
    return this.#folder;
  }

  /** The exported variables pasted blocks set (a value) or unset (undefined) so far. */
  get changes(): Readonly<Record<string, string | undefined>> {
    return this.#changes;
  }

  /**
   * Runs `code` as pasted into this terminal, and keeps the folder and exported variables it ends with (also when it
   * fails: a terminal stays where a failed command left it).
   *
   * @example
   * ```ts
   * const result = terminal.paste('npx tsc', { stopOnError: false });
   * ```
   */
  paste(code: string, { stopOnError }: PasteOptions): SpawnSyncReturns<string> {
    const folderFile = join(this.#state, 'folder');
    const environmentFile = join(this.#state, 'environment');
    rmSync(folderFile, { force: true });
    rmSync(environmentFile, { force: true });
    // The trap runs when the shell exits, however it exits; it writes to files, so the output stays the block's own.
    const save = `trap 'pwd > "${folderFile}"; env -0 > "${environmentFile}"' EXIT`;
    const result = run('bash', [...(stopOnError ? ['-e'] : []), '-c', `${save}\n${code}`], this.#folder, undefined, this.#changes);
    // A shell killed by the time bound saves nothing: the terminal stays as it was.
    if (existsSync(folderFile) && existsSync(environmentFile)) {
      this.#folder = readFileSync(folderFile, 'utf8').replace(/\n$/, '');
      this.#changes = changesFrom(readFileSync(environmentFile, 'utf8'));
    }
    return result;
  }

  /** Removes the files the terminal keeps its state in. */
  close(): void {
    rmSync(this.#state, { recursive: true, force: true });
  }
}

/** The exported variables of `env -0` output that differ from (or are missing in) the {@link userEnvironment}. */
function changesFrom(environment: string): Record<string, string | undefined> {
  const exported = new Map<string, string>();
  for (const entry of environment.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals > 0) exported.set(entry.slice(0, equals), entry.slice(equals + 1));
  }
  const base = userEnvironment();
  const changes: Record<string, string | undefined> = {};
  for (const [name, value] of exported) if (!SHELL_OWN.has(name) && base[name] !== value) changes[name] = value;
  for (const name of Object.keys(base)) if (!SHELL_OWN.has(name) && base[name] !== undefined && !exported.has(name)) changes[name] = undefined;
  return changes;
}
