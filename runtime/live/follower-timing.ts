/**
 * How followers of a PostgreSQL store keep their registration fresh, and when a follower that stopped writing
 * it is forgotten: `policy publish` checks a version against every follower seen within the last minute.
 */

/** A follower rewrites its registration this often (and at once when it activates or rejects a version). */
export const FOLLOWER_REFRESH_MS = 10_000;

/** A follower not seen for this long is forgotten: not counted, not checked, and its row deleted by the next publish. */
export const FOLLOWER_FORGET_MS = 60_000;
