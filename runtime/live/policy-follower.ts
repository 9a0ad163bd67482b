/**
 * Following a policy source: the first version is loaded, then every time the source may have changed the
 * newest version is read again — one read at a time, a change seen during a read answered by one more read —
 * checked, and activated by replacing the engine's snapshot in one assignment. Older or equal versions are
 * ignored — unless the store itself changed under the follower (another identity: dropped and created again;
 * or its active version is another one at a sequence not above the follower's: restored from a backup), when
 * the store's active version is taken whatever its sequence, and said loudly: a follower never stays on a
 * version its store no longer has active. A version that cannot be activated is reported once and the last
 * good one stays. Where the source keeps a list of followers, the follower registers what it runs and can honour.
 */
import type { OwnershipSources } from '../core/decision/bind-hooks.js';
import { describeValue } from '../core/common/describe-value.js';
import { withinTime } from '../core/common/within-time.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { ownershipMethodsOf, ownershipServiceName } from './ownership-stand-in.js';
import { checkCandidate, type AcceptedPolicy, type CandidateCheck, type RejectedPolicy } from './policy-candidate.js';
import { type Vocabulary } from '../core/tables/vocabulary.js';
import type { FollowerCapabilities, FollowerRegistration, FollowerRejection, FollowerStatus, PolicySource, SourcedPolicy } from './policy-source.js';

/** A version that became active. */
export interface PolicyChange {
  readonly version: string;
  /** The version it replaced (undefined for an engine that had none). */
  readonly previousVersion: string | undefined;
  /** The store's sequence number of the version, when the source has one. */
  readonly sequence: number | undefined;
  /** The source, as it describes itself. */
  readonly source: string;
  /** The identity of the store, when the source has one. */
  readonly store?: string | undefined;
  /**
   * Set when the version was taken out of order because the store changed under the follower: `'replaced'` — the
   * store has another identity (its tables were dropped and created again); `'rewound'` — its active version is
   * another one at a sequence not above the follower's (it was restored from a backup). Such a change is also
   * always written to the engine's logger. Undefined for an ordinary newer version.
   */
  readonly storeChange?: 'replaced' | 'rewound' | undefined;
}

/** A version the running code cannot honour: it was not activated, and the last good version stays. */
export interface PolicyRejection {
  readonly version: string | undefined;
  readonly sequence: number | undefined;
  readonly source: string;
  /** Every reason, in words that say what to fix. */
  readonly reasons: readonly string[];
}

/** Options of `permissions.follow(source, options)`. */
export interface FollowOptions {
  /** Called after a version became active. Default: nothing. */
  readonly onChange?: ((change: PolicyChange) => void) | undefined;
  /** Called once per version that was rejected. Default: a warning through the engine's logger. */
  readonly onReject?: ((rejection: PolicyRejection) => void) | undefined;
  /**
   * Called when the source cannot be read or watched (it keeps trying). The same failure again is not repeated
   * until a read succeeds. Default: a warning through the engine's logger.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
  /**
   * How long one read of the source may take, in ms, before it counts as failed (reported through `onError`; the
   * next change or poll reads again). Bounds how long `follow()` can hold up a start. Default 15,000.
   */
  readonly readTimeoutMs?: number | undefined;
}

/** The default of {@link FollowOptions.readTimeoutMs}. */
export const DEFAULT_READ_TIMEOUT_MS = 15_000;

/** What `permissions.follow()` returns. */
export interface LivePolicy {
  /** The active version, or undefined while none could be loaded. */
  readonly version: string | undefined;
  /** Its sequence number in the source, when the source has one. */
  readonly sequence: number | undefined;
  /** The identity of the store it came from, when the source has one. */
  readonly store: string | undefined;
  /** Stops following (the active version stays) and releases the source's connections, watches and timers. */
  close(): Promise<void>;
}

/** What the follower needs of its engine. */
export interface FollowedEngine {
  /** The active version, if any. */
  readonly activeVersion: string | undefined;
  /** The vocabulary a new version must stay within (undefined: the engine has no policy yet, the first one sets it). */
  vocabulary(): Vocabulary | undefined;
  readonly ownership: object | undefined;
  /** The records behind ownership rules: a new version's rules are bound to it (and refused without it). */
  readonly ownershipRules: OwnershipSources['ownershipRules'];
  /** A further check of candidates (their policy tests). */
  readonly check: CandidateCheck | undefined;
  /** Activates an accepted version. */
  install(accepted: AcceptedPolicy): void;
  warn(message: string): void;
}

const FOLLOW_OPTIONS: readonly (keyof FollowOptions)[] = ['onChange', 'onReject', 'onError', 'readTimeoutMs'];

/**
 * Refuses follow options that cannot work: an unknown (misspelt) name, a callback that is not a function, a
 * read timeout that is not a whole number of milliseconds a timer can hold.
 *
 * @example
 * ```ts
 * checkFollowOptions({ onChange: console.log, readTimeoutMs: 5000 }); // passes
 * ```
 */
export function checkFollowOptions(options: FollowOptions): void {
  if (typeof options !== 'object' || options === null) throw new PermissionsUsageError('follow(source, options): options must be an object.');
  for (const name of Object.keys(options))
    if (!(FOLLOW_OPTIONS as readonly string[]).includes(name))
      throw new PermissionsUsageError(`follow(source, options): unknown option ${JSON.stringify(name)}; the options are ${FOLLOW_OPTIONS.join(', ')}.`);
  for (const name of ['onChange', 'onReject', 'onError'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'function')
      throw new PermissionsUsageError(`follow(source, options): ${name} must be a function.`);
  const { readTimeoutMs } = options;
  if (readTimeoutMs !== undefined && !(Number.isSafeInteger(readTimeoutMs) && readTimeoutMs >= 1 && readTimeoutMs <= 2_147_483_647))
    throw new PermissionsUsageError('follow(source, options): readTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.');
}

/**
 * What is wrong with what a source's read resolved to, or undefined when it is a SourcedPolicy: an object whose
 * `sequence` is a whole number when given and whose `store` is a string when given (its `bundle` is checked as a
 * candidate version, and rejected with reasons). A source of the application's own may resolve to anything.
 *
 * @example
 * ```ts
 * sourcedPolicyProblem(null); // 'null instead of { bundle, sequence?, store? }'
 * ```
 */
export function sourcedPolicyProblem(sourced: unknown): string | undefined {
  if (typeof sourced !== 'object' || sourced === null) return `${describeValue(sourced)} instead of { bundle, sequence?, store? }`;
  const { sequence, store } = sourced as Record<string, unknown>;
  if (sequence !== undefined && !(Number.isSafeInteger(sequence) && (sequence as number) >= 0))
    return `a version whose sequence is ${typeof sequence === 'number' ? String(sequence) : describeValue(sequence)}, not a whole number`;
  if (store !== undefined && typeof store !== 'string')
    return `a version whose store is ${typeof store === 'number' ? String(store) : describeValue(store)}, not a string`;
  return undefined;
}

/** The version a sourced bundle says it is (not yet checked). */
const versionOf = (sourced: SourcedPolicy): unknown => (sourced.bundle as { version?: unknown } | null)?.version;

const key = (sequence: number | undefined, version: string | undefined) => `${sequence ?? ''}/${version ?? ''}`;

/** Where a version read from the source stands against the active one. */
type Place = 'not-newer' | 'newer' | 'replaced' | 'rewound';

/**
 * What a follower with this vocabulary and ownership service can honour, as it registers it.
 *
 * @example
 * ```ts
 * capabilitiesOf(vocabularyOf(tables), new DocumentOwnership(db));
 * // { vocabulary: { resources: [['document', 'number']], actions: ['create', …] }, ownershipMethods: ['isCreator', …] }
 * ```
 */
export function capabilitiesOf(vocabulary: Vocabulary | undefined, ownership: object | undefined, ownershipRules = false): FollowerCapabilities {
  return {
    vocabulary:
      vocabulary === undefined
        ? undefined
        : {
            resources: [...vocabulary.resources].sort().map((resource) => [resource, vocabulary.idTypes.get(resource) ?? null] as const),
            actions: [...vocabulary.actions].sort(),
            ...(vocabulary.declaredActions.size === 0
              ? {}
              : {
                  declaredActions: [...vocabulary.declaredActions]
                    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                    .map(([resource, actions]) => [resource, [...actions].sort()] as const),
                }),
          },
    ownershipMethods: ownershipMethodsOf(ownership),
    ownershipService: ownershipServiceName(ownership),
    ...(ownershipRules ? { ownershipRules } : {}),
  };
}

/**
 * Follows `source` for `engine` until closed.
 *
 * @example
 * ```ts
 * const follower = new PolicyFollower(source, engine, options);
 * await follower.start();
 * ```
 */
export class PolicyFollower implements LivePolicy {
  sequence: number | undefined;
  store: string | undefined;
  private stopWatching: (() => Promise<void>) | undefined;
  private registration: FollowerRegistration | undefined;
  private lastRejection: FollowerRejection | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private lastRejected: string | undefined;
  /** Whether the source gave a version: from then on, a read that gives none is said (file and URL sources have no sequence). */
  private answered = false;
  /** The last failure reported: the same one again (a listener retrying, a poll failing alike) is not repeated until a read succeeds. */
  private lastFailure: string | undefined;

  constructor(
    private readonly source: PolicySource,
    private readonly engine: FollowedEngine,
    private readonly options: FollowOptions,
  ) {}

  get version(): string | undefined {
    return this.engine.activeVersion;
  }

  /** Loads the current version (reporting, not throwing, when it cannot), then watches for newer ones, registered where the source can. */
  async start(): Promise<void> {
    this.stopWatching = this.source.watch(
      () => this.changed(),
      (error) => this.failed(error),
    );
    await this.refresh();
    if (!this.closed)
      this.registration = this.source.register?.(
        () => this.status(),
        (error) => this.failed(error),
      );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The registration is forgotten first: stopping the watch releases the connections it is written with.
    await this.registration?.close();
    await this.stopWatching?.();
    await this.reading;
  }

  /** What this follower runs and can honour, as it registers itself. */
  status(): FollowerStatus {
    return {
      version: this.engine.activeVersion,
      sequence: this.sequence,
      store: this.store,
      capabilities: capabilitiesOf(this.engine.vocabulary(), this.engine.ownership, this.engine.ownershipRules !== undefined),
      lastRejection: this.lastRejection,
    };
  }

  /** The source may hold a newer version: read it, once at a time. */
  private changed(): void {
    if (this.closed) return;
    if (this.reading !== undefined) this.again = true;
    else void this.refresh();
  }

  private refresh(): Promise<void> {
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          await this.readOnce();
        } while (this.again && !this.closed);
      } catch (error) {
        // Nothing a source gives may stop the follower or reach the process as an unhandled rejection: reported, and
        // the next change reads again.
        this.failed(error);
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    let sourced: SourcedPolicy | undefined;
    try {
      sourced = await this.readBounded();
    } catch (error) {
      this.failed(error);
      return;
    }
    if (this.closed) return;
    if (sourced === undefined) {
      // A source that gave a version and gives none now (a store's tables dropped or emptied, a file deleted, a URL
      // answering 404): never silent, said once until a version is read again.
      if (this.answered) this.failed(new PermissionsUsageError(this.goneMessage()));
      return;
    }
    const problem = sourcedPolicyProblem(sourced);
    if (problem !== undefined) {
      this.failed(new PermissionsUsageError(`${this.source.description} read ${problem}; the active version stays.`));
      return;
    }
    this.lastFailure = undefined;
    this.answered = true;
    const place = this.placeOf(sourced);
    if (place === 'not-newer') return;
    if (sourced.sequence !== undefined && versionOf(sourced) === this.engine.activeVersion) {
      // The active policy under another place in the store (the compiled one, published as is; or a store that changed
      // under the follower and holds the same version): its place is taken, nothing is swapped.
      if (place !== 'newer') this.sayStoreChanged(place, sourced, false);
      this.sequence = sourced.sequence;
      this.store = sourced.store;
      this.registration?.changed();
      return;
    }
    let outcome: AcceptedPolicy | RejectedPolicy;
    try {
      outcome = await checkCandidate(sourced, this.engine.vocabulary(), this.engine, this.engine.check);
    } catch (error) {
      // A check that throws rejects the version; it never stops the follower.
      outcome = { version: undefined, sequence: sourced.sequence, reasons: [`checking it failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
    // Closed while the version's tests ran: nothing is activated or reported any more.
    if (this.closed) return;
    if ('index' in outcome) this.activate(outcome, sourced.store, place === 'newer' ? undefined : place);
    else this.reject(outcome);
  }

  /** What is said when the source that gave a version gives none any more. */
  private goneMessage(): string {
    const { description } = this.source;
    if (this.sequence !== undefined)
      return (
        `${description} holds no active version any more (its tables were dropped or emptied?); version #${this.sequence} ` +
        'keeps running until one is published.'
      );
    const running = this.engine.activeVersion === undefined ? 'no version is active' : `version ${this.engine.activeVersion} keeps running`;
    return `${description} holds no version any more (a file deleted, a URL answering 404?); ${running} until it holds one again.`;
  }

  /**
   * Where `sourced` stands: without sequences, a version other than the active one is newer; with them, a higher
   * sequence of the same store is newer, another store's version is taken whatever its sequence ('replaced'), and
   * so is another version at a sequence not above the active one's ('rewound': the store went back).
   */
  private placeOf(sourced: SourcedPolicy): Place {
    // A bundle without a version string is never the active one (none may be active yet): it is checked, and rejected.
    const version = versionOf(sourced);
    const sameVersion = typeof version === 'string' && version === this.engine.activeVersion;
    if (sourced.sequence === undefined) return sameVersion ? 'not-newer' : 'newer';
    if (sourced.store !== undefined && this.store !== undefined && sourced.store !== this.store) return 'replaced';
    if (this.sequence === undefined || sourced.sequence > this.sequence) return 'newer';
    if (sourced.sequence === this.sequence && sameVersion) return 'not-newer';
    return 'rewound';
  }

  /** A store that changed under the follower is always said, through the logger, whatever `onChange` does. */
  private sayStoreChanged(place: 'replaced' | 'rewound', sourced: SourcedPolicy, swapped: boolean): void {
    const what =
      place === 'replaced'
        ? `was replaced: its identity is ${sourced.store ?? '(none)'}, not ${this.store ?? '(none)'} (its tables were dropped and created again?)`
        : `went back from #${this.sequence ?? '?'} to #${sourced.sequence ?? '?'} (restored from a backup?)`;
    const taken = `its active version ${String(versionOf(sourced))}`;
    const outcome = swapped
      ? `${taken} (#${sourced.sequence ?? '?'}) replaces ${this.engine.activeVersion ?? 'none'} (#${this.sequence ?? '?'})`
      : `${taken} is the one running, now as #${sourced.sequence ?? '?'}`;
    this.engine.warn(`the policy store of ${this.source.description} ${what}; ${outcome}. Check that the store was changed on purpose.`);
  }

  /** The source's read, or a failure when it does not settle within the read timeout (its late answer is dropped). */
  private readBounded(): Promise<SourcedPolicy | undefined> {
    const timeoutMs = this.options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    return withinTime(
      () => this.source.read(),
      timeoutMs,
      () => new Error(`${this.source.description} did not answer a read within ${timeoutMs} ms.`),
    );
  }

  private activate(accepted: AcceptedPolicy, store: string | undefined, storeChange: 'replaced' | 'rewound' | undefined): void {
    const previousVersion = this.engine.activeVersion;
    if (storeChange !== undefined) this.sayStoreChanged(storeChange, { bundle: { version: accepted.version }, sequence: accepted.sequence, store }, true);
    this.engine.install(accepted);
    this.sequence = accepted.sequence;
    this.store = store;
    this.lastRejected = undefined;
    this.registration?.changed();
    this.report('onChange', () =>
      this.options.onChange?.({
        version: accepted.version,
        previousVersion,
        sequence: accepted.sequence,
        source: this.source.description,
        ...(store === undefined ? {} : { store }),
        ...(storeChange === undefined ? {} : { storeChange }),
      }),
    );
  }

  /** Calls one of the application's callbacks: one that throws is reported, and following goes on. */
  private report(name: keyof FollowOptions, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.engine.warn(`the follow option ${name} threw (${error instanceof Error ? error.message : String(error)}); following goes on.`);
    }
  }

  private reject(rejected: RejectedPolicy): void {
    const seen = key(rejected.sequence, rejected.version);
    if (seen === this.lastRejected) return;
    this.lastRejected = seen;
    this.lastRejection = { version: rejected.version, sequence: rejected.sequence, reasons: rejected.reasons, at: new Date().toISOString() };
    this.registration?.changed();
    const rejection: PolicyRejection = { ...rejected, source: this.source.description };
    const { onReject } = this.options;
    if (onReject !== undefined) this.report('onReject', () => onReject(rejection));
    else
      this.engine.warn(
        `policy version ${rejected.version ?? '(unreadable)'} from ${this.source.description} is rejected; ` +
          `${this.engine.activeVersion === undefined ? 'no version is active' : `version ${this.engine.activeVersion} stays active`}: ` +
          rejected.reasons.join('; '),
      );
  }

  private failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.closed || message === this.lastFailure) return;
    this.lastFailure = message;
    const { onError } = this.options;
    if (onError !== undefined) this.report('onError', () => onError(error));
    else this.engine.warn(`policy source ${this.source.description}: ${message}`);
  }
}
