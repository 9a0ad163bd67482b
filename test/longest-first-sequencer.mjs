/**
 * Jest's order with a memory: jest runs the suites it has timed longest first, so that two workers finish
 * together — but a fresh clone (CI) has no timings, and jest falls back to file size, which starts short suites
 * that happen to be long files and leaves the slowest for the end. This sequencer answers a suite's duration
 * from jest's own cache when it has one, else from test/suite-durations.json (seconds per suite, recorded from a
 * full run with `node scripts/record-suite-durations.mjs <jest --json output>`). A suite missing from both runs
 * first, as jest runs untimed suites.
 *
 * The suites that use the run's packed tarballs (test/package, test/docs, test/examples) would otherwise start the
 * run by packing — and installing the documentation's project — on one worker while the other waits for it. So, in a
 * run that also has other suites, those others go first, about {@link HOLD_SECONDS} of them, and the sequencer names
 * what the held suites need in TYPED_PERMISSIONS_TEST_WARM_UP: test/global-setup.mjs (which jest runs after sorting,
 * in this process) makes it in the background meanwhile.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';
import TestSequencer from '@jest/test-sequencer';

const recorded = JSON.parse(readFileSync(new URL('./suite-durations.json', import.meta.url), 'utf8'));

/** The suites that use the packed tarballs; those under test/docs also use the documentation's installed project. */
const USES_PACKS = /^test\/(?:package|docs|examples)\//;
const USES_DOCS_PROJECT = /^test\/docs\//;

/**
 * Seconds of other suites (as timed) queued before the first one that uses the packed tarballs: on two workers,
 * about a minute and a quarter of the run, which is what packing and installing the documentation's project take in
 * the background on a busy two-core machine.
 */
const HOLD_SECONDS = 150;

const pathOf = (test) => relative(test.context.config.rootDir, test.path);

export default class LongestFirstSequencer extends TestSequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const seconds = recorded[pathOf(test)];
    return seconds === undefined ? undefined : seconds * 1000;
  }

  sort(tests) {
    const sorted = super.sort(tests);
    const users = sorted.filter((test) => USES_PACKS.test(pathOf(test)));
    if (users.length === 0 || users.length === sorted.length) return sorted;
    const first = [];
    let held = 0;
    for (const test of sorted) {
      if (held >= HOLD_SECONDS * 1000) break;
      if (USES_PACKS.test(pathOf(test))) continue;
      first.push(test);
      held += test.duration ?? 0;
    }
    process.env.TYPED_PERMISSIONS_TEST_WARM_UP = users.some((test) => USES_DOCS_PROJECT.test(pathOf(test))) ? 'docs-project' : 'packs';
    return [...first, ...sorted.filter((test) => !first.includes(test))];
  }
}
