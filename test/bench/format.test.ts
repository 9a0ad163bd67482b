/**
 * The benchmark report's sizes: three significant digits in the largest unit that keeps them below 1,000, so a
 * table never shows an exponent such as "1.19e+3 MiB".
 */
import { describe, expect, it } from '@jest/globals';
import { formatBytes } from '../../bench/harness/format.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [12_288, '12.0 KiB'],
    [999 * 1024, '999 KiB'],
    [1023 * 1024, '0.999 MiB'],
    [2 ** 20, '1.00 MiB'],
    [999 * 2 ** 20, '999 MiB'],
    [1_247_805_440, '1.16 GiB'],
    [2 ** 30, '1.00 GiB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
