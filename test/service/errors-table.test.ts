/**
 * The Errors table of docs/decision-service.md lists exactly the problems the service answers with: one row per
 * kind, with its status and its `type`, none missing and none the service never gives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { PROBLEM_KINDS } from '../../runtime/service/problem-details.js';
import { repoRoot } from '../compiler/helpers.js';

/** The rows of the table under `## Errors`, as `<status> <type>`, in the order the table gives them. */
function errorsTableRows(): string[] {
  const guide = readFileSync(join(repoRoot, 'docs', 'decision-service.md'), 'utf8');
  const section = guide.slice(guide.indexOf('\n## Errors\n'), guide.indexOf('\n## ', guide.indexOf('\n## Errors\n') + 1));
  return [...section.matchAll(/^\| (\d{3}) \| `([^`]+)` \|/gm)].map(([, status, type]) => `${status} ${type}`);
}

describe('the Errors table of docs/decision-service.md', () => {
  it('has one row for each kind of problem the service answers with, its status and type, by status', () => {
    const kinds = Object.entries(PROBLEM_KINDS)
      .map(([kind, { status }]) => `${status} urn:typed-permissions:problem:${kind}`)
      .sort();
    expect(errorsTableRows()).toEqual(kinds);
  });
});
