/**
 * TypeScript's command line, for checking what users compile with the compiler they have: TypeScript 7 (the native
 * compiler, what `npm install typescript` installs; no JavaScript API for the tests to call) is installed beside the
 * repository's TypeScript 6 as the package `typescript-7`. Its diagnostics are read back from its output in the form
 * the tests already use for TypeScript 6's API: `line:column TScode: message`, per file.
 */
import { spawnSync } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { repoRoot } from './helpers.js';

/** TypeScript 7's `tsc`, run with node. */
export const TSC_7 = join(repoRoot, 'node_modules', 'typescript-7', 'bin', 'tsc');
/** TypeScript 6's `tsc` (the repository's own), run with node. */
export const TSC_6 = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** What a run of `tsc` reported: its exit code, and every diagnostic by file (absolute path; `<global>` for none). */
export interface TscResult {
  readonly status: number | null;
  readonly byFile: ReadonlyMap<string, readonly string[]>;
  /** The whole output, for failure messages. */
  readonly output: string;
}

const DIAGNOSTIC = /^(?:(.+)\((\d+),(\d+)\): )?error (TS\d+): (.*)$/;

/**
 * Runs `tsc -p <config>` in `cwd` (bounded to two minutes) and reads its diagnostics back.
 *
 * @example
 * ```ts
 * const { status, byFile } = runTsc(TSC_7, join(temp, 'tsconfig.json'), temp);
 * byFile.get(join(temp, 'wrong.ts')); // ["3:62 TS2820: Type '\"EDITRO\"' is not assignable to type 'Role'. Did you mean '\"EDITOR\"'?"]
 * ```
 */
export function runTsc(tsc: string, config: string, cwd: string): TscResult {
  const result = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const output = `${result.stdout}${result.stderr}`;
  const byFile = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of output.split('\n')) {
    const diagnostic = DIAGNOSTIC.exec(line);
    if (diagnostic !== null) {
      const [, file, row, column, code, message] = diagnostic;
      const key = file === undefined ? '<global>' : isAbsolute(file) ? file : join(cwd, file);
      last = byFile.get(key) ?? [];
      byFile.set(key, last);
      last.push(`${file === undefined ? '' : `${row}:${column} `}${code}: ${message}`);
    } else if (line.startsWith('  ') && last !== undefined && last.length > 0) {
      // A message chain goes on, indented, on the next lines (as flattenDiagnosticMessageText with '\n' writes it).
      last[last.length - 1] += `\n${line}`;
    } else if (line.trim() !== '') {
      // Anything else (a crash, an unknown option) is reported as it is.
      const global = byFile.get('<global>') ?? [];
      global.push(line);
      byFile.set('<global>', global);
      last = undefined;
    }
  }
  return { status: result.status, byFile, output };
}

/**
 * `text` with the members of every quoted union of string literals in sorted order: TypeScript 7 prints a union's
 * members in a stable order of its own, TypeScript 6 in the order it created them, and the diagnostics are
 * otherwise the same.
 *
 * @example
 * ```ts
 * sortedUnions(`Type '"x"' is not assignable to type '"read" | "delete"'.`); // `Type '"x"' is not assignable to type '"delete" | "read"'.`
 * ```
 */
export function sortedUnions(text: string): string {
  return text.replace(/'("[^"]*"(?: \| "[^"]*")+)'/g, (_, union: string) => `'${union.split(' | ').sort().join(' | ')}'`);
}
