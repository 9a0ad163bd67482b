/**
 * The sources refuse options that cannot work before anything is read: durations that are not whole
 * milliseconds a timer holds (past 2³¹−1 ms Node fires at once, a busy poll), a missing path or connection
 * string. A source describes itself without a password.
 */
import { describe, expect, it } from '@jest/globals';
import { filePolicySource, httpPolicySource, postgresPolicySource } from '../../runtime/live/index.js';

const MAX = 2_147_483_647;
const url = 'postgres://app:s3cret@db.internal:5432/app';

describe('policy source options', () => {
  it.each<[string, () => unknown, string]>([
    [
      'a file poll past the timer limit',
      () => filePolicySource('p.json', { pollIntervalMs: MAX + 1 }),
      `filePolicySource(): pollIntervalMs must be a whole number of milliseconds from 10 to ${MAX}, got ${MAX + 1}.`,
    ],
    [
      'a file poll below 10 ms',
      () => filePolicySource('p.json', { pollIntervalMs: 9 }),
      `filePolicySource(): pollIntervalMs must be a whole number of milliseconds from 10 to ${MAX}, got 9.`,
    ],
    [
      'a fractional URL timeout',
      () => httpPolicySource('https://h/p.json', { timeoutMs: 1.5 }),
      `httpPolicySource(): timeoutMs must be a whole number of milliseconds from 1 to ${MAX}, got 1.5.`,
    ],
    [
      'a store poll of NaN',
      () => postgresPolicySource({ connectionString: url, pollIntervalMs: Number.NaN }),
      `postgresPolicySource(): pollIntervalMs must be a whole number of milliseconds from 10 to ${MAX}, got NaN.`,
    ],
    [
      'a reconnect delay of 0',
      () => postgresPolicySource({ connectionString: url, reconnectDelayMs: 0 }),
      `postgresPolicySource(): reconnectDelayMs must be a whole number of milliseconds from 1 to ${MAX}, got 0.`,
    ],
    [
      'a store ping below 10 ms',
      () => postgresPolicySource({ connectionString: url, pingIntervalMs: 9 }),
      `postgresPolicySource(): pingIntervalMs must be a whole number of milliseconds from 10 to ${MAX}, got 9.`,
    ],
    ['no path', () => filePolicySource(''), 'filePolicySource(path): path must be the path of a policy bundle (policy.json).'],
    [
      'no connection string',
      () => postgresPolicySource({ connectionString: '' }),
      'postgresPolicySource(options): options.connectionString must be a PostgreSQL connection string.',
    ],
    [
      'a store schema that is no identifier',
      () => postgresPolicySource({ connectionString: url, schema: 'a"b' }),
      'The policy store\'s schema must be a lower-case SQL identifier (letters, digits, _), got "a\\"b".',
    ],
  ])('refuses %s', (_label, make, message) => {
    expect(make).toThrow(message);
  });

  it('accepts durations at the limits', () => {
    expect(filePolicySource('p.json', { pollIntervalMs: 10 }).description).toMatch(/^file \/.*p\.json$/);
    expect(postgresPolicySource({ connectionString: url, pollIntervalMs: MAX, reconnectDelayMs: 1, pingIntervalMs: 10 }).description).toBe(
      'PostgreSQL store typed_permissions at db.internal:5432',
    );
  });

  it('describes a store without its password, and a key-value connection string without echoing it', () => {
    expect(postgresPolicySource({ connectionString: url }).description).not.toContain('s3cret');
    expect(postgresPolicySource({ connectionString: 'host=db password=s3cret' }).description).toBe(
      'PostgreSQL store typed_permissions at the configured server',
    );
  });
});
