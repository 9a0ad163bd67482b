/**
 * How the page calls the app's guarded endpoints for a button, and what it makes of the answer: the body
 * of a success, or why the server refused (its status and its own message), or that it could not be reached.
 * Every outcome is a value the caller must show: nothing here swallows a refusal.
 */

/** What one call of a guarded endpoint came to. */
export type ServerAnswer =
  | { readonly kind: 'ok'; readonly body: unknown; readonly version: string | undefined }
  | { readonly kind: 'refused'; readonly status: number; readonly reason: string; readonly version: string | undefined }
  | { readonly kind: 'unreachable' };

/** The header every guarded answer carries: the policy version it was decided on. */
const VERSION_HEADER = 'x-permissions-version';

/** The most of a server's message the page repeats: enough to read, never a whole unexpected page. */
const MAX_REASON_LENGTH = 300;

/**
 * Why the server refused, from its answer's text: the `message` of a JSON error body (NestJS sends
 * `{ statusCode, error, message }`, `message` a string or a list of them) without its closing full stop, else
 * "no reason given".
 *
 * @example
 * ```ts
 * refusalReason('{"statusCode":403,"error":"Forbidden","message":"update on document is not granted"}'); // 'update on document is not granted'
 * refusalReason('{"statusCode":404,"error":"Not Found","message":"No document 9."}'); // 'No document 9'
 * refusalReason('<html>…'); // 'no reason given'
 * ```
 */
export function refusalReason(text: string): string {
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown } | null)?.message;
  } catch {
    // Not JSON (a proxy's error page, say): there is no reason to repeat.
  }
  const parts = (Array.isArray(message) ? message : [message]).filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  if (parts.length === 0) return 'no reason given';
  // The page quotes the reason inside its own sentence: the server's closing full stop would end it twice.
  const reason = parts.join('; ').trim().replace(/\.$/, '');
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason;
}

/**
 * Calls `path` as user `userId` (`x-user-id`), with `body` as JSON when given. Resolves to what came of it; it
 * never rejects, so that no outcome can go unshown.
 *
 * @example
 * ```ts
 * const answer = await callServer('PATCH', '/documents-protected-simple/50', '4', { title: 'Budget 2025' });
 * if (answer.kind === 'refused') show(`the server answered ${answer.status} (${answer.reason})`);
 * ```
 */
export async function callServer(method: 'GET' | 'PATCH' | 'DELETE' | 'POST', path: string, userId: string, body?: unknown): Promise<ServerAnswer> {
  let response: Response;
  try {
    const headers: Record<string, string> = { 'x-user-id': userId };
    if (body !== undefined) headers['content-type'] = 'application/json';
    response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch {
    return { kind: 'unreachable' };
  }
  const version = response.headers.get(VERSION_HEADER) ?? undefined;
  let text: string;
  try {
    text = await response.text();
  } catch {
    // The connection dropped while the answer arrived.
    return { kind: 'unreachable' };
  }
  if (!response.ok) return { kind: 'refused', status: response.status, reason: refusalReason(text), version };
  try {
    return { kind: 'ok', body: JSON.parse(text) as unknown, version };
  } catch {
    // A success the page cannot read is no success it can show: say so, as a refusal would.
    return { kind: 'refused', status: response.status, reason: 'the answer was not JSON', version };
  }
}
