/**
 * Reading an HTTP body from a server the library does not control: at most a stated number of bytes, however
 * the body is sent, so a wrong or hostile server cannot make the application buffer without limit.
 */
import { PermissionsUsageError } from './errors.js';

/**
 * The body of `response` as text, refusing (and cancelling) a body of more than `maxBytes`. `sending` starts
 * the error's sentence: `${sending} of 123 bytes, more than the limit of 100.`
 *
 * @example
 * ```ts
 * const text = await boundedText(await fetch(url), 1 << 20, `${url} sends a bundle`);
 * ```
 */
export async function boundedText(response: Response, maxBytes: number, sending: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new PermissionsUsageError(`${sending} of ${declared} bytes, more than the limit of ${maxBytes}.`);
  }
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let received = 0;
  // Node's fetch body is an async iterable of byte chunks.
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    // Leaving the loop (by throwing) cancels the stream: the rest is never read.
    if (received > maxBytes) throw new PermissionsUsageError(`${sending} of more than ${maxBytes} bytes, the limit.`);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
