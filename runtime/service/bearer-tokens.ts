/**
 * The bearer tokens a decision service accepts: several at once (so one can be rotated while the others keep
 * working), replaced as a whole when their file changes, and compared in constant time — a presented token is
 * hashed and compared with every accepted token's hash, whatever matches, so the time taken says nothing about
 * how close a guess was.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PermissionsUsageError } from '../core/common/errors.js';

/** The shortest token accepted: shorter ones can be guessed. */
export const MIN_TOKEN_LENGTH = 16;
/** The longest token accepted. */
export const MAX_TOKEN_LENGTH = 512;
/** A token is what an `Authorization: Bearer` header can carry (RFC 6750's b64token). */
const TOKEN_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Why `token` cannot be a bearer token, or undefined when it can (the token itself is never repeated).
 *
 * @example
 * ```ts
 * tokenProblem('short'); // 'is 5 characters long; a token has at least 16'
 * ```
 */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_LENGTH) return `is ${token.length} characters long; a token has at least ${MIN_TOKEN_LENGTH}`;
  if (token.length > MAX_TOKEN_LENGTH) return `is ${token.length} characters long; a token has at most ${MAX_TOKEN_LENGTH}`;
  if (!TOKEN_SYNTAX.test(token)) return 'has a character a bearer token cannot carry (letters, digits and - . _ ~ + / only, = at the end)';
  return undefined;
}

/**
 * The tokens of text that lists them separated by commas, spaces or line breaks (`TYPED_PERMISSIONS_TOKENS`).
 *
 * @example
 * ```ts
 * tokensOfList('a1b2c3d4e5f6a7b8, c9d0e1f2a3b4c5d6'); // ['a1b2c3d4e5f6a7b8', 'c9d0e1f2a3b4c5d6']
 * ```
 */
export function tokensOfList(text: string): string[] {
  return text.split(/[\s,]+/).filter((token) => token !== '');
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The accepted tokens, held as SHA-256 digests.
 *
 * @example
 * ```ts
 * const tokens = new BearerTokens(['a1b2c3d4e5f6a7b8c9d0']);
 * tokens.verify('a1b2c3d4e5f6a7b8c9d0'); // 'token:…' (a key naming the token, for its rate limit)
 * tokens.verify('wrong'); // undefined
 * ```
 */
export class BearerTokens {
  private digests: readonly Buffer[] = [];

  constructor(tokens: readonly string[] = []) {
    this.replace(tokens);
  }

  /** How many tokens are accepted. */
  get size(): number {
    return this.digests.length;
  }

  /**
   * Accepts exactly `tokens` from now on (a PermissionsUsageError, changing nothing, when one is not a token);
   * whether that changed what is accepted.
   */
  replace(tokens: readonly string[]): boolean {
    tokens.forEach((token, i) => {
      const problem = typeof token === 'string' ? tokenProblem(token) : 'is not a string';
      if (problem !== undefined) throw new PermissionsUsageError(`Token ${i + 1} ${problem}.`);
    });
    const digests = [...new Set(tokens)].map(digestOf);
    const key = (list: readonly Buffer[]) =>
      list
        .map((digest) => digest.toString('hex'))
        .sort()
        .join(',');
    const changed = key(digests) !== key(this.digests);
    this.digests = digests;
    return changed;
  }

  /**
   * The rate-limit key of `presented` when it is an accepted token (a prefix of its digest, never the token),
   * else undefined. Takes the same time whichever token matches, or none.
   */
  verify(presented: string): string | undefined {
    const digest = digestOf(presented);
    let matched = false;
    for (const accepted of this.digests) matched = timingSafeEqual(digest, accepted) || matched;
    return matched ? `token:${digest.subarray(0, 12).toString('hex')}` : undefined;
  }
}
