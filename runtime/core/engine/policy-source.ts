/**
 * Where a live policy comes from: the contract between an engine that follows a policy and the sources of
 * `typed-permissions/live` (a file, a URL, a PostgreSQL store) — or any source an application writes.
 */

/** One version a source holds: the bundle (parsed JSON, checked by the engine) and its place in the source's order. */
export interface SourcedPolicy {
  /** The policy bundle `{ format: 1, version, tables }`, as parsed from the source (not trusted: the engine checks it). */
  readonly bundle: unknown;
  /**
   * The store's order of versions (a sequence number), where the source has one: a version whose sequence is not
   * greater than the active one's is ignored. Sources without an order (a file, a URL) leave it out; their
   * versions are told apart by their version string.
   */
  readonly sequence?: number | undefined;
}

/**
 * A source of policy versions, as `permissions.follow(source)` reads it.
 *
 * @example
 * ```ts
 * const source: PolicySource = {
 *   description: 'a fixed bundle',
 *   read: async () => ({ bundle: JSON.parse(await readFile('policy.json', 'utf8')) }),
 *   watch: () => async () => undefined, // never changes
 * };
 * ```
 */
export interface PolicySource {
  /** What the source is, for reports: `file /etc/app/policy.json`. */
  readonly description: string;
  /** The newest version the source holds, or undefined while it holds none. May reject (the source is unreachable). */
  read(): Promise<SourcedPolicy | undefined>;
  /**
   * Calls `changed` whenever the source may hold a newer version (a file event, a notification, a poll tick),
   * and `failed` when watching runs into trouble it recovers from (a lost connection); returns the function that
   * stops watching and releases everything the source holds.
   */
  watch(changed: () => void, failed: (error: unknown) => void): () => Promise<void>;
}
