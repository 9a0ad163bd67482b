/**
 * A resource's declared id type is the default projection of every id that enters a check: `grantPermit`
 * turns the canonical text of a numeric id into the number the hooks are typed to receive, and refuses
 * anything else with a PermissionsInvalidIdError (400 in the integrations) before any hook runs.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MAX_STRING_ID_LENGTH, projectResourceIdOfType } from '../../runtime/core/decision/resource-id.js';
import { PermissionsInvalidIdError, Permissions, PermissionsUsageError, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import { buildQuietly } from './helpers.js';

const definitions: PermissionDefinition[] = [
  { roles: ['OWNER'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['OWNER'], resource: 'note', grant: ['read:any'] },
  { roles: ['OWNER'], resource: 'file', grant: ['read:any'] },
];

/** Records what each isOwner call received: a hook typed `resourceId: number` must receive numbers. */
function ownershipRecording(): { asked: unknown[]; ownership: object } {
  const asked: unknown[] = [];
  return {
    asked,
    ownership: {
      isCreator: ({ resourceId }: { resourceId: unknown }) => {
        asked.push(resourceId);
        return resourceId === 10;
      },
      listCreated: () => [10],
    },
  };
}

const owner: User<number> = { id: 1, roles: ['OWNER'] };

function typed() {
  const { asked, ownership } = ownershipRecording();
  const { permissions } = buildQuietly(definitions, { ownership, resourceIdTypes: { document: 'number', note: 'string' } });
  return { permissions, asked };
}

async function refusal(permissions: Permissions<User<unknown>, unknown>, resource: string, resourceId: unknown): Promise<unknown> {
  return permissions.grantPermit({ user: owner, resource, action: 'read', resourceId }).then(
    () => 'granted or denied',
    (error: unknown) => error,
  );
}

describe('ids of a resource declared "number"', () => {
  it("'10' reaches the hook as the number 10, and the permit carries 10", async () => {
    const { permissions, asked } = typed();
    const permit = await permissions.grantPermit({ user: owner, resource: 'document', action: 'read', resourceId: '10' });
    expect({ granted: permit.granted, resourceId: permit.resourceId, asked }).toEqual({ granted: true, resourceId: 10, asked: [10] });
  });

  it.each(['1e1', '0x10', ' 1', '1 ', '01', '-0', '+1', '1.0', '1.5', '', '９', '9007199254740992', '-9007199254740992', 'abc'])(
    'the text %j is refused with PermissionsInvalidIdError before any hook',
    async (text) => {
      const { permissions, asked } = typed();
      const error = await refusal(permissions, 'document', text);
      expect(error).toBeInstanceOf(PermissionsInvalidIdError);
      expect(error).toBeInstanceOf(PermissionsUsageError);
      expect({ code: (error as PermissionsInvalidIdError).code, resource: (error as PermissionsInvalidIdError).resource, asked }).toEqual({
        code: 'PERMISSIONS_INVALID_ID',
        resource: 'document',
        asked: [],
      });
      expect((error as Error).message).toBe(
        `${JSON.stringify(text)} is not an id of "document": its ids are an integer written in decimal without leading zeros, ` +
          'within ±9007199254740991 (such as 42).',
      );
    },
  );

  it.each([
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [2 ** 53, '9007199254740992'],
    [10n ** 20n, '100000000000000000000'],
    [true, 'boolean'],
  ])('the value %p is refused', async (value, shown) => {
    const { permissions } = typed();
    const error = await refusal(permissions, 'document', value);
    expect(error).toBeInstanceOf(PermissionsInvalidIdError);
    expect((error as Error).message.startsWith(`${shown} is not an id of "document"`)).toBe(true);
  });

  it('safe integers, negative ones and bigints within range are ids; -0 is 0', async () => {
    const { permissions } = typed();
    for (const [given, id] of [
      [-5, -5],
      ['-5', -5],
      [9007199254740991, 9007199254740991],
      ['9007199254740991', 9007199254740991],
      [10n, 10],
      [-0, 0],
    ] as const) {
      const permit = await permissions.grantPermit({ user: owner, resource: 'document', action: 'read', resourceId: given });
      expect(Object.is(permit.resourceId, id)).toBe(true);
    }
  });

  it('accepts exactly the canonical decimal text of safe integers (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.bigInt().map(String), fc.double().map(String)), (text) => {
        const canonical = /^(0|-?[1-9][0-9]*)$/.test(text) && Number.isSafeInteger(Number(text));
        expect(projectResourceIdOfType(text, 'number')).toBe(canonical ? Number(text) : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a permit's own questions about ids follow the same rule as grantPermit", () => {
  it("isOwn, explain and owningGroups take '10' as 10 and refuse what grantPermit refuses, before any hook", async () => {
    const { permissions, asked } = typed();
    const permit = await permissions.grantPermit({ user: owner, resource: 'document', action: 'read' });
    expect([await permit.isOwn('10'), (await permit.explain('10')).ownership, await permit.owningGroups(['10', 11, null] as never[])]).toEqual([
      true,
      { resourceId: 10, checks: [{ isOwner: 'isCreator', owned: true }] },
      [[0], [], []],
    ]);
    const message = 'is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).';
    for (const [value, shown] of [
      ['01', '"01"'],
      [Number.NaN, 'NaN'],
      [1e21, '1e+21'],
      [{ id: 1 }, 'object'],
    ] as const) {
      for (const question of [() => permit.isOwn(value), () => permit.explain(value), () => permit.owningGroups([10, value] as never[])])
        await expect(question()).rejects.toThrow(new PermissionsInvalidIdError('document', `${shown} ${message}`));
    }
    // isOwner asked once for 10 (the permit keeps the answer); owningGroups reads listOwned.
    expect(asked).toEqual([10]);
  });

  it("pick and filterPick read an item's id in the resource's type: '10' is owned as 10; an item whose id is no id is owned by nobody", async () => {
    const { permissions, asked } = typed();
    const permit = await permissions.grantPermit({ user: owner, resource: 'document', action: 'read' });
    const items = [
      { id: '10', title: 'a' },
      { id: '010', title: 'b' },
      { id: { toString: () => '10' }, title: 'c' },
      { id: 1e21, title: 'd' },
    ];
    expect([await permit.pick(items[0] as object), await permit.filterPick(items)]).toEqual([items[0], [items[0]]]);
    expect(asked).toEqual([10]);
  });
});

describe('ids of a resource declared "string"', () => {
  it(`accepts a non-empty string of up to ${MAX_STRING_ID_LENGTH} characters, refuses '' and one more`, async () => {
    const { permissions } = typed();
    const longest = 'x'.repeat(MAX_STRING_ID_LENGTH);
    expect((await permissions.grantPermit({ user: owner, resource: 'note', action: 'read', resourceId: longest })).resourceId).toBe(longest);
    for (const text of ['', `${longest}x`]) {
      const error = await refusal(permissions, 'note', text);
      expect(error).toBeInstanceOf(PermissionsInvalidIdError);
      expect((error as Error).message).toMatch(/is not an id of "note": its ids are a non-empty string of at most 256 characters\.$/);
    }
  });

  it('a safe integer becomes its decimal text (a GraphQL Int for a string id); a fraction is refused', async () => {
    const { permissions } = typed();
    expect((await permissions.grantPermit({ user: owner, resource: 'note', action: 'read', resourceId: 42 })).resourceId).toBe('42');
    expect(await refusal(permissions, 'note', 4.2)).toBeInstanceOf(PermissionsInvalidIdError);
  });
});

describe('ids of a resource without a declared type', () => {
  it('are kept as given: a string, a finite number, a bigint; the empty or over-long string and NaN are refused', async () => {
    const { permissions } = typed();
    for (const id of ['f-1', 0, -1.5, 7n])
      expect((await permissions.grantPermit({ user: owner, resource: 'file', action: 'read', resourceId: id })).resourceId).toBe(id);
    for (const id of ['', 'x'.repeat(MAX_STRING_ID_LENGTH + 1), Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await refusal(permissions, 'file', id)).toBeInstanceOf(PermissionsInvalidIdError);
    }
  });
});

describe('the resourceIdTypes option', () => {
  it('is carried by the tables build() makes, so fromTables projects the same way', async () => {
    const { permissions } = typed();
    expect(permissions.tables.idTypes).toEqual(['number', null, 'string']);
    expect(permissions.tables.resources).toEqual(['document', 'file', 'note']);
    const { ownership, asked } = ownershipRecording();
    const loaded = Permissions.fromTables(permissions.tables, { ownership });
    expect((await loaded.grantPermit({ user: owner, resource: 'document', action: 'read', resourceId: '10' })).granted).toBe(true);
    expect(asked).toEqual([10]);
  });

  it('is refused by fromTables, whose tables carry the id types', () => {
    const { permissions } = typed();
    expect(() => Permissions.fromTables(permissions.tables, { ownership: ownershipRecording().ownership, resourceIdTypes: { document: 'number' } })).toThrow(
      'Precompiled tables carry the resource id types; remove the resourceIdTypes option and declare each id type in its resource file ' +
        '("idType": "number" in definitions/<resource>.resource.json), then compile again (npx typed-permissions compile).',
    );
  });

  it('takes only "number" or "string"', () => {
    expect(() => new Permissions({ resourceIdTypes: { document: 'integer' as never } })).toThrow(
      new PermissionsUsageError('Permissions option resourceIdTypes.document must be "number" or "string", got "integer".'),
    );
  });

  it('warns about a resource no definition names', () => {
    const { warnings } = buildQuietly(definitions, { ownership: ownershipRecording().ownership, resourceIdTypes: { documnet: 'number' } });
    expect(warnings).toEqual(['typed-permissions: An id type is given for resource "documnet", which no definition names; it is not used.']);
  });
});

describe('the options of new Permissions()', () => {
  it('a misspelt option is refused, naming every option', () => {
    expect(() => new Permissions({ limitOwnReduse: () => undefined } as never)).toThrow(
      new PermissionsUsageError(
        'Permissions option "limitOwnReduse" does not exist; the options are ownership, ownershipRules, limitOwnReduce, strict, logger, getResourceId, ' +
          'hookTimeoutMs, ownedAmong, resourceIdTypes, resourceActions, compileProjections, onDecision, decisionLog, telemetry.',
      ),
    );
  });
});
