/**
 * typed-permissions/client — the browser's side: `createClient(slice)` answers "can I?" and picks
 * attributes from the slice the server cut for the user (`permissions.sliceFor(user)`), with the
 * server's rules. Small, dependency-free, and safe under a strict Content-Security-Policy (no code is
 * compiled at run time).
 */
export {
  createClient,
  type ClientAction,
  type ClientReason,
  type ClientResource,
  type Owned,
  type OwnedOption,
  type PermissionsClient,
} from './permissions-client.js';
export type { PermitReason } from '../core/decision/permit-reason.js';
export type { PermissionSlice, SliceAction, SliceResource } from '../core/decision/permission-slice.js';
export { PermissionsError, PermissionsUsageError } from '../core/common/errors.js';
