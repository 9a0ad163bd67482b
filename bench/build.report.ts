/**
 * The start-up and tooling benchmark in the report: build() against loading precompiled tables, the
 * compiler end to end, `tsc --noEmit` of the 10× output; and the targets on the 10× build and compile.
 */
import type { BuildResult } from './build.bench.js';
import { formatBytes, formatMs, limitWhenMissed, table, type TargetVerdict } from './report.js';

function compileSection(build: BuildResult): string[] {
  if (build.compile.length === 0) return [];
  const rows = build.compile.map((c) => {
    const largest = Object.entries(c.outputBytes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, bytes]) => `${name} ${formatBytes(bytes)}`)
      .join(', ');
    return [
      `${c.scale}×`,
      String(c.inputFiles),
      c.runsMs.map(formatMs).join(', '),
      c.medianWarmMs === undefined ? '—' : formatMs(c.medianWarmMs),
      c.cliColdMs === undefined ? '—' : formatMs(c.cliColdMs),
      largest,
    ];
  });
  return [
    `Compiler end to end (definitions folder → generated/, formatted and written):\n\n${table(
      ['scale', 'input files', 'compile() in process, each run', 'median of warm runs', 'CLI, fresh process', 'largest outputs'],
      rows,
    )}`,
  ];
}

/**
 * The build sections: build() and loading tables per scale, the compiler, and tsc over the 10× output.
 *
 * @example
 * ```ts
 * buildSections(results.build)[0]; // 'build — median: …'
 * ```
 */
export function buildSections(build: BuildResult): string[] {
  const { tsc } = build;
  return [
    `build — median:\n\n${table(
      ['scale', 'definitions', 'cells', 'new Permissions + addPermissions + build()', 'permissionsFromTables (load precompiled tables)'],
      build.build.map((b) => [`${b.scale}×`, String(b.definitions), String(b.cells), formatMs(b.buildMs), formatMs(b.loadTablesMs)]),
    )}`,
    ...compileSection(build),
    'skipped' in tsc
      ? `tsc --noEmit of the 10× output: skipped (${tsc.skipped}).`
      : `tsc --noEmit of the 10× generated output (plus the runtime core it imports): ${formatMs(tsc.ms)}, ` +
        `exit code ${tsc.exitCode} — \`${tsc.command}\`${tsc.output === '' ? '' : `\n\n\`\`\`\n${tsc.output}\n\`\`\``}`,
  ];
}

/**
 * The build targets: 10× build() under 50 ms and a 10× compile under 10 s (not measured in a smoke run).
 *
 * @example
 * ```ts
 * buildTargets(results.build)[0]?.target; // '10× build() under 50 ms'
 * ```
 */
export function buildTargets(build: BuildResult): TargetVerdict[] {
  const build10 = build.build.find((b) => b.scale === 10);
  const buildMet = build10 === undefined ? undefined : build10.buildMs < 50;
  const compile10 = build.compile.find((c) => c.scale === 10);
  const compileMet = compile10?.cliColdMs === undefined ? undefined : compile10.cliColdMs < 10_000 && (compile10.medianWarmMs ?? 0) < 10_000;
  return [
    {
      target: '10× build() under 50 ms',
      measured:
        build10 === undefined
          ? 'not measured (smoke run)'
          : `${formatMs(build10.buildMs)} (loading the precomputed tables instead: ${formatMs(build10.loadTablesMs)})`,
      met: buildMet,
      ...limitWhenMissed(buildMet, 'See "What limits the missed targets" below: build().'),
    },
    {
      target: '10× compile under 10 s',
      measured:
        compile10 === undefined
          ? 'not measured (smoke run)'
          : `CLI in a fresh process ${compile10.cliColdMs === undefined ? '—' : formatMs(compile10.cliColdMs)}; ` +
            `in process ${compile10.runsMs.map(formatMs).join(', ')}`,
      met: compileMet,
      ...limitWhenMissed(compileMet, 'See "What limits the missed targets" below: compiler.'),
    },
  ];
}
