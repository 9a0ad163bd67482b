/**
 * The projects the guides end with declare ownership as a rule, not as methods: compiled, their tables name no hook
 * (no isOwner, listOwned, limitOwned or ownedAmong method for the application to write), and each ownership group is
 * decided by the rule its resource file declares. Their answers are checked where each is built and started
 * (test/examples/*.e2e.test.ts, browser-client.browser.test.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { repoRoot } from '../compiler/helpers.js';

/** Each guide's project, with the rule its one own definition names and the condition of that rule. */
const PROJECTS = [
  ['express', 'author', { attribute: 'authorId', equals: { user: 'id' } }],
  ['fastify', 'author', { attribute: 'authorId', equals: { user: 'id' } }],
  ['hono', 'author', { attribute: 'authorId', equals: { user: 'id' } }],
  ['nestjs', 'author', { attribute: 'authorId', equals: { user: 'id' } }],
  ['graphql', 'author', { attribute: 'authorId', equals: { user: 'id' } }],
  ['browser-client', 'documentOwner', { attribute: 'ownerId', equals: { user: 'id' } }],
] as const;

describe('the guides’ projects declare ownership without an ownership method', () => {
  it.each(PROJECTS)(
    'examples/%s: no hook; the own definition is decided by the rule %s',
    (project, rule, condition) => {
      const compiled = compileModel(join(repoRoot, 'examples', project, 'definitions'));
      if (!compiled.ok) throw new Error(`examples/${project} does not compile: ${JSON.stringify(compiled.problems)}`);
      const { tables } = compiled.model;
      expect(tables.hooks).toEqual([]);
      expect(tables.owners).toEqual([{ rule: 0, definitions: [0] }]);
      expect(tables.ownershipRules?.rules).toEqual([{ resource: 'document', name: rule, condition, userAttributes: { id: 'number' } }]);
    },
    30_000,
  );
});
