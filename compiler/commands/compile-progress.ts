/**
 * Progress of a long compile on a terminal: the phase that starts and its count, on stderr, once the compile has
 * taken more than a second; nothing at all when the stream is not a terminal (a pipe, a file, CI), so that what
 * scripts and tests read does not change.
 */
import type { CompilePhase } from '../model/compile-phase.js';
import { printableLines, type ProgressStream } from './command-line.js';

export type { ProgressStream } from './command-line.js';

/** Counts as people read them: `3,001`. */
const formatCount = (n: number): string => n.toLocaleString('en-US');

/** How long a compile runs quietly before its phases are shown. */
export const PROGRESS_AFTER_MS = 1000;

/** What a phase is called on the terminal. */
function describePhase(phase: CompilePhase): string {
  switch (phase.name) {
    case 'reading':
      return `reading ${formatCount(phase.count)} files`;
    case 'checking':
      return `checking ${formatCount(phase.count)} definitions`;
    case 'expanding':
      return `expanding ${formatCount(phase.count)} definitions into grants`;
    case 'emitting':
      return `generating code, policy.json and PERMISSIONS.md for ${formatCount(phase.count)} grants`;
    case 'writing':
      return `writing ${formatCount(phase.count)} files`;
  }
}

/**
 * A progress callback for {@link compile} that writes `typed-permissions: [1.2 s] expanding 3,001 definitions into grants…`
 * for each phase starting after `afterMs`, when `stream` is a terminal; a callback that does nothing otherwise.
 *
 * @example
 * ```ts
 * const result = await compile({ definitionsDir, outDir, progress: compileProgress(process.stderr) });
 * ```
 */
export function compileProgress(stream: ProgressStream, afterMs = PROGRESS_AFTER_MS, now = () => performance.now()): (phase: CompilePhase) => void {
  if (stream.isTTY !== true) return () => undefined;
  const started = now();
  return (phase) => {
    const elapsed = now() - started;
    if (elapsed < afterMs) return;
    stream.write(`${printableLines(`typed-permissions: [${(elapsed / 1000).toFixed(1)} s] ${describePhase(phase)}…`)}\n`);
  };
}
