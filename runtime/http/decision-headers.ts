/**
 * The headers of a guarded response: the policy version that decided it (a live policy may change between
 * requests) and the decision's call id, which the decision log's event carries too, so an application's own
 * logs can be joined to the decision. The same for NestJS (express or fastify underneath) and express.
 */

/** The response header naming the policy version a guarded response was decided on. */
export const POLICY_VERSION_HEADER = 'x-permissions-version';
/** The response header carrying the decision's call id (`permit.callId`, the decision log's `callId`). */
export const CALL_ID_HEADER = 'x-permissions-call-id';

/**
 * Sets both headers on an express (`setHeader`) or fastify (`header`) response, when there is one and its
 * headers are not sent yet.
 *
 * @example
 * ```ts
 * setDecisionHeaders(res, permit); // x-permissions-version: 3f1c…, x-permissions-call-id: 3b241101-…
 * ```
 */
export function setDecisionHeaders(response: unknown, permit: { readonly policyVersion: string; readonly callId: string }): void {
  const target = response as {
    setHeader?: (name: string, value: string) => unknown;
    header?: (name: string, value: string) => unknown;
    headersSent?: boolean;
  } | null;
  if (typeof target !== 'object' || target === null || target.headersSent === true) return;
  const set = typeof target.setHeader === 'function' ? target.setHeader : typeof target.header === 'function' ? target.header : undefined;
  if (set === undefined) return;
  set.call(target, POLICY_VERSION_HEADER, permit.policyVersion);
  set.call(target, CALL_ID_HEADER, permit.callId);
}
