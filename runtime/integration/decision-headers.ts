/**
 * The headers of a guarded response: the policy version that decided it (a live policy may change between
 * requests) and the decision's call id, which the decision log's event carries too, so an application's own
 * logs can be joined to the decision. Every integration sends the same two.
 */

/**
 * The response header naming the policy version a guarded response was decided on.
 *
 * @example
 * ```ts
 * response.headers.get(POLICY_VERSION_HEADER); // '3f1c…'
 * ```
 */
export const POLICY_VERSION_HEADER = 'x-permissions-version';
/**
 * The response header carrying the decision's call id (`permit.callId`, the decision log's `callId`).
 *
 * @example
 * ```ts
 * response.headers.get(CALL_ID_HEADER); // '3b241101-…', the decision log's callId
 * ```
 */
export const CALL_ID_HEADER = 'x-permissions-call-id';

/**
 * The decision headers of one response, by name.
 *
 * @example
 * ```ts
 * const headers: DecisionHeaders = decisionHeaders(permit); // { 'x-permissions-version': '3f1c…', 'x-permissions-call-id': '3b241101-…' }
 * ```
 */
export type DecisionHeaders = { readonly [name in typeof POLICY_VERSION_HEADER | typeof CALL_ID_HEADER]: string };

/**
 * The headers a response decided by `permit` carries, granted or refused.
 *
 * @example
 * ```ts
 * for (const [name, value] of Object.entries(decisionHeaders(permit))) reply.header(name, value);
 * // x-permissions-version: 3f1c…, x-permissions-call-id: 3b241101-…
 * ```
 */
export function decisionHeaders(permit: { readonly policyVersion: string; readonly callId: string }): DecisionHeaders {
  return { [POLICY_VERSION_HEADER]: permit.policyVersion, [CALL_ID_HEADER]: permit.callId };
}
