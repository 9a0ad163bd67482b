/**
 * One decision as the decision log recorded it, read back for a replay: the fields of a decision event
 * (`DecisionEvent` of typed-permissions) that re-deciding needs, checked — a log is outside data, and one bad
 * line is reported, never the end of a replay.
 */

/** A logged decision, as a replay reads it. */
export interface LoggedDecision {
  /** Where it was read: the line of a JSON Lines file, or the row's position in a table (from 1). */
  readonly line: number;
  readonly callId: string | undefined;
  readonly userId: unknown;
  readonly roles: readonly string[];
  readonly tenant: string | undefined;
  readonly resource: string;
  readonly action: string;
  /** The record asked about; undefined when none was. */
  readonly resourceId: unknown;
  readonly granted: boolean;
  /** Whether it was granted on any record: no ownership decided it, whatever `ownershipChecked` says. */
  readonly anyGranted: boolean;
  /** Whether deciding asked the ownership of `resourceId`: `granted` is then the answer ownership gave. */
  readonly ownershipChecked: boolean;
}

/** A line of a log that is no decision event, and why. */
export interface UnreadableLine {
  readonly line: number;
  readonly problem: string;
}

/** The most roles one logged decision may name (the engine's own limit is far above what a user holds). */
export const MAX_LOGGED_ROLES = 1000;
/** The longest name (role, resource, action, tenant, call id) a logged decision may hold. */
const MAX_NAME_LENGTH = 1024;

const isName = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_LENGTH;

/**
 * The decision `value` (a parsed decision event) read at `line`, or why it is none.
 *
 * @example
 * ```ts
 * loggedDecisionOf({ user: { id: 7, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', granted: true, ownershipChecked: false }, 1);
 * // { line: 1, userId: 7, roles: ['EMPLOYEE'], resource: 'document', action: 'read', granted: true, … }
 * ```
 */
export function loggedDecisionOf(value: unknown, line: number): LoggedDecision | UnreadableLine {
  const unreadable = (problem: string): UnreadableLine => ({ line, problem });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unreadable('it is not a decision event (a JSON object)');
  const event = value as Record<string, unknown>;
  const user = event['user'] as { id?: unknown; roles?: unknown } | null | undefined;
  if (typeof user !== 'object' || user === null) return unreadable('"user" is not an object with "id" and "roles"');
  const roles = user.roles;
  if (!Array.isArray(roles) || roles.length > MAX_LOGGED_ROLES || !roles.every(isName))
    return unreadable(`"user.roles" is not a list of at most ${MAX_LOGGED_ROLES} role names`);
  if (!isName(event['resource'])) return unreadable('"resource" is not a name');
  if (!isName(event['action'])) return unreadable('"action" is not a name');
  if (typeof event['granted'] !== 'boolean') return unreadable('"granted" is not true or false');
  const anyGranted = event['anyGranted'] ?? false;
  if (typeof anyGranted !== 'boolean') return unreadable('"anyGranted" is not true or false');
  const ownershipChecked = event['ownershipChecked'] ?? false;
  if (typeof ownershipChecked !== 'boolean') return unreadable('"ownershipChecked" is not true or false');
  const tenant = event['tenant'];
  if (tenant !== undefined && !isName(tenant)) return unreadable('"tenant" is not a tenant id');
  const callId = event['callId'];
  return {
    line,
    callId: isName(callId) ? callId : undefined,
    userId: user.id,
    roles: roles,
    tenant: tenant,
    resource: event['resource'],
    action: event['action'],
    resourceId: event['resourceId'] ?? undefined,
    granted: event['granted'],
    anyGranted,
    ownershipChecked,
  };
}
