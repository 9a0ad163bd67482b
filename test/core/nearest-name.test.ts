/**
 * "Did you mean": the nearest known name to a misspelt one, within a bound that keeps far-fetched guesses out.
 */
import { describe, expect, it } from '@jest/globals';
import { didYouMean, nearestName } from '../../runtime/core/common/nearest-name.js';

const roles = ['AUTHOR', 'EDITOR', 'EMPLOYEE', 'EMPLOYEE_MANAGER', 'COMPANY_ADMIN', 'SUPER_ADMIN'];

describe('nearestName', () => {
  it.each([
    ['EDITRO', 'EDITOR'],
    ['editor', 'EDITOR'],
    ['EMPLYOEE', 'EMPLOYEE'],
    ['EMPLOYEE_MANAGR', 'EMPLOYEE_MANAGER'],
    ['SUPERADMIN', 'SUPER_ADMIN'],
    ['COMPANYADMIN', 'COMPANY_ADMIN'],
  ])('%s → %s', (name, expected) => {
    expect(nearestName(name, roles)).toBe(expected);
  });

  it.each([['ADMIN'], ['GOD'], ['QA_MANAGER'], ['X'], ['']])('%j is near no role', (name) => {
    expect(nearestName(name, roles)).toBeUndefined();
  });

  it('short names allow one edit; two swapped letters count from four letters on', () => {
    expect([nearestName('dcc', ['doc']), nearestName('dxx', ['doc']), nearestName('raed', ['read', 'list'])]).toEqual(['doc', undefined, 'read']);
  });

  it('a known name is not suggested for itself, and a name over 128 characters is not compared', () => {
    expect(nearestName('EDITOR', ['EDITOR'])).toBeUndefined();
    expect(nearestName(`${'A'.repeat(129)}`, [`${'A'.repeat(128)}`])).toBeUndefined();
  });

  it('among thousands of names, finds the one meant', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `TENANT_${i}_REVIEWER`);
    expect(nearestName('TENANT_4321_REVEIWER', many)).toBe('TENANT_4321_REVIEWER');
  });
});

describe('didYouMean', () => {
  it('is a sentence with the name quoted, or nothing', () => {
    expect([didYouMean('EDITRO', roles), didYouMean('NOBODY', roles)]).toEqual([' Did you mean "EDITOR"?', '']);
  });
});
