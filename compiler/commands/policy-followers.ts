/**
 * The followers of a policy store, for `typed-permissions policy`: each registration read with a schema (anyone
 * who may write the table may have written it), checked against a version the way that follower will check it,
 * and described in one line a person reads.
 */
import {
  capabilityProblems,
  FOLLOWER_FORGET_MS,
  printableText,
  type FollowerCapabilities,
  type PolicyBundle,
  type RegisteredFollower,
} from 'typed-permissions/internal';
import { z } from 'zod';

const capabilitiesSchema = z.object({
  vocabulary: z
    .object({
      resources: z.array(z.tuple([z.string(), z.string().nullable()])),
      actions: z.array(z.string()),
      declaredActions: z.array(z.tuple([z.string(), z.array(z.string())])).optional(),
    })
    .optional(),
  ownershipMethods: z.union([z.literal('any'), z.array(z.string())]),
  ownershipService: z.string().optional(),
  // Without it, a follower that has a rule source would be read as one without: every version naming a rule refused.
  ownershipRules: z.boolean().optional(),
});

const reasonsSchema = z.array(z.string());

/** A follower whose registration says it would reject a version, with why. */
export interface RefusingFollower {
  readonly follower: RegisteredFollower;
  readonly reasons: readonly string[];
}

/**
 * The followers among `followers` that would reject `bundle`, each with its reasons: a version outside its
 * vocabulary or naming an ownership method it lacks — or a registration that cannot be read, which is never
 * taken to accept anything.
 *
 * @example
 * ```ts
 * const refusing = refusingFollowers(bundle, await listFollowers(client, names)); // [] when every follower takes it
 * ```
 */
export function refusingFollowers(bundle: PolicyBundle, followers: readonly RegisteredFollower[]): RefusingFollower[] {
  return followers.flatMap((follower) => {
    const capabilities = capabilitiesSchema.safeParse(follower.capabilities);
    const unreadable = ['its registration cannot be read (it was not written by a follower of this version of typed-permissions)'];
    let reasons: readonly string[];
    try {
      reasons = capabilities.success ? capabilityProblems(bundle, capabilities.data as FollowerCapabilities) : unreadable;
    } catch {
      // A registration whose shape passes but whose content cannot be checked (a method name twice, a name that is no
      // identifier): any role that writes followers can write one, and it must not stop a publish or a rollback.
      reasons = unreadable;
    }
    return reasons.length === 0 ? [] : [{ follower, reasons }];
  });
}

/**
 * Who a follower is, in words: `web-1 pid 4242 (instance 1c2d3e4f)`.
 *
 * @example
 * ```ts
 * followerName(follower); // 'web-1 pid 4242 (instance 1c2d3e4f)'
 * ```
 */
export function followerName(follower: RegisteredFollower): string {
  return printableText(`${follower.host} pid ${follower.pid} (instance ${follower.instance.slice(0, 8)})`);
}

/**
 * What a follower runs, in words: `#12 3f1c…` (`no version` while it has none).
 *
 * @example
 * ```ts
 * runningVersion(follower); // '#12 3f1c0b…'
 * ```
 */
export function runningVersion(follower: RegisteredFollower): string {
  if (follower.version === undefined) return 'no version';
  return printableText(`${follower.sequence === undefined ? '' : `#${follower.sequence} `}${follower.version}`);
}

/**
 * The lines `policy followers` prints for one follower: what it runs and when it was seen, then its last rejection.
 *
 * @example
 * ```ts
 * followerLines(follower); // ['web-1 pid 4242 (instance 1c2d3e4f): runs #12 3f1c…, seen 3 s ago, following since 2026-11-26T10:00:00.000Z']
 * ```
 */
export function followerLines(follower: RegisteredFollower): string[] {
  const lines = [`${followerName(follower)}: runs ${runningVersion(follower)}, seen ${follower.secondsSinceSeen} s ago, following since ${follower.startedAt}`];
  const rejection = follower.lastRejection;
  if (rejection !== undefined) {
    const reasons = reasonsSchema.safeParse(rejection.reasons);
    const version = `${rejection.sequence === undefined ? '' : `#${rejection.sequence} `}${rejection.version ?? '(unreadable)'}`;
    lines.push(printableText(`  last rejected ${version} at ${rejection.at}: ${reasons.success ? reasons.data.join('; ') : '(the reasons cannot be read)'}`));
  }
  return lines;
}

/** "seen in the last 60 s", as the messages say how recent a follower must be to count. */
export const SEEN_RECENTLY = `seen in the last ${FOLLOWER_FORGET_MS / 1000} s`;
