/**
 * Writes test/suite-durations.json from a jest run's JSON report (`jest --json --outputFile=<file>`): each
 * suite's wall time in whole seconds, by path from the repository's root, sorted by path. The test sequencer
 * (test/longest-first-sequencer.mjs) reads it to run the longest suites first on a clone with no jest cache.
 *
 * Usage: node scripts/record-suite-durations.mjs /tmp/jest-report.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';

const [reportPath] = process.argv.slice(2);
if (reportPath === undefined) {
  process.stderr.write('usage: node scripts/record-suite-durations.mjs <jest --json report>\n');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map((suite) => [relative(root, suite.name), Math.max(1, Math.round((suite.endTime - suite.startTime) / 1000))])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(new URL('../test/suite-durations.json', import.meta.url), `${JSON.stringify(durations, null, 2)}\n`);
process.stdout.write(`test/suite-durations.json: ${Object.keys(durations).length} suites\n`);
