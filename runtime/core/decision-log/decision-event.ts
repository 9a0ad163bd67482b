/**
 * The event of a queued decision: what the decision log gives the sink, made when the queue is drained — the
 * definitions that decided it included (read from the policy's tables, cached per policy).
 */
import type { callIdOf } from '../decision/call-id.js';
import type { decisionLabelOf } from '../decision/decision-labels.js';
import type { explainGrantIn } from '../decision/explain.js';
import type { PermitReason, reasonOf, RefusalReason, refusalOfExplanation } from '../decision/permit-reason.js';
import type { GrantTables } from '../tables/grant-tables.js';
import type { QueuedDecision } from './decision-queue.js';

/** One decision, as the decision log delivers it. */
export interface DecisionEvent {
  /** The id of this decision (`permit.callId`, a UUID); the NestJS and express integrations send it as `x-permissions-call-id`. */
  readonly callId: string;
  /** When it was decided (ISO 8601, to the millisecond of the event-loop turn). */
  readonly time: string;
  readonly user: { readonly id: unknown; readonly roles: readonly string[] };
  /** The tenant the question was asked in (the user's roles are the roles they hold there); absent without one. */
  readonly tenant?: string;
  readonly resource: string;
  readonly action: string;
  /** The record asked about, in the resource's id type (absent when none was asked about). */
  readonly resourceId?: unknown;
  readonly granted: boolean;
  readonly anyGranted: boolean;
  /** How it was granted: on any record, on the user's own (the record was owned, or none was asked about), or not at all. */
  readonly possession: 'any' | 'own' | null;
  /** Why it was granted or refused, as `permit.reason` says it (`PermitReason` lists the words). */
  readonly reason: PermitReason;
  /** Whether deciding asked the ownership hooks whether the user owns `resourceId`. */
  readonly ownershipChecked: boolean;
  /**
   * The definitions that granted it in that possession (for a refusal: those that grant it on owned records, if
   * any), each by its source (the file, or the `addPermissions` label) and its index there.
   */
  readonly definitions: readonly { readonly source: string; readonly index: number }[];
  readonly policyVersion: string;
  /**
   * Who asked: `'direct'` for the application itself (`grantPermit`), else the label the integration chose
   * (`'nest'`, `'graphql'`, `'express'`, `'service'`, or another integration's own, such as `'fastify'`).
   */
  readonly via: string;
}

/** A definition that decided. */
type DecisionDefinition = DecisionEvent['definitions'][number];

/**
 * What an event is made with, of the engine's own code: its call ids, its labels, its explanations (for the
 * definitions that decided). The decision log, which the engine loads at start, gives them to the delivery, which
 * is loaded later: that way the delivery's chunk imports none of the engine's modules. A module that a page loads at
 * start and that a later chunk imports too is split by bundlers into a chunk of its own, costing the page a file
 * and some of its compression.
 */
export interface EventMakers {
  readonly callIdOf: typeof callIdOf;
  readonly decisionLabelOf: typeof decisionLabelOf;
  readonly explainGrantIn: typeof explainGrantIn;
  readonly reasonOf: typeof reasonOf;
  readonly refusalOfExplanation: typeof refusalOfExplanation;
}

/** What an event reads from the explanation of its roles, resource and action (cached per policy). */
interface ExplainedQuestion {
  /** The definitions that grant in the possession the roles have (any, else own), unique and sorted. */
  readonly definitions: readonly DecisionDefinition[];
  /** Some role grants the action as own or any (so a refused record was not owned). */
  readonly ownActionGranted: boolean;
  /** Why the roles get nothing, whatever they own. */
  readonly refusal: RefusalReason;
}

/** The most role sets × resources × actions whose deciding definitions are kept per policy. */
const MAX_CACHED_DEFINITIONS = 4096;
/** What the events of a policy (its tables) read from explanations, by roles, resource and action. */
const definitionsCache = new WeakMap<GrantTables, Map<string, ExplainedQuestion>>();

/** The definitions of a decision, unique and sorted by source and index (frozen, shared by the events that ask again). */
function explainedQuestion(decision: QueuedDecision, { explainGrantIn, refusalOfExplanation }: EventMakers): ExplainedQuestion {
  const { tables, tenant, tenantTables } = decision.policy;
  // A tenant's custom roles have tables of their own: its decisions are cached with them.
  const cacheOf = tenantTables ?? tables;
  let cache = definitionsCache.get(cacheOf);
  if (cache === undefined) definitionsCache.set(cacheOf, (cache = new Map<string, ExplainedQuestion>()));
  // A tenant is known when its custom roles are kept, as the engine's permits say it. A tenant without custom roles
  // shares the policy's tables with questions asked without a tenant, but not their refusal: the key tells them apart.
  const tenantKnown = tenant === undefined || tenantTables !== undefined;
  const key = JSON.stringify([decision.user.roles, decision.resource, decision.action, tenantKnown]);
  let found = cache.get(key);
  if (found === undefined) {
    const explanation = explainGrantIn(
      tables,
      tenant === undefined ? undefined : { id: tenant, tables: tenantTables },
      decision.user.roles,
      decision.resource,
      decision.action,
    );
    const possession = explanation.anyGranted ? 'any' : 'own';
    const unique = new Map<string, DecisionDefinition>();
    for (const role of explanation.byRole) {
      for (const definition of role.definitions) {
        if (definition.possession !== possession) continue;
        const source = definition.source ?? 'definitions';
        unique.set(JSON.stringify([source, definition.index]), Object.freeze({ source, index: definition.index }));
      }
    }
    const definitions = Object.freeze([...unique.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.index - b.index)));
    const refusal = refusalOfExplanation(explanation, tenantKnown);
    found = { definitions, ownActionGranted: explanation.granted, refusal };
    if (cache.size >= MAX_CACHED_DEFINITIONS) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/**
 * The event of a queued decision.
 *
 * @example
 * ```ts
 * const event = decisionEvent(queue.shift(), { callIdOf, decisionLabelOf, explainGrantIn, reasonOf, refusalOfExplanation });
 * ```
 */
export function decisionEvent(decision: QueuedDecision, makers: EventMakers): DecisionEvent {
  const { user, resource, action, resourceId, granted, anyGranted, code, policy } = decision;
  const explained = explainedQuestion(decision, makers);
  return {
    callId: makers.callIdOf(decision.callSequence),
    time: new Date(decision.time).toISOString(),
    user: { id: user.id, roles: [...user.roles] },
    ...(policy.tenant === undefined ? {} : { tenant: policy.tenant }),
    resource,
    action,
    ...(resourceId === undefined ? {} : { resourceId }),
    granted,
    anyGranted,
    possession: anyGranted ? 'any' : granted ? 'own' : null,
    reason: makers.reasonOf(granted, anyGranted, explained.ownActionGranted, () => explained.refusal),
    ownershipChecked: (code & 1) === 1,
    definitions: decision.ownGranted || anyGranted || resourceId !== undefined ? explained.definitions : [],
    policyVersion: policy.version,
    via: makers.decisionLabelOf(code >> 1),
  };
}
