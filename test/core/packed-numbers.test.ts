/**
 * Packed numbers and packed cells, the text the generated code keeps a resource's cells in: every number and every
 * sorted list of cells reads back as written, the limits hold at and past their edge, and the text is shorter
 * than the JSON it replaces.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { packCells, unpackCells, type CellBody } from '../../runtime/core/tables/packed-cells.js';
import { MAX_PACKED_NUMBER, PackedNumberReader, PackedTextError, packNumbers } from '../../runtime/core/tables/packed-numbers.js';

const readAll = (text: string): number[] => {
  const reader = new PackedNumberReader(text);
  const numbers: number[] = [];
  while (!reader.atEnd) numbers.push(reader.next());
  return numbers;
};

describe('packed numbers', () => {
  it('write each number in one to six characters of the URL-safe alphabet, least significant first', () => {
    expect(packNumbers([0, 5, 31, 32, 1000])).toBe('05VW1eV');
    expect(packNumbers([1023, 1024])).toBe('_VWW1');
    expect(packNumbers([MAX_PACKED_NUMBER])).toBe('_____V');
    expect(packNumbers([])).toBe('');
  });

  it('read back every list of numbers as written', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: MAX_PACKED_NUMBER })), (numbers) => {
        const text = packNumbers(numbers);
        expect(text).toMatch(/^[0-9A-Za-z_-]*$/);
        expect(readAll(text)).toEqual(numbers);
      }),
      { numRuns: 300 },
    );
  });

  it.each([MAX_PACKED_NUMBER + 1, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuse to write %p', (number) => {
    expect(() => packNumbers([number])).toThrow(new RangeError(`${number} cannot be packed: numbers are integers from 0 to ${MAX_PACKED_NUMBER}`));
  });

  it.each([
    ['a seventh character', 'WWWWWW0', 'the number at 0 is longer than 6 characters'],
    ['an end inside a number', '1W', 'it ends inside the number at 1'],
    ['a quote', '"', 'character 0 is not one of the packed alphabet'],
    ['a character past ASCII', 'é', 'character 0 is not one of the packed alphabet'],
    ['a lone surrogate', '\ud800', 'character 0 is not one of the packed alphabet'],
  ])('refuse to read %s', (_what, text, says) => {
    expect(() => readAll(text)).toThrow(new PackedTextError(says));
  });

  it('refuse to read past the end', () => {
    const reader = new PackedNumberReader('5');
    expect(reader.next()).toBe(5);
    expect(() => reader.next()).toThrow(new PackedTextError('it ends where number 1 was expected'));
  });
});

/** A resource's bodies and sorted (action, role, body) entries, as the packer receives them. */
const resourceCells = fc
  .array(
    fc.tuple(
      fc.integer({ min: -1, max: 40 }),
      fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 4 }),
      fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 3 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 3 }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .chain((bodies) =>
    fc
      .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 5000 })), {
        selector: ([action, role]) => `${action}:${role}`,
        maxLength: 40,
      })
      .chain((cells) =>
        fc.tuple(fc.constant(bodies), fc.array(fc.nat(bodies.length - 1), { minLength: cells.length, maxLength: cells.length }), fc.constant(cells)),
      ),
  )
  .map(([bodies, numbers, cells]) => {
    const sorted = [...cells].sort(([a1, r1], [a2, r2]) => a1 - a2 || r1 - r2);
    return { bodies, entries: sorted.flatMap(([action, role], i) => [action, role, numbers[i] as number]) };
  });

describe('packed cells', () => {
  it('read back as the cells they were packed from, each with its body', () => {
    fc.assert(
      fc.property(resourceCells, fc.nat(5000), ({ bodies, entries }, resource) => {
        const cells = unpackCells(packCells(bodies, entries), resource, { actions: 61, roles: 5001 });
        const expected = [];
        for (let i = 0; i < entries.length; i += 3) expected.push([resource, entries[i], entries[i + 1], ...(bodies[entries[i + 2] as number] as CellBody)]);
        expect(cells).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('refuse to pack a cell written twice, or one naming a body past the bodies: the packed form could not hold them', () => {
    const body: CellBody = [0, [], [], [1]];
    expect(() => packCells([body], [1, 0, 0, 1, 0, 0])).toThrow(new RangeError('the cell of action 1 and role 0 is written twice'));
    expect(() => packCells([body, [1, [], [], [1]]], [1, 0, 0, 1, 0, 1])).toThrow(new RangeError('the cell of action 1 and role 0 is written twice'));
    expect(() => packCells([body], [1, 0, 1])).toThrow(new RangeError('the cell of action 1 and role 0 names body 1, past the 1 bodies'));
  });

  it('take a fifth of the characters of the JSON they replace, for a large policy’s mostly distinct bodies (a role’s actions of one body are one set)', () => {
    const bodies: CellBody[] = Array.from({ length: 40 }, (_, i) => [i % 3, [], [], [20_000 + 7 * i]]);
    const entries = Array.from({ length: 80 }, (_, i) => [Math.floor(i / 10), 37 * (i % 10) + 5, i % 40]).flat();
    const json = JSON.stringify([bodies, entries]);
    const packed = packCells(bodies, entries);
    expect([packed.length, json.length]).toEqual([273, 1393]);
  });
});
