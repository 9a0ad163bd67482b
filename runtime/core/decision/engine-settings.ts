/**
 * What every snapshot of one engine shares: its checked options with their defaults, and the decision log as a
 * decision sees it — something that records a decision, whatever it then does with it.
 */
import type { LimitOwnReducer } from '../definition/definition-types.js';
import type { OwnershipRuleSource } from '../ownership-rules/ownership-rule-source.js';
import type { HookValue } from '../table-building/table-builder.js';
import type { GrantTables } from '../tables/grant-tables.js';
import type { ResourceIdType } from './resource-id.js';

/** Where warnings go (unknown roles, duplicate grants). `console` fits. */
export interface PermissionsLogger {
  warn(message: string): void;
}

/** What the decision log copies from a decision (a Permit) when it is queued. */
export interface LoggedDecision {
  readonly user: { readonly id: unknown; readonly roles: readonly string[] };
  readonly resource: string;
  readonly action: string;
  readonly resourceId: unknown;
  readonly granted: boolean;
  readonly anyGranted: boolean;
  readonly ownGranted: boolean;
  /** The decision's sequence number, from which its call id is made. */
  readonly callSequence: number;
}

/** The policy a decision was made on: the tables its definitions are read from when the event is made, and the version. */
export interface DecidingPolicy {
  readonly tables: GrantTables;
  readonly version: string;
  /** The tenant it decided in, and the tables of the tenant's custom roles (when it has some). */
  readonly tenant?: string | undefined;
  readonly tenantTables?: GrantTables | undefined;
}

/** What the decision log did so far: events delivered, failed, dropped (queue full), skipped (sampled out, or granted with `logGranted: false`), pending. */
export interface DecisionLogStats {
  readonly delivered: number;
  readonly failed: number;
  readonly dropped: number;
  readonly skipped: number;
  readonly pending: number;
}

/**
 * The decision log as a decision sees it: `record` takes a decision (never throws for a label `grantPermitVia`
 * accepted, never waits).
 *
 * @example
 * ```ts
 * settings.decisionLog?.record(permit, snapshot, 'direct', false);
 * ```
 */
export interface DecisionRecorder {
  record(decision: LoggedDecision, policy: DecidingPolicy, via: string, ownershipChecked: boolean): void;
  readonly stats: DecisionLogStats;
  flush(): Promise<void>;
}

/** How long an ownership hook may take, by default, before the check fails closed. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

/** The checked options, with their defaults: what every snapshot of one engine shares. */
export interface EngineSettings {
  readonly ownership: object | undefined;
  /** The records behind the ownership rules definitions name. */
  readonly ownershipRules: OwnershipRuleSource | undefined;
  readonly limitOwnReduce: LimitOwnReducer | undefined;
  readonly strict: boolean;
  readonly logger: PermissionsLogger;
  readonly getResourceId: (args: { resource: string; item: object }) => unknown;
  readonly hookTimeoutMs: number;
  readonly ownedAmong: ReadonlyMap<string, HookValue>;
  readonly idTypes: ReadonlyMap<string, ResourceIdType>;
  /** The declared actions of each resource that declares them (the `resourceActions` option), for `build()`. */
  readonly declaredActions: ReadonlyMap<string, readonly string[]>;
  readonly compileProjections: boolean;
  /** The decision log, where there is one. */
  readonly decisionLog: DecisionRecorder | undefined;
  /** Whether guarded decisions are traced (where `@opentelemetry/api` is installed), and with the user's id. */
  readonly telemetry: { readonly userId: boolean } | false;
}

/** How an item's id is read when the application says nothing: `item.id`. */
export function defaultResourceId({ item }: { item: object }): unknown {
  return (item as { id?: unknown }).id;
}

/**
 * Settings with the defaults of an engine given no options, except `given`.
 *
 * @example
 * ```ts
 * const settings = engineSettings({ ownership: testOwnership, logger: { warn: () => undefined }, compileProjections: false });
 * ```
 */
export function engineSettings(given: Partial<EngineSettings>): EngineSettings {
  return {
    ownership: undefined,
    ownershipRules: undefined,
    limitOwnReduce: undefined,
    strict: false,
    logger: console,
    getResourceId: defaultResourceId,
    hookTimeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
    ownedAmong: new Map(),
    idTypes: new Map(),
    declaredActions: new Map(),
    compileProjections: true,
    decisionLog: undefined,
    telemetry: { userId: false },
    ...given,
  };
}
