/**
 * The package benchmark in the report: browser bundle sizes next to CASL's, the client's slices, the
 * cold start of whole processes; and the targets on the bundle, the client and the cold start.
 */
import type { PackageResult } from './package.bench.js';
import { formatBytes, table, type TargetVerdict } from './report.js';

function bundleSection(result: PackageResult): string {
  const { ours, casl } = result.bundle;
  const client = result.client?.bundle;
  return `Browser bundle for reading one document with the example's rules (esbuild, minified, ESM; gzip level 9):\n\n${table(
    ['bundle', 'minified', 'min+gzip'],
    [
      ['typed-permissions/precompiled + compiled tables', formatBytes(ours.minifiedBytes), formatBytes(ours.gzipBytes)],
      ['@casl/ability + permittedFieldsOf', formatBytes(casl.minifiedBytes), formatBytes(casl.gzipBytes)],
      ...(client === undefined
        ? []
        : [['typed-permissions/client (decide a button, pick a document from the slice)', formatBytes(client.minifiedBytes), formatBytes(client.gzipBytes)]]),
    ],
  )}`;
}

function coldStartSection({ coldStart: cold }: PackageResult): string {
  if ('skipped' in cold) return `Cold start: skipped (${cold.skipped}).`;
  return `Cold start, whole \`node\` processes, median of ${cold.runs} interleaved runs:\n\n${table(
    ['process', 'median', 'ratio to CASL'],
    [
      ['import the compiled example tables (typed-permissions/precompiled), one grantPermit', `${cold.oursMs.toFixed(1)} ms`, `${cold.ratio.toFixed(2)}×`],
      ['import @casl/ability, build equivalent rules, one can()', `${cold.caslMs.toFixed(1)} ms`, '1.00×'],
      ['an empty module (the floor)', `${cold.emptyMs.toFixed(1)} ms`, `${(cold.emptyMs / cold.caslMs).toFixed(2)}×`],
    ],
  )}`;
}

/**
 * The package sections: bundle sizes, the client's slices, the cold start (none for results recorded
 * before this benchmark existed).
 *
 * @example
 * ```ts
 * packageSections(results.package)[0]; // 'Browser bundle for reading one document with the example's rules …'
 * ```
 */
export function packageSections(result: PackageResult | undefined): string[] {
  if (result === undefined) return [];
  return [
    bundleSection(result),
    ...(result.client === undefined
      ? []
      : [
          `The slices the client reads (\`permissions.sliceFor(user)\`, JSON) for the example users:\n\n${table(
            ['user', 'bytes'],
            result.client.slices.map((slice) => [slice.user, String(slice.bytes)]),
          )}`,
        ]),
    coldStartSection(result),
  ];
}

/**
 * The package targets: the core bundle at most 16 KB and the client at most 6 KB (min+gzip), the cold
 * start at most 1.3× CASL's.
 *
 * @example
 * ```ts
 * packageTargets(results.package).find((verdict) => verdict.target.startsWith('Browser bundle'))?.met; // true
 * ```
 */
export function packageTargets(result: PackageResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const { ours, casl } = result.bundle;
  const verdicts: TargetVerdict[] = [
    {
      target: 'Browser bundle of the core runtime (tables + Permit + pick), min+gzip, at most 16 KB',
      measured: `${formatBytes(ours.gzipBytes)} (${formatBytes(ours.minifiedBytes)} minified); CASL for equivalent rules: ${formatBytes(casl.gzipBytes)}`,
      met: ours.gzipBytes <= 16 * 1024,
    },
  ];
  if (result.client !== undefined) {
    const { bundle, slices } = result.client;
    verdicts.push({
      target: 'Browser client (typed-permissions/client: createClient + can + pick), min+gzip, at most 6 KB',
      measured:
        `${formatBytes(bundle.gzipBytes)} (${formatBytes(bundle.minifiedBytes)} minified); the example users' slices: ` +
        slices.map((slice) => `${slice.user} ${slice.bytes} B`).join(', '),
      met: bundle.gzipBytes <= 6 * 1024,
    });
  }
  const cold = result.coldStart;
  verdicts.push({
    target: 'Cold start (import + load the example tables + one grant, whole process) at most 1.3× CASL’s',
    measured:
      'skipped' in cold
        ? `skipped: ${cold.skipped}`
        : `${cold.ratio.toFixed(2)}× (${cold.oursMs.toFixed(1)} ms vs ${cold.caslMs.toFixed(1)} ms; ` +
          `an empty node process: ${cold.emptyMs.toFixed(1)} ms; median of ${cold.runs} interleaved runs)`,
    met: 'skipped' in cold ? undefined : cold.ratio <= 1.3,
  });
  return verdicts;
}
