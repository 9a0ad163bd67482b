/**
 * Type tests of the reason words, checked by `tsc --noEmit`: `permit.reason` is exactly the `PermitReason` union
 * (so a misspelt comparison does not compile), the browser client's reasons are that union without the words a
 * slice cannot know, and a 403 body of the integrations shows only `'no-grant'` or `'not-owner'`.
 */
import type { Schema } from '../../generated/index.js';
import type { Permit, PermitReason } from '../../runtime/permissions/index.js';
import { createClient, type ClientReason, type PermissionSlice } from '../../runtime/client/index.js';
import type { ForbiddenReason, PermissionsForbiddenBody } from '../../runtime/integration/index.js';
import type { Equal, Expect } from './type-assert.js';

declare const permit: Permit;
declare const slice: PermissionSlice;
declare const body: PermissionsForbiddenBody;
const clientReason = createClient<Schema>(slice).reason('read', 'document');

export type Checks = [
  Expect<
    Equal<
      typeof permit.reason,
      'granted-any' | 'granted-own' | 'not-owner' | 'no-grant' | 'unknown-role' | 'unknown-tenant' | 'unknown-resource' | 'unknown-action'
    >
  >,
  Expect<Equal<typeof permit.reason, PermitReason>>,
  Expect<Equal<typeof permit.reasonSource, { readonly source: string; readonly index: number } | undefined>>,
  Expect<Equal<ClientReason, 'granted-any' | 'granted-own' | 'not-owner' | 'no-grant' | 'unknown-role' | 'unknown-tenant'>>,
  Expect<Equal<typeof clientReason, ClientReason>>,
  Expect<Equal<ForbiddenReason, 'no-grant' | 'not-owner'>>,
  Expect<Equal<typeof body.reason, ForbiddenReason>>,
];

export function valid(): boolean {
  const reason: PermitReason = permit.reason;
  return reason === 'granted-any' || permit.reason === 'not-owner' || clientReason === 'unknown-tenant' || body.reason === 'no-grant';
}

export function invalid(): void {
  // @ts-expect-error: 'not-the-owner' is no reason word (it is 'not-owner')
  void (permit.reason === 'not-the-owner');
  // @ts-expect-error: 'granted' is no reason word: grants say in which possession ('granted-any', 'granted-own')
  void (permit.reason === 'granted');
  // @ts-expect-error: a client never says 'unknown-resource': a slice lists granted actions only
  void (clientReason === 'unknown-resource');
  // @ts-expect-error: a 403 body never shows 'unknown-role': that is the server's to know
  void (body.reason === 'unknown-role');
  // @ts-expect-error: the reason is read-only
  permit.reason = 'granted-any';
}
