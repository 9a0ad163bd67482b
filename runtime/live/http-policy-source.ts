/**
 * `httpPolicySource(url)`: a policy bundle served over HTTP, polled with `If-None-Match`, so an unchanged
 * bundle costs a 304 and no parsing.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import type { PolicySource, SourcedPolicy } from './policy-source.js';
import { MAX_POLICY_BUNDLE_LENGTH } from './policy-bundle.js';
import { boundedText } from '../core/common/bounded-text.js';
import { parseBundleText } from './bundle-text.js';
import { durationOption } from './duration-option.js';

/** Options of {@link httpPolicySource}. */
export interface HttpPolicySourceOptions {
  /** How often the URL is asked, in ms. Default 30,000. */
  readonly pollIntervalMs?: number | undefined;
  /** Headers sent with every request (an `authorization`, for example). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** How long one request may take before it counts as failed, in ms. Default 10,000. */
  readonly timeoutMs?: number | undefined;
  /**
   * The largest body read, in bytes; a larger one is cancelled and reported, never parsed. Default: four bytes
   * per character of the bundle limit (the worst case of UTF-8), so any bundle the engine accepts fits.
   */
  readonly maxBytes?: number | undefined;
}

/**
 * A policy source polling the bundle at `url`.
 *
 * @example
 * ```ts
 * const live = await permissions.follow(httpPolicySource('https://policies.internal/documents/policy.json', { pollIntervalMs: 10_000 }));
 * ```
 */
export function httpPolicySource(url: string | URL, options: HttpPolicySourceOptions = {}): PolicySource {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new PermissionsUsageError(`httpPolicySource(url): ${JSON.stringify(String(url))} is not a URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new PermissionsUsageError('httpPolicySource(url): the URL must be http: or https:.');
  const pollIntervalMs = durationOption('httpPolicySource(): pollIntervalMs', options.pollIntervalMs, 30_000, 10);
  const timeoutMs = durationOption('httpPolicySource(): timeoutMs', options.timeoutMs, 10_000, 1);
  const maxBytes = options.maxBytes ?? MAX_POLICY_BUNDLE_LENGTH * 4;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new PermissionsUsageError('httpPolicySource(): maxBytes must be a positive integer.');
  const description = `URL ${target.origin}${target.pathname}`;
  let etag: string | undefined;
  let last: SourcedPolicy | undefined;
  return {
    description,
    async read(): Promise<SourcedPolicy | undefined> {
      const response = await fetch(target, {
        headers: { ...options.headers, accept: 'application/json', ...(etag === undefined ? {} : { 'if-none-match': etag }) },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'follow',
      });
      if (response.status === 304) return last;
      if (response.status === 404) return undefined;
      if (!response.ok) throw new PermissionsUsageError(`${description} answered ${response.status} ${response.statusText}.`);
      const bundle = parseBundleText(await boundedText(response, maxBytes, `${description} sends a bundle`), description);
      etag = response.headers.get('etag') ?? undefined;
      last = { bundle };
      return last;
    },
    watch(changed) {
      const poll = setInterval(changed, pollIntervalMs);
      poll.unref();
      return () => {
        clearInterval(poll);
        return Promise.resolve();
      };
    },
  };
}
