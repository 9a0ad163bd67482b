/**
 * The background half of a jest run's shared work: test/global-setup.mjs starts this process when the run has both
 * suites that use the packed tarballs (test/package, test/docs, test/examples) and suites that do not, and the test
 * sequencer queues the latter first — so that both workers test while this packs the tarballs and, for a run with
 * documentation suites (argument `docs-project`), installs the documentation's project. It takes the same once-per-run
 * locks the suites take (test/package/once-per-run.ts): a suite that needs the result sooner waits for it, and a
 * failure here is the failure every suite that needs the result reports.
 */
import process from 'node:process';
import { sharedDocsProject } from './docs/docs-project.js';
import { sharedPackedWorkspaces } from './package/throwaway-project.js';

await (process.argv[2] === 'docs-project' ? sharedDocsProject() : sharedPackedWorkspaces());
