/**
 * Following a policy source: the first version is loaded, then every time the source may have changed the
 * newest version is read again — one read at a time, a change seen during a read answered by one more read —
 * checked, and activated by replacing the engine's snapshot in one assignment. Older or equal versions are
 * ignored; a version that cannot be activated is reported once and the last good one stays.
 */
import { checkCandidate, type AcceptedPolicy, type CandidateCheck, type RejectedPolicy, type Vocabulary } from './policy-candidate.js';
import type { PolicySource, SourcedPolicy } from './policy-source.js';

/** A version that became active. */
export interface PolicyChange {
  readonly version: string;
  /** The version it replaced (undefined for an engine that had none). */
  readonly previousVersion: string | undefined;
  /** The store's sequence number of the version, when the source has one. */
  readonly sequence: number | undefined;
  /** The source, as it describes itself. */
  readonly source: string;
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
  /** Called when the source cannot be read or watched for a while (it keeps trying). Default: a warning through the engine's logger. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** What `permissions.follow()` returns. */
export interface LivePolicy {
  /** The active version, or undefined while none could be loaded. */
  readonly version: string | undefined;
  /** Its sequence number in the source, when the source has one. */
  readonly sequence: number | undefined;
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
  /** A further check of candidates (their policy tests). */
  readonly check: CandidateCheck | undefined;
  /** Activates an accepted version. */
  install(accepted: AcceptedPolicy): void;
  warn(message: string): void;
}

const key = (sequence: number | undefined, version: string | undefined) => `${sequence ?? ''}/${version ?? ''}`;

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
  private stopWatching: (() => Promise<void>) | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private lastRejected: string | undefined;

  constructor(
    private readonly source: PolicySource,
    private readonly engine: FollowedEngine,
    private readonly options: FollowOptions,
  ) {}

  get version(): string | undefined {
    return this.engine.activeVersion;
  }

  /** Loads the current version (reporting, not throwing, when it cannot), then watches for newer ones. */
  async start(): Promise<void> {
    this.stopWatching = this.source.watch(
      () => this.changed(),
      (error) => this.failed(error),
    );
    await this.refresh();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stopWatching?.();
    await this.reading;
  }

  /** The source may hold a newer version: read it, once at a time. */
  private changed(): void {
    if (this.closed) return;
    if (this.reading !== undefined) this.again = true;
    else void this.refresh();
  }

  private refresh(): Promise<void> {
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again && !this.closed);
      this.reading = undefined;
    })();
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    let sourced: SourcedPolicy | undefined;
    try {
      sourced = await this.source.read();
    } catch (error) {
      this.failed(error);
      return;
    }
    if (sourced === undefined || this.closed || this.isNotNewer(sourced)) return;
    const outcome = checkCandidate(sourced, this.engine.vocabulary(), this.engine.ownership, this.engine.check);
    if ('index' in outcome) this.activate(outcome);
    else this.reject(outcome);
  }

  /** A version with a sequence not above the active one's, or (without sequences) the active version itself. */
  private isNotNewer(sourced: SourcedPolicy): boolean {
    if (sourced.sequence !== undefined && this.sequence !== undefined) return sourced.sequence <= this.sequence;
    const version = (sourced.bundle as { version?: unknown } | null)?.version;
    return sourced.sequence === undefined && version === this.engine.activeVersion;
  }

  private activate(accepted: AcceptedPolicy): void {
    const previousVersion = this.engine.activeVersion;
    this.engine.install(accepted);
    this.sequence = accepted.sequence;
    this.lastRejected = undefined;
    this.options.onChange?.({ version: accepted.version, previousVersion, sequence: accepted.sequence, source: this.source.description });
  }

  private reject(rejected: RejectedPolicy): void {
    const seen = key(rejected.sequence, rejected.version);
    if (seen === this.lastRejected) return;
    this.lastRejected = seen;
    const rejection: PolicyRejection = { ...rejected, source: this.source.description };
    if (this.options.onReject !== undefined) this.options.onReject(rejection);
    else
      this.engine.warn(
        `policy version ${rejected.version ?? '(unreadable)'} from ${this.source.description} is rejected; ` +
          `${this.engine.activeVersion === undefined ? 'no version is active' : `version ${this.engine.activeVersion} stays active`}: ` +
          rejected.reasons.join('; '),
      );
  }

  private failed(error: unknown): void {
    if (this.closed) return;
    if (this.options.onError !== undefined) this.options.onError(error);
    else this.engine.warn(`policy source ${this.source.description}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
