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
   * greater than the active one's is not newer. Sources without an order (a file, a URL) leave it out; their
   * versions are told apart by their version string.
   */
  readonly sequence?: number | undefined;
  /**
   * The identity of the store the sequence belongs to, where the source has one (made with the store's tables).
   * Sequences of two stores cannot be compared: when it changes — the store was dropped and created again — the
   * follower takes the store's active version, whatever its sequence.
   */
  readonly store?: string | undefined;
}

/** The vocabulary the running code is written against, as a follower registers it: plain, serialisable data. */
export interface RegisteredVocabulary {
  /** Each resource with its id type (`'number'`, `'string'`, or null when undeclared). */
  readonly resources: readonly (readonly [resource: string, idType: string | null])[];
  readonly actions: readonly string[];
  /** Each resource that declares its actions, with them (sorted); absent when none does. */
  readonly declaredActions?: readonly (readonly [resource: string, actions: readonly string[]])[] | undefined;
}

/** What a follower can honour: a version outside it is rejected by that follower. */
export interface FollowerCapabilities {
  /** The vocabulary its code is written against; undefined when it followed from no policy (it takes the first one's). */
  readonly vocabulary: RegisteredVocabulary | undefined;
  /** The methods of its ownership service, sorted; `'any'` for a service that has every method (the decision service's stand-in). */
  readonly ownershipMethods: readonly string[] | 'any';
  /** The class name of its ownership service, as its messages give it; undefined without a service. */
  readonly ownershipService?: string | undefined;
  /** Whether it has a source of the records behind ownership rules (without one, a version naming a rule is refused). */
  readonly ownershipRules?: boolean | undefined;
}

/** The last version a follower rejected, and why. */
export interface FollowerRejection {
  readonly version: string | undefined;
  readonly sequence: number | undefined;
  readonly reasons: readonly string[];
  /** When, as an ISO 8601 time. */
  readonly at: string;
}

/** What a follower runs and can honour, as it registers itself with its source. */
export interface FollowerStatus {
  /** The active version, or undefined while none is. */
  readonly version: string | undefined;
  readonly sequence: number | undefined;
  readonly store: string | undefined;
  readonly capabilities: FollowerCapabilities;
  readonly lastRejection: FollowerRejection | undefined;
}

/** A follower's registration with its source: kept up to date until closed. */
export interface FollowerRegistration {
  /** The follower's status changed (a version activated or rejected): the source writes it soon. */
  changed(): void;
  /** The follower stopped: the source forgets it. */
  close(): Promise<void>;
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
  /**
   * Registers a follower with the source, where the source can keep a list of them (the PostgreSQL store does,
   * so that `typed-permissions policy publish` can refuse a version a running follower would reject). `status`
   * is read whenever the registration is written; `failed` is told when it cannot be (the follower keeps
   * following). Optional: sources without a list leave it out.
   */
  register?(status: () => FollowerStatus, failed: (error: unknown) => void): FollowerRegistration;
}
