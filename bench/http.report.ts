/**
 * The HTTP benchmark in the report: requests per second of the unprotected and the guarded endpoints,
 * and the target that a guarded endpoint keeps at least 85% of the unprotected one's rate.
 */
import type { HttpResult } from './http.bench.js';
import { formatRatio, limitWhenMissed, table, type TargetVerdict } from './report.js';

const TARGET = 'Guarded endpoint at least 85% of the unprotected one’s requests per second';

/**
 * The HTTP sections: the endpoint table and the load command, or why it was skipped.
 *
 * @example
 * ```ts
 * httpSections({ skipped: 'smoke run' }); // ['HTTP: skipped — smoke run']
 * ```
 */
export function httpSections(http: HttpResult): string[] {
  if ('skipped' in http) return [`HTTP: skipped — ${http.skipped}`];
  return [
    `HTTP — ${http.connections} connections, ${http.durationSeconds} s per endpoint and round, ${http.rounds} rounds ` +
      `in alternating order (mean shown):\n\n${table(
        ['endpoint', 'x-user-id', 'req/s', 'p99', 'ratio to unprotected', 'non-2xx / errors'],
        http.endpoints.map((e) => [
          e.label,
          String(e.userId),
          e.requestsPerSecond.toFixed(0),
          `${e.p99Ms.toFixed(1)} ms`,
          formatRatio(e.ratioToUnprotected),
          e.rounds.map((r) => `${r.non2xx}/${r.errors}`).join(', '),
        ]),
      )}`,
    `Load: ${http.command}`,
  ];
}

/**
 * The HTTP targets: each guarded endpoint at least 85% of the unprotected one's requests per second
 * (not measured when the benchmark was skipped).
 *
 * @example
 * ```ts
 * httpTargets({ skipped: 'smoke run' })[0]?.met; // undefined
 * ```
 */
export function httpTargets(http: HttpResult): TargetVerdict[] {
  if ('skipped' in http) return [{ target: TARGET, measured: `skipped: ${http.skipped}`, met: undefined }];
  return http.endpoints.slice(1).map((endpoint) => {
    const met = endpoint.ratioToUnprotected >= 0.85;
    return {
      target: `${TARGET} — ${endpoint.label}`,
      measured:
        `${(endpoint.ratioToUnprotected * 100).toFixed(1)}% (${endpoint.requestsPerSecond.toFixed(0)} vs ` +
        `${http.endpoints[0]?.requestsPerSecond.toFixed(0)} req/s)`,
      met,
      ...limitWhenMissed(met, 'See "What limits the missed targets" below: HTTP.'),
    };
  });
}
