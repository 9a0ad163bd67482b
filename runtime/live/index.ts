/**
 * typed-permissions/live — sources of live policies for `permissions.follow(source)`: a file
 * (`filePolicySource`), a PostgreSQL store (`postgresPolicySource`, what `typed-permissions policy publish`
 * writes) and a URL (`httpPolicySource`).
 */
export { filePolicySource, type FilePolicySourceOptions } from './file-policy-source.js';
export { httpPolicySource, type HttpPolicySourceOptions } from './http-policy-source.js';
export { postgresPolicySource, type PostgresPolicySourceOptions } from './postgres-policy-source.js';
export type {
  FollowerCapabilities,
  FollowerRegistration,
  FollowerRejection,
  FollowerStatus,
  PolicySource,
  RegisteredVocabulary,
  SourcedPolicy,
} from './policy-source.js';
export type { FollowOptions, LivePolicy, PolicyChange, PolicyRejection } from './policy-follower.js';
export type { PolicyBundle } from './policy-bundle.js';
