/**
 * Jest's order with a memory: jest runs the suites it has timed longest first, so that two workers finish
 * together — but a fresh clone (CI) has no timings, and jest falls back to file size, which starts short suites
 * that happen to be long files and leaves the slowest for the end. This sequencer answers a suite's duration
 * from jest's own cache when it has one, else from test/suite-durations.json (seconds per suite, recorded from a
 * full run with `node scripts/record-suite-durations.mjs <jest --json output>`). A suite missing from both runs
 * first, as jest runs untimed suites.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { URL } from 'node:url';
import TestSequencer from '@jest/test-sequencer';

const recorded = JSON.parse(readFileSync(new URL('./suite-durations.json', import.meta.url), 'utf8'));

export default class LongestFirstSequencer extends TestSequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const seconds = recorded[relative(test.context.config.rootDir, test.path)];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}
