/**
 * The review page's words for each cell of the example's definitions, exactly: any and own, attributes with
 * exceptions, the ownership rule's condition and name, a hook-decided cell, and a cell that grants nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { attributesInWords, cellSentences, listInWords } from '../../compiler/review/cell-sentence.js';
import { cellKey, policyView, type PolicyView } from '../../compiler/review/policy-view.js';
import { buildGrantTables } from '../../runtime/core/table-building/table-builder.js';
import { repoRoot } from '../compiler/helpers.js';

function exampleView(): PolicyView {
  const result = compileModel(join(repoRoot, 'definitions'));
  if (!result.ok) throw new Error(`the example does not compile: ${JSON.stringify(result.problems)}`);
  return policyView(result.model.tables);
}

const sentencesOf = (view: PolicyView, resource: string, role: string, action: string): string[] =>
  cellSentences(role, action, resource, view.cells.get(cellKey(resource, role, action)) ?? []);

describe('the sentences of the example policy', () => {
  const view = exampleView();

  it('an own cell through a rule names its condition and its name, and the attributes with their exceptions', () => {
    expect(sentencesOf(view, 'document', 'EMPLOYEE', 'read')).toEqual([
      "EMPLOYEE may read a document where creatorId is the user's id (rule creator), seeing all attributes except confidential.",
    ]);
    expect(sentencesOf(view, 'document', 'EMPLOYEE_MANAGER', 'delete')).toEqual([
      "EMPLOYEE_MANAGER may delete a document where creatorId is the user's id or creatorId is one of the user's managedUserIds (rule creatorOrManaged), " +
        'seeing all attributes except confidential and personal.',
    ]);
    expect(sentencesOf(view, 'document', 'COMPANY_ADMIN', 'update')).toEqual([
      "COMPANY_ADMIN may update a document where creator.companyId is the user's companyId (rule sameCompany), seeing all attributes.",
    ]);
  });

  it('a cell granted as any and as own has a sentence for each, any first', () => {
    expect(sentencesOf(view, 'document', 'EMPLOYEE', 'list')).toEqual([
      'EMPLOYEE may list any document, seeing only date and title.',
      "EMPLOYEE may list a document where creatorId is the user's id (rule creator), seeing all attributes except confidential.",
    ]);
    expect(sentencesOf(view, 'document', 'EMPLOYEE_MANAGER', 'list')[0]).toBe('EMPLOYEE_MANAGER may list any document, seeing only date, status and title.');
  });

  it('an any cell with every attribute, and a cell that grants nothing', () => {
    expect(sentencesOf(view, 'decision', 'SUPER_ADMIN', 'read')).toEqual(['SUPER_ADMIN may read any decision, seeing all attributes.']);
    expect(sentencesOf(view, 'document', 'EMPLOYEE', 'delete')).toEqual(['EMPLOYEE may not delete any document.']);
    expect(sentencesOf(view, 'session', 'ANONYMOUS', 'read')).toEqual(['ANONYMOUS may not read any session.']);
  });

  it('the descriptions and rules the pages show come from the definitions that reach the resource (a `*` definition too)', () => {
    expect(view.descriptions.get('decision')).toEqual([
      'The decision log (who was granted or refused what, and by which definitions) is for super admins only.',
      'A super admin does anything to any resource.',
    ]);
    expect(view.rules.map((rule) => `${rule.resource} ${rule.name}: ${rule.condition}`)).toEqual([
      "document creator: creatorId is the user's id",
      "document creatorOrManaged: creatorId is the user's id or creatorId is one of the user's managedUserIds",
      "document sameCompany: creator.companyId is the user's companyId",
    ]);
  });
});

describe('the sentence of an own cell decided by hook methods, and the article before a vowel', () => {
  it('names the check that decides', () => {
    const built = buildGrantTables([
      {
        definition: { roles: ['AUDITOR'], resource: 'invoice', possession: 'own', grant: { read: ['amount', 'date'] }, isOwner: 'isAssignedAuditor' },
        location: { index: 0, source: 'invoice.permissions.json' },
      },
    ]);
    expect(built.problems).toEqual([]);
    const view = policyView(built.tables);
    expect(sentencesOf(view, 'invoice', 'AUDITOR', 'read')).toEqual([
      'AUDITOR may read an invoice they own, as the check isAssignedAuditor decides, seeing only amount and date.',
    ]);
  });
});

describe('attributes in words', () => {
  it.each([
    [['*'], 'all attributes'],
    [['*', '!confidential'], 'all attributes except confidential'],
    [['*', '!a', '!b', '!c'], 'all attributes except a, b and c'],
    [['title'], 'only title'],
    [['date', 'title'], 'only date and title'],
    [['author.name', 'title'], 'only author.name and title'],
    [['*', 'author.*'], 'the attributes * author.*'],
    [['author', '!author.email'], 'the attributes author !author.email'],
    [[], 'no attributes'],
  ])('%j is %j', (patterns, words) => {
    expect(attributesInWords(patterns)).toBe(words);
  });

  it('lists in words', () => {
    expect([listInWords([]), listInWords(['a']), listInWords(['a', 'b']), listInWords(['a', 'b', 'c'])]).toEqual(['', 'a', 'a and b', 'a, b and c']);
  });
});
