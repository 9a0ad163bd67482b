/**
 * Warnings said once: each kind and name once through the logger, at most MAX_WARNINGS distinct ones per engine (a
 * stream of new unknown names says nothing more), and with `strict` a refusal every time, never counted.
 */
import { describe, expect, it } from '@jest/globals';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { MAX_WARNINGS, OnceWarnings } from '../../runtime/core/decision/once-warnings.js';

const unknownRole = (name: string) => () => ({ problem: `unknown role "${name}": no definition names it`, consequence: 'it is ignored' });

describe('warnings said once', () => {
  it(`says each kind and name once, ${MAX_WARNINGS} distinct ones at most; past that, nothing`, () => {
    const said: string[] = [];
    const warnings = new OnceWarnings(false, { warn: (message) => said.push(message) });
    warnings.warn('role', 'QA', unknownRole('QA'));
    warnings.warn('role', 'QA', unknownRole('QA'));
    warnings.warn('resource', 'QA', () => ({ problem: 'unknown resource "QA": no definition names it', consequence: 'nothing is granted' }));
    expect(said).toEqual([
      'typed-permissions: unknown role "QA": no definition names it; it is ignored.',
      'typed-permissions: unknown resource "QA": no definition names it; nothing is granted.',
    ]);
    for (let i = said.length; i < MAX_WARNINGS; i++) warnings.warn('role', `R${i}`, unknownRole(`R${i}`));
    expect([said.length, said.at(-1)]).toEqual([
      MAX_WARNINGS,
      `typed-permissions: unknown role "R${MAX_WARNINGS - 1}": no definition names it; it is ignored.`,
    ]);
    warnings.warn('role', 'PAST', unknownRole('PAST'));
    expect(said.length).toBe(MAX_WARNINGS);
  });

  it('with strict, refuses every time, and counts none of the refusals', () => {
    const said: string[] = [];
    const warnings = new OnceWarnings(true, { warn: (message) => said.push(message) });
    for (let i = 0; i < 2; i++)
      expect(() => warnings.warn('role', 'QA', () => ({ ...unknownRole('QA')(), hint: ' Did you mean "QA_LEAD"?' }))).toThrow(
        new PermissionsUsageError('unknown role "QA": no definition names it; strict mode refuses the query. Did you mean "QA_LEAD"?'),
      );
    expect(said).toEqual([]);
  });
});
